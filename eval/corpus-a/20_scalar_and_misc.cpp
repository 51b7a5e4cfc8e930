// Scalar reads via item() -> Scalar, and equal/allclose in a validation loop.
#include <torch/torch.h>

#include <iostream>
#include <vector>

bool validate(const std::vector<torch::Tensor>& outs,
              const std::vector<torch::Tensor>& refs) {
  bool ok = true;
  for (size_t i = 0; i < outs.size(); ++i) {
    const torch::Tensor& o = outs[i];
    const torch::Tensor& r = refs[i];
    ok = ok && o.equal(r);  //@ hs:equal
    ok = ok && at::allclose(o, r, 1e-4, 1e-5);  //@ hs:allclose
    torch::Scalar s = o.sum().item();  //@ hs:item
    double v = s.toDouble();
    ok = ok && o.max().item().toFloat() < 1e3f;  //@ hs:item
    (void)v;
  }
  return ok;
}

int main() {
  std::vector<torch::Tensor> outs, refs;
  for (int i = 0; i < 4; ++i) {
    outs.push_back(torch::randn({16}, torch::kCUDA));
    refs.push_back(outs.back().clone());
  }
  std::cout << std::boolalpha << validate(outs, refs) << std::endl;
}
