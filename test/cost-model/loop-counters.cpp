// Trip counts of loops that are not `for (i = A; i < B; ++i)`: a `while`
// or `do` loop over a local counter stepped once per iteration, and a
// range `for` over a local vector filled by push_back in counted loops
// before it. Anything that could change the count leaves it unknown.
// RUN: not %seam check %s -- %mock | FileCheck %s
#include <torch/torch.h>
#include <vector>

void takesRef(int &);

void whileCounter(torch::Tensor loss) {
  int step = 0;
  while (step < 60) {
    if (step % 20 == 0)
      printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:25: warning: {{.*}} every 20th iteration
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 60 iterations of the loop
    ++step;
  }
}

void doCountingDown(torch::Tensor loss) {
  int left = 100;
  do {
    left -= 4;
    printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:23: warning: {{.*}} device idle per iteration
    // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 25 iterations of the loop
  } while (left > 0);
}

void filledVector(torch::Tensor loss) {
  std::vector<torch::Tensor> batches;
  batches.reserve(24);
  for (int e = 0; e < 3; ++e)
    for (int b = 0; b < 8; ++b)
      batches.push_back(torch::randn({4}));
  for (const torch::Tensor &b : batches)
    printf("%f", (b * loss).sum().item<float>());
  // CHECK: :[[@LINE-1]]:35: warning: {{.*}} device idle per iteration
  // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 24 iterations of the loop
}

// Unknown: a continue that can skip the step, a second write, a counter
// passed by reference, a conditional push_back, a vector that came in.
void unknown(torch::Tensor loss, bool skip, const std::vector<torch::Tensor> &given) {
  int a = 0;
  while (a < 10) {
    if (skip)
      continue;
    printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:23: warning: {{.*}} device idle per iteration
    // CHECK-NOT: iterations of the loop
    ++a;
  }
  int b = 0;
  while (b < 10) {
    printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:23: warning: {{.*}} device idle per iteration
    // CHECK-NOT: iterations of the loop
    ++b;
    if (skip)
      b = 0;
  }
  int c = 0;
  takesRef(c);
  while (c < 10) {
    printf("%f", loss.item<float>());
    // CHECK: :[[@LINE-1]]:23: warning: {{.*}} device idle per iteration
    // CHECK-NOT: iterations of the loop
    c++;
  }
  std::vector<torch::Tensor> some;
  for (int i = 0; i < 8; ++i)
    if (i % 2)
      some.push_back(torch::randn({4}));
  for (const torch::Tensor &t : some)
    printf("%f", (t * loss).sum().item<float>());
  // CHECK: :[[@LINE-1]]:35: warning: {{.*}} device idle per iteration
  // CHECK-NOT: iterations of the loop
  for (const torch::Tensor &t : given)
    printf("%f", (t * loss).sum().item<float>());
  // CHECK: :[[@LINE-1]]:35: warning: {{.*}} device idle per iteration
  // CHECK-NOT: iterations of the loop
}

// Guards over a counted loop's counter are counted by walking its values:
// jointly, and with the loop's own step.
void walked(torch::Tensor loss) {
  for (int s = 0; s < 20; s += 2)
    if (s > 0 && s % 4 == 0)
      printf("%f", loss.item<float>());
  // CHECK: :[[@LINE-1]]:25: warning: {{.*}} device idle per execution, 40% of iterations
  // CHECK-NOT: cannot count
  // CHECK: note: ~{{[0-9.]+ [mu]?s}} device idle per 10 iterations of the loop
  for (int i = 0; i < 100; ++i)
    if ((i + 1) % 25 == 0)
      printf("%f", loss.item<float>());
  // CHECK: :[[@LINE-1]]:25: warning: {{.*}} device idle per execution, every 25th iteration
  // Steps and bounds too large to walk without overflow are not walked.
  for (long long i = 0; i != 7; i += (1LL << 62))
    if (i % 4 == 0)
      printf("%f", loss.item<float>());
  for (long long i = (1LL << 62); i < (1LL << 62) + 10; ++i)
    if (i % 5 == 0)
      printf("%f", loss.item<float>());
  // CHECK: :[[@LINE-1]]:25: warning: {{.*}} every 5th iteration
}
