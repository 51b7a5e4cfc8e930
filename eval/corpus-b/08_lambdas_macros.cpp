// Lambdas stored and called later, std::function, at::parallel_for, macros.
#include <ATen/Parallel.h>
#include <torch/torch.h>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#define READ_F(t) ((t).template item<float>())
#define LOG_TENSOR(os, t) ((os) << (t))

std::string describe(const torch::Tensor& t) {
  std::ostringstream oss;
  LOG_TENSOR(oss, t);   // describe() is called only outside loops: not hot
  return oss.str();
}

int main() {
  auto dev = torch::randn({32}, torch::kCUDA);
  auto host = torch::randn({32});
  std::string first = describe(dev);

  auto stored = [&](const torch::Tensor& t) { return t.max().item<float>(); };  //@ hs@item #stored lambda, called in the loop below
  std::function<bool(const torch::Tensor&)> pred = [](const torch::Tensor& t) {
    return t.min().item<float>() > 0;       //@ hs@item #via std::function (ambiguous: call through type-erased wrapper)
  };
  auto never_called = [](const torch::Tensor& t) { return t.sum().item<float>(); };  // never called
  (void)never_called;

  std::vector<float> out(32);
  float acc = 0;
  for (int epoch = 0; epoch < 4; ++epoch) {
    acc += stored(dev);
    if (pred(dev)) acc += 1;
    acc += READ_F(dev.mean());              //@ hs@READ_F #item written inside a macro body; location is in the macro (ambiguous line)
    std::ostringstream oss;
    oss << dev;                             //@ hs@<< #printing to an ostringstream
    LOG_TENSOR(oss, dev.sum());             //@ hs@LOG_TENSOR #print inside a macro (ambiguous line)
    oss << host.sizes() << dev.dim();       // metadata
    auto hacc = host.accessor<float, 1>();
    at::parallel_for(0, 32, 8, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out[i] = hacc[i] * 2;   // host accessor: fine
    });
    at::parallel_for(0, 4, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) acc += dev[i].item<float>();  //@ hs@item #inside parallel_for lambda inside the loop
    });
  }
  return acc > 0 && !first.empty();
}
