// while / do-while / nested loops, early break/continue/return, conditions.
#include <torch/torch.h>

float converge(torch::Tensor x, float tol) {
  torch::Tensor delta = torch::ones({1}, torch::kCUDA);
  int it = 0;
  while (delta.abs().max().item<float>() > tol) {  //@ hs@item #loop condition is hot
    auto nx = torch::sigmoid(x);
    delta = nx - x;
    x = nx;
    if (++it > 1000) break;
  }
  do {
    x = x * 0.9;
  } while (x.norm().item<double>() > 1.0);  //@ hs@item #do-while condition
  return static_cast<float>(it);
}

int search(const torch::Tensor& table) {
  for (int64_t i = 0; i < table.size(0); ++i) {       // metadata in the condition: fine
    for (int64_t j = 0; j < table.size(1); ++j) {
      auto cell = table[i][j];
      if (cell.item<float>() < 0) continue;            //@ hs@item #nested loop, param unknown
      if (cell.equal(table[0][0])) return static_cast<int>(i);  //@ hs@equal
    }
    if (i > 3) break;
  }
  return -1;
}

// Code after the loop is not hot (function itself is not hot).
float tail(torch::Tensor x) {
  for (int k = 0; k < 4; ++k) {
    x = x.exp().log1p();
  }
  return x.sum().item<float>();  // after the loop, tail() not called from a hot path
}

int main() {
  auto x = torch::rand({4, 4}).cuda();
  float f = converge(x, 1e-4f);  // converge not on a hot path itself, but its loops are
  int s = search(x);
  float t = tail(x);
  auto h = torch::rand({4});
  int n = 0;
  while (h.sum().item<float>() > 0.1f && n < 10) {  // host tensor: fine
    h = h * 0.5;
    ++n;
  }
  return static_cast<int>(f) + s + static_cast<int>(t) + n;
}
