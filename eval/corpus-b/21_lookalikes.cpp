// Look-alikes: non-torch Tensor classes, std::equal, type aliases, forwarding references.
#include <torch/torch.h>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace mylib {
struct Tensor {  // not a torch tensor
  std::vector<float> v;
  float item() const { return v.empty() ? 0.f : v[0]; }
  Tensor cpu() const { return *this; }
  bool equal(const Tensor& o) const { return v == o.v; }
  Tensor nonzero() const { return *this; }
};
}  // namespace mylib

using T = at::Tensor;
using Vec = std::vector<T>;

template <typename X>
auto fwd_read(X&& x) {
  return std::forward<X>(x).sum().template item<double>();  //@ hs@item #forwarding reference, called with device rvalue
}

double weird_sum(const Vec& xs) {
  double s = 0;
  for (const T& x : xs) s += x.abs().sum().item<double>();  //@ hs@item #aliased Tensor type in a loop
  return s;
}

int main() {
  mylib::Tensor mt{{1.f, 2.f}};
  std::optional<mylib::Tensor> omt = mt;
  std::vector<int> a{1, 2}, b{1, 2};
  std::string s1 = "x", s2 = "y";
  T d = at::randn({3}, at::kCUDA);
  Vec ds{d, d * 2};
  double acc = 0;
  for (int i = 0; i < 3; ++i) {
    acc += mt.item() + omt->item();                       // not torch
    acc += mt.cpu().nonzero().equal(mt) ? 1 : 0;          // not torch
    acc += std::equal(a.begin(), a.end(), b.begin());     // std::equal
    acc += s1.compare(s2);
    acc += fwd_read(d * 3);
    acc += weird_sum(ds);
    auto&& r = ds.front();
    acc += r.is_nonzero() ? 0 : 1;                        //@ hs@is_nonzero #auto&& to an element of a vector of device tensors
  }
  return acc > 0;
}
