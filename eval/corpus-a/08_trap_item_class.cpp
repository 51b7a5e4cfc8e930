// False-positive traps: non-tensor item(), metadata reads in loops.
#include <torch/torch.h>

#include <cstdio>
#include <deque>
#include <string>
#include <vector>

struct QueueEntry {
  int priority;
  std::string name;
  int item() const { return priority; }
  bool equal(const QueueEntry& o) const { return priority == o.priority; }
};

template <typename T>
struct Box {
  T value;
  T item() const { return value; }
};

int main() {
  torch::Tensor dev = torch::randn({128, 64}, torch::device(torch::kCUDA));
  std::vector<QueueEntry> entries{{1, "a"}, {2, "b"}, {3, "c"}};
  Box<double> lr{0.1};

  int64_t elems = 0;
  for (int step = 0; step < 1000; ++step) {
    for (const auto& e : entries) {
      if (e.item() > 1 && !e.equal(entries.front())) elems += e.item();
    }
    double cur = lr.item() * 0.99;
    lr.value = cur;

    // Metadata only: never syncs.
    elems += dev.size(0) * dev.size(1);
    elems += dev.numel();
    elems += dev.dim();
    auto sizes = dev.sizes();
    elems += sizes[0];
    if (dev.dtype() == torch::kFloat && dev.device().is_cuda()) {
      float* p = dev.data_ptr<float>();
      (void)p;
    }
    if (dev.is_cuda() && dev.defined()) ++elems;
    elems += dev.stride(0) + dev.element_size();
    dev = dev * 0.5;
  }
  std::printf("%lld\n", static_cast<long long>(elems));
}
