// Test bodies (gtest TEST, doctest and Catch2 TEST_CASE) are not hot paths
// by themselves, and their assertion macros are not loops; loops inside a
// test are.
// RUN: not %seam check %s -- %mock -isystem %inputs/testing | FileCheck %s --implicit-check-not='[seam-'
#include <frameworks.h>
#include <torch/torch.h>

TEST(Model, Converges) {
  auto w = torch::randn({4}, torch::kCUDA);
  EXPECT_TRUE(w.sum().item<float>() < 10);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(w.max().item<float>() < 10);
  // CHECK: :[[@LINE-1]]:25: warning: {{.*}} [seam-host-sync]
}

DOCTEST_TEST_CASE("checks") {
  auto w = torch::randn({4}, torch::kCUDA);
  CHECK(w.sum().item<float>() < 10);
  for (int i = 0; i < 3; ++i)
    CHECK(w.max().item<float>() < 10);
  // CHECK: :[[@LINE-1]]:19: warning: {{.*}} [seam-host-sync]
}

CATCH_TEST_CASE("requires") {
  auto w = torch::randn({4}, torch::kCUDA);
  REQUIRE(w.sum().item<float>() < 10);
  SECTION("more") { REQUIRE(w.min().item<float>() < 10); }
  for (int i = 0; i < 3; ++i)
    REQUIRE(w.max().item<float>() < 10);
  // CHECK: :[[@LINE-1]]:21: warning: {{.*}} [seam-host-sync]
}
