//===- rt_resume.cpp - How fast the host resumes the device after a sync -===//
//
// A benchmark, not a test: the device idle after a sync as it depends on
// what came before it. Five tables, each a median over 21-200 rounds:
//  1. the enqueue of one eager op after item() behind K iterations of four
//     eager ops (16K floats): what a guarded print every Kth step costs;
//  2. the idle after item() behind one compiled kernel of growing length;
//  3. the idle after a sync when the host works D us before its next op;
//  4. the idle after a sync that follows a region's first call (its
//     compile), as a warm-up call and `synchronize()` do, against one
//     that follows a cached call;
//  5. the host time of a cached compiled call (two matmuls, a gelu and a
//     transpose over 64x64) right after the host waited W ms with the
//     device idle, yielding, spinning or sleeping: how long the host's
//     wait was, not what the device did, decides how cold it resumes.
// docs/runtime.md ("Who frees a task") and docs/cost-model.md ("What is
// and is not modelled") quote it. Build with -DSEAM_BUILD_BENCH=ON; run
// build/bin/seam_rt_resume_bench.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

using namespace seam::rt;
using Clock = std::chrono::steady_clock;

namespace {

double micros(Clock::time_point A, Clock::time_point B) {
  return std::chrono::duration<double, std::micro>(B - A).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

double siteIdle(const SourceSite &At) {
  for (const SiteStats &S : site_stats())
    if (S.line == At.Line && S.file == std::string(At.File))
      return S.device_idle_median_us;
  return 0;
}

void afterQueue() {
  std::printf("1. enqueue of one eager op after item() behind K iterations "
              "of 4 ops\n   K     wait (us)  enqueue (us)\n");
  const int64_t N = 1 << 14;
  Tensor W = randn({N}, kAccel, 1), G = randn({N}, kAccel, 2);
  for (int K : {1, 16, 64, 256}) {
    std::vector<double> Wait, Enqueue;
    for (int Round = 0; Round < 30; ++Round) {
      for (int I = 0; I < K; ++I) {
        W = W - G * 0.01;
        G = sigmoid(G * W);
      }
      auto A = Clock::now();
      (void)G.mean().item<float>();
      auto B = Clock::now();
      W = W * 1.0001;
      auto C = Clock::now();
      synchronize();
      Wait.push_back(micros(A, B));
      Enqueue.push_back(micros(B, C));
    }
    std::printf("   %-5d %-10.0f %.2f\n", K, median(Wait), median(Enqueue));
  }
}

void afterKernel() {
  std::printf("2. device idle after item() behind one compiled kernel\n"
              "   elements  wait (us)  idle (us)\n");
  Tensor One = ones({1}, kAccel);
  unsigned Line = 1;
  for (int64_t N : {int64_t(1) << 12, int64_t(1) << 16, int64_t(1) << 18,
                    int64_t(1) << 20, int64_t(1) << 22}) {
    Tensor X = randn({N}, kAccel, 1);
    auto F = compile(
        [](Tensor A) { return sigmoid(sigmoid(A * 1.5 + 0.25)).sum(); });
    (void)F(X).item<float>();
    const SourceSite At{"rt_resume.cpp/kernel", Line++};
    std::vector<double> Wait;
    for (int Round = 0; Round < 40; ++Round) {
      Tensor R = F(X);
      auto A = Clock::now();
      (void)R.item<float>(At);
      Wait.push_back(micros(A, Clock::now()));
      Tensor Q = One + 1.0;
      synchronize();
    }
    std::printf("   %-9lld %-10.0f %.2f\n", static_cast<long long>(N),
                median(Wait), siteIdle(At));
  }
}

void afterHostWork() {
  std::printf("3. device idle after a sync when the host works D us first\n"
              "   D (us)  idle (us)  idle - D (us)\n");
  Tensor X = randn({1 << 12}, kAccel, 1);
  for (int D : {0, 20, 50, 100, 300, 1000, 5000}) {
    const SourceSite At{"rt_resume.cpp/work", unsigned(D + 1)};
    for (int Round = 0; Round < 200; ++Round) {
      X = X * 1.0001;
      synchronize(At);
      auto Until = Clock::now() + std::chrono::microseconds(D);
      while (Clock::now() < Until) {
      }
      X = X * 1.0001;
      synchronize();
    }
    double Idle = siteIdle(At);
    std::printf("   %-7d %-10.2f %.2f\n", D, Idle, Idle - D);
  }
}

void afterCompile() {
  std::printf("4. device idle after item() (behind a ~30 us kernel) that "
              "follows a region's\n   first call (compiled) or a cached "
              "call\n   before   next work        idle (us)\n");
  Tensor One = ones({1}, kAccel), Out;
  Tensor Mid = randn({1 << 16}, kAccel, 3);
  auto Long = compile([](Tensor X) { return relu(X * 1.5 + 0.25).sum(); });
  auto Next = compile([](Tensor X) { return relu((X + 1.0) * 2.0 - 3.0); });
  for (int I = 0; I < 100; ++I) {
    Out = Next(One) + 1.0;
    (void)Long(Mid).item<float>();
  }
  // A chain of K ops: each K is a region never compiled before.
  auto Chain = [](int K) {
    return compile([K](Tensor X) {
      for (int I = 0; I < K; ++I)
        X = X * 1.0001 + 0.5;
      return X;
    });
  };
  int K = 3;
  for (bool Cold : {false, true})
    for (bool NextRegion : {false, true}) {
      const SourceSite At{"rt_resume.cpp/compile",
                          unsigned(1 + 2 * Cold + NextRegion)};
      for (int Round = 0; Round < 21; ++Round) {
        if (Cold)
          Out = Chain(K++)(One);
        else
          Out = Next(One);
        (void)Long(Mid).item<float>(At);
        Out = NextRegion ? Next(One) : One + 1.0;
        synchronize();
      }
      std::printf("   %-8s %-16s %.2f\n", Cold ? "compile" : "cached",
                  NextRegion ? "4-op region" : "eager op", siteIdle(At));
    }
}

void afterHostWait() {
  std::printf("5. host time of a cached compiled call after the host "
              "waited W ms, the device idle\n   W (ms)  yield (us)  spin "
              "(us)  sleep (us)\n");
  Tensor X = randn({64, 64}, kAccel, 1), W = randn({64, 64}, kAccel, 2);
  auto Step = compile([](Tensor X, Tensor W) {
    Tensor G = matmul(gelu(matmul(X, W)).transpose(0, 1), X);
    return W - G * 0.001;
  });
  for (int I = 0; I < 50; ++I)
    W = Step(X, W);
  synchronize();
  for (double Ms : {0.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
    std::printf("   %-7g", Ms);
    for (int Mode = 0; Mode < 3; ++Mode) {
      std::vector<double> Call;
      for (int Round = 0; Round < 21; ++Round) {
        synchronize();
        auto Until = Clock::now() + std::chrono::microseconds(int(Ms * 1000));
        if (Mode == 2)
          std::this_thread::sleep_until(Until);
        else
          while (Clock::now() < Until)
            if (Mode == 0)
              std::this_thread::yield();
        auto A = Clock::now();
        W = Step(X, W);
        Call.push_back(micros(A, Clock::now()));
      }
      std::printf(" %-11.1f", median(Call));
    }
    std::printf("\n");
  }
}

} // namespace

int main() {
  afterQueue();
  afterKernel();
  afterHostWork();
  afterCompile();
  afterHostWait();
}
