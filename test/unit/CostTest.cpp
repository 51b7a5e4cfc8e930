//===- CostTest.cpp - Fusion grouping, profiles and shape hints -----------===//
#include "Cost/ColdSchedule.h"
#include "Cost/CostModel.h"
#include "Cost/Formulas.h"
#include "Cost/Fusion.h"
#include "Cost/Profile.h"

#include "gtest/gtest.h"
#include <cmath>

using namespace seam;

namespace {

using C = OpClass;

std::vector<int> groups(std::vector<OpClass> Ops, unsigned &N) {
  return fusionGroups(Ops, N);
}

TEST(Fusion, PointwiseChainIsOneKernel) {
  unsigned N = 0;
  EXPECT_EQ(groups({C::Pointwise, C::Pointwise, C::Pointwise}, N),
            (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(N, 1u);
}

TEST(Fusion, TrailingReductionJoinsAndCloses) {
  unsigned N = 0;
  EXPECT_EQ(groups({C::Pointwise, C::Reduction, C::Pointwise}, N),
            (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(N, 2u);
  EXPECT_EQ(groups({C::Reduction, C::Reduction}, N), (std::vector<int>{0, 1}));
  EXPECT_EQ(N, 2u);
}

TEST(Fusion, LibraryOpsStandAlone) {
  unsigned N = 0;
  EXPECT_EQ(
      groups({C::Pointwise, C::Library, C::Pointwise, C::DataDependent}, N),
      (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(N, 4u);
}

TEST(Fusion, ViewsAreFreeAndDoNotCutChains) {
  unsigned N = 0;
  EXPECT_EQ(groups({C::Pointwise, C::View, C::Pointwise, C::Host}, N),
            (std::vector<int>{0, -1, 0, -1}));
  EXPECT_EQ(N, 1u);
  EXPECT_EQ(groups({}, N), std::vector<int>{});
  EXPECT_EQ(N, 0u);
}

const char *GoodProfile = R"({"name": "p", "device": "d", "parameters": {
  "sync_roundtrip_us": {"value": 1, "source": "a"},
  "host_resume_us": {"value": 2, "source": "b"},
  "launch_latency_us": {"value": 3, "source": "c"},
  "region_entry_us": {"value": 4, "source": "d"},
  "memory_bandwidth_gbps": {"value": 5, "source": "e"}}})";

TEST(Profile, ParsesValuesAndSources) {
  auto P = parseProfile(GoodProfile, "p.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Name, "p");
  EXPECT_EQ(P->LaunchLatencyUs.Value, 3);
  EXPECT_EQ(P->MemoryBandwidthGBps.Source, "e");
}

TEST(Profile, RejectsMissingSourcesAndBadValues) {
  std::string NoSource = GoodProfile;
  NoSource.replace(NoSource.find("\"source\": \"a\""), 13, "\"note\": \"a\"");
  auto P = parseProfile(NoSource, "p.json");
  ASSERT_FALSE(static_cast<bool>(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("sync_roundtrip_us"),
            std::string::npos);
  std::string ZeroBw = GoodProfile;
  ZeroBw.replace(ZeroBw.find("\"value\": 5"), 10, "\"value\": 0");
  auto Q = parseProfile(ZeroBw, "p.json");
  ASSERT_FALSE(static_cast<bool>(Q));
  EXPECT_NE(llvm::toString(Q.takeError()).find("must be positive"),
            std::string::npos);
  auto R = parseProfile("{\"name\": \"x\", \"speed\": 1}", "p.json");
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("'speed': unknown key"),
            std::string::npos);
}

TEST(Cost, RankGrowsTwentyPerDecade) {
  EXPECT_EQ(rankFromMicros(0), 0u);
  EXPECT_LT(rankFromMicros(10), rankFromMicros(100));
  EXPECT_EQ(rankFromMicros(1e6), 100u);
  EXPECT_EQ(rankFromMicros(1e9), 100u);
  EXPECT_EQ(formatMicros(12.34), "12.3 us");
  EXPECT_EQ(formatMicros(2500), "2.5 ms");
  EXPECT_EQ(formatMicros(3.2e6), "3.2 s");
}

} // namespace

namespace {

/// A profile with round numbers, so that each formula's terms can be read
/// off its result.
DeviceProfile roundProfile() {
  DeviceProfile P;
  P.Name = "round";
  P.SyncRoundtripUs.Value = 10;
  P.HostResumeUs.Value = 4;
  P.LaunchLatencyUs.Value = 2;
  P.RegionEntryUs.Value = 3;
  P.HostOpUs.Value = 0.5;
  P.MemoryBandwidthGBps.Value = 1; // 1000 bytes per microsecond
  P.HostSelectUsPerElement.Value = 0.002;
  return P;
}

// docs/cost-model.md, seam-graph-break idleMicrosPerExecution:
// region_entry x pieces added + launch_latency x extraLaunches + bytes / BW.
TEST(CostFormula, GraphBreakIdle) {
  DeviceProfile P = roundProfile();
  EXPECT_DOUBLE_EQ(breakIdleMicros(P, 1, 0, 0.0), 3);
  EXPECT_DOUBLE_EQ(breakIdleMicros(P, 2, 3, 4000.0), 3 * 2 + 2 * 3 + 4);
  // An unknown materialized size adds nothing (counted, never guessed).
  EXPECT_DOUBLE_EQ(breakIdleMicros(P, 1, 1, std::nullopt), 3 + 2);
}

// seam-host-sync idleMicrosPerExecution: sync_roundtrip + host_resume +
// host_op x (next_ops - 4) + launch_latency, never below sync_roundtrip +
// launch_latency; + region_entry in a region; + the selection's elements.
TEST(CostFormula, HostSyncIdle) {
  DeviceProfile P = roundProfile();
  SyncResume R;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 10 + 4 + 2); // next ops unknown
  R.NextOps = 4;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16);
  R.NextOps = 10;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.5 * 6);
  // A compiled call over four tensors: three more than the measured call.
  R.NextInputs = 4;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.5 * 6); // not in the profile
  P.HostInputUs.Value = 0.25;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.5 * 6 + 0.25 * 3);
  R.NextInputs = 1;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.5 * 6);
  R.NextOps.reset(); // ops unknown: the inputs still count
  R.NextInputs = 3;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.25 * 2);
  R.NextInputs.reset();
  R.NextOps = 1; // one eager op: less to record than the measured four
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 - 0.5 * 3);
  P.HostOpUs.Value = 100; // the floor
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 10 + 2);
  P = roundProfile();
  // A profile that measured the resume before one eager op uses it when the
  // next launch is one, instead of extrapolating a compiled call's per-op
  // cost down to one op; the host's work after the sync still adds.
  R.NextEager = true;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 - 0.5 * 3); // not in the profile
  P.HasHostEager = true;
  P.HostEagerUs.Value = 1.5;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 10 + 1.5 + 2);
  R.SelectedElements = 4000;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 10 + 1.5 + 2 + 4000 * 0.002);
  R.SelectedElements.reset();
  R.NextEager = false;
  P = roundProfile();
  R.NextOps.reset();
  R.InRegion = true;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 3);
  R.SelectedElements = 4000;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 3 + 4000 * 0.002);
  // A profile that measured the resume after a break uses it in a region,
  // instead of host_resume + region_entry.
  P.HasBreakResume = true;
  P.BreakResumeUs.Value = 30;
  R.SelectedElements.reset();
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 10 + 30 + 2);
}

