// Evaluation loop with NoGradGuard, at:: style, explicit types.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Classifier : torch::nn::Module {
  torch::nn::Linear l1{nullptr}, l2{nullptr};
  Classifier() {
    l1 = register_module("l1", torch::nn::Linear(784, 256));
    l2 = register_module("l2", torch::nn::Linear(256, 10));
  }
  at::Tensor forward(const at::Tensor& x) {
    return l2->forward(at::relu(l1->forward(x)));
  }
};

double evaluate(Classifier& net, const std::vector<at::Tensor>& inputs,
                const std::vector<at::Tensor>& labels, const at::Device& dev) {
  torch::NoGradGuard guard;
  net.eval();
  int64_t hits = 0;
  int64_t total = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    at::Tensor x = inputs[i].to(dev);
    at::Tensor y = labels[i].to(dev);
    at::Tensor logits = net.forward(x);
    at::Tensor loss = at::cross_entropy_loss(logits, y);
    std::cout << "batch " << i << " loss: " << loss << "\n";  //@ hs:<<#4
    at::Tensor preds = logits.argmax(1).cpu();  //@ hs:cpu
    at::Tensor ycpu = y.cpu();  //@ hs:cpu
    auto acc = preds.accessor<int64_t, 1>();
    for (int64_t j = 0; j < preds.size(0); ++j) {
      if (acc[j] == ycpu[j].item<int64_t>()) ++hits;
    }
    total += preds.numel();
    int64_t first = preds[0].item<int64_t>();
    (void)first;
  }
  return total ? static_cast<double>(hits) / total : 0.0;
}

int main() {
  at::Device dev = torch::cuda::is_available() ? at::Device(at::kCUDA)
                                               : at::Device(at::kCPU);
  Classifier net;
  net.to(dev);
  std::vector<at::Tensor> xs, ys;
  for (int i = 0; i < 8; ++i) {
    xs.push_back(at::randn({32, 784}));
    ys.push_back(at::randint(0, 10, {32}, at::kLong));
  }
  std::cout << evaluate(net, xs, ys, dev) << std::endl;
  return 0;
}
