//===- ColdSchedule.h - What each run of an every-Nth sync waits behind ---===//
//
// A sync that runs every Nth iteration waits behind the device work queued
// since the loop's sync before it, not always N iterations of it: with
// `if (s % 50 == 0) print(w.sum())` and `if (s % 25 == 0) g.mean().item()`
// in one loop, the print waits behind 25 iterations, and the item() behind
// 25 on half its runs and, on the other half, behind nothing but its own op
// (the print synced earlier in the same iteration). This lays the loop's
// syncs out over one cycle of their periods and says, for one of them, how
// many iterations each of its runs comes after the sync before it.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_COLDSCHEDULE_H
#define SEAM_COST_COLDSCHEDULE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace seam {

/// One syncing line (or call of a function that syncs) of a loop, run
/// every EveryNth iteration from iteration FirstRun (0 for the first).
struct ScheduledSync {
  unsigned EveryNth = 0;
  int64_t FirstRun = -1;
  /// Its place in the loop body: of two syncs in one iteration, the one
  /// with the lower Order runs first.
  unsigned Order = 0;
  /// Whether a run of it earlier in the same iteration as a run of
  /// Syncs[Own] ends the wait counted (its runs in earlier iterations
  /// always do). A flush right after a sync that waited behind 20
  /// iterations and printed without flushing runs on the caches those
  /// iterations left: its wait is counted past that sync, back to the one
  /// before it.
  bool Counts = true;
};

/// The loops whose syncs' cycle is longer are not laid out.
constexpr int64_t MaxSyncCycle = int64_t(1) << 16;

/// For Syncs[Own], over one cycle of the loop's syncs (the least common
/// multiple of their periods), per run in iteration order: the iterations
/// since the sync that ran before it (past those earlier in its iteration
/// that do not count), counted around the cycle (0 when another sync ran
/// earlier in the same iteration; its own period when it is the loop's only
/// sync). Empty when a sync's period or first iteration is not known (EveryNth
/// 0, FirstRun < 0), or the cycle is longer than MaxSyncCycle.
std::vector<int64_t>
iterationsSinceLastSync(llvm::ArrayRef<ScheduledSync> Syncs, size_t Own);

} // namespace seam

#endif // SEAM_COST_COLDSCHEDULE_H
