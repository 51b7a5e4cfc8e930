// Fixes inside templates: the rewrite is made from the template's own text,
// so it is offered when nothing it depends on is spelled with a template
// parameter (a loader type, as in pytorch/examples' mnist, is fine), and
// withheld when the sum's or the value's type is (docs/fixes.md).
// RUN: not %seam check --no-cache %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/a.cpp
// RUN: not %seam check --no-cache --fix %t/a.cpp -- %mock 2>%t/fix.err >/dev/null
// RUN: FileCheck %s --check-prefix=APPLIED --input-file=%t/fix.err
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/a.cpp
// RUN: clang++ -fsyntax-only %mock %t/a.cpp
#include <torch/torch.h>
#include <cstdint>
#include <vector>

template <typename Loader>
double evaluate(Loader &loader, torch::Tensor w) {
  w = w.to(torch::kCUDA);
  double total = 0;
  for (auto &x : loader)
    total += (x * w).sum().template item<float>();
  // CHECK: :[[@LINE-1]]:37: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: fix (deferred-accumulation): accumulate 'total' on the device in 'total_device'
  return total;
}

// Withheld: the sum's type is the template's parameter.
template <typename T>
T generic(std::vector<torch::Tensor> &xs) {
  T acc = 0;
  for (auto &x : xs)
    acc += x.to(torch::kCUDA).sum().template item<float>();
  // CHECK: :[[@LINE-1]]:46: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: no automatic fix: 'acc' has a type that depends on the template's parameters: one rewrite would have to hold for every instantiation;
  return acc;
}

// Withheld: the value's type is the template's parameter.
template <typename T>
double reads(std::vector<torch::Tensor> &xs) {
  double s = 0;
  for (auto &x : xs)
    s += x.to(torch::kCUDA).sum().template item<T>();
  // CHECK: :[[@LINE-1]]:44: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: no automatic fix: the value added to 's' has a type that depends on the template's parameters
  return s;
}

double use(std::vector<torch::Tensor> &xs, torch::Tensor w) {
  return evaluate(xs, w) + generic<float>(xs) + generic<int64_t>(xs) +
         reads<float>(xs) + reads<int>(xs);
}
// APPLIED: seam: applied 1 of 1 fix to 1 file
// FIXED: {{^}}  auto total_device = torch::zeros({}, torch::kDouble);
// FIXED: {{^}}    total_device = total_device + (x * w).sum().detach().reshape({});
// FIXED: {{^}}  total += total_device.item<float>();
