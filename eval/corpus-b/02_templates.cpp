// Function templates, class templates, generic lambdas, template-on-non-tensor.
#include <torch/torch.h>
#include <vector>

struct Counter {  // a non-tensor class with an item() method
  int n = 0;
  int item() const { return n; }
  template <typename T> T item() const { return static_cast<T>(n); }
};

template <typename T>
float read_scalar(const T& v) {
  return static_cast<float>(v.template item<float>());  //@ hs@item #instantiated with Tensor and Counter; one result for the expression
}

template <typename T>
struct Meter {
  T acc;
  void add(const T& v) { acc = acc + v; }
  float value() const { return acc.template item<float>(); }  //@ hs@item #Meter<Tensor>::value called in loop; acc is a member (unknown)
};

template <typename T>
struct HostOnlyMeter {
  T acc;
  int value() const { return acc.item(); }  // instantiated only with Counter: no tensor
};

template <int N>
torch::Tensor unrolled(torch::Tensor x) {
  if constexpr (N == 0) {
    return x;
  } else {
    auto y = unrolled<N - 1>(x * 0.5);
    if (y.allclose(x)) return y;  //@ hs@allclose #recursive template instantiations share one expression
    return y;
  }
}

int main() {
  auto x = torch::randn({8}, torch::device(torch::kCUDA));
  auto h = torch::ones({8});
  Meter<torch::Tensor> m{torch::zeros({}, torch::kCUDA)};
  HostOnlyMeter<Counter> hm;
  Counter c;
  auto generic = [](const auto& t) { return t.sum().template item<float>(); };  //@ hs@item #generic lambda called with device tensor in loop
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    m.add(x);
    total += read_scalar(x);
    total += read_scalar(c);
    total += m.value();
    total += hm.value();
    total += c.item<int>();  // non-tensor
    total += generic(x);
    x = unrolled<3>(x);
  }
  total += h.sum().item<float>();  // outside loop and host
  return total > 0;
}
