//===- CostTest.cpp - Fusion grouping, profiles and shape hints -----------===//
#include "Cost/CostModel.h"
#include "Cost/Fusion.h"
#include "Cost/Profile.h"

#include "gtest/gtest.h"

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
