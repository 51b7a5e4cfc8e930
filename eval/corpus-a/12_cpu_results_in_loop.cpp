// Device->host copies in a loop; reads of the host copies are free.
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::Device dev("cuda:0");
  torch::Tensor acts = torch::randn({32, 10}, torch::TensorOptions().device(dev));
  torch::Tensor host_buf = torch::empty({32, 10});
  torch::Tensor dev_buf = torch::empty({32, 10}, torch::TensorOptions().device(dev));
  std::vector<float> history;

  for (int step = 0; step < 100; ++step) {
    acts = torch::tanh(acts * 1.01);
    torch::Tensor snap = acts.cpu();  //@ hs:cpu
    history.push_back(snap[0][0].item<float>());
    if (snap.max().item<float>() > 0.99f) {
      std::cout << snap.slice(0, 0, 2) << std::endl;
    }
    auto probs = torch::softmax(acts, 1).to(torch::kCPU);  //@ hs:to
    auto top = probs.argmax(1);
    history.push_back(static_cast<float>(top[0].item<int64_t>()));

    host_buf.copy_(acts);  //@ hs:copy_
    dev_buf.copy_(host_buf);
    float h = host_buf.sum().item<float>();
    history.push_back(h);
  }
  std::cout << history.size() << std::endl;
}
