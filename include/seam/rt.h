//===- seam/rt.h - Seam's tensor runtime with a region compiler -*- C++ -*-===//
//
// Include this to write models that Seam can run and measure: tensors with
// LibTorch-like names, an asynchronous virtual accelerator (kAccel) and
// compile(fn), which records fn's ops and runs them as fused, JIT-compiled
// regions. stats() and trace_to() expose what the runtime really did, so
// that Seam's static estimates can be checked against a run.
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_H
#define SEAM_RT_H

#include <cstdint>
#include <exception>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace seam::rt {

enum class Device { CPU, Accel };
constexpr Device kCPU = Device::CPU;
constexpr Device kAccel = Device::Accel;

enum class DType { Float, Long, Bool };
constexpr DType kFloat = DType::Float;
constexpr DType kLong = DType::Long;
constexpr DType kBool = DType::Bool;

using Shape = std::vector<int64_t>;

/// Thrown for every mistake a user can make (shape, dtype or device
/// mismatch, item() on a multi-element tensor, data_ptr() on kAccel, ...).
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
struct TensorImpl;
struct HostScalar {
  DType Ty;
  double F;
  int64_t I;
};
} // namespace detail

class Tensor {
public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<detail::TensorImpl> Impl);

  bool defined() const { return Impl != nullptr; }

  // Metadata: never synchronizes and never cuts a compiled region.
  const Shape &sizes() const;
  int64_t size(int64_t D) const;
  int64_t numel() const;
  int64_t dim() const;
  Device device() const;
  DType dtype() const;

  /// Host value of a one-element tensor; a sync for kAccel and a graph
  /// break inside compile().
  template <typename T> T item() const {
    detail::HostScalar S = itemScalar();
    if constexpr (std::is_same_v<T, bool>)
      return S.Ty == kFloat ? S.F != 0 : S.I != 0;
    else if constexpr (std::is_floating_point_v<T>)
      return S.Ty == kFloat ? static_cast<T>(S.F) : static_cast<T>(S.I);
    else
      return S.Ty == kFloat ? static_cast<T>(S.F) : static_cast<T>(S.I);
  }

  /// Host memory of a kCPU tensor; throws for kAccel (copy with cpu()).
  template <typename T> T *data_ptr() const;

  Tensor cpu() const;
  Tensor to(Device D) const;

  Tensor sum() const;
  Tensor sum(int64_t Dim, bool KeepDim = false) const;
  Tensor mean() const;
  Tensor mean(int64_t Dim, bool KeepDim = false) const;
  Tensor max() const;
  Tensor max(int64_t Dim, bool KeepDim = false) const;
  Tensor min() const;
  Tensor min(int64_t Dim, bool KeepDim = false) const;

  Tensor reshape(const Shape &NewShape) const;
  Tensor view(const Shape &NewShape) const;
  Tensor transpose(int64_t D0, int64_t D1) const;

  const std::shared_ptr<detail::TensorImpl> &impl() const { return Impl; }

private:
  detail::HostScalar itemScalar() const;
  std::shared_ptr<detail::TensorImpl> Impl;
};

Tensor operator+(const Tensor &A, const Tensor &B);
Tensor operator-(const Tensor &A, const Tensor &B);
Tensor operator*(const Tensor &A, const Tensor &B);
Tensor operator/(const Tensor &A, const Tensor &B);
Tensor operator+(const Tensor &A, double B);
Tensor operator-(const Tensor &A, double B);
Tensor operator*(const Tensor &A, double B);
Tensor operator/(const Tensor &A, double B);
Tensor operator+(double A, const Tensor &B);
Tensor operator-(double A, const Tensor &B);
Tensor operator*(double A, const Tensor &B);
Tensor operator/(double A, const Tensor &B);
Tensor operator-(const Tensor &A);

Tensor operator>(const Tensor &A, const Tensor &B);
Tensor operator<(const Tensor &A, const Tensor &B);
Tensor operator>=(const Tensor &A, const Tensor &B);
Tensor operator<=(const Tensor &A, const Tensor &B);
Tensor operator==(const Tensor &A, const Tensor &B);
Tensor operator>(const Tensor &A, double B);
Tensor operator<(const Tensor &A, double B);
Tensor operator>=(const Tensor &A, double B);
Tensor operator<=(const Tensor &A, double B);
Tensor operator==(const Tensor &A, double B);
Tensor operator>(double A, const Tensor &B);
Tensor operator<(double A, const Tensor &B);
Tensor operator>=(double A, const Tensor &B);
Tensor operator<=(double A, const Tensor &B);
Tensor operator==(double A, const Tensor &B);

