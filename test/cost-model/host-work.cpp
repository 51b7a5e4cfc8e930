// The host's own work between a sync and the next launch is device idle:
// prints (a statement, and each tensor it formats), host loops with
// constant trip counts, helpers of this file; what Seam cannot size (a
// call into another file, a loop without a constant bound) is said, not
// guessed. A print that flushes (std::endl, std::cerr, fflush, stderr)
// also costs its write. Profile host-work: the test profile's 20 us per
// sync, plus host_print_us 2, host_print_tensor_us 30, host_element_us
// 0.01, host_flush_us 4, host_select_us_per_element 0.01.
// RUN: not %seam check --all-syncs --profile %inputs/profiles/host-work.json %s -- %mock | FileCheck %s
// RUN: not %seam check --all-syncs --profile %inputs/profiles/test.json %s -- %mock | FileCheck %s --check-prefix=NOPARAMS
#include <cstdio>
#include <iostream>
#include <torch/torch.h>

void logMetrics(float Loss); // defined in another file
void saveImage(const torch::Tensor &T); // defined in another file

static void report(float V) { std::cout << "value " << V << "\n"; }

void printed(int n) {
  auto w = torch::randn({1024}, torch::kCUDA);
  float kept = 0;
  for (int s = 0; s < 200; ++s) {
    w = w * 0.5;
    // The print is the sync: the tensor is formatted, then the line ends.
    if (s % 50 == 0)
      std::cout << "step " << s << " sum " << w.sum() << std::endl;
    // CHECK: :[[@LINE-1]]:44: warning: host sync: {{.*}}; ~56 us device idle per execution, every 50th iteration (profile host-work) [seam-host-sync]
    // CHECK: note: includes ~36 us of host work before the next launch (1 print statement, 1 tensor printed, 1 flush) (profile host-work)
    // NOPARAMS: :[[@LINE-3]]:44: warning: host sync: {{.*}}; ~20 us device idle
    // NOPARAMS: note: host work before the next launch (1 print statement, 1 tensor printed, 1 flush) is not costed: profile test has no host_print_us, host_print_tensor_us, host_element_us or host_flush_us

    // A value read, then printed: one statement, no tensor.
    if (s % 25 == 0) {
      float m = w.mean().item<float>();
      // CHECK: :[[@LINE-1]]:26: warning: host sync: {{.*}}; ~22 us device idle per execution, every 25th iteration
      // CHECK: note: includes ~2 us of host work before the next launch (1 print statement)
      std::cout << "mean " << m << "\n";
    }
    // Printed every 100th iteration, read every 20th: printed on one read
    // in five.
    if (s % 20 == 0)
      kept = w.max().item<float>();
    // CHECK: :[[@LINE-1]]:22: warning: host sync: {{.*}}; ~20.4 us device idle per execution, every 20th iteration
    // CHECK: note: includes ~0.4 us of host work before the next launch (0.2 print statements)
    if (s % 100 == 0)
      std::cout << "max " << kept << "\n";
  }
  // A loop over the copy: 1024 iterations.
  auto h = w.cpu();
  // CHECK: :[[@LINE-1]]:14: note: host sync: {{.*}}; not on a hot path; ~30.2 us device idle per call
  // CHECK: note: includes ~10.2 us of host work before the next launch (1024 host loop iterations)
  const float *p = h.data_ptr<float>();
  double acc = 0;
  for (int i = 0; i < 1024; ++i)
    acc += p[i];
  w = w * float(acc);

  // A helper of this file that prints, and what Seam cannot size.
  float last = w.sum().item<float>();
  // CHECK: :[[@LINE-1]]:24: note: host sync: {{.*}}; not on a hot path; ~22 us device idle per call
  // CHECK: note: includes ~2 us of host work before the next launch (1 print statement)
  // CHECK: note: not in the estimate: host work before the next launch that Seam cannot size: a call to 'logMetrics', defined in another file; a loop without a constant trip count at line [[@LINE+4]]
  report(last);
  logMetrics(last);
  double spin = 0;
  for (int i = 0; i < n; ++i)
    spin += p[i];
  w = w + float(spin);

  // A call runs after its arguments: logMetrics after the sync it reads,
  // saveImage after the launch (w.detach()) that ends the span.
  logMetrics(w.mean().item<float>());
  // CHECK: :[[@LINE-1]]:23: note: host sync: {{.*}}; not on a hot path; ~20 us device idle per call
  // CHECK: note: not in the estimate: host work before the next launch that Seam cannot size: a call to 'logMetrics', defined in another file{{$}}
  saveImage(w.detach());

  // A second sync before the next launch ends the first one's span: the
  // device idles on, but that idle is the second sync's.
  auto s1 = w.sum(), s2 = w.max();
  float a = s1.item<float>();
  // CHECK: :[[@LINE-1]]:16: note: host sync: {{.*}}; not on a hot path; ~22 us device idle per call
  // CHECK: note: includes ~2 us of host work before the next launch (1 print statement)
  std::cout << "a " << a << "\n";
  float b = s2.item<float>();
  // CHECK: :[[@LINE-1]]:16: note: host sync: {{.*}}; not on a hot path; ~22 us device idle per call
  // CHECK: note: includes ~2 us of host work before the next launch (1 print statement)
  std::cout << "b " << b << "\n";
  w = w * (a + b);

  // The part of a chain before the sync ran before it: not counted, but
  // the statement ends after it.
  std::cout << "total " << w.sum().item<float>() << "\n";
  // CHECK: :[[@LINE-1]]:36: note: host sync: {{.*}}; not on a hot path; ~22 us device idle per call
  // CHECK: note: includes ~2 us of host work before the next launch (1 print statement) (profile
  w = w + 1;

  // Writes that flush: std::cerr writes at every insertion, fflush and a
  // print to stderr at once.
  float c = w.sum().item<float>();
  // CHECK: :[[@LINE-1]]:21: note: host sync: {{.*}}; not on a hot path; ~34 us device idle per call
  // CHECK: note: includes ~14 us of host work before the next launch (1 print statement, 3 flushes)
  std::cerr << "c " << c << "\n";
  w = w * c;
  float d = w.sum().item<float>();
  // CHECK: :[[@LINE-1]]:21: note: host sync: {{.*}}; not on a hot path; ~26 us device idle per call
  // CHECK: note: includes ~6 us of host work before the next launch (1 print statement, 1 flush)
  std::printf("d %f\n", d);
  std::fflush(stdout);
  w = w * d;
  float e = w.sum().item<float>();
  // CHECK: :[[@LINE-1]]:21: note: host sync: {{.*}}; not on a hot path; ~26 us device idle per call
  // CHECK: note: includes ~6 us of host work before the next launch (1 print statement, 1 flush)
  std::fprintf(stderr, "e %f\n", e);
  w = w * e;
}

