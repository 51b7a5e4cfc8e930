//===- SiteTest.cpp - The site report: which line synced, how often -------===//
//
// Each test takes its lines with __LINE__ on the line of the call it
// checks, so the records it reads are its own (site_stats() covers the whole
// process).
//
//===----------------------------------------------------------------------===//

#include "seam/rt.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace seam::rt {
namespace {

std::optional<SiteStats> siteAt(unsigned Line, const std::string &Api) {
  for (const SiteStats &S : site_stats())
    if (S.file == __FILE__ && S.line == Line && S.api == Api)
      return S;
  return std::nullopt;
}

TEST(SiteTest, ItemInALoopIsOneSiteRunEachIteration) {
  Tensor X = ones({16}, kAccel);
  unsigned Line = 0;
  for (int I = 0; I < 7; ++I) {
    Line = __LINE__; float V = (X * double(I)).sum().item<float>();
    EXPECT_EQ(V, 16.0f * I);
  }
  std::optional<SiteStats> S = siteAt(Line, "item");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->executions, 7);
  EXPECT_EQ(S->syncs, 7);
  EXPECT_EQ(S->graph_breaks, 0);
  EXPECT_EQ(S->pieces, 0);
  EXPECT_GT(S->host_wait_us, 0);
  // Each sync's idle ends when the next iteration's kernel starts.
  EXPECT_GE(S->idle_samples, 6);
}

TEST(SiteTest, HostValuesOnTheHostAreNotSites) {
  Tensor X = ones({4}, kCPU);
  unsigned Line = __LINE__; (void)X.sum().item<float>();
  EXPECT_FALSE(siteAt(Line, "item")); // ran, but neither synced nor cut
}

unsigned HelperLine = 0;
float readInHelper(const Tensor &T) {
  HelperLine = __LINE__; return T.item<float>();
}

TEST(SiteTest, ASyncInAHelperIsTheHelpersLine) {
  unsigned CompileLine = __LINE__; auto F = compile([](Tensor X) {
    Tensor H = X * 2.0;
    float S = readInHelper(H.sum());
    return H + double(S);
  });
  Tensor X = ones({8}, kAccel);
  for (int I = 0; I < 5; ++I)
    X = F(X);
  synchronize();
  std::optional<SiteStats> S = siteAt(HelperLine, "item");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->executions, 5);
  EXPECT_EQ(S->syncs, 5);
  EXPECT_EQ(S->graph_breaks, 5);
  EXPECT_EQ(S->pieces, 5); // the piece before each cut
  std::optional<SiteStats> R = siteAt(CompileLine, "compile");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->executions, 5);
  EXPECT_EQ(R->pieces, 5);         // the last piece of each call
  EXPECT_EQ(R->region_pieces, 10); // two per call
  // The cache is the process's: another test may have compiled the same
  // piece already.
  EXPECT_LE(R->compiles, 1);
  EXPECT_EQ(R->recompiles, 0);
}

TEST(SiteTest, ACutInALambdaOnTheHostIsABreakWithoutASync) {
  unsigned Line = 0;
  auto F = compile([&](Tensor X) {
    Tensor H = relu(X - 0.5);
    Line = __LINE__; float M = H.max().item<float>();
    return H * double(M);
  });
  Tensor X = randn({32}, kCPU, 3);
  for (int I = 0; I < 3; ++I)
    (void)F(X);
  std::optional<SiteStats> S = siteAt(Line, "item");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->executions, 3);
  EXPECT_EQ(S->graph_breaks, 3);
  EXPECT_EQ(S->syncs, 0);
}

TEST(SiteTest, AChangedShapeRecompilesThePiece) {
  unsigned Line = __LINE__; auto F = compile([](Tensor X) { return relu(X) * 3.0; });
  (void)F(ones({4}, kAccel));
  (void)F(ones({8}, kAccel)); // same piece, new shape: a recompile
  (void)F(ones({4}, kAccel)); // cached
  // Its sizes changed once: the second plan serves any sizes.
  Tensor Big = F(full({16}, -2.0, kAccel));
  Tensor Odd = F(full({5}, 2.0, kAccel));
  synchronize();
  std::optional<SiteStats> R = siteAt(Line, "compile");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->executions, 5);
  EXPECT_EQ(R->compiles, 2);
  EXPECT_EQ(R->recompiles, 1);
  EXPECT_EQ(Big.size(0), 16);
  EXPECT_EQ(Odd.sum().item<float>(), 30.0f);
  EXPECT_EQ(Big.sum().item<float>(), 0.0f);
}