Tensor relu(const Tensor &X);
Tensor sigmoid(const Tensor &X);
Tensor tanh(const Tensor &X);
Tensor exp(const Tensor &X);
Tensor log(const Tensor &X);
Tensor abs(const Tensor &X);
Tensor sqrt(const Tensor &X);
Tensor gelu(const Tensor &X);
Tensor where(const Tensor &Cond, const Tensor &A, const Tensor &B);
Tensor where(const Tensor &Cond, const Tensor &A, double B);
Tensor where(const Tensor &Cond, double A, const Tensor &B);
Tensor matmul(const Tensor &A, const Tensor &B);
/// Indices of the non-zero elements, shape [count, dim] (kLong). The count
/// is data-dependent, so this synchronizes (and breaks a compiled region).
Tensor nonzero(const Tensor &X);
/// Elements of X where Mask is true, as a 1-D tensor; synchronizes like
/// nonzero().
Tensor masked_select(const Tensor &X, const Tensor &Mask);

Tensor zeros(const Shape &S, Device D = kCPU, DType Ty = kFloat);
Tensor ones(const Shape &S, Device D = kCPU, DType Ty = kFloat);
Tensor full(const Shape &S, double Value, Device D = kCPU, DType Ty = kFloat);
/// Standard normal values; the same seed gives the same values on every
/// device and in every mode.
Tensor randn(const Shape &S, Device D = kCPU, uint64_t Seed = 0);
/// 0, 1, ..., N-1 as kLong.
Tensor arange(int64_t N, Device D = kCPU);
Tensor from_vector(const std::vector<float> &Values, const Shape &S,
                   Device D = kCPU);

/// Prints shape, dtype, device and values; a sync for kAccel tensors.
std::ostream &operator<<(std::ostream &OS, const Tensor &T);

/// Counters since the last reset_stats(). Device times are complete only
/// after a synchronize().
struct Stats {
  int64_t regions = 0;
  int64_t graph_breaks = 0;
  int64_t syncs = 0;
  int64_t kernels = 0;
  int64_t fused_kernels = 0;
  int64_t compiles = 0;
  int64_t cache_hits = 0;
  double device_busy_us = 0;
  double device_idle_us = 0;
  double host_wait_us = 0;
};
std::ostream &operator<<(std::ostream &OS, const Stats &S);

/// Blocks until the accelerator has drained its stream.
void synchronize();
Stats stats();
void reset_stats();
/// Records a Chrome trace (open in Perfetto or chrome://tracing) and writes
/// it to Path on the next trace_to() call or at exit; "" stops tracing.
/// Never waits for the device: call synchronize() first to include work
/// still queued.
void trace_to(const std::string &Path);

namespace detail {
void beginCompiled();
void endCompiled(bool Unwinding);
/// Ends a compiled call even when fn throws, so no tensor stays pending.
struct CompiledScope {
  CompiledScope() : Exceptions(std::uncaught_exceptions()) { beginCompiled(); }
  ~CompiledScope() noexcept(false) {
    endCompiled(std::uncaught_exceptions() > Exceptions);
  }
  int Exceptions;
  CompiledScope(const CompiledScope &) = delete;
  CompiledScope &operator=(const CompiledScope &) = delete;
};
} // namespace detail

/// Returns a callable with Fn's signature that runs Fn in compiled mode: its
/// ops are recorded and run as cached, fused regions, cut at every host-value
/// request and when Fn returns.
template <typename Fn> auto compile(Fn F) {
  return [F = std::move(F)](auto &&...Args) {
    using R = decltype(F(std::forward<decltype(Args)>(Args)...));
    if constexpr (std::is_void_v<R>) {
      detail::CompiledScope Scope;
      F(std::forward<decltype(Args)>(Args)...);
    } else {
      // Fn's locals die before the region is cut, so only what Fn returns
      // (and what the caller still holds) is materialized.
      std::decay_t<R> Result = [&]() -> std::decay_t<R> {
        detail::CompiledScope Scope;
        return F(std::forward<decltype(Args)>(Args)...);
      }();
      return Result;
    }
  };
}

} // namespace seam::rt

#endif // SEAM_RT_H
