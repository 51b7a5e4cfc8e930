// Residency edge cases: options(), dtype-only to(), reassignment, bindings.
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::Tensor dev = torch::randn({16}, torch::kCUDA);
  std::vector<float> buf(16, 1.f);
  std::vector<torch::Tensor> shards{dev * 2, dev * 3};
  float acc = 0.f;

  torch::Tensor moved = torch::ones({4});
  moved = moved.cuda();

  for (int it = 0; it < 10; ++it) {
    torch::Tensor like = torch::zeros({3}, dev.options());
    acc += like.sum().item<float>();  //@ hs:item
    torch::Tensor as_double = dev.to(torch::kDouble);
    acc += as_double.max().item<double>();  //@ hs:item
    torch::Tensor back = dev.to(torch::Device(torch::kCPU));  //@ hs:to
    acc += back.min().item<float>();
    auto back2 = dev.to(torch::kCPU, torch::kDouble);  //@ hs:to
    acc += back2[0].item<double>();
    acc += moved.sum().item<float>();  //@ hs:item
    torch::Tensor pinned =
        torch::empty({4}, torch::TensorOptions().pinned_memory(true));
    acc += pinned.numel() + pinned.sum().item<float>();
    torch::Tensor blob = torch::from_blob(buf.data(), {16});
    acc += blob.sum().item<float>();
    auto [sd, mean] = torch::std_mean(dev);
    acc += mean.item<float>();  //@ hs:item
    for (const auto& s : shards) acc += s.norm().item<float>();  //@ hs:item
    auto nnz = torch::count_nonzero(dev);
    auto where = dev.argwhere();  //@ hs:argwhere
    acc += nnz.dim() + where.dim();
  }
  std::cout << acc << std::endl;
}