TEST(CostFormula, HostWorkAfterSync) {
  DeviceProfile P = roundProfile();
  SyncResume R;
  R.NextOps = 4;
  R.Prints = 1;
  R.TensorPrints = 1;
  R.LoopIterations = 1000;
  // Not in the profile: not costed.
  EXPECT_DOUBLE_EQ(hostWorkMicros(P, R), 0);
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16);
  P.HostPrintUs.Value = 2;
  P.HostPrintTensorUs.Value = 30;
  P.HostElementUs.Value = 0.01;
  EXPECT_DOUBLE_EQ(hostWorkMicros(P, R), 2 + 30 + 10);
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 42);
  // Weighted: a print on one sync in five.
  R = SyncResume();
  R.NextOps = 4;
  R.Prints = 0.2;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.4);
  // A print that flushes costs its write as well.
  R.Flushes = 0.2;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 0.4);
  P.HostFlushUs.Value = 5;
  EXPECT_DOUBLE_EQ(hostWorkMicros(P, R), 0.4 + 1);
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 1.4);
}

// A once-run sync behind a compiling call adds host_after_compile_us, on
// top of the resume and the host work; a profile without it adds nothing.
TEST(CostFormula, SyncAfterCompile) {
  DeviceProfile P = roundProfile();
  SyncResume R;
  R.NextOps = 4;
  R.AfterCompile = true;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16); // not in the profile
  P.HostAfterCompileUs.Value = 17;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 17);
  R.Prints = 1;
  P.HostPrintUs.Value = 2;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 17 + 2);
  EXPECT_DOUBLE_EQ(hostWorkMicros(P, R), 2); // not host work
  // An eager next op takes host_after_compile_eager_us when the profile
  // has it, host_after_compile_us when not.
  R.Prints = 0;
  R.NextEager = true;
  EXPECT_DOUBLE_EQ(afterCompileMicros(P, R), 17);
  P.HasAfterCompileEager = true;
  P.HostAfterCompileEagerUs.Value = 9;
  EXPECT_DOUBLE_EQ(afterCompileMicros(P, R), 9);
  R.NextEager = false;
  EXPECT_DOUBLE_EQ(afterCompileMicros(P, R), 17);
  R.AfterCompile = false;
  EXPECT_DOUBLE_EQ(afterCompileMicros(P, R), 0);
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16);
}

