//===- ColdSchedule.cpp - What each run of an every-Nth sync waits behind -===//
#include "Cost/ColdSchedule.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace seam {

std::vector<int64_t>
iterationsSinceLastSync(llvm::ArrayRef<ScheduledSync> Syncs, size_t Own) {
  if (Own >= Syncs.size())
    return {};
  int64_t Cycle = 1;
  for (const ScheduledSync &S : Syncs) {
    if (S.EveryNth == 0 || S.FirstRun < 0)
      return {};
    Cycle = std::lcm(Cycle, int64_t(S.EveryNth));
    if (Cycle > MaxSyncCycle)
      return {};
  }
  // Every run of every sync in one cycle: (iteration, order, which).
  std::vector<std::tuple<int64_t, unsigned, size_t>> Runs;
  for (size_t J = 0; J < Syncs.size(); ++J) {
    int64_t N = Syncs[J].EveryNth;
    for (int64_t I = Syncs[J].FirstRun % N; I < Cycle; I += N)
      Runs.emplace_back(I, Syncs[J].Order, J);
  }
  std::sort(Runs.begin(), Runs.end());
  std::vector<int64_t> Out;
  for (size_t K = 0; K < Runs.size(); ++K) {
    if (std::get<2>(Runs[K]) != Own)
      continue;
    // Back from it, around the cycle, to the last run that counts: before
    // the first run of the cycle comes the last one, a cycle back.
    int64_t Back = 0;
    size_t Prev = K;
    do {
      if (Prev == 0) {
        Prev = Runs.size();
        Back += Cycle;
      }
      --Prev;
    } while (std::get<2>(Runs[Prev]) != Own &&
             !Syncs[std::get<2>(Runs[Prev])].Counts &&
             std::get<0>(Runs[K]) - std::get<0>(Runs[Prev]) + Back == 0);
    Out.push_back(std::get<0>(Runs[K]) - std::get<0>(Runs[Prev]) + Back);
  }
  return Out;
}

} // namespace seam
