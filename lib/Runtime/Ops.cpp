//===- Ops.cpp - Op entry points: checks, type rules, eager or recorded ---===//
//
// Every op builds one Node here, so eager and compiled mode share the same
// shape, dtype and device rules and report the same errors.
//
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Internal.h"
#include "Lazy.h"
#include "Telemetry.h"

#include <cmath>
#include <cstring>

namespace seam::rt::detail {

const char *opName(Op K) {
  switch (K) {
  case Op::Input:
    return "input";
  case Op::Neg:
    return "neg";
  case Op::Relu:
    return "relu";
  case Op::Sigmoid:
    return "sigmoid";
  case Op::Tanh:
    return "tanh";
  case Op::Exp:
    return "exp";
  case Op::Log:
    return "log";
  case Op::Abs:
    return "abs";
  case Op::Sqrt:
    return "sqrt";
  case Op::Gelu:
    return "gelu";
  case Op::Add:
    return "add";
  case Op::Sub:
    return "sub";
  case Op::Mul:
    return "mul";
  case Op::Div:
    return "div";
  case Op::Gt:
    return "gt";
  case Op::Lt:
    return "lt";
  case Op::Ge:
    return "ge";
  case Op::Le:
    return "le";
  case Op::Eq:
    return "eq";
  case Op::Where:
    return "where";
  case Op::Reshape:
    return "reshape";
  case Op::Sum:
    return "sum";
  case Op::Mean:
    return "mean";
  case Op::Max:
    return "max";
  case Op::Min:
    return "min";
  case Op::Matmul:
    return "matmul";
  case Op::Transpose:
    return "transpose";
  }
  return "?";
}

bool isPointwise(Op K) { return K >= Op::Neg && K <= Op::Reshape; }
bool isReduction(Op K) { return K >= Op::Sum && K <= Op::Min; }
bool isCompare(Op K) { return K >= Op::Gt && K <= Op::Eq; }

namespace {

bool isIntegral(double V) { return std::floor(V) == V && std::isfinite(V); }

/// Type in which a tensor of type T meets a scalar S: bools count as longs
/// and a fractional scalar makes the op float.
DType withScalar(DType T, double S) {
  if (T == kBool)
    T = kLong;
  if (T == kLong && !isIntegral(S))
    T = kFloat;
  return T;
}

/// Result shape of a pointwise op: equal shapes, or operands with one
/// element, which broadcast.
Shape broadcastShape(Op K, const std::vector<const TensorImpl *> &Args) {
  const Shape *Best = nullptr;
  for (const TensorImpl *A : Args) {
    if (!Best) {
      Best = &A->Sizes;
      continue;
    }
    int64_t NA = numelOf(A->Sizes), NB = numelOf(*Best);
    if (A->Sizes == *Best)
      continue;
    if (NB == 1 && (NA != 1 || A->Sizes.size() > Best->size())) {
      Best = &A->Sizes;
      continue;
    }
    if (NA == 1)
      continue;
    std::string Msg = std::string("shape mismatch: ") + opName(K) + " of";
    for (const TensorImpl *B : Args)
      Msg += " " + shapeStr(B->Sizes);
    fail(Msg + "; shapes must be equal or have one element");
  }
  return *Best;
}

[[noreturn]] void dtypeMismatch(Op K, DType A, DType B) {
  fail(std::string("dtype mismatch: ") + opName(K) + " of " + dtypeName(A) +
       " and " + dtypeName(B) + " tensors");
}

int64_t normDim(Op K, int64_t D, size_t Rank) {
  int64_t R = static_cast<int64_t>(Rank);
  if (D < -R || D >= R)
    fail(std::string(opName(K)) + ": dim " + std::to_string(D) +
         " out of range for a " + std::to_string(R) + "-d tensor");
  return D < 0 ? D + R : D;
}

} // namespace

Node makeNode(Op K, const std::vector<const TensorImpl *> &Args,
              const std::vector<double> &Scalars,
              const std::vector<int> &ArgPattern) {
  for (const TensorImpl *A : Args)
    if (A->Dev != Args.front()->Dev)
      fail(std::string("device mismatch: ") + opName(K) + " of " +
           deviceName(Args.front()->Dev) + " and " + deviceName(A->Dev) +
           " tensors");
  Node N;
  N.Kind = K;
  N.Args = ArgPattern;
  N.Scalars = Scalars;
  const TensorImpl &A0 = *Args.front();
  switch (K) {
  case Op::Neg:
  case Op::Relu:
  case Op::Abs:
    if (A0.Ty == kBool)
      fail(std::string("dtype mismatch: ") + opName(K) +
           " needs a float or long tensor, got bool");
    N.Ty = N.ComputeTy = A0.Ty;
    N.Sizes = A0.Sizes;
    return N;
  case Op::Sigmoid:
  case Op::Tanh:
  case Op::Exp:
  case Op::Log:
  case Op::Sqrt:
  case Op::Gelu:
    N.Ty = N.ComputeTy = kFloat;
    N.Sizes = A0.Sizes;
    return N;
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Gt:
  case Op::Lt:
  case Op::Ge:
  case Op::Le:
  case Op::Eq: {
    DType T;
    if (Args.size() == 2) {
      if (Args[0]->Ty != Args[1]->Ty)
        dtypeMismatch(K, Args[0]->Ty, Args[1]->Ty);
      T = A0.Ty == kBool ? kLong : A0.Ty;
    } else {
      T = withScalar(A0.Ty, Scalars.front());
    }
    if (K == Op::Div)
      T = kFloat;
    N.ComputeTy = T;
    N.Ty = isCompare(K) ? kBool : T;
    N.Sizes = broadcastShape(K, Args);
    return N;
  }
  case Op::Where: {
    if (A0.Ty != kBool)
      fail(std::string("dtype mismatch: where needs a bool condition, got ") +
           dtypeName(A0.Ty));
    DType T;
    if (Args.size() == 3) {
      if (Args[1]->Ty != Args[2]->Ty)
        dtypeMismatch(K, Args[1]->Ty, Args[2]->Ty);
      T = Args[1]->Ty;
    } else {
      T = Args[1]->Ty;
      if (T != kBool)
        T = withScalar(T, Scalars.front());
      else if (Scalars.front() != 0 && Scalars.front() != 1)
        T = withScalar(T, Scalars.front());
    }
    N.Ty = N.ComputeTy = T;
    N.Sizes = broadcastShape(K, Args);
    return N;
  }
  case Op::Sum:
  case Op::Mean:
  case Op::Max:
  case Op::Min: {
    if ((K == Op::Max || K == Op::Min) && numelOf(A0.Sizes) == 0)
      fail(std::string(opName(K)) + "() of an empty tensor");
    if (K == Op::Sum)
      N.Ty = N.ComputeTy = A0.Ty == kFloat ? kFloat : kLong;
    else if (K == Op::Mean)
      N.Ty = N.ComputeTy = kFloat;
    else {
      N.Ty = A0.Ty;
      N.ComputeTy = A0.Ty == kBool ? kLong : A0.Ty;
    }
    N.Dim =
        Scalars.empty() ? -1 : normDim(K, int64_t(Scalars[0]), A0.Sizes.size());
    N.KeepDim = Scalars.size() > 1 && Scalars[1] != 0;
    N.Scalars.clear();
    if (N.Dim < 0) {
      N.Sizes = {};
    } else {
      N.Sizes = A0.Sizes;
      if (N.KeepDim)
        N.Sizes[N.Dim] = 1;
      else
        N.Sizes.erase(N.Sizes.begin() + N.Dim);
      if ((K == Op::Max || K == Op::Min) && A0.Sizes[N.Dim] == 0)
        fail(std::string(opName(K)) + "(dim) over an empty dim");
    }
    return N;
  }
  case Op::Matmul: {
    const TensorImpl &B = *Args[1];
    if (A0.Ty != kFloat || B.Ty != kFloat)
      fail(std::string("dtype mismatch: matmul needs float tensors, got ") +
           dtypeName(A0.Ty) + " and " + dtypeName(B.Ty));
    if (A0.Sizes.size() != 2 || B.Sizes.size() != 2 ||
        A0.Sizes[1] != B.Sizes[0])
      fail("shape mismatch: matmul of " + shapeStr(A0.Sizes) + " and " +
           shapeStr(B.Sizes) + "; needs [n,k] x [k,m]");
    N.Ty = N.ComputeTy = kFloat;
    N.Sizes = {A0.Sizes[0], B.Sizes[1]};
    return N;
  }
  case Op::Transpose: {
    N.Dim = normDim(K, int64_t(Scalars[0]), A0.Sizes.size());
    N.Dim1 = normDim(K, int64_t(Scalars[1]), A0.Sizes.size());
    N.Scalars.clear();
    N.Ty = N.ComputeTy = A0.Ty;
    N.Sizes = A0.Sizes;
    std::swap(N.Sizes[N.Dim], N.Sizes[N.Dim1]);
    return N;
  }
  case Op::Reshape:
  case Op::Input:
    break;
  }
  fail(std::string("internal: no type rule for ") + opName(K));
}

namespace {

std::vector<const TensorImpl *> implsOf(const std::vector<const Tensor *> &Ts) {
  std::vector<const TensorImpl *> R;
  for (const Tensor *T : Ts) {
    if (!T->defined())
      fail("use of an undefined tensor");
    R.push_back(T->impl().get());
  }
  return R;
}

/// Runs N now (kCPU), queues it as one kernel (kAccel), or records it
/// inside a compiled call.
Tensor apply(Node N, const std::vector<const Tensor *> &Ts) {
  if (Recorder::get().active())
    return Recorder::get().record(std::move(N), Ts);
  Device Dev = Ts.front()->device();
  auto Out = std::make_shared<TensorImpl>();
  Out->Sizes = N.Sizes;
  Out->Ty = N.Ty;
  Out->Dev = Dev;
  Out->Buf = std::make_shared<Buffer>(numelOf(N.Sizes) * dtypeSize(N.Ty), Dev);
  std::vector<ArgView> Views;
  std::vector<BufferPtr> Keep;
  for (const Tensor *T : Ts) {
    const TensorImpl &I = *T->impl();
    if (I.isLazy())
      fail("internal: pending tensor used outside its compiled call");
    Views.push_back({I.Buf.get(), I.Ty, I.Sizes});
    Keep.push_back(I.Buf);
  }
  if (Dev == kCPU) {
    runReference(N, Views, *Out->Buf);
    return Tensor(Out);
  }
  const char *Name = opName(N.Kind);
  DeviceStream::get().enqueue(
      Name, /*IsKernel=*/true, 1,
      [N = std::move(N), Views = std::move(Views), Keep = std::move(Keep),
       Dst = Out->Buf] { runReference(N, Views, *Dst); });
  return Tensor(Out);
}

Tensor unary(Op K, const Tensor &X) {
  return apply(makeNode(K, implsOf({&X}), {}, {0}), {&X});
}

Tensor binary(Op K, const Tensor &A, const Tensor &B) {
  return apply(makeNode(K, implsOf({&A, &B}), {}, {0, 1}), {&A, &B});
}

Tensor binaryScalar(Op K, const Tensor &A, double S, bool ScalarFirst) {
  std::vector<int> Pattern =
      ScalarFirst ? std::vector<int>{-1, 0} : std::vector<int>{0, -1};
  return apply(makeNode(K, implsOf({&A}), {S}, Pattern), {&A});
}

Tensor reduce(Op K, const Tensor &X, std::vector<double> DimArgs) {
  return apply(makeNode(K, implsOf({&X}), DimArgs, {0}), {&X});
}

} // namespace
} // namespace seam::rt::detail

