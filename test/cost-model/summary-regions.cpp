// --summary: a compiled region called a known number of times per run (from
// a loop with a constant bound) costs that many times its cost per call, and
// ranks by that total above a cheaper loop.
// RUN: not %seam check --profile %inputs/profiles/test.json --summary %s -- %mock -I%repo/include > %t.txt
// RUN: FileCheck %s --input-file %t.txt --check-prefix=SUMMARY
// SUMMARY: summary (profile {{.*}}), most expensive first:
// SUMMARY-NEXT: rank kind name
// SUMMARY-NEXT: {{[0-9]+}} region step {{.*}} 100 {{[0-9.]+ (us|ms)}}
// SUMMARY: {{[0-9]+}} loop cheap {{.*}} 10 {{[0-9.]+ (us|ms)}}
#include <seam/compiled.h>
#include <torch/torch.h>

SEAM_COMPILED torch::Tensor step(const torch::Tensor &x) {
  auto y = torch::relu(x) * 2;
  if (y.max().item<float>() > 1.0f)
    y = y / 2;
  return y;
}

void cheap(const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i)
    x.item<float>();
}

int main() {
  auto x = torch::ones({4}, torch::kCUDA);
  for (int i = 0; i < 100; ++i)
    x = step(x);
  cheap(x);
}
