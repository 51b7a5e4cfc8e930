// scalar-operand: a scalar read that only feeds a tensor op becomes the
// one-element tensor itself, detached, zero-dimensional, on the other
// operand's device and in the dtype the scalar would have promoted it to
// (docs/fixes.md). Each case that withholds the fix sits next to one that
// gets it.
// RUN: not %seam check --no-cache %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
//
// --fix round trip: the file still compiles with the same flags, and Seam
// no longer reports the fixed sites (nor anything new).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/a.cpp
// RUN: not %seam check --no-cache --fix %t/a.cpp -- %mock 2>%t/fix.err >/dev/null
// RUN: FileCheck %s --check-prefix=APPLIED --input-file=%t/fix.err
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/a.cpp
// RUN: clang++ -fsyntax-only %mock %t/a.cpp
// RUN: not %seam check --no-cache %t/a.cpp -- %mock | FileCheck %s --check-prefix=AFTER --implicit-check-not='[seam-'
#include <torch/torch.h>

#define SCALE(t, s) ((t) * (s).item<float>())

torch::Tensor step(const torch::Tensor &x);

void train(torch::Tensor x, torch::Tensor scale, torch::Tensor lr,
           torch::Tensor w, int n) {
  x = x.to(torch::kCUDA);
  scale = scale.to(torch::kCUDA);
  lr = lr.to(torch::kCUDA);
  for (int i = 0; i < n; ++i) {
    torch::Tensor out = step(x);
    out = out * scale.item<float>();
    // CHECK: :[[@LINE-1]]:23: warning: host sync: '.item()' reads 'scale'{{.*}}[seam-host-sync]
    // CHECK: note: fix (scalar-operand): use the one-element tensor itself as the operand of 'operator*', zero-dimensional, on the device of 'out' and in the dtype a float scalar gives it, so the result is the same; removes ~{{.*}} of device idle per execution
    // CHECK: fix-it:"{{.*}}":{[[@LINE-3]]:17-[[@LINE-3]]:36}:"scale.detach().reshape({}).to(out.device(), torch::result_type(out, static_cast<float>(0)))"
    out.mul_(lr.item<double>());
    // CHECK: :[[@LINE-1]]:17: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (scalar-operand): use the one-element tensor itself as the operand of 'mul_'
    // CHECK: fix-it:"{{.*}}":{[[@LINE-3]]:14-[[@LINE-3]]:31}:"lr.detach().reshape({}).to(out.device(), torch::result_type(out, static_cast<double>(0)))"
    torch::Tensor y = scale.item().toFloat() - out;
    // CHECK: :[[@LINE-1]]:29: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (scalar-operand): use the one-element tensor itself as the operand of 'operator-'{{.*}} in the dtype a float scalar gives it
    // CHECK: fix-it:"{{.*}}":{[[@LINE-3]]:23-[[@LINE-3]]:45}:"scale.detach().reshape({}).to(out.device(), torch::result_type(out, static_cast<float>(0)))"
    y -= lr.item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (scalar-operand): use the one-element tensor itself as the operand of 'operator-='
    w = w + y;

    // Withheld: the other operand would be evaluated again.
    torch::Tensor z = (out + y) * scale.item<float>();
    // CHECK: :[[@LINE-1]]:41: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: the other operand of 'operator*' is not a plain name: the fix reads its device and dtype, which would evaluate it again; suggestion:
    // Withheld: `item()` without a type promotes by x's dtype, known only
    // at run time.
    z = z * scale.item();
    // CHECK: :[[@LINE-1]]:19: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: no fix kind rewrites this use of the value;
    // Withheld: the value feeds host arithmetic first.
    z = z * (2 * lr.item<float>());
    // CHECK: :[[@LINE-1]]:21: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: no fix kind rewrites this use of the value;
    // Withheld: written inside a macro.
    z = SCALE(z, scale);
    // CHECK: :[[@LINE-1]]:9: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: the operand is written inside a macro;
    w = w + z;
  }
}
// APPLIED: seam: applied 4 of 4 fixes to 1 file
// FIXED: out = out * scale.detach().reshape({}).to(out.device(), torch::result_type(out, static_cast<float>(0)));
// FIXED: out.mul_(lr.detach().reshape({}).to(out.device(), torch::result_type(out, static_cast<double>(0))));
// FIXED: torch::Tensor y = scale.detach().reshape({}).to(out.device(), torch::result_type(out, static_cast<float>(0))) - out;
// FIXED: y -= lr.detach().reshape({}).to(y.device(), torch::result_type(y, static_cast<float>(0)));
// AFTER-COUNT-4: warning: host sync{{.*}}[seam-host-sync]
