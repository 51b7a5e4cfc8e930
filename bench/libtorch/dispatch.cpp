// Measures LibTorch's eager dispatch cost per op: the host work between
// getting a value back and the next op reaching the device, which the GPU
// profiles use as host_resume_us. CPU build (Debian libtorch-dev 1.13), so
// it measures the dispatcher plus a one-element CPU kernel; the CUDA launch
// itself is launch_latency_us. Not a test. Build and run:
//   g++ -O2 -std=c++17 bench/libtorch/dispatch.cpp -o /tmp/dispatch \
//     -isystem /usr/include/torch/csrc/api/include -ltorch -ltorch_cpu -lc10
//   /tmp/dispatch
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  torch::NoGradGuard NoGrad;
  at::set_num_threads(1);
  auto A = torch::ones({1}), B = torch::ones({1}), Out = torch::empty({1});
  const int Batch = 1000, Rounds = 200;
  for (int I = 0; I < 10000; ++I) // warm-up
    torch::add_out(Out, A, B);
  std::vector<double> PerOp, PerAlloc;
  for (int R = 0; R < Rounds; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Batch; ++I)
      torch::add_out(Out, A, B);
    auto T1 = std::chrono::steady_clock::now();
    for (int I = 0; I < Batch; ++I)
      Out = A + B; // allocating form, as model code writes it
    auto T2 = std::chrono::steady_clock::now();
    PerOp.push_back(std::chrono::duration<double, std::micro>(T1 - T0).count() /
                    Batch);
    PerAlloc.push_back(
        std::chrono::duration<double, std::micro>(T2 - T1).count() / Batch);
  }
  std::sort(PerOp.begin(), PerOp.end());
  std::sort(PerAlloc.begin(), PerAlloc.end());
  std::printf("{\"add_out_us\": %.3f, \"add_alloc_us\": %.3f, \"batches\": %d, "
              "\"ops_per_batch\": %d}\n",
              PerOp[PerOp.size() / 2], PerAlloc[PerAlloc.size() / 2], Rounds,
              Batch);
}
