//===- Internal.h - Shared internals of seam::rt: buffers, nodes, impls ---===//
//
// The pieces every runtime file shares: device buffers, the op vocabulary
// (one Node describes an op in eager mode and in a recorded region alike, so
// both modes share shape and dtype rules), and the tensor implementation.
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_INTERNAL_H
#define SEAM_RT_INTERNAL_H

#include "seam/rt.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace seam::rt::detail {

[[noreturn]] void fail(const std::string &Msg);
size_t dtypeSize(DType Ty);
const char *dtypeName(DType Ty);
const char *deviceName(Device D);
std::string shapeStr(const Shape &S);
int64_t numelOf(const Shape &S);

/// A block of memory owned by one device. Accelerator buffers are only ever
/// touched by the device worker; the host reaches them through copies.
struct Buffer {
  Buffer(size_t Bytes, Device Dev);
  ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  template <typename T> T *as() const { return static_cast<T *>(Data); }

  void *Data = nullptr;
  size_t Bytes = 0;
  Device Dev;
};
using BufferPtr = std::shared_ptr<Buffer>;

enum class Op : uint8_t {
  Input,
  // Pointwise (fusable).
  Neg,
  Relu,
  Sigmoid,
  Tanh,
  Exp,
  Log,
  Abs,
  Sqrt,
  Gelu,
  Add,
  Sub,
  Mul,
  Div,
  Gt,
  Lt,
  Ge,
  Le,
  Eq,
  Where,
  Reshape,
  // Reductions (a whole-tensor one may end a fused group).
  Sum,
  Mean,
  Max,
  Min,
  // Library ops: one kernel each, never fused.
  Matmul,
  Transpose,
};

const char *opName(Op K);
bool isPointwise(Op K);
bool isReduction(Op K);
bool isCompare(Op K);

/// One op with its inferred result type and shape. Args are value ids of
/// the producers; -1 stands for the next entry of Scalars.
struct Node {
  Op Kind = Op::Input;
  DType Ty = kFloat;
  /// Type the inputs are converted to before the op is applied.
  DType ComputeTy = kFloat;
  Shape Sizes;
  std::vector<int> Args;
  std::vector<double> Scalars;
  /// Reduction dim (-1: whole tensor) or first transpose dim.
  int64_t Dim = -1;
  int64_t Dim1 = 0;
  bool KeepDim = false;
  int64_t numel() const { return numelOf(Sizes); }
};

struct Graph;

struct TensorImpl {
  Shape Sizes;
  DType Ty = kFloat;
  Device Dev = kCPU;
  /// Set once the value exists on its device.
  BufferPtr Buf;
  /// While recorded in a compiled region: the graph and the value id.
  std::shared_ptr<Graph> G;
  int Id = -1;
  bool isLazy() const { return Buf == nullptr; }
};

/// A tensor argument of a kernel as the reference kernels see it.
struct ArgView {
  const Buffer *Buf;
  DType Ty;
  Shape Sizes;
};

/// Runs N with the reference (interpreted) kernels; used by eager ops on
/// both devices and by library ops inside compiled regions.
void runReference(const Node &N, const std::vector<ArgView> &Args, Buffer &Out);

/// Splits [0, N) across the device's threads when called on the device
/// worker; runs Fn(0, N) inline anywhere else.
void parallelRange(int64_t N, const std::function<void(int64_t, int64_t)> &Fn);
/// The number of parts parallelRange(N, ...) uses here.
unsigned parallelParts(int64_t N);

/// Shape and dtype inference plus user-error checks, shared by both modes.
Node makeNode(Op K, const std::vector<const TensorImpl *> &Args,
              const std::vector<double> &Scalars,
              const std::vector<int> &ArgPattern);

/// The buffers of Impls once they exist: requests the first's host value
/// (cutting the current region when called inside a compiled call) and
/// materializes any still being recorded. No wait and no copy: the device
/// may still be writing them. readToHost, and the device-side selections.
std::vector<BufferPtr>
buffersToRead(const std::vector<const TensorImpl *> &Impls);

/// Makes the host wait until Impl has a buffer (cutting the current region
/// when Impl is still being recorded) and returns a host copy of it.
BufferPtr readToHost(const TensorImpl &Impl);
/// The same for several tensors, with a single sync.
std::vector<BufferPtr> readToHost(const std::vector<const TensorImpl *> &Impls);

/// A tensor of shape S on D whose buffer the caller fills (not zeroed).
std::shared_ptr<TensorImpl> makeImpl(const Shape &S, DType Ty, Device D);

/// Materializes Impl if it is pending in a compiled region; counts a graph
/// break when called inside a compiled call.
void requestHostValue(const TensorImpl &Impl);

} // namespace seam::rt::detail

#endif // SEAM_RT_INTERNAL_H
