// Module forwards: direct Module subclass and TORCH_MODULE holder.
#include <torch/torch.h>

#include <iostream>

struct ResidualBlockImpl : torch::nn::Module {
  explicit ResidualBlockImpl(int64_t dim)
      : fc(register_module("fc", torch::nn::Linear(dim, dim))),
        norm(register_module("norm", torch::nn::LayerNorm(
                                         torch::nn::LayerNormOptions({dim})))) {}

  torch::Tensor forward(torch::Tensor x) {
    TORCH_CHECK(x.dim() == 2, "expected 2-D input, got ", x.dim());
    TORCH_CHECK(torch::isfinite(x).all().item<bool>(),  //@ hs:item
                "non-finite input");
    auto y = norm(fc(x));
    if (debug_) {
      std::cout << "residual: " << y.abs().max() << std::endl;  //@ hs:<<#2
    }
    return x + check_scale(y);
  }

  torch::Tensor check_scale(const torch::Tensor& y) {
    double s = y.std().item<double>();  //@ hs:item
    return s > 10.0 ? y / s : y;
  }

  torch::nn::Linear fc;
  torch::nn::LayerNorm norm;
  bool debug_ = false;
};
TORCH_MODULE(ResidualBlock);

class Head : public torch::nn::Module {
 public:
  Head() { proj_ = register_module("proj", torch::nn::Linear(64, 8)); }
  torch::Tensor forward(const torch::Tensor& h) {
    auto out = proj_->forward(h);
    if (torch::equal(out, last_)) {  //@ hs:equal
      return out;
    }
    last_ = out.detach();
    return out;
  }

 private:
  torch::nn::Linear proj_{nullptr};
  torch::Tensor last_;
};

// Not a torch::nn::Module: its forward is not a hot path by itself.
struct Normalizer {
  torch::Tensor forward(const torch::Tensor& x) {
    return x / x.abs().max().item<float>();
  }
};

int main() {
  torch::Device dev(torch::kCUDA);
  ResidualBlock block(64);
  block->to(dev);
  auto head = std::make_shared<Head>();
  head->to(dev);
  Normalizer norm;
  auto x = torch::randn({8, 64}, dev);
  auto xn = norm.forward(x);
  auto y = head->forward(block(xn));
  std::cout << y.sizes() << std::endl;
}
