//===- Profile.h - Device profiles: cost parameters with their sources ----===//
//
// A device profile holds the few numbers the cost model multiplies (sync
// round trip, host resume, launch latency, region entry, memory bandwidth),
// each with the source it came from: a published figure with its citation,
// or a measurement with the command that made it. Every number Seam prints
// names its profile. Profiles live in rules/profiles/*.json.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_PROFILE_H
#define SEAM_COST_PROFILE_H

#include "llvm/Support/Error.h"
#include <map>
#include <string>

namespace seam {

struct ProfileParam {
  double Value = 0;
  std::string Source;
};

struct DeviceProfile {
  std::string Name;   ///< "h100"
  std::string Device; ///< "NVIDIA H100 SXM5 80GB"
  std::string Path;
  ProfileParam SyncRoundtripUs, HostResumeUs, LaunchLatencyUs, RegionEntryUs,
      MemoryBandwidthGBps;
  /// Optional: host time, per MiB of input, that a data-dependent selection
  /// (nonzero, masked_select) spends on the host after its sync before the
  /// device gets more work; 0 when the profile does not give it.
  ProfileParam HostSelectUsPerElement;
  /// Optional: host time per op recorded and launched, beyond the four ops
  /// host_resume_us covers (negative below four); 0 when not given.
  ProfileParam HostOpUs;
  /// Optional: host time per tensor argument of a compiled call beyond the
  /// one host_resume_us covers (its guard and its input to the recorded
  /// region); 0 when not given.
  ProfileParam HostInputUs;
  /// Optional: host time from a sync's end to the enqueue of one eager op;
  /// when given, it replaces host_resume_us (and host_op_us) for syncs whose
  /// next launch is an eager op.
  ProfileParam HostEagerUs;
  bool HasHostEager = false;
  /// Optional: host time from a graph break's sync to the launch of the
  /// region's next (four-op) piece; when given, it replaces host_resume_us
  /// and region_entry_us for syncs inside a region.
  ProfileParam BreakResumeUs;
  bool HasBreakResume = false;
  /// Optional (0 when not given): what the host's own work between a sync
  /// and the next launch costs: one print statement (a `<<` chain or a
  /// printf, its text and scalars formatted and written), one tensor
  /// formatted by a print, one iteration of a host loop over copied data.
  ProfileParam HostPrintUs, HostPrintTensorUs, HostElementUs;
  /// Optional (0 when not given): the write system call of a print that
  /// flushes (`std::endl`, `std::flush`, `std::cerr`, `fflush`), on top of
  /// host_print_us.
  ProfileParam HostFlushUs;
  /// The profile gives at least one of the four.
  bool HasHostWork = false;
  /// Optional (0 when not given): what a sync costs on top of its resume
  /// when the device work it waits for came from a compiled function's
  /// first, compiling call: the host's next work runs with its caches and
  /// heap left as the compiler left them.
  ProfileParam HostAfterCompileUs;
  /// Optional: the same when the host's next work is one eager op; when
  /// the profile lacks it, HostAfterCompileUs stands for both.
  ProfileParam HostAfterCompileEagerUs;
  bool HasAfterCompile = false, HasAfterCompileEager = false;
  /// Optional (0 when not given): a sync that runs on one iteration in
  /// several of its loop waits behind several iterations' device work, which
  /// leaves the host's caches cold: what its idle adds (HostColdSyncUs),
  /// and what a flushing write costs then instead of HostFlushUs
  /// (HostColdFlushUs).
  ProfileParam HostColdSyncUs, HostColdFlushUs;
  bool HasCold = false;
  /// Optional: what a cold sync adds when the host's next work is a
  /// compiled call (recording, looking up and launching a region), in
  /// place of HostColdSyncUs; used only with HasCold.
  ProfileParam HostColdRegionUs;
  bool HasColdRegion = false;
  /// Optional: the device time of the queue HostColdSyncUs (and
  /// HostColdFlushUs) and HostColdRegionUs were measured behind, by the
  /// cost model's own queue formula (queueMicros in Formulas.h). With them
  /// a cold sync adds its parameter in proportion to the device time of
  /// the work it waits behind, up to the whole; without them, the whole.
  ProfileParam HostColdQueueUs, HostColdRegionQueueUs;
  /// Optional (0 when not given): the device time per element of a
  /// transcendental pointwise op (a pack's `ops.transcendental`: `tanh`,
  /// `exp`), when it is longer than the op's memory traffic, as on a
  /// device that runs on a CPU core (queueMicros in Formulas.h).
  ProfileParam TranscendentalNsPerElement;
};

llvm::Expected<DeviceProfile> parseProfile(llvm::StringRef Json,
                                           llvm::StringRef Path);
/// \p NameOrPath is a bundled profile's name (looked up in \p ProfilesDir)
/// or a path to a JSON file.
llvm::Expected<DeviceProfile> loadProfile(llvm::StringRef NameOrPath,
                                          llvm::StringRef ProfilesDir);

} // namespace seam

#endif