namespace seam::rt {
using namespace detail;

Tensor operator+(const Tensor &A, const Tensor &B) {
  return binary(Op::Add, A, B);
}
Tensor operator-(const Tensor &A, const Tensor &B) {
  return binary(Op::Sub, A, B);
}
Tensor operator*(const Tensor &A, const Tensor &B) {
  return binary(Op::Mul, A, B);
}
Tensor operator/(const Tensor &A, const Tensor &B) {
  return binary(Op::Div, A, B);
}
Tensor operator+(const Tensor &A, double B) {
  return binaryScalar(Op::Add, A, B, false);
}
Tensor operator-(const Tensor &A, double B) {
  return binaryScalar(Op::Sub, A, B, false);
}
Tensor operator*(const Tensor &A, double B) {
  return binaryScalar(Op::Mul, A, B, false);
}
Tensor operator/(const Tensor &A, double B) {
  return binaryScalar(Op::Div, A, B, false);
}
Tensor operator+(double A, const Tensor &B) {
  return binaryScalar(Op::Add, B, A, true);
}
Tensor operator-(double A, const Tensor &B) {
  return binaryScalar(Op::Sub, B, A, true);
}
Tensor operator*(double A, const Tensor &B) {
  return binaryScalar(Op::Mul, B, A, true);
}
Tensor operator/(double A, const Tensor &B) {
  return binaryScalar(Op::Div, B, A, true);
}
Tensor operator-(const Tensor &A) { return unary(Op::Neg, A); }

Tensor operator>(const Tensor &A, const Tensor &B) {
  return binary(Op::Gt, A, B);
}
Tensor operator<(const Tensor &A, const Tensor &B) {
  return binary(Op::Lt, A, B);
}
Tensor operator>=(const Tensor &A, const Tensor &B) {
  return binary(Op::Ge, A, B);
}
Tensor operator<=(const Tensor &A, const Tensor &B) {
  return binary(Op::Le, A, B);
}
Tensor operator==(const Tensor &A, const Tensor &B) {
  return binary(Op::Eq, A, B);
}
Tensor operator>(const Tensor &A, double B) {
  return binaryScalar(Op::Gt, A, B, false);
}
Tensor operator<(const Tensor &A, double B) {
  return binaryScalar(Op::Lt, A, B, false);
}
Tensor operator>=(const Tensor &A, double B) {
  return binaryScalar(Op::Ge, A, B, false);
}
Tensor operator<=(const Tensor &A, double B) {
  return binaryScalar(Op::Le, A, B, false);
}
Tensor operator==(const Tensor &A, double B) {
  return binaryScalar(Op::Eq, A, B, false);
}
// A scalar on the left mirrors the comparison.
Tensor operator>(double A, const Tensor &B) {
  return binaryScalar(Op::Lt, B, A, false);
}
Tensor operator<(double A, const Tensor &B) {
  return binaryScalar(Op::Gt, B, A, false);
}
Tensor operator>=(double A, const Tensor &B) {
  return binaryScalar(Op::Le, B, A, false);
}
Tensor operator<=(double A, const Tensor &B) {
  return binaryScalar(Op::Ge, B, A, false);
}
Tensor operator==(double A, const Tensor &B) {
  return binaryScalar(Op::Eq, B, A, false);
}

Tensor relu(const Tensor &X) { return unary(Op::Relu, X); }
Tensor sigmoid(const Tensor &X) { return unary(Op::Sigmoid, X); }
Tensor tanh(const Tensor &X) { return unary(Op::Tanh, X); }
Tensor exp(const Tensor &X) { return unary(Op::Exp, X); }
Tensor log(const Tensor &X) { return unary(Op::Log, X); }
Tensor abs(const Tensor &X) { return unary(Op::Abs, X); }
Tensor sqrt(const Tensor &X) { return unary(Op::Sqrt, X); }
Tensor gelu(const Tensor &X) { return unary(Op::Gelu, X); }

Tensor where(const Tensor &Cond, const Tensor &A, const Tensor &B) {
  return apply(makeNode(Op::Where, implsOf({&Cond, &A, &B}), {}, {0, 1, 2}),
               {&Cond, &A, &B});
}
Tensor where(const Tensor &Cond, const Tensor &A, double B) {
  return apply(makeNode(Op::Where, implsOf({&Cond, &A}), {B}, {0, 1, -1}),
               {&Cond, &A});
}
Tensor where(const Tensor &Cond, double A, const Tensor &B) {
  return apply(makeNode(Op::Where, implsOf({&Cond, &B}), {A}, {0, -1, 1}),
               {&Cond, &B});
}

Tensor matmul(const Tensor &A, const Tensor &B) {
  return apply(makeNode(Op::Matmul, implsOf({&A, &B}), {}, {0, 1}), {&A, &B});
}

Tensor Tensor::sum() const { return reduce(Op::Sum, *this, {}); }
Tensor Tensor::mean() const { return reduce(Op::Mean, *this, {}); }
Tensor Tensor::max() const { return reduce(Op::Max, *this, {}); }
Tensor Tensor::min() const { return reduce(Op::Min, *this, {}); }
Tensor Tensor::sum(int64_t D, bool K) const {
  return reduce(Op::Sum, *this, {double(D), double(K)});
}
Tensor Tensor::mean(int64_t D, bool K) const {
  return reduce(Op::Mean, *this, {double(D), double(K)});
}
Tensor Tensor::max(int64_t D, bool K) const {
  return reduce(Op::Max, *this, {double(D), double(K)});
}
Tensor Tensor::min(int64_t D, bool K) const {
  return reduce(Op::Min, *this, {double(D), double(K)});
}

Tensor Tensor::transpose(int64_t D0, int64_t D1) const {
  return apply(
      makeNode(Op::Transpose, implsOf({this}), {double(D0), double(D1)}, {0}),
      {this});
}

Tensor Tensor::reshape(const Shape &NewShape) const {
  const TensorImpl &I = *implsOf({this}).front();
  Shape S = NewShape;
  int64_t Known = 1, Infer = -1;
  for (size_t D = 0; D < S.size(); ++D) {
    if (S[D] == -1 && Infer < 0)
      Infer = static_cast<int64_t>(D);
    else if (S[D] < 0)
      fail("reshape: invalid shape " + shapeStr(NewShape));
    else
      Known *= S[D];
  }
  int64_t N = numelOf(I.Sizes);
  if (Infer >= 0 && Known != 0 && N % Known == 0)
    S[Infer] = N / Known;
  if (numelOf(S) != N || (Infer >= 0 && S[Infer] < 0))
    fail("shape mismatch: cannot reshape " + shapeStr(I.Sizes) + " (" +
         std::to_string(N) + " elements) to " + shapeStr(NewShape));
  if (Recorder::get().active()) {
    Node Nd;
    Nd.Kind = Op::Reshape;
    Nd.Ty = Nd.ComputeTy = I.Ty;
    Nd.Sizes = S;
    Nd.Args = {0};
    return Recorder::get().record(std::move(Nd), {this});
  }
  // Tensors are contiguous, so an eager reshape is a view of the same
  // buffer: no kernel.
  auto Out = std::make_shared<TensorImpl>(I);
  Out->Sizes = S;
  return Tensor(Out);
}

Tensor Tensor::view(const Shape &NewShape) const { return reshape(NewShape); }

namespace {
/// Writes ValueAt(E) for each element E with Set(E) to \p Dst, which holds
/// exactly \p Count of them. Every element is written, to the next free
/// slot or to a scratch slot once all are placed: no branch per element,
/// which on a random mask would mispredict on about every other one.
/// Selection then costs the same per element whatever fraction is
/// selected, as the cost model's host_select parameter assumes.
template <typename T, typename ValueFn, typename SetFn>
void compact(ValueFn ValueAt, SetFn Set, int64_t N, T *Dst, int64_t Count) {
  T Scratch{};
  int64_t K = 0;
  for (int64_t E = 0; E < N; ++E) {
    T *Slot = K < Count ? Dst + K : &Scratch;
    *Slot = ValueAt(E);
    K += Set(E);
  }
}

template <typename SetFn> int64_t countSet(SetFn Set, int64_t N) {
  int64_t Count = 0;
  for (int64_t E = 0; E < N; ++E)
    Count += Set(E);
  return Count;
}

/// Writes the positions of \p P's nonzero elements (\p Count of them) to
/// \p Idx, \p Rank coordinates each, read in place.
template <typename T>
void nonzeroInto(const T *P, const Shape &Sizes, int64_t Count, int64_t *Idx) {
  int64_t N = numelOf(Sizes);
  int64_t Rank = static_cast<int64_t>(Sizes.size());
  auto Set = [P](int64_t E) { return int64_t(P[E] != 0); };
  auto Position = [](int64_t E) { return E; };
  if (Rank == 1) {
    compact(Position, Set, N, Idx, Count);
    return;
  }
  std::vector<int64_t> Flat(static_cast<size_t>(Count));
  compact(Position, Set, N, Flat.data(), Count);
  for (int64_t R = 0; R < Count; ++R) {
    int64_t Rem = Flat[R];
    for (int64_t D = Rank - 1; D >= 0; --D) {
      Idx[R * Rank + D] = Rem % Sizes[D];
      Rem /= Sizes[D];
    }
  }
}

/// Calls Fn with \p Ty's element type (as a null pointer of it).
template <typename Fn> void withElementType(DType Ty, Fn F) {
  if (Ty == kFloat)
    F(static_cast<float *>(nullptr));
  else if (Ty == kLong)
    F(static_cast<int64_t *>(nullptr));
  else
    F(static_cast<uint8_t *>(nullptr));
}

/// A data-dependent selection, done where its input lives. On the host:
/// count, allocate, fill. On the device, as LibTorch's CUDA nonzero does: a
/// counting kernel, one sync to bring the count to the host (the hazard),
/// then the host allocates the output and launches a filling kernel. The
/// host's work after the sync is then an allocation and a launch, whatever
/// the input's size or the fraction selected.
///   Count(Bufs) -> the output's element count; OutShape(Count) -> its
///   shape; Fill(Bufs, Out, Count) writes it.
template <typename CountFn, typename ShapeFn, typename FillFn>
Tensor select(const char *Name, const std::vector<const TensorImpl *> &In,
              DType OutTy, CountFn Count, ShapeFn OutShape, FillFn Fill) {
  Device Dev = In.front()->Dev;
  if (Dev == kCPU) {
    std::vector<BufferPtr> H = readToHost(In);
    int64_t C = Count(H);
    auto Out = makeImpl(OutShape(C), OutTy, kCPU);
    Fill(H, *Out->Buf, C);
    return Tensor(Out);
  }
  std::vector<BufferPtr> Bufs = buffersToRead(In);
  auto CountBuf = std::make_shared<Buffer>(sizeof(int64_t), kCPU);
  DeviceStream &Stream = DeviceStream::get();
  Stream.enqueue(
      std::string(Name) + "_count", /*IsKernel=*/true, 1,
      [Bufs, CountBuf, Count] { *CountBuf->as<int64_t>() = Count(Bufs); });
  Stream.synchronize();
  int64_t C = *CountBuf->as<int64_t>();
  auto Out = makeImpl(OutShape(C), OutTy, Dev);
  Stream.enqueue(
      std::string(Name) + "_fill", /*IsKernel=*/true, 1,
      [Bufs, OutBuf = Out->Buf, C, Fill] { Fill(Bufs, *OutBuf, C); });
  return Tensor(Out);
}
} // namespace

Tensor nonzero(const Tensor &X, SourceSite At) {
  SiteScope Site(At, "nonzero");
  const TensorImpl &I = *implsOf({&X}).front();
  Shape Sizes = I.Sizes;
  DType Ty = I.Ty;
  int64_t N = numelOf(Sizes);
  auto Rank = static_cast<int64_t>(Sizes.size());
  auto Count = [Ty, N](const std::vector<BufferPtr> &B) {
    int64_t Out = 0;
    withElementType(Ty, [&](auto *Tag) {
      using T = std::remove_pointer_t<decltype(Tag)>;
      const T *P = B[0]->as<T>();
      Out = countSet([P](int64_t E) { return int64_t(P[E] != 0); }, N);
    });
    return Out;
  };
  // A nonzero 0-dim tensor gives one row of no columns, as in LibTorch.
  auto OutShape = [Rank](int64_t Count) { return Shape{Count, Rank}; };
  // Not zeroed first: every slot is written.
  auto Fill = [Ty, Sizes](const std::vector<BufferPtr> &B, Buffer &Out,
                          int64_t Count) {
    withElementType(Ty, [&](auto *Tag) {
      using T = std::remove_pointer_t<decltype(Tag)>;
      nonzeroInto(B[0]->as<T>(), Sizes, Count, Out.as<int64_t>());
    });
  };
  return select("nonzero", {&I}, kLong, Count, OutShape, Fill);
}

Tensor masked_select(const Tensor &X, const Tensor &Mask, SourceSite At) {
  SiteScope Site(At, "masked_select");
  const TensorImpl &I = *implsOf({&X}).front();
  const TensorImpl &M = *implsOf({&Mask}).front();
  if (M.Ty != kBool)
    fail(std::string("dtype mismatch: masked_select needs a bool mask, got ") +
         dtypeName(M.Ty));
  if (I.Sizes != M.Sizes)
    fail("shape mismatch: masked_select of " + shapeStr(I.Sizes) +
         " with mask " + shapeStr(M.Sizes));
  if (I.Dev != M.Dev)
    fail("device mismatch: masked_select of a " +
         std::string(deviceName(I.Dev)) + " tensor with a " +
         deviceName(M.Dev) + " mask");
  int64_t N = numelOf(I.Sizes);
  DType Ty = I.Ty;
  auto Count = [N](const std::vector<BufferPtr> &B) {
    const uint8_t *HM = B[1]->as<uint8_t>();
    return countSet([HM](int64_t E) { return int64_t(HM[E] != 0); }, N);
  };
  auto OutShape = [](int64_t Count) { return Shape{Count}; };
  auto Fill = [N, Ty](const std::vector<BufferPtr> &B, Buffer &Out,
                      int64_t Count) {
    const uint8_t *HM = B[1]->as<uint8_t>();
    auto Set = [HM](int64_t E) { return int64_t(HM[E] != 0); };
    // Same-sized elements are copied alike: bits, not values.
    auto Copy = [&](auto *Tag) {
      using T = std::remove_pointer_t<decltype(Tag)>;
      const T *Src = B[0]->as<T>();
      compact([Src](int64_t E) { return Src[E]; }, Set, N, Out.as<T>(), Count);
    };
    if (dtypeSize(Ty) == 8)
      Copy(static_cast<int64_t *>(nullptr));
    else if (dtypeSize(Ty) == 4)
      Copy(static_cast<uint32_t *>(nullptr));
    else
      Copy(static_cast<uint8_t *>(nullptr));
  };
  return select("masked_select", {&I, &M}, Ty, Count, OutShape, Fill);
}

} // namespace seam::rt
