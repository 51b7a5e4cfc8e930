//===- Formulas.h - The cost model's formulas, one per documented estimate ===//
//
// Pure functions of a device profile and counts, each the formula of one
// field of docs/cost-model.md ("Estimates"), unit-tested in
// test/unit/CostTest.cpp. CostModel.cpp finds the counts in the code; these
// turn them into microseconds and ranks.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_FORMULAS_H
#define SEAM_COST_FORMULAS_H

#include "Cost/Profile.h"

#include <optional>
#include <vector>

namespace seam {

/// host_resume_us is measured on a four-op region (seam calibrate): the
/// number of ops a sync's resume is taken to record when the next launch is
/// not known.
constexpr unsigned ResumeOps = 4;
/// ... over one tensor argument: the compiled call host_resume_us was
/// measured with.
constexpr unsigned ResumeInputs = 1;

/// seam-graph-break, `idleMicrosPerExecution`: the time a break adds per
/// region call, `region_entry x pieces added + launch_latency x
/// extraLaunches + bytesMaterialized / memory_bandwidth` (a materialized
/// size that is not known adds nothing).
double breakIdleMicros(const DeviceProfile &P, double PiecesAdded,
                       unsigned ExtraLaunches,
                       std::optional<double> BytesMaterialized);

/// What the host does between a sync and the device's next work.
struct SyncResume {
  /// The line is inside a compiled region (the next piece must be entered).
  bool InRegion = false;
  /// Ops the host records before the device gets work again (null:
  /// unknown, taken as ResumeOps).
  std::optional<unsigned> NextOps;
  /// When the next launch is a compiled call outside a region: its tensor
  /// arguments (parameters and captures), each guarded and recorded as an
  /// input; null when unknown, taken as ResumeInputs.
  std::optional<unsigned> NextInputs;
  /// The next launch is an eager op (outside a region): the profile's
  /// host_eager_us, when it has one, is the host's whole resume.
  bool NextEager = false;
  /// The elements of a data-dependent selection's input (nonzero,
  /// masked_select), when known: the host then selects in proportion to
  /// them, whatever their type.
  std::optional<double> SelectedElements;
  /// The host's own work before the next launch, per execution of the
  /// sync (HostWork.h): print statements, tensors they format, iterations
  /// of host loops.
  double Prints = 0, TensorPrints = 0, LoopIterations = 0;
  /// Of those prints, the writes that flush a stream (a system call each).
  double Flushes = 0;
  /// The work the sync waits for came from the call that compiled its
  /// region (NextLaunch::compilingCallBefore), and the sync runs once.
  bool AfterCompile = false;
  /// The sync runs on one iteration in ten or fewer of its loop: it waits
  /// behind several iterations' device work, and the host resumes cold.
  bool Cold = false;
  /// For a cold sync, the device time of the work it waits behind (the
  /// ops of the iterations since its last execution, by queueMicros),
  /// when every op's size is known.
  std::optional<double> QueuedMicros;
  /// When the loop's other syncs decide what each execution waits behind
  /// (`% 25` and `% 50` guards, ColdSchedule.h): per execution, over one
  /// cycle of the loop's syncs, the device time queued since the sync
  /// before it (0 right after another sync; null when the sizes are not
  /// known). The estimate is then the median over them.
  std::vector<std::optional<double>> ColdQueues;
  /// For a cold sync, what its flushes run behind: the queue's memory
  /// traffic alone (queueMicros without a transcendental op's compute),
  /// counted past the syncs earlier in its iteration that do not flush (a
  /// print every 60th right after one every 20th that does not flush
  /// resumes warm, but its write system call is cold: FlushPastSyncs).
  /// With ColdQueues, per execution in FlushQueues, in the same order.
  std::optional<double> FlushQueuedMicros;
  std::vector<std::optional<double>> FlushQueues;
  bool FlushPastSyncs = false;
};

/// The device time of an op whose result has \p Bytes, as the cost model
/// estimates a queue: `max(launch_latency, 2 x bytes / bandwidth)` (the op
/// writes its result and reads about as much), or, for a transcendental
/// op over \p TranscendentalElements, `transcendental_ns_per_element x`
/// them when that is longer.
double queueMicros(const DeviceProfile &P, double Bytes,
                   double TranscendentalElements = 0);

/// Where the cold resume starts to grow with the queue, in queueMicros:
/// fitted on six seam::rt probes (an eager loop over 4K-256K floats
/// reading its sum every 10th or 50th step; docs/cost-model.md).
constexpr double ColdKneeMicros = 100;

/// The share of a cold sync's parameter it adds, `min(1, ln(1 + queued /
/// knee) / ln(1 + calibration queue / knee))`, when R.QueuedMicros and the
/// profile's queue for that parameter (host_cold_queue_us,
/// host_cold_region_queue_us) are known, else 1; 0 when the sync is not
/// cold. The cold resume grows with the queue ahead of the sync, steeply
/// at first, then levels off.
double coldShare(const DeviceProfile &P, const SyncResume &R);

/// seam-host-sync and seam-capture-sync, `idleMicrosPerExecution`: device
/// idle per execution, `sync_roundtrip + host_resume + host_op x (next_ops -
/// 4) + launch_latency`, never below `sync_roundtrip + launch_latency`; when
/// the next launch is an eager op and the profile has host_eager_us,
/// `sync_roundtrip + host_eager + launch_latency`;
/// in a region, the profile's break resume replaces host_resume when it has
/// one, else region_entry is added; plus `host_select_us_per_element x` the
/// selection input's elements; plus the host work, `host_print_us x prints +
/// host_print_tensor_us x tensors printed + host_element_us x host loop
/// iterations + host_flush_us x flushes`; plus afterCompileMicros; when
/// R.Cold and the profile has them, plus coldResumeMicros, and a flush
/// costs host_flush_us + coldShare x (host_cold_flush_us - host_flush_us)
/// (the share of R.FlushQueuedMicros when set).
/// With R.ColdQueues, the median of that over them, each taken as
/// R.QueuedMicros (two middle values averaged, as the runtime's median).
double syncIdleMicros(const DeviceProfile &P, const SyncResume &R);

/// The term of syncIdleMicros for a cold sync (R.Cold): host_cold_region_us
/// when the next launch is not an eager op and the profile has it, else
/// host_cold_sync_us; 0 when the sync is not cold or the profile lacks the
/// cold parameters.
const ProfileParam &coldResumeParam(const DeviceProfile &P,
                                    const SyncResume &R);

/// What coldResumeParam adds to the idle: host_cold_region_us is measured
/// with a four-op region (ResumeOps) and the cold host is slower per op it
/// records, looks up and launches, so it scales with R.NextOps when more
/// are known; host_cold_sync_us as it is; either times coldShare.
double coldResumeMicros(const DeviceProfile &P, const SyncResume &R);

/// The term of syncIdleMicros for a sync whose work came from a compiling
/// call (R.AfterCompile): host_after_compile_eager_us when the next launch
/// is one eager op and the profile has it, else host_after_compile_us.
double afterCompileMicros(const DeviceProfile &P, const SyncResume &R);

/// What one flushing write costs the sync: host_flush_us, or for a cold
/// sync host_flush_us + coldShare x (host_cold_flush_us - host_flush_us).
double flushMicros(const DeviceProfile &P, const SyncResume &R);

/// The host-work term of syncIdleMicros alone.
double hostWorkMicros(const DeviceProfile &P, const SyncResume &R);

/// `rank`, 0-100: 20 per decade of microseconds (1 us ~ 5, 1 s = 100).
unsigned rankFromMicros(double Micros);

/// What a finding is ranked by: its total idle when known, else its idle
/// per execution, times 100 iterations at its frequency (at least 1 in 100)
/// when it repeats.
double rankBasisMicros(std::optional<double> TotalMicros,
                       double MicrosPerExecution, bool Repeats,
                       double ExecutionsPerIteration);

} // namespace seam

#endif
