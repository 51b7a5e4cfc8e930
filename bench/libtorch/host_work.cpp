// Measures the host work LibTorch code does between a sync and its next
// op, which the GPU profiles use as host_print_us, host_print_tensor_us,
// host_element_us and host_flush_us (docs/cost-model.md, "Host work after
// a sync"): a print of a value read with item(), a print of a 0-dim
// tensor, one iteration of a loop summing floats copied to the host, and
// the write of a print that ends with std::endl (to a temporary file). CPU
// build (Debian libtorch-dev 1.13): the formatting is the host's alone, as it
// is after a CUDA sync. Output goes to /dev/null. Not a test. Build and run:
//   g++ -O2 -std=c++17 bench/libtorch/host_work.cpp -o /tmp/host_work \
//     -isystem /usr/include/torch/csrc/api/include -ltorch -ltorch_cpu -lc10
//   /tmp/host_work
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

namespace {
/// Median microseconds per call of \p Fn over \p Rounds batches of \p Batch.
double medianUs(int Rounds, int Batch, const std::function<void()> &Fn) {
  for (int I = 0; I < Batch; ++I) // warm-up
    Fn();
  std::vector<double> Us;
  for (int R = 0; R < Rounds; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Batch; ++I)
      Fn();
    auto T1 = std::chrono::steady_clock::now();
    Us.push_back(std::chrono::duration<double, std::micro>(T1 - T0).count() /
                 Batch);
  }
  std::sort(Us.begin(), Us.end());
  return Us[Us.size() / 2];
}
} // namespace

int main() {
  torch::NoGradGuard NoGrad;
  at::set_num_threads(1);
  std::ofstream Sink("/dev/null");
  torch::Tensor Loss = torch::full({}, 0.4375);
  float Value = Loss.item<float>();
  int Step = 0;
  double Print = medianUs(200, 200, [&] {
    Sink << "step " << ++Step << " loss " << Value << '\n';
  });
  double PrintTensor = medianUs(
      200, 200, [&] { Sink << "step " << ++Step << " loss " << Loss << '\n'; });
  std::vector<float> Host(1 << 14, 1.0f);
  volatile double Kept = 0;
  double Loop = medianUs(200, 20, [&] {
    double Acc = 0;
    for (float X : Host)
      Acc += X;
    Kept = Acc;
  });
  // The same print ending in std::endl, to a file (unlinked once open).
  std::string Path = "/tmp/seam-host-work-XXXXXX";
  int Fd = mkstemp(Path.data());
  std::ofstream File(Path);
  unlink(Path.c_str());
  close(Fd);
  double Flushed = medianUs(200, 200, [&] {
    File << "step " << ++Step << " loss " << Value << std::endl;
  });
  std::printf("host_print_us %.3f (\"step \" << i << \" loss \" << v << "
              "'\\n')\n",
              Print);
  std::printf("host_print_tensor_us %.3f (the same with a 0-dim tensor, "
              "minus host_print_us; %.3f in all)\n",
              std::max(0.0, PrintTensor - Print), PrintTensor);
  std::printf("host_element_us %.5f (a loop summing %zu floats: %.3f us)\n",
              Loop / Host.size(), Host.size(), Loop);
  std::printf("host_flush_us %.3f (the print ending in std::endl, to a file, "
              "minus host_print_us; %.3f in all)\n",
              std::max(0.0, Flushed - Print), Flushed);
}
