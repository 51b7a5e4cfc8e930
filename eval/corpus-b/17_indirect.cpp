// Indirect hot paths: Cloneable modules, templated modules, RAII, virtual calls, helpers in conditions.
#include <torch/torch.h>
#include <iostream>
#include <memory>

struct AttnImpl : torch::nn::Cloneable<AttnImpl> {
  explicit AttnImpl(int d) : d_(d) { reset(); }
  void reset() override { proj = register_module("proj", torch::nn::Linear(d_, d_)); }
  torch::Tensor forward(const torch::Tensor& x) {
    auto s = torch::softmax(proj->forward(x), -1);
    auto top = std::get<0>(s.max(-1));
    auto picked = s.index({top > 0.9});            //@ hs@index #Cloneable derives from Module: forward is hot
    return s + picked.sum();
  }
  int d_;
  torch::nn::Linear proj{nullptr};
};
TORCH_MODULE(Attn);

template <int K>
struct PoolImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (int i = 0; i < K; ++i) x = torch::max_pool1d(x, 2);
    return x.sum(-1).to(torch::kCPU);                 //@ hs@to #forward of an instantiated class-template module
  }
};

struct SyncOnExit {  // RAII helper: the destructor synchronizes
  ~SyncOnExit() { torch::cuda::synchronize(); }       //@ hs@synchronize #implicit destructor call at the end of each loop iteration (ambiguous: implicit call)
};

struct Stats {
  float mean;
  explicit Stats(const torch::Tensor& t) : mean(t.mean().item<float>()) {}  //@ hs@item #constructor called in the loop
};

struct Step {
  virtual ~Step() = default;
  virtual torch::Tensor run(const torch::Tensor& x) = 0;
};
struct NoisyStep : Step {
  torch::Tensor run(const torch::Tensor& x) override {
    auto u = std::get<0>(torch::unique_dim(x, 0));   //@ hs@unique_dim #virtual override called through a base pointer in a loop (ambiguous: dynamic dispatch)
    std::cout << u << "\n";                           //@ hs@<< #same: virtual override
    return x;
  }
};

bool not_done(const torch::Tensor& err) { return err.gt(1e-3).any().item<bool>(); }  //@ hs@item #helper called from a while condition

int main() {
  Attn attn(8);
  attn->to(torch::kCUDA);
  PoolImpl<2> pool;
  std::unique_ptr<Step> step = std::make_unique<NoisyStep>();
  auto x = torch::randn({4, 8}, torch::kCUDA);
  auto host_x = torch::randn({4, 8});
  auto err = torch::ones({1}, torch::kCUDA);
  while (not_done(err)) {
    SyncOnExit guard;
    x = attn->forward(x);
    Stats st(x);
    x = step->run(x);
    auto pick = (st.mean > 0 ? x : host_x);
    std::cout << pick.sum().item<float>() << "\n";   //@ hs@item #conditional operator: device-ward
    std::cout << host_x << "\n";                      // host tensor printed: fine
    std::cout << x.cpu() << "\n";                     //@ hs@cpu #the copy syncs; printing the host copy does not
    for (const auto& row : x.unbind(0))
      err = err + row.norm().item<float>();          //@ hs@item #elements of unbind of a device tensor
  }
  auto p = pool.forward(x.unsqueeze(0));
  return p.numel() > 0;
}
