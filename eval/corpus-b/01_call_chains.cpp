// Deep call chains, recursion, helpers reachable from hot paths vs. not.
#include <torch/torch.h>
#include <vector>

namespace chains {

// Level 3: reads a scalar from a parameter (unknown residency -> device).
static float level3(const torch::Tensor& t) {
  return t.abs().max().item<float>();  //@ hs@item
}
static float level2(const torch::Tensor& t) { return level3(t * 2) + 1.0f; }
static float level1(const torch::Tensor& t) { return level2(t.relu()); }

// Recursive helper: every level reads a scalar.
static int depth_until_small(torch::Tensor t, int d) {
  if (d > 8 || t.norm().item<double>() < 1e-3)  //@ hs@item
    return d;
  return depth_until_small(t / 2, d + 1);
}

// Mutual recursion, reached only through the recursion entry.
static bool odd_check(const torch::Tensor& t, int n);
static bool even_check(const torch::Tensor& t, int n) {
  if (n == 0) return t.is_nonzero();  //@ hs@is_nonzero
  return odd_check(t, n - 1);
}
static bool odd_check(const torch::Tensor& t, int n) {
  if (n == 0) return !t.is_nonzero();  //@ hs@is_nonzero
  return even_check(t, n - 1);
}

// Never called from a hot path: only from setup(), called once in main.
static float setup_stat(const torch::Tensor& t) {
  return t.mean().item<float>();  // not hot: no result
}
static float setup(const torch::Tensor& w) {
  auto c = w.cpu();  // not hot
  return setup_stat(w) + c.sum().item<float>();
}

// Defined but never called at all.
static void dead_debug(const torch::Tensor& t) {
  std::cout << t << std::endl;  // not hot
  torch::cuda::synchronize();   // not hot
}

}  // namespace chains

int main() {
  auto w = torch::randn({16, 16}, torch::kCUDA);
  float s = chains::setup(w);
  for (int step = 0; step < 100; ++step) {
    w = w - 0.01f * torch::tanh(w);
    s += chains::level1(w);
    s += chains::depth_until_small(w, 0);
    if (chains::even_check(w.sum() > 0, step % 3)) s -= 1.0f;
  }
  return s > 0 ? 0 : 1;
}
