// TORCH_MODULE holders, Sequential, forward as a hot path, CPU-only models.
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  NetImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(8, 16));
    fc2 = register_module("fc2", torch::nn::Linear(16, 2));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    TORCH_CHECK(x.dim() == 2, "bad rank");            // metadata: fine
    TORCH_CHECK(!x.isnan().any().item<bool>(), "nan");  //@ hs@item #forward is hot; x is a parameter (unknown)
    return fc2->forward(x);
  }
};
TORCH_MODULE(Net);

// A class with a forward() that is NOT a torch::nn::Module: not a hot path.
struct Pipeline {
  torch::Tensor forward(const torch::Tensor& x) {
    return x.nonzero();  // not a Module forward, never called in a loop
  }
};

struct GateImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor& x) { return gate(x); }
  torch::Tensor gate(const torch::Tensor& x) {
    auto idx = torch::nonzero(x > 0.5);   //@ hs@nonzero #reached from forward
    return x.index_select(0, idx.squeeze(1));
  }
};
TORCH_MODULE(Gate);

int main() {
  torch::Device device(torch::kCUDA);
  Net net;
  net->to(device);
  torch::nn::Sequential seq(torch::nn::Linear(8, 8), torch::nn::ReLU());
  seq->to(torch::kCUDA);
  torch::nn::Sequential cpu_seq(torch::nn::Linear(8, 8), torch::nn::Tanh());  // never moved
  Net cpu_net;  // never moved
  Pipeline pipe;
  auto p = pipe.forward(torch::ones({3}));
  float acc = 0;
  {
    torch::NoGradGuard no_grad;
    net->eval();
    for (int i = 0; i < 20; ++i) {
      auto in = torch::randn({4, 8}).to(device);
      auto out = net->forward(in);
      acc += out.argmax(1).eq(0).sum().item<int64_t>();   //@ hs@item #eval loop, device input
      auto s = seq->forward(in);
      acc += s.mean().item<float>();                      //@ hs@item #Sequential moved to CUDA
      auto hin = torch::randn({4, 8});
      auto cs = cpu_seq->forward(hin);
      acc += cs.mean().item<float>();                     // module never moved, host input: host
      auto co = cpu_net->forward(hin);
      acc += co.sum().item<float>();                      // module never moved: host
    }
  }
  return acc > 0 || p.numel() > 0;
}
