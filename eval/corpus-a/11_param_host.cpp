// Parameter residency: host-only callers vs device callers.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

double mean_of(const torch::Tensor& t) {
  return t.mean().item<double>();
}

int64_t count_positive(torch::Tensor t) {
  return (t > 0).sum().item<int64_t>();  //@ hs:item
}

int main() {
  std::vector<double> means;
  torch::Tensor gpu = torch::randn({100}, torch::kCUDA);
  for (int k = 0; k < 20; ++k) {
    torch::Tensor sample = torch::randn({100});
    means.push_back(mean_of(sample));
    means.push_back(mean_of(torch::ones({4}) * k));
    int64_t c1 = count_positive(sample);
    int64_t c2 = count_positive(gpu + k);
    std::printf("%lld %lld\n", (long long)c1, (long long)c2);
  }
  return 0;
}
