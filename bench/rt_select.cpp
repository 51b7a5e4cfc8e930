//===- rt_select.cpp - What nonzero and masked_select cost per element ---===//
//
// A benchmark, not a test: the time of nonzero() and masked_select() on
// the accelerator (the sync, both copies and the host's selection), by
// input size and by the fraction selected, median of 41 calls each. The
// cost model charges host_select_us_per_element per input element
// whatever is selected; this shows how far that holds. docs/runtime.md
// ("Numbers") and docs/cost-model.md quote it. Build with
// -DSEAM_BUILD_BENCH=ON; run build/bin/seam_rt_select_bench.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace seam::rt;

int main() {
  std::printf("%-13s %8s %9s %10s %8s\n", "op", "elements", "selected",
              "median us", "ns/elem");
  for (int64_t N : {int64_t(1) << 13, int64_t(1) << 16, int64_t(1) << 20}) {
    // randn > 0 selects half, at random; randn > 1.5 about 7%.
    for (double Threshold : {0.0, 1.5}) {
      Tensor X = randn({N}, kAccel, 1);
      Tensor Mask = X > Threshold;
      synchronize();
      for (bool Nonzero : {false, true}) {
        std::vector<double> T;
        for (int R = 0; R < 41; ++R) {
          synchronize();
          auto A = std::chrono::steady_clock::now();
          Tensor Y = Nonzero ? nonzero(Mask) : masked_select(X, Mask);
          auto B = std::chrono::steady_clock::now();
          T.push_back(std::chrono::duration<double, std::micro>(B - A).count());
        }
        std::sort(T.begin(), T.end());
        std::printf("%-13s %8lld %8s%% %10.1f %8.2f\n",
                    Nonzero ? "nonzero" : "masked_select", (long long)N,
                    Threshold == 0.0 ? "50" : "7", T[20], T[20] * 1000 / N);
      }
    }
  }
}
