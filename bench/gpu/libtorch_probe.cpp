// Measures, with LibTorch on a CUDA device, what Seam's cost model calls
// host_resume (the host's per-op dispatch cost once it has a value back)
// and the device idle gap around `loss.item()` in a real framework, for
// comparison with the model's sum. Prints one JSON object.
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using Clock = std::chrono::steady_clock;
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  torch::NoGradGuard no_grad;
  auto dev = torch::Device(torch::kCUDA);
  auto big = torch::randn({4096, 4096}, dev);
  auto small = torch::randn({1024}, dev);
  auto out = torch::empty({1024}, dev);
  for (int i = 0; i < 100; ++i) { // warm-up
    torch::add_out(out, small, small);
    (void)big.sum().item<float>();
  }
  torch::cuda::synchronize();

  // Host cost of dispatching one small eager op (queue not full).
  std::vector<double> dispatch;
  for (int r = 0; r < 200; ++r) {
    torch::cuda::synchronize();
    auto a = Clock::now();
    for (int i = 0; i < 100; ++i)
      torch::add_out(out, small, small);
    auto b = Clock::now();
    dispatch.push_back(
        std::chrono::duration<double, std::micro>(b - a).count() / 100);
  }

  // Device idle around item(): e1 after the producer, read, e2 with the
  // next op; elapsed(e1, e2) is how long the device had nothing to do
  // (minus the sum kernel and copy that item() itself enqueues).
  std::vector<double> gap, item_host;
  auto stream = at::cuda::getCurrentCUDAStream();
  for (int r = 0; r < 300; ++r) {
    auto e1 = at::cuda::CUDAEvent(cudaEventDefault);
    auto e2 = at::cuda::CUDAEvent(cudaEventDefault);
    auto y = torch::mm(big, big); // ~0.2 ms of device work
    e1.record(stream);
    auto a = Clock::now();
    float v = small.sum().item<float>();
    auto b = Clock::now();
    e2.record(stream);
    torch::add_out(out, small, small);
    e2.synchronize();
    gap.push_back(e1.elapsed_time(e2) * 1000.0);
    item_host.push_back(
        std::chrono::duration<double, std::micro>(b - a).count());
    (void)v;
    (void)y;
  }
  std::printf("{\n  \"torch_version\": \"%d.%d.%d\",\n", TORCH_VERSION_MAJOR,
              TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
  std::printf("  \"eager_dispatch_us\": %.3f,\n", median(dispatch));
  std::printf("  \"item_idle_gap_us\": %.3f,\n", median(gap));
  std::printf("  \"item_host_after_e1_us\": %.3f\n}\n", median(item_host));
  return 0;
}