TEST(CostFormula, SyncCold) {
  DeviceProfile P = roundProfile();
  SyncResume R;
  R.NextOps = 4;
  R.Prints = 1;
  R.Flushes = 1;
  P.HostPrintUs.Value = 2;
  P.HostFlushUs.Value = 4;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 2 + 4);
  // Cold, but the profile does not have the parameters: unchanged.
  R.Cold = true;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 2 + 4);
  P.HasCold = true;
  P.HostColdSyncUs.Value = 7;
  P.HostColdFlushUs.Value = 40;
  // host_cold_sync_us is added; the flush costs host_cold_flush_us.
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 7 + 2 + 40);
  EXPECT_DOUBLE_EQ(hostWorkMicros(P, R), 2 + 40);
  R.Flushes = 0;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 7 + 2);
  // A warm sync with the same profile.
  R.Cold = false;
  R.Flushes = 1;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 2 + 4);
}

TEST(CostFormula, SyncColdRegion) {
  DeviceProfile P = roundProfile();
  P.HasCold = true;
  P.HostColdSyncUs.Value = 7;
  SyncResume R;
  R.Cold = true;
  R.NextOps = 4;
  // Without host_cold_region_us, host_cold_sync_us stands for a compiled
  // next launch too.
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 7);
  P.HasColdRegion = true;
  P.HostColdRegionUs.Value = 12;
  EXPECT_EQ(&coldResumeParam(P, R), &P.HostColdRegionUs);
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), 16 + 12);
  // Measured with four ops: eight cost twice as much, fewer no less.
  R.NextOps = 8;
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 24);
  R.NextOps = 2;
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 12);
  // An eager next launch resumes as host_cold_sync_us says.
  R.NextEager = true;
  EXPECT_EQ(&coldResumeParam(P, R), &P.HostColdSyncUs);
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 7);
  // A warm sync adds neither.
  R.Cold = false;
  R.NextEager = false;
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 0);
}