TEST(SiteTest, ChangedSizesReuseOneDynamicPlan) {
  unsigned Line = __LINE__; auto F = compile([](Tensor X) { return (relu(X - 1.0) * 2.0).sum(); });
  for (int64_t N : {3, 7, 100, 1000, 65536 * 3 + 1, 1}) {
    Tensor X = arange(N, kAccel) * 1.0;
    double Want = 0;
    for (int64_t I = 0; I < N; ++I)
      Want += 2.0 * std::max(0.0, double(I) - 1.0);
    EXPECT_NEAR(F(X).item<float>(), Want, 1e-4 * (1 + Want)) << N;
  }
  std::optional<SiteStats> R = siteAt(Line, "compile");
  ASSERT_TRUE(R);
  // 3, then 7 (the dynamic plan); 1 element is a different plan (a
  // broadcast), compiled once more.
  EXPECT_EQ(R->compiles, 3);
  // A mean divides by its count in the kernel: each size compiles.
  unsigned MeanLine = __LINE__; auto G = compile([](Tensor X) { return (X * 2.0).mean(); });
  for (int64_t N : {3, 7, 9})
    EXPECT_NEAR(G(ones({N}, kAccel)).item<float>(), 2.0f, 1e-6);
  std::optional<SiteStats> M = siteAt(MeanLine, "compile");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->compiles, 3);
}

TEST(SiteTest, IdleAfterASyncLastsUntilTheDevicesNextTask) {
  Tensor X = ones({64}, kAccel);
  unsigned Line = 0;
  for (int I = 0; I < 3; ++I) {
    Line = __LINE__; (void)(X + double(I)).sum().item<float>();
    // The host is busy for 3 ms before it gives the device more work.
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    X = X * 1.0;
  }
  synchronize();
  std::optional<SiteStats> S = siteAt(Line, "item");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->idle_samples, 3);
  EXPECT_GE(S->device_idle_median_us, 3000);
  EXPECT_GE(S->device_idle_us, 9000);
  EXPECT_LT(S->device_idle_median_us, 1e6);
}

TEST(SiteTest, EverySyncingApiNamesItsLine) {
  Tensor X = full({6}, 2.0, kAccel);
  unsigned Print = __LINE__; std::ostringstream OS; OS << X;
  unsigned Cpu = __LINE__; Tensor H = X.cpu();
  unsigned To = __LINE__; Tensor H2 = X.to(kCPU);
  unsigned Nz = __LINE__; Tensor I = nonzero(X > 1.0);
  unsigned Ms = __LINE__; Tensor M = masked_select(X, X > 1.0);
  unsigned Sync = __LINE__; synchronize();
  EXPECT_EQ(siteAt(Print, "operator<<").value_or(SiteStats()).syncs, 1);
  EXPECT_EQ(siteAt(Cpu, "cpu").value_or(SiteStats()).syncs, 1);
  EXPECT_EQ(siteAt(To, "to").value_or(SiteStats()).syncs, 1);
  EXPECT_EQ(siteAt(Nz, "nonzero").value_or(SiteStats()).syncs, 1);
  EXPECT_EQ(siteAt(Ms, "masked_select").value_or(SiteStats()).syncs, 1);
  EXPECT_EQ(siteAt(Sync, "synchronize").value_or(SiteStats()).syncs, 1);
  EXPECT_EQ(I.size(0), 6);
  EXPECT_EQ(M.size(0), 6);
  // cpu() is built on to(): the program's line counts once, as cpu().
  EXPECT_FALSE(siteAt(Cpu, "to"));
}

TEST(SiteTest, WriteReportIsTheDocumentedJson) {
  Tensor X = ones({4}, kAccel);
  unsigned Line = __LINE__; (void)X.sum().item<float>();
  std::string Path = ::testing::TempDir() + "seam-site-report.json";
  write_report(Path);
  std::ifstream In(Path);
  nlohmann::json J = nlohmann::json::parse(In);
  EXPECT_EQ(J["format"], "seam-rt-report");
  EXPECT_EQ(J["version"], 1);
  for (const char *K : {"regions", "graph_breaks", "syncs", "device_idle_us",
                        "host_wait_us", "idle_after_syncs_us",
                        "idle_elsewhere_us"})
    EXPECT_TRUE(J["totals"].contains(K)) << K;
  bool Found = false;
  for (const nlohmann::json &S : J["sites"]) {
    for (const char *K :
         {"file", "line", "api", "executions", "syncs", "graph_breaks",
          "pieces", "region_pieces", "compiles", "recompiles", "host_wait_us",
          "device_idle_us", "idle_samples", "device_idle_median_us"})
      EXPECT_TRUE(S.contains(K)) << K;
    Found |= S["file"] == __FILE__ && S["line"] == Line && S["api"] == "item";
  }
  EXPECT_TRUE(Found);
  std::remove(Path.c_str());
  EXPECT_THROW(write_report("/no/such/dir/report.json"), Error);
}

} // namespace
} // namespace seam::rt
