//===- ThreadTest.cpp - seam::rt from several host threads, hostile input -===//

#include "TestUtil.h"

#include <thread>

using namespace seam::rt;

namespace {

// Two host threads compiling and running regions at once: each records its
// own region; results are exact and nothing is shared by accident.
TEST(Threads, TwoThreadsCompile) {
  auto Work = [](float Scale, float &Out) {
    auto F = compile([&](const Tensor &X) { return (X * Scale + 1.0).sum(); });
    float Acc = 0;
    for (int I = 0; I < 50; ++I)
      Acc += F(ones({64}, kAccel)).item<float>();
    Out = Acc;
  };
  float A = 0, B = 0;
  std::thread T1(Work, 2.0f, std::ref(A));
  std::thread T2(Work, 3.0f, std::ref(B));
  T1.join();
  T2.join();
  EXPECT_FLOAT_EQ(A, 50 * 64 * 3.0f);
  EXPECT_FLOAT_EQ(B, 50 * 64 * 4.0f);
}

TEST(Hostile, TraceToUnwritablePath) {
  EXPECT_THROW(trace_to("/nonexistent-dir-seam/trace.json"), Error);
  // Still usable afterwards.
  EXPECT_FLOAT_EQ((ones({2}, kAccel) + 1.0).sum().item<float>(), 4.0f);
}

TEST(Hostile, HugeShapes) {
  EXPECT_THROW(ones({int64_t(1) << 40, int64_t(1) << 40}, kCPU), Error);
  EXPECT_THROW(ones({-1, 2}, kCPU), Error);
}

} // namespace
