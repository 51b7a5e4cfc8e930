// Custom dataset + data loader; batch tensors are host until moved.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class PointsDataset : public torch::data::datasets::Dataset<PointsDataset> {
 public:
  explicit PointsDataset(int64_t n) : n_(n) {
    raw_.resize(n * 3);
    for (int64_t i = 0; i < n * 3; ++i) raw_[i] = static_cast<float>(i % 7);
  }

  torch::data::Example<> get(size_t index) override {
    torch::Tensor pts =
        torch::from_blob(raw_.data() + index * 3, {3}, torch::kFloat).clone();
    torch::Tensor label = torch::tensor({static_cast<int64_t>(index % 2)});
    if (label.item<int64_t>() == 1) {
      pts = pts * 2;
    }
    return {pts, label.squeeze()};
  }

  torch::optional<size_t> size() const override { return n_; }

 private:
  int64_t n_;
  std::vector<float> raw_;
};

int main() {
  torch::Device device(torch::kCUDA);
  auto ds = PointsDataset(1024).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(
      std::move(ds), torch::data::DataLoaderOptions().batch_size(32).workers(2));

  torch::nn::Sequential net(torch::nn::Linear(3, 16), torch::nn::ReLU(),
                            torch::nn::Linear(16, 2));
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));

  for (int epoch = 0; epoch < 5; ++epoch) {
    double running = 0.0;
    int64_t seen = 0;
    for (torch::data::Example<>& batch : *loader) {
      // Still on the host: reading it costs no device sync.
      float max_in = batch.data.max().item<float>();
      int64_t positives = batch.target.sum().item<int64_t>();
      (void)max_in;
      seen += positives;

      torch::Tensor x = batch.data.to(device);
      torch::Tensor y = batch.target.to(device);
      opt.zero_grad();
      torch::Tensor loss = torch::cross_entropy_loss(net->forward(x), y);
      loss.backward();
      opt.step();
      running += loss.item<double>();  //@ hs:item
    }
    std::cout << "epoch " << epoch << " loss " << running << " pos " << seen
              << std::endl;
  }
}