// nonzero and masked_select select on the host, per element of their
// input whatever its type: 1024 elements are 10.24 us at 0.01 us each. A
// parameter has the size its function's callers all pass.
static torch::Tensor keepLarge(const torch::Tensor &T) {
  return T.masked_select(T > 1);
  // CHECK: :[[@LINE-1]]:12: note: host sync: {{.*}}; not on a hot path; ~30.2 us device idle per call
}
static torch::Tensor keepAny(const torch::Tensor &T) {
  return T.nonzero();
  // CHECK: :[[@LINE-1]]:12: note: host sync: {{.*}}; not on a hot path; ~20 us device idle per call
}

void selections(const torch::Tensor &unknown) {
  auto f = torch::randn({1024}, torch::kCUDA);
  auto b = torch::randn({1024}, torch::kCUDA) > 0;
  auto i = f.nonzero();
  // CHECK: :[[@LINE-1]]:14: note: host sync: {{.*}}; not on a hot path; ~30.2 us device idle per call
  auto j = b.nonzero();
  // CHECK: :[[@LINE-1]]:14: note: host sync: {{.*}}; not on a hot path; ~30.2 us device idle per call
  auto k = keepLarge(f);
  auto l = keepLarge(b.to(torch::kFloat) + f);
  // Callers that disagree, or pass what Seam cannot size: not costed.
  auto m = keepAny(f);
  auto n = keepAny(unknown);
}
