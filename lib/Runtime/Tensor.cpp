//===- Tensor.cpp - Tensor metadata, buffers, host reads and factories ----===//

#include "Device.h"
#include "Internal.h"
#include "Lazy.h"
#include "Telemetry.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <sys/mman.h>
#include <unordered_map>

namespace seam::rt::detail {

void fail(const std::string &Msg) { throw Error("seam::rt: " + Msg); }

size_t dtypeSize(DType Ty) {
  switch (Ty) {
  case kFloat:
    return 4;
  case kLong:
    return 8;
  case kBool:
    return 1;
  }
  return 1;
}

const char *dtypeName(DType Ty) {
  switch (Ty) {
  case kFloat:
    return "float";
  case kLong:
    return "long";
  case kBool:
    return "bool";
  }
  return "?";
}

const char *deviceName(Device D) { return D == kCPU ? "cpu" : "accel"; }

std::string shapeStr(const Shape &S) {
  std::string R = "[";
  for (size_t I = 0; I < S.size(); ++I)
    R += (I ? "," : "") + std::to_string(S[I]);
  return R + "]";
}

int64_t numelOf(const Shape &S) {
  int64_t N = 1;
  for (int64_t D : S)
    if (D < 0 || __builtin_mul_overflow(N, D, &N) || N > (int64_t(1) << 48))
      fail("shape " + shapeStr(S) +
           " has a negative size or more than 2^48 elements");
  return N;
}

namespace {
#if defined(__SANITIZE_ADDRESS__)
constexpr bool Sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool Sanitized = true;
#else
constexpr bool Sanitized = false;
#endif
#else
constexpr bool Sanitized = false;
#endif

/// Recycles allocations by size: large tensors come back every step of a
/// loop, and fresh pages would cost a page fault per 4 KiB.
///
/// A size the pool has no free buffer of is carved from a 64 MiB chunk
/// reserved once (its pages still fault in on first touch, on whichever
/// thread writes them first, usually the device's), as a GPU's caching
/// allocator carves blocks from segments: on this VM a fresh
/// aligned_alloc of 128 KiB, an mmap each, took 12-38 us of host time, and
/// a once-run sync followed by an op of a size not seen before idled
/// 15-40 us against 3-8 us when the pool had the size. Buffers larger than
/// a quarter chunk, and every buffer in an ASan build (whose redzones
/// around each allocation catch overruns), come from aligned_alloc.
class BufferPool {
public:
  static BufferPool &get() {
    static BufferPool *P = new BufferPool();
    return *P;
  }
  void *take(size_t Bytes) {
    {
      std::lock_guard<std::mutex> L(M);
      auto It = Free.find(Bytes);
      if (It != Free.end() && !It->second.empty()) {
        void *P = It->second.back();
        It->second.pop_back();
        Cached -= Bytes;
        return P;
      }
      if (carved(Bytes))
        if (void *P = carve(Bytes))
          return P;
    }
    void *P = std::aligned_alloc(64, Bytes);
    if (!P)
      throw std::bad_alloc();
    return P;
  }
  void give(void *P, size_t Bytes) {
    std::lock_guard<std::mutex> L(M);
    if (Cached + Bytes > Limit) {
      if (!carved(Bytes)) {
        std::free(P);
        return;
      }
      // Carved memory stays reserved; its pages go back to the system.
      madvise(P, Bytes, MADV_DONTNEED);
    }
    Free[Bytes].push_back(P);
    Cached += Bytes;
  }

private:
  static constexpr size_t Limit = size_t(2) << 30;
  static constexpr size_t ChunkBytes = size_t(64) << 20;
  static bool carved(size_t Bytes) {
    return !Sanitized && Bytes <= ChunkBytes / 4;
  }
  /// A block of \p Bytes (a multiple of 64, as roundBytes makes them) from
  /// the current chunk, or a new one; null when the system refuses.
  void *carve(size_t Bytes) {
    if (Bytes > ChunkLeft) {
      void *C = mmap(nullptr, ChunkBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (C == MAP_FAILED)
        return nullptr;
      ChunkNext = static_cast<char *>(C);
      ChunkLeft = ChunkBytes;
    }
    void *P = ChunkNext;
    ChunkNext += Bytes;
    ChunkLeft -= Bytes;
    return P;
  }
  std::mutex M;
  std::unordered_map<size_t, std::vector<void *>> Free;
  size_t Cached = 0;
  char *ChunkNext = nullptr;
  size_t ChunkLeft = 0;
};

/// The pool's size classes: 64-byte steps up to 4 KiB, then four classes
/// per power of two (at most 25% more than asked). Buffers whose size
/// depends on the data (nonzero's output, a masked_select) then reuse
/// pooled memory, where exact sizes took fresh pages for almost every call
/// (page faults of 120 KB cost about 150 us on this VM) and kept every
/// size ever seen in the pool.
size_t roundBytes(size_t Bytes) {
  if (Bytes <= 4096)
    return std::max<size_t>(64, (Bytes + 63) & ~size_t(63));
  unsigned Log = 63 - unsigned(__builtin_clzll(Bytes - 1));
  size_t Step = size_t(1) << (Log - 2);
  return (Bytes + Step - 1) & ~(Step - 1);
}
} // namespace

Buffer::Buffer(size_t Bytes, Device Dev)
    : Data(BufferPool::get().take(roundBytes(Bytes))), Bytes(Bytes), Dev(Dev) {}

Buffer::~Buffer() { BufferPool::get().give(Data, roundBytes(Bytes)); }

void requestHostValue(const TensorImpl &Impl) {
  Recorder &R = Recorder::get();
  if (R.active()) {
    // Inside a compiled call every host-value request cuts the region, even
    // for a value that already exists: the code after it is host code.
    R.cut(/*IsBreak=*/true);
    return;
  }
  if (Impl.isLazy())
    R.cut(/*IsBreak=*/false);
}

std::vector<BufferPtr>
buffersToRead(const std::vector<const TensorImpl *> &Impls) {
  requestHostValue(*Impls.front());
  std::vector<BufferPtr> Out;
  for (const TensorImpl *I : Impls) {
    if (I->isLazy())
      Recorder::get().cut(/*IsBreak=*/false);
    Out.push_back(I->Buf);
  }
  return Out;
}

std::vector<BufferPtr>
readToHost(const std::vector<const TensorImpl *> &Impls) {
  std::vector<BufferPtr> Out = buffersToRead(Impls);
  bool OnDevice = false;
  for (size_t K = 0; K < Impls.size(); ++K) {
    if (Impls[K]->Dev == kCPU)
      continue;
    auto Host = std::make_shared<Buffer>(Out[K]->Bytes, kCPU);
    DeviceStream::get().enqueue(
        "copy_to_host", /*IsKernel=*/false, 1, [Src = Out[K], Host] {
          std::memcpy(Host->Data, Src->Data, Src->Bytes);
        });
    Out[K] = Host;
    OnDevice = true;
  }
  if (OnDevice)
    DeviceStream::get().synchronize();
  return Out;
}

BufferPtr readToHost(const TensorImpl &Impl) { return readToHost({&Impl})[0]; }

std::shared_ptr<TensorImpl> makeImpl(const Shape &S, DType Ty, Device D) {
  for (int64_t Dim : S)
    if (Dim < 0)
      fail("negative size in shape " + shapeStr(S));
  auto Impl = std::make_shared<TensorImpl>();
  Impl->Sizes = S;
  Impl->Ty = Ty;
  Impl->Dev = D;
  Impl->Buf = std::make_shared<Buffer>(numelOf(S) * dtypeSize(Ty), D);
  return Impl;
}

/// Copies host bytes onto Dev. The bytes are snapshotted now, so the
/// caller may reuse its memory while the copy is still queued.
Tensor uploadFromHost(const void *Src, const Shape &S, DType Ty, Device D) {
  auto Impl = makeImpl(S, Ty, D);
  size_t Bytes = Impl->Buf->Bytes;
  if (D == kCPU) {
    std::memcpy(Impl->Buf->Data, Src, Bytes);
    return Tensor(Impl);
  }
  auto Staging = std::make_shared<Buffer>(Bytes, kCPU);
  std::memcpy(Staging->Data, Src, Bytes);
  DeviceStream::get().enqueue(
      "copy_to_accel", /*IsKernel=*/false, 1, [Staging, Dst = Impl->Buf] {
        std::memcpy(Dst->Data, Staging->Data, Staging->Bytes);
      });
  return Tensor(Impl);
}

namespace {
uint64_t splitMix(uint64_t X) {
  X += 0x9E3779B97F4A7C15ull;
  X = (X ^ (X >> 30)) * 0xBF58476D1CE4E5B9ull;
  X = (X ^ (X >> 27)) * 0x94D049BB133111EBull;
  return X ^ (X >> 31);
}

/// Fills a fresh tensor with Gen(Data, Begin, End) on its device: inline for
/// kCPU, as one (split) kernel for kAccel.
template <typename GenFn>
Tensor makeFilled(const char *Name, const Shape &S, DType Ty, Device D,
                  GenFn Gen) {
  auto Impl = makeImpl(S, Ty, D);
  int64_t N = numelOf(S);
  if (D == kCPU) {
    Gen(Impl->Buf->Data, 0, N);
  } else {
    DeviceStream::get().enqueue(
        Name, /*IsKernel=*/true, 1, [Gen, Buf = Impl->Buf, N] {
          parallelRange(N, [&](int64_t B, int64_t E) { Gen(Buf->Data, B, E); });
        });
  }
  return Tensor(Impl);
}
} // namespace

} // namespace seam::rt::detail

namespace seam::rt {
using namespace detail;

Tensor::Tensor(std::shared_ptr<TensorImpl> Impl) : Impl(std::move(Impl)) {}

static const TensorImpl &checked(const std::shared_ptr<TensorImpl> &Impl) {
  if (!Impl)
    fail("use of an undefined tensor");
  return *Impl;
}

const Shape &Tensor::sizes() const { return checked(Impl).Sizes; }
int64_t Tensor::dim() const { return checked(Impl).Sizes.size(); }
int64_t Tensor::numel() const { return numelOf(checked(Impl).Sizes); }
Device Tensor::device() const { return checked(Impl).Dev; }
DType Tensor::dtype() const { return checked(Impl).Ty; }

int64_t Tensor::size(int64_t D) const {
  int64_t N = dim();
  if (D < -N || D >= N)
    fail("size(" + std::to_string(D) + "): dim out of range for shape " +
         shapeStr(sizes()));
  return sizes()[D < 0 ? D + N : D];
}

HostScalar Tensor::itemScalar(SourceSite At) const {
  SiteScope Site(At, "item");
  const TensorImpl &I = checked(Impl);
  int64_t N = numelOf(I.Sizes);
  if (N != 1)
    fail("item() needs a tensor with one element, got " + std::to_string(N) +
         " elements (shape " + shapeStr(I.Sizes) + ")");
  BufferPtr Host = readToHost(I);
  switch (I.Ty) {
  case kFloat:
    return {kFloat, *Host->as<float>(), 0};
  case kLong:
    return {kLong, 0, *Host->as<int64_t>()};
  case kBool:
    return {kBool, 0, *Host->as<uint8_t>()};
  }
  return {kFloat, 0, 0};
}

template <typename T> static DType dtypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return kFloat;
  else if constexpr (std::is_same_v<T, int64_t>)
    return kLong;
  else
    return kBool;
}

template <typename T> T *Tensor::data_ptr(SourceSite At) const {
  SiteScope Site(At, "data_ptr");
  const TensorImpl &I = checked(Impl);
  if (I.Dev != kCPU)
    fail("data_ptr() on an accel tensor; the host cannot read device "
         "memory, copy it with cpu() first");
  if (I.Ty != dtypeOf<T>())
    fail(std::string("data_ptr<") + dtypeName(dtypeOf<T>()) + ">() on a " +
         dtypeName(I.Ty) + " tensor");
  // A host pointer into a recorded value needs the value; a tensor that
  // already exists on the host is simply read.
  if (I.isLazy())
    requestHostValue(I);
  return I.Buf->as<T>();
}
template float *Tensor::data_ptr<float>(SourceSite) const;
template int64_t *Tensor::data_ptr<int64_t>(SourceSite) const;
template bool *Tensor::data_ptr<bool>(SourceSite) const;

Tensor Tensor::cpu(SourceSite At) const {
  SiteScope Site(At, "cpu");
  return to(kCPU, At);
}

Tensor Tensor::to(Device D, SourceSite At) const {
  SiteScope Site(At, "to");
  const TensorImpl &I = checked(Impl);
  if (I.Dev == D) {
    // cpu() asks for a host value even on a host tensor: inside a compiled
    // call it cuts the region, as Seam's analysis assumes.
    if (D == kCPU)
      requestHostValue(I);
    return *this;
  }
  if (D == kCPU) {
    auto Out = std::make_shared<TensorImpl>();
    Out->Sizes = I.Sizes;
    Out->Ty = I.Ty;
    Out->Dev = kCPU;
    Out->Buf = readToHost(I);
    return Tensor(Out);
  }
  // Uploading needs the host value but is not a host-value request of the
  // program: a pending CPU region is flushed without counting a break.
  if (I.isLazy())
    Recorder::get().cut(/*IsBreak=*/false);
  return uploadFromHost(I.Buf->Data, I.Sizes, I.Ty, D);
}

Tensor full(const Shape &S, double Value, Device D, DType Ty) {
  switch (Ty) {
  case kFloat:
    return makeFilled("full", S, Ty, D,
                      [V = float(Value)](void *P, int64_t B, int64_t E) {
                        std::fill(static_cast<float *>(P) + B,
                                  static_cast<float *>(P) + E, V);
                      });
  case kLong:
    return makeFilled("full", S, Ty, D,
                      [V = int64_t(Value)](void *P, int64_t B, int64_t E) {
                        std::fill(static_cast<int64_t *>(P) + B,
                                  static_cast<int64_t *>(P) + E, V);
                      });
  case kBool:
    return makeFilled("full", S, Ty, D,
                      [V = uint8_t(Value != 0)](void *P, int64_t B, int64_t E) {
                        std::fill(static_cast<uint8_t *>(P) + B,
                                  static_cast<uint8_t *>(P) + E, V);
                      });
  }
  return {};
}

Tensor zeros(const Shape &S, Device D, DType Ty) { return full(S, 0, D, Ty); }
Tensor ones(const Shape &S, Device D, DType Ty) { return full(S, 1, D, Ty); }

Tensor randn(const Shape &S, Device D, uint64_t Seed) {
  return makeFilled(
      "randn", S, kFloat, D, [Seed](void *P, int64_t B, int64_t E) {
        auto *F = static_cast<float *>(P);
        // Counter-based, so every device, mode and split draws the same values.
        for (int64_t I = B; I < E; ++I) {
          uint64_t R = splitMix(Seed * 0x100000001B3ull + uint64_t(I));
          double U1 = ((R >> 11) + 1.0) / 9007199254740993.0;
          double U2 = (splitMix(R) >> 11) / 9007199254740992.0;
          F[I] = float(std::sqrt(-2.0 * std::log(U1)) *
                       std::cos(6.283185307179586 * U2));
        }
      });
}

Tensor arange(int64_t N, Device D) {
  if (N < 0)
    fail("arange(" + std::to_string(N) + "): length must not be negative");
  return makeFilled("arange", {N}, kLong, D, [](void *P, int64_t B, int64_t E) {
    auto *L = static_cast<int64_t *>(P);
    for (int64_t I = B; I < E; ++I)
      L[I] = I;
  });
}

Tensor from_vector(const std::vector<float> &Values, const Shape &S, Device D) {
  if (numelOf(S) != int64_t(Values.size()))
    fail("from_vector: " + std::to_string(Values.size()) +
         " values do not fill shape " + shapeStr(S));
  return uploadFromHost(Values.data(), S, kFloat, D);
}

static void printValue(std::ostream &OS, const Buffer &B, DType Ty, int64_t I) {
  switch (Ty) {
  case kFloat:
    OS << B.as<float>()[I];
    break;
  case kLong:
    OS << B.as<int64_t>()[I];
    break;
  case kBool:
    OS << (B.as<uint8_t>()[I] ? "true" : "false");
    break;
  }
}

static void printNested(std::ostream &OS, const Buffer &B, DType Ty,
                        const Shape &S, size_t D, int64_t Offset,
                        int64_t Stride) {
  constexpr int64_t Edge = 3;
  int64_t N = S[D];
  int64_t Inner = Stride / std::max<int64_t>(N, 1);
  OS << "[";
  for (int64_t I = 0; I < N; ++I) {
    if (N > 2 * Edge + 1 && I == Edge) {
      OS << ", ...";
      I = N - Edge - 1;
      continue;
    }
    if (I)
      OS << ", ";
    if (D + 1 == S.size())
      printValue(OS, B, Ty, Offset + I);
    else
      printNested(OS, B, Ty, S, D + 1, Offset + I * Inner, Inner);
  }
  OS << "]";
}

std::ostream &operator<<(std::ostream &OS, detail::Printed P) {
  SiteScope Site(P.At, "operator<<");
  const Tensor &T = P.T;
  if (!T.defined())
    return OS << "tensor(undefined)";
  const TensorImpl &I = *T.impl();
  BufferPtr Host = readToHost(I);
  OS << "tensor(";
  if (I.Sizes.empty())
    printValue(OS, *Host, I.Ty, 0);
  else
    printNested(OS, *Host, I.Ty, I.Sizes, 0, 0, numelOf(I.Sizes));
  return OS << ", shape=" << shapeStr(I.Sizes) << ", dtype=" << dtypeName(I.Ty)
            << ", device=" << deviceName(I.Dev) << ")";
}

} // namespace seam::rt
