// collected-copies: copies to the host collected in a loop become device
// tensors collected in the loop and copied after it (docs/fixes.md). Each
// case that withholds the fix sits next to one that gets it.
// RUN: not %seam check --no-cache %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/a.cpp
// RUN: not %seam check --no-cache --fix %t/a.cpp -- %mock 2>%t/fix.err >/dev/null
// RUN: FileCheck %s --check-prefix=APPLIED --input-file=%t/fix.err
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/a.cpp
// RUN: clang++ -fsyntax-only %mock %t/a.cpp
#include <torch/torch.h>
#include <vector>

torch::Tensor model(const torch::Tensor &x);

// Predictions collected per batch, read after the loop.
std::vector<torch::Tensor> predict(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  std::vector<torch::Tensor> preds;
  for (int i = 0; i < n; ++i) {
    preds.push_back(model(x).argmax(1).cpu());
    // CHECK: :[[@LINE-1]]:40: warning: host sync: '.cpu()'{{.*}}[seam-host-sync]
    // CHECK: note: fix (collected-copies): collect the device tensors in 'preds' and copy them to the host after the loop (line [[@LINE+3]]); until then they stay in device memory; removes ~{{.*}}; adds no device op; the copies wait once, after the loop (profile h100)
    // CHECK: fix-it:"{{.*}}":{[[@LINE-3]]:21-[[@LINE-3]]:45}:"model(x).argmax(1)"
    // CHECK: fix-it:"{{.*}}":{[[@LINE+1]]:4-[[@LINE+1]]:4}:"\n  for (auto &element : preds)\n    element = element.cpu();"
  }
  return preds;
}
// FIXED:      {{^    }}preds.push_back(model(x).argmax(1));{{$}}
// FIXED:      {{^  }}}{{$}}
// FIXED-NEXT: {{^  }}for (auto &element : preds){{$}}
// FIXED-NEXT: {{^    }}element = element.cpu();{{$}}
// FIXED-NEXT: {{^  }}return preds;

// A named tensor or a view may change in place before the loop ends; a list
// the loop also reads: no fix.
void withheld(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  std::vector<torch::Tensor> a, b;
  std::vector<torch::Tensor> c;
  for (int i = 0; i < n; ++i) {
    auto y = model(x);
    a.push_back(y.cpu());
    // CHECK: :[[@LINE-1]]:19: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'y' is not a new tensor: it may change in place before the loop ends; suggestion: keep the value on the device
    b.push_back(model(x).view({-1}).cpu());
    // CHECK: :[[@LINE-1]]:37: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'model(x).view({-1})' is a view ('view'): its tensor may change in place before the loop ends;
    c.push_back(model(x).sum().cpu());
    // CHECK: :[[@LINE-1]]:32: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'c' is read inside the loop at line [[@LINE+1]];
    if (c.size() > 10)
      c.clear();
  }
}

// APPLIED: seam: applied 1 of 1 fix to 1 file
