// Compiled regions calling templates, generic lambdas, recursion; host data in regions.
#include <seam/compiled.h>
#include <torch/torch.h>

template <typename Fn>
torch::Tensor repeat_until(torch::Tensor x, Fn fn, int max_iter) {
  int i = 0;
  do {
    x = fn(x);
  } while (++i < max_iter && x.max().item<float>() > 1.0f);   //@ gb@item hs@item #template instantiated from a region
  return x;
}

torch::Tensor tree_reduce(const std::vector<torch::Tensor>& xs, size_t lo, size_t hi) {
  if (hi - lo == 1) return xs[lo];
  size_t mid = (lo + hi) / 2;
  auto l = tree_reduce(xs, lo, mid);
  auto r = tree_reduce(xs, mid, hi);
  if (l.sum().item<float>() > r.sum().item<float>()) return l;   //@ gb@item gb@item:2 hs@item hs@item:2 #two items on one line: two results per rule
  return r;
}

SEAM_COMPILED torch::Tensor block(torch::Tensor x, const std::vector<torch::Tensor>& parts) {
  auto halve = [](const auto& t) { return t * 0.5; };          // pure
  auto check = [](const auto& t) { return t.is_nonzero(); };   //@ gb@is_nonzero hs@is_nonzero #generic lambda called in region
  x = repeat_until(x, halve, 4);
  auto lut = torch::arange(16).view({4, 4});                   // host
  auto row = lut.index({lut.select(1, 0) > 4});                //@ gb@index #boolean mask on a host tensor: graph break only
  if (check(x.sum() > 0)) x = x + tree_reduce(parts, 0, parts.size());
  return x * row.numel();
}

torch::Tensor not_a_region(torch::Tensor x) {
  return repeat_until(x, [](const torch::Tensor& t) { return t.sqrt(); }, 2);  // same template, different instantiation, not hot caller
}

int main() {
  std::vector<torch::Tensor> parts(4, torch::ones({4}, torch::kCUDA));
  auto x = torch::randn({4}, torch::kCUDA);
  x = block(x, parts);
  x = not_a_region(x);
  return x.numel() > 0;
}