TEST(CostFormula, SyncColdQueue) {
  DeviceProfile P = roundProfile();
  P.HasCold = true;
  P.HostColdSyncUs.Value = 7;
  P.HostFlushUs.Value = 4;
  P.HostColdFlushUs.Value = 40;
  P.LaunchLatencyUs.Value = 5;
  P.MemoryBandwidthGBps.Value = 1000; // 1e6 bytes per us
  // An op is launch-bound below 2.5 MB of result, bandwidth-bound above.
  EXPECT_DOUBLE_EQ(queueMicros(P, 1000), 5);
  EXPECT_DOUBLE_EQ(queueMicros(P, 5e6), 10);
  // A transcendental op: its elements at transcendental_ns_per_element when
  // that is longer (none in the profile: memory-bound as any op).
  EXPECT_DOUBLE_EQ(queueMicros(P, 4e6, 1e6), 8);
  P.TranscendentalNsPerElement.Value = 20;
  EXPECT_DOUBLE_EQ(queueMicros(P, 4e6, 1e6), 20000);
  EXPECT_DOUBLE_EQ(queueMicros(P, 4e3, 1e3), 20);
  EXPECT_DOUBLE_EQ(queueMicros(P, 4e2, 1e2), 5);
  P.TranscendentalNsPerElement.Value = 0;
  SyncResume R;
  R.Cold = true;
  R.NextEager = true;
  R.QueuedMicros = 500;
  // Without the calibration's queue, the whole parameter.
  EXPECT_DOUBLE_EQ(coldShare(P, R), 1);
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 7);
  P.HostColdQueueUs.Value = 4000;
  const double Share = std::log1p(5.0) / std::log1p(40.0);
  EXPECT_DOUBLE_EQ(coldShare(P, R), Share);
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 7 * Share);
  EXPECT_DOUBLE_EQ(flushMicros(P, R), 4 + Share * 36);
  // A queue as long as the calibration's, or longer: the whole, no more.
  R.QueuedMicros = 4000;
  EXPECT_DOUBLE_EQ(coldShare(P, R), 1);
  R.QueuedMicros = 1e6;
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 7);
  EXPECT_DOUBLE_EQ(flushMicros(P, R), 40);
  // An empty queue adds nothing; the size unknown, the whole.
  R.QueuedMicros = 0;
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 0);
  EXPECT_DOUBLE_EQ(flushMicros(P, R), 4);
  R.QueuedMicros.reset();
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R), 7);
  // The region figure scales by its own queue.
  P.HasColdRegion = true;
  P.HostColdRegionUs.Value = 12;
  P.HostColdRegionQueueUs.Value = 16000;
  R.NextEager = false;
  R.NextOps = 4;
  R.QueuedMicros = 1600;
  EXPECT_DOUBLE_EQ(coldResumeMicros(P, R),
                   12 * std::log1p(16.0) / std::log1p(160.0));
  // The flush was measured behind host_cold_sync_us's queue.
  EXPECT_DOUBLE_EQ(flushMicros(P, R),
                   4 + 36 * std::log1p(16.0) / std::log1p(40.0));
  // A warm sync: no share, the warm flush.
  R.Cold = false;
  EXPECT_DOUBLE_EQ(coldShare(P, R), 0);
  EXPECT_DOUBLE_EQ(flushMicros(P, R), 4);
}

TEST(CostFormula, SyncColdMedianOfRuns) {
  DeviceProfile P = roundProfile();
  P.HasCold = true;
  P.HostColdSyncUs.Value = 7;
  SyncResume R;
  R.Cold = true;
  R.NextOps = 4;
  const double Warm = syncIdleMicros(P, R) - 7; // 16, the whole added: 23
  // Half its runs right after another sync, half behind a queue of unknown
  // size: the runtime's median of an even count, the middle two averaged.
  R.ColdQueues = {0.0, std::nullopt};
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), Warm + 3.5);
  R.ColdQueues = {0.0, std::nullopt, std::nullopt};
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), Warm + 7);
  R.ColdQueues = {0.0, 0.0, std::nullopt};
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), Warm);
  // Against the calibration's queue, each run its own share.
  P.HostColdQueueUs.Value = 4000;
  R.ColdQueues = {500.0, 4000.0};
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R),
                   Warm + 7 * (1 + std::log1p(5.0) / std::log1p(40.0)) / 2);
  // A run right after another sync is warm even without the queue figure.
  P.HostColdQueueUs.Value = 0;
  R.ColdQueues.clear();
  R.QueuedMicros = 0;
  EXPECT_DOUBLE_EQ(syncIdleMicros(P, R), Warm);
}

