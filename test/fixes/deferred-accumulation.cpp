// deferred-accumulation: a scalar read summed into a host variable in a loop
// becomes a device sum read once after the loop (docs/fixes.md). Each case
// that withholds the fix sits next to one that gets it.
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
#include <cstdint>
#include <iostream>
#include <vector>

torch::Tensor step(const torch::Tensor &x);

// Two sums of one loop: each gets its own read after the loop.
double train(torch::Tensor data, torch::Tensor target, int n) {
  data = data.to(torch::kCUDA);
  double total = 0;
  int64_t correct = 0;
  for (int i = 0; i < n; ++i) {
    auto loss = step(data);
    total += loss.item<double>();
    // CHECK: :[[@LINE-1]]:19: warning: host sync: '.item()' reads 'loss'{{.*}}[seam-host-sync]
    // CHECK: :[[@LINE-2]]:19: note: fix (deferred-accumulation): accumulate 'total' on the device in 'total_device' and read it once after the loop (line [[@LINE+9]]); the sum is taken in torch::kDouble, equal up to floating-point summation order; removes ~{{.*}} of device idle per execution
    // CHECK: fix-it:"{{.*}}":{[[@LINE-7]]:20-[[@LINE-7]]:20}:"\n  auto total_device = torch::zeros({}, torch::kDouble);"
    // CHECK: fix-it:"{{.*}}":{[[@LINE-4]]:5-[[@LINE-4]]:33}:"total_device = total_device + loss.detach().reshape({})"
    // CHECK: fix-it:"{{.*}}":{[[@LINE+6]]:4-[[@LINE+6]]:4}:"\n  total += total_device.item<double>();"
    correct += data.eq(target).sum().item<int64_t>();
    // CHECK: :[[@LINE-1]]:38: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (deferred-accumulation): accumulate 'correct' on the device in 'correct_device' and read it once after the loop
    // CHECK: fix-it:"{{.*}}":{[[@LINE-3]]:5-[[@LINE-3]]:53}:"correct_device = correct_device + data.eq(target).sum().detach().reshape({}).to(torch::kLong)"
    // CHECK: fix-it:"{{.*}}":{[[@LINE+2]]:1-[[@LINE+2]]:1}:"  correct += correct_device.item<int64_t>();\n"
  }
  return total / correct;
}
// FIXED:      double total = 0;
// FIXED-NEXT: auto total_device = torch::zeros({}, torch::kDouble);
// FIXED-NEXT: int64_t correct = 0;
// FIXED-NEXT: auto correct_device = torch::zeros({}, torch::kLong);
// FIXED:      total_device = total_device + loss.detach().reshape({});
// FIXED:      correct_device = correct_device + data.eq(target).sum().detach().reshape({}).to(torch::kLong);
// FIXED:      {{^}}  }
// FIXED-NEXT: {{^}}  total += total_device.item<double>();
// FIXED-NEXT: {{^}}  correct += correct_device.item<int64_t>();
// FIXED-NEXT: return total / correct;

// A host factor, a conversion of a Scalar, `acc = acc + ...` and `-=`.
float forms(torch::Tensor x, int n, int batch) {
  x = x.to(torch::kCUDA);
  float a = 0;
  double b = 0;
  float c = 100;
  while (n-- > 0) {
    a += x.sum().item<float>() * batch;
    // CHECK: :[[@LINE-1]]:18: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (deferred-accumulation): accumulate 'a'
    b = b + x.mean().item().toDouble();
    // CHECK: :[[@LINE-1]]:22: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (deferred-accumulation): accumulate 'b'
    c -= x.max().item<float>();
    // CHECK: :[[@LINE-1]]:18: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: two other sums are read back after the same loop: run --fix again once their fixes are applied
  }
  return a + b + c;
}
// FIXED: a_device = a_device + x.sum().detach().reshape({}) * batch;
// FIXED: b_device = b_device + x.mean().detach().reshape({});
// FIXED: c -= x.max().item<float>();
// FIXED: a += a_device.item<float>();
// FIXED-NEXT: b = b + b_device.item<double>();

// A factor of a type a Scalar may not take unambiguously becomes a double;
// a loop body without braces ends at its ';'.
double sized(torch::Tensor x, const std::vector<int> &v, int n) {
  x = x.to(torch::kCUDA);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x.sum().item<double>() * v.size();
  // CHECK: :[[@LINE-1]]:18: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: fix (deferred-accumulation): accumulate 's'
  return s;
}
// FIXED:      s_device = s_device + x.sum().detach().reshape({}) * static_cast<double>(v.size());
// FIXED-NEXT: s += s_device.item<double>();

// Read inside the loop outside a braced guard: no fix, and the reason names
// the line.
float logged(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  float running = 0;
  for (int i = 0; i < n; ++i) {
    running += x.sum().item<float>();
    // CHECK: :[[@LINE-1]]:24: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'running' is read inside the loop at line [[@LINE+2]], outside one guarded block; suggestion:
    if (i % 10 == 0)
      std::cout << running << "\n";
  }
  return running;
}

