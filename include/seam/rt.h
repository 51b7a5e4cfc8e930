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

/// A line of the program: filled in by a default argument wherever the
/// program calls a runtime function that can wait for the device or cut a
/// compiled region, so that the runtime's report (write_report()) can say
/// which line paid. Leave it defaulted.
struct SourceSite {
  const char *File = "";
  unsigned Line = 0;
  static constexpr SourceSite current(const char *File = __builtin_FILE(),
                                      unsigned Line = __builtin_LINE()) {
    return {File, Line};
  }
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
  template <typename T> T item(SourceSite At = SourceSite::current()) const {
    detail::HostScalar S = itemScalar(At);
    if constexpr (std::is_same_v<T, bool>)
      return S.Ty == kFloat ? S.F != 0 : S.I != 0;
    else if constexpr (std::is_floating_point_v<T>)
      return S.Ty == kFloat ? static_cast<T>(S.F) : static_cast<T>(S.I);
    else
      return S.Ty == kFloat ? static_cast<T>(S.F) : static_cast<T>(S.I);
  }

  /// Host memory of a kCPU tensor; throws for kAccel (copy with cpu()).
  template <typename T>
  T *data_ptr(SourceSite At = SourceSite::current()) const;

  Tensor cpu(SourceSite At = SourceSite::current()) const;
  Tensor to(Device D, SourceSite At = SourceSite::current()) const;

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
  detail::HostScalar itemScalar(SourceSite At) const;
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
Tensor nonzero(const Tensor &X, SourceSite At = SourceSite::current());
/// Elements of X where Mask is true, as a 1-D tensor; synchronizes like
/// nonzero().
Tensor masked_select(const Tensor &X, const Tensor &Mask,
                     SourceSite At = SourceSite::current());

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

namespace detail {
/// A tensor being printed, with the line that prints it (operator<< cannot
/// take a default argument of its own).
struct Printed {
  Printed(const Tensor &T, SourceSite At = SourceSite::current())
      : T(T), At(At) {}
  const Tensor &T;
  SourceSite At;
};
} // namespace detail

/// Prints shape, dtype, device and values; a sync for kAccel tensors.
std::ostream &operator<<(std::ostream &OS, detail::Printed P);

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
void synchronize(SourceSite At = SourceSite::current());
Stats stats();
void reset_stats();
/// Records a Chrome trace (open in Perfetto or chrome://tracing) and writes
/// it to Path on the next trace_to() call or at exit; "" stops tracing.
/// Never waits for the device: call synchronize() first to include work
/// still queued.
void trace_to(const std::string &Path);
/// Writes the per-line report (docs/runtime.md, "The site report") of the
/// whole run so far to Path: for every line that synchronized or cut a
/// compiled region, how often it ran, the host's wait, the device idle it
/// caused, the pieces it launched and its recompiles. With the environment
/// variable SEAM_RT_REPORT set, the runtime writes it there at exit.
/// Throws Error when Path cannot be written.
void write_report(const std::string &Path);

/// One row of the site report: what the runtime measured at one line.
struct SiteStats {
  std::string file;
  unsigned line = 0;
  /// "item", "cpu", "to", "data_ptr", "nonzero", "masked_select",
  /// "operator<<", "synchronize" or "compile".
  std::string api;
  int64_t executions = 0;
  int64_t syncs = 0;
  int64_t graph_breaks = 0;
  /// Pieces launched by cuts made at this line; for a compile() line, the
  /// last piece of each call.
  int64_t pieces = 0;
  /// For a compile() line: every piece its calls launched.
  int64_t region_pieces = 0;
  int64_t compiles = 0;
  /// Compiles of a piece compiled before (its shapes changed).
  int64_t recompiles = 0;
  double host_wait_us = 0;
  /// Device idle after this line's syncs: from the end of the device's last
  /// task before the sync to the start of its next task.
  double device_idle_us = 0;
  /// How many syncs' idle was measured, and its median per sync.
  int64_t idle_samples = 0;
  double device_idle_median_us = 0;
};
/// The site report of the whole run so far (reset_stats() does not clear
/// it), sorted by file, line and api; lines that neither synchronized nor
/// cut a region are left out.
std::vector<SiteStats> site_stats();

/// One cost-model parameter measured on this process's device.
struct Measurement {
  std::string name;  ///< the profile's key, e.g. "sync_roundtrip_us"
  double value = 0;  ///< the median run
  double spread = 0; ///< interquartile range over the median
  int runs = 0;
  std::string how; ///< what was measured
};
/// Measures the parameters of Seam's cost model (docs/cost-model.md) on
/// this process's device, each over about \p repetitions runs (fewer for the
/// long ones); takes a second or two. `seam calibrate` writes them as a
/// profile; with SEAM_RT_CALIBRATE=N set, the runtime measures them at exit
/// and adds them to the site report, so `seam validate` predicts with
/// numbers from the same process.
std::vector<Measurement> calibrate(int repetitions = 300);

namespace detail {
void beginCompiled(SourceSite At);
void endCompiled(bool Unwinding);
/// Ends a compiled call even when fn throws, so no tensor stays pending.
struct CompiledScope {
  explicit CompiledScope(SourceSite At)
      : Exceptions(std::uncaught_exceptions()) {
    beginCompiled(At);
  }
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
/// request and when Fn returns. The report attributes each call's last
/// piece to the line of this compile() call.
template <typename Fn>
auto compile(Fn F, SourceSite At = SourceSite::current()) {
  return [F = std::move(F), At](auto &&...Args) {
    using R = decltype(F(std::forward<decltype(Args)>(Args)...));
    if constexpr (std::is_void_v<R>) {
      detail::CompiledScope Scope(At);
      F(std::forward<decltype(Args)>(Args)...);
    } else {
      // Fn's locals die before the region is cut, so only what Fn returns
      // (and what the caller still holds) is materialized.
      std::decay_t<R> Result = [&]() -> std::decay_t<R> {
        detail::CompiledScope Scope(At);
        return F(std::forward<decltype(Args)>(Args)...);
      }();
      return Result;
    }
  };
}

} // namespace seam::rt

#endif // SEAM_RT_H