TEST(ColdSchedule, IterationsSinceLastSync) {
  using V = std::vector<int64_t>;
  // Alone in its loop: its own period, every run.
  EXPECT_EQ(iterationsSinceLastSync({{50, 0, 0}}, 0), V({50}));
  // A print every 50th step before an item() every 25th (printed.cpp).
  std::vector<ScheduledSync> Two = {{50, 0, 0}, {25, 0, 1}};
  EXPECT_EQ(iterationsSinceLastSync(Two, 0), V({25}));
  EXPECT_EQ(iterationsSinceLastSync(Two, 1), V({0, 25}));
  // The other way round in the body: the print follows the item(), which
  // always comes 25 iterations after its own last run.
  Two = {{50, 0, 1}, {25, 0, 0}};
  EXPECT_EQ(iterationsSinceLastSync(Two, 0), V({0}));
  EXPECT_EQ(iterationsSinceLastSync(Two, 1), V({25, 25}));
  // Out of phase: every 10th from 0 and every 10th from 5.
  std::vector<ScheduledSync> Shifted = {{10, 0, 0}, {10, 5, 1}};
  EXPECT_EQ(iterationsSinceLastSync(Shifted, 0), V({5}));
  EXPECT_EQ(iterationsSinceLastSync(Shifted, 1), V({5}));
  // Periods that do not divide: the cycle is their product.
  V Since = iterationsSinceLastSync({{3, 0, 0}, {4, 0, 1}}, 1);
  EXPECT_EQ(Since, V({0, 1, 2}));
  // A flush every 60th right after a print every 20th (blind3.cpp): its
  // sync waits behind nothing, its flush behind the 20 iterations that
  // print waited behind, since it does not flush.
  std::vector<ScheduledSync> Flush = {{20, 0, 0, false}, {60, 0, 1}};
  EXPECT_EQ(iterationsSinceLastSync(Flush, 1), V({20}));
  Flush[0].Counts = true;
  EXPECT_EQ(iterationsSinceLastSync(Flush, 1), V({0}));
  // A sync that does not count still does in an earlier iteration.
  std::vector<ScheduledSync> Earlier = {{10, 5, 0}, {4, 0, 1, false}};
  EXPECT_EQ(iterationsSinceLastSync(Earlier, 0), V({1, 3}));
  // Two in one iteration before it that do not count: back to the cycle
  // before, around the end.
  std::vector<ScheduledSync> Three = {
      {30, 0, 0, false}, {30, 0, 1, false}, {30, 0, 2}};
  EXPECT_EQ(iterationsSinceLastSync(Three, 2), V({30}));
  // A period or first run not known, or too long a cycle: nothing said.
  EXPECT_TRUE(iterationsSinceLastSync({{50, 0, 0}, {0, 0, 1}}, 0).empty());
  EXPECT_TRUE(iterationsSinceLastSync({{50, 0, 0}, {25, -1, 1}}, 0).empty());
  EXPECT_TRUE(
      iterationsSinceLastSync({{65521, 0, 0}, {65519, 0, 1}}, 0).empty());
  EXPECT_TRUE(iterationsSinceLastSync({{50, 0, 0}}, 1).empty());
}

TEST(CostFormula, RankBasis) {
  EXPECT_DOUBLE_EQ(rankBasisMicros(5000.0, 12, true, 1), 5000);
  EXPECT_DOUBLE_EQ(rankBasisMicros(std::nullopt, 12, false, 1), 12);
  EXPECT_DOUBLE_EQ(rankBasisMicros(std::nullopt, 12, true, 1), 1200);
  EXPECT_DOUBLE_EQ(rankBasisMicros(std::nullopt, 12, true, 0.1), 120);
  // At least 1 in 100: a line that runs once per loop still ranks.
  EXPECT_DOUBLE_EQ(rankBasisMicros(std::nullopt, 12, true, 0), 12);
}

} // namespace