// Read and reset under a guard: the sum so far is added at the start of the
// guarded block, which then reads what it read before; it waits only there.
double guarded(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  double running = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 100 == 99) {
      std::cout << running / 100 << "\n";
      running = 0;
    }
    running += x.sum().item<double>();
    // CHECK: :[[@LINE-1]]:24: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: fix (deferred-accumulation): accumulate 'running' on the device in 'running_device' and read it once after the loop (line [[@LINE+2]]); the sum is taken in torch::kDouble, equal up to floating-point summation order; the guarded block at line [[@LINE-6]] adds the sum so far first, and waits only there;
    // CHECK: fix-it:"{{.*}}":{[[@LINE-7]]:25-[[@LINE-7]]:25}:"\n      running += running_device.item<double>(); running_device = torch::zeros({}, torch::kDouble);"
  }
  return running;
}
// FIXED:      if (i % 100 == 99) {
// FIXED-NEXT:   running += running_device.item<double>(); running_device = torch::zeros({}, torch::kDouble);
// FIXED-NEXT:   std::cout << running / 100 << "\n";
// FIXED-NEXT:   running = 0;
// FIXED-NEXT: }
// FIXED-NEXT: running_device = running_device + x.sum().detach().reshape({});
// FIXED:      {{^  }}running += running_device.item<double>();{{$}}
// FIXED-NEXT: return running;

// A reference made before the loop, a member, a macro, a lambda: no fix.
struct Meter {
  double sum = 0;
  void add(torch::Tensor x, int n) {
    x = x.to(torch::kCUDA);
    for (int i = 0; i < n; ++i)
      sum += x.sum().item<double>();
    // CHECK: :[[@LINE-1]]:22: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: the sum is not a local variable
  }
};

#define ACCUMULATE(acc, t) acc += (t).item<double>()
double aliased(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  double s = 0;
  double m = 0;
  double &alias = s;
  for (int i = 0; i < n; ++i) {
    s += x.sum().item<double>();
    // CHECK: :[[@LINE-1]]:18: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 's' is bound to a reference or pointer at line [[@LINE-4]], which the loop may use
    ACCUMULATE(m, x.max());
    // CHECK: :[[@LINE-1]]:5: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: the sum is written inside a macro
  }
  return alias + m;
}

double captured(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  double s = 0;
  auto show = [&] { std::cout << s; };
  int64_t count = 0;
  for (int i = 0; i < n; ++i) {
    s += x.sum().item<double>();
    // CHECK: :[[@LINE-1]]:18: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 's' is captured by a lambda at line [[@LINE-5]], which the loop may call
    count += x.sum().item<float>();
    // CHECK: :[[@LINE-1]]:22: warning: host sync{{.*}}[seam-host-sync]
    // CHECK: note: no automatic fix: 'count' and the value added to it differ in kind (integer and floating)
    show();
  }
  return s + count;
}

// One variable summed in two loops: a device sum for each, each with its
// own name, declared after it at its own offset (the generality check found
// a train and a test loop sharing `num_correct`).
int64_t twice(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  int64_t correct = 0;
  for (int i = 0; i < n; ++i)
    correct += x.gt(0).sum().item<int64_t>();
  // CHECK: :[[@LINE-1]]:30: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: fix (deferred-accumulation): accumulate 'correct' on the device in 'correct_device' and
  // CHECK: fix-it:"{{.*}}":{[[@LINE-5]]:23-[[@LINE-5]]:23}:"\n  auto correct_device = torch::zeros({}, torch::kLong);"
  correct = 0;
  for (int i = 0; i < n; ++i)
    correct += x.lt(0).sum().item<int64_t>();
  // CHECK: :[[@LINE-1]]:30: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: fix (deferred-accumulation): accumulate 'correct' on the device in 'correct_device2' and
  // CHECK: fix-it:"{{.*}}":{[[@LINE-10]]:1-[[@LINE-10]]:1}:"  auto correct_device2 = torch::zeros({}, torch::kLong);\n"
  return correct;
}

// A print every step has no rewrite: a suggestion, never applied.
void printed(torch::Tensor x, int n) {
  x = x.to(torch::kCUDA);
  for (int i = 0; i < n; ++i)
    std::cout << x.sum() << "\n";
  // CHECK: :[[@LINE-1]]:15: warning: host sync{{.*}}[seam-host-sync]
  // CHECK: note: no automatic fix: no fix kind rewrites this use of the value; suggestion: print every N steps
}

// APPLIED: seam: applied 8 of 8 fixes to 1 file

// After --fix: the sums that were fixed are gone; what had no fix stays.
// AFTER: :{{[0-9]+}}:18: warning: host sync{{.*}}'x.max()'{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}'x.sum()'{{.*}}[seam-host-sync]
// The guarded block's read remains, once per 100 iterations.
// AFTER: warning: host sync: '.item()' reads 'running_device' on the host; ~10.2 us device idle per execution, every 100th iteration{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}'x.sum()'{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}'x.sum()'{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}'x.sum()'{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}'x.sum()'{{.*}}[seam-host-sync]
// AFTER: warning: host sync{{.*}}'<<'{{.*}}[seam-host-sync]
