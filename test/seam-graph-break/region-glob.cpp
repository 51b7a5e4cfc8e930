// --region marks functions as compiled regions by qualified-name glob.
// RUN: %seam check %s -- %mock | FileCheck %s --check-prefix=NONE --allow-empty --implicit-check-not='[seam-'
// RUN: not %seam check --region 'ns::train_*' --region 'Net::forward' %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <torch/torch.h>

namespace ns {
torch::Tensor train_step(torch::Tensor x) {
  auto h = torch::ones({1});
  return x * h.item<float>();
  // CHECK: :[[@LINE-1]]:16: warning: graph break: {{.*}} inside compiled region 'ns::train_step'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE-4]]:15: note: compiled region 'ns::train_step' begins here (matches --region 'ns::train_*')
}
torch::Tensor eval_step(torch::Tensor x) {
  auto h = torch::ones({1});
  return x * h.item<float>();
}
} // namespace ns

struct Net {
  torch::Tensor forward(torch::Tensor x) {
    auto h = torch::ones({1});
    return x * h.item<float>();
    // CHECK: :[[@LINE-1]]:18: warning: graph break: {{.*}} inside compiled region 'Net::forward'{{.*}} [seam-graph-break]
  }
};
// NONE-NOT: seam-
