// Real LibTorch: the fix kinds applied by --fix (twice: the second run
// applies the fix the first skipped because it would insert at the same
// place), then the program built and run before and after. On Debian's CPU
// build of LibTorch both must print exactly the same: the device
// resolves to the CPU at run time, which Seam cannot know, so it reports
// and fixes every read. Proof that each applied fix compiles against the
// real headers, links, and computes the same.
// REQUIRES: libtorch
// UNSUPPORTED: keep-system-bodies
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/fixed.cpp
// RUN: not %seam check --no-cache --fix %t/fixed.cpp -- %torch 2>%t/fix1.err >/dev/null
// RUN: not %seam check --no-cache --fix %t/fixed.cpp -- %torch 2>%t/fix2.err >/dev/null
// RUN: FileCheck %s --check-prefix=FIRST --input-file=%t/fix1.err
// RUN: FileCheck %s --check-prefix=SECOND --input-file=%t/fix2.err
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/fixed.cpp
// RUN: clang++ %torch %s -o %t/before -ltorch -ltorch_cpu -lc10
// RUN: clang++ %torch %t/fixed.cpp -o %t/after -ltorch -ltorch_cpu -lc10
// RUN: %t/before > %t/before.out
// RUN: %t/after > %t/after.out
// RUN: diff %t/before.out %t/after.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/after.out
#include <torch/torch.h>
#include <cstdio>
#include <vector>

int main() {
  torch::manual_seed(0);
  torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor w = torch::randn({8}).to(dev);
  torch::Tensor scale = torch::rand({}).to(dev);
  torch::Tensor lr = torch::full({1}, 0.25).to(dev);
  double total = 0;
  int64_t positive = 0;
  float last = -1;
  std::vector<torch::Tensor> kept;
  for (int i = 0; i < 20; ++i) {
    torch::Tensor x = torch::randn({8}).to(dev);
    torch::Tensor loss = (x * w).pow(2).mean();
    total += loss.item<double>();
    positive += (x > 0).sum().item<int64_t>();
    last = loss.item<float>();
    x = x * scale.item<float>();
    torch::Tensor y;
    if (loss.item<float>() > 1.0)
      y = x * 2.0;
    else
      y = x * 0.5;
    w = w - y * lr.item<float>();
    kept.push_back(w.sum().cpu());
  }
  std::printf("total %.9g positive %lld last %.9g\n", total,
              (long long)positive, last);
  for (int64_t i = 0; i < 8; ++i)
    std::printf("w[%lld] %.9g\n", (long long)i, w[i].item<double>());
  for (auto &k : kept)
    std::printf("%.9g\n", k.item<double>());
}
// FIRST: seam: applied 5 of 5 fixes to 1 file
// SECOND: seam: applied 2 of 2 fixes to 1 file
// FIXED: {{^}}    total_device = total_device + loss.detach().reshape({});
// FIXED: {{^}}    positive_device = positive_device + (x > 0).sum().detach().reshape({}).to(torch::kLong);
// FIXED: {{^}}    last_device = loss.detach().reshape({}).clone();
// FIXED: {{^}}    x = x * scale.detach().reshape({}).to(x.device(), torch::result_type(x, static_cast<float>(0)));
// FIXED: {{^}}    y = torch::where(loss.detach().reshape({}).to(x.device(), torch::kFloat).to(torch::kDouble) > 1.0, x * 2.0, x * 0.5);
// FIXED: {{^}}    w = w - y * lr.detach().reshape({}).to(y.device(), torch::result_type(y, static_cast<float>(0)));
// FIXED: {{^}}    kept.push_back(w.sum());
// FIXED: {{^}}  if (last_device.defined())
// FIXED-NEXT: {{^}}    last = last_device.item<float>();
// FIXED-NEXT: {{^}}  for (auto &element : kept)
// FIXED-NEXT: {{^}}    element = element.cpu();
// FIXED: {{^}}  total += total_device.item<double>();
// FIXED: {{^}}  positive += positive_device.item<int64_t>();
// OUT: total {{[0-9.]+}} positive {{[0-9]+}} last {{[0-9.]+}}
