// Tensors in structs, vectors, maps, optional, references and pointers.
#include <torch/torch.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct State {
  torch::Tensor weights;                       // member: unknown -> device
  std::vector<torch::Tensor> history;
  std::map<std::string, torch::Tensor> stats;
  std::optional<torch::Tensor> mask;
};

float summarize(const State& s) {
  float r = 0;
  for (const auto& h : s.history)
    r += h.norm().item<float>();               //@ hs@item #loop over a member vector
  for (const auto& kv : s.stats)
    r += kv.second.mean().item<float>();       //@ hs@item #map values
  if (s.mask)
    r += s.mask->sum().item<float>();          //@ hs@item #optional deref; summarize is called in a loop
  return r;
}

float apply_mask(torch::Tensor& x, const std::optional<torch::Tensor>& m) {
  if (m.has_value()) {
    auto sel = x.masked_select(*m);            //@ hs@masked_select
    return static_cast<float>(sel.numel());    // metadata
  }
  return 0.0f;
}

int main() {
  State st;
  st.weights = torch::randn({3, 3}, torch::kCUDA);
  st.mask = st.weights > 0;
  st.stats["w"] = st.weights;
  std::vector<torch::Tensor> host_list = {torch::ones({2}), torch::zeros({2})};
  float acc = 0;
  for (int step = 0; step < 3; ++step) {
    st.history.push_back(st.weights.clone());
    acc += summarize(st);
    acc += apply_mask(st.weights, st.mask);
    torch::Tensor& ref = st.weights;
    acc += ref.trace().item<float>();          //@ hs@item #reference to a member
    torch::Tensor* ptr = &st.weights;
    acc += ptr->max().item<float>();           //@ hs@item #pointer to a member
    torch::Tensor local_host = torch::full({2}, 3.0);
    torch::Tensor* hp = &local_host;
    acc += hp->sum().item<float>();            // pointer to a host tensor: host (ambiguous if aliasing is not tracked)
    for (auto& t : host_list)
      acc += t.sum().item<float>();            // vector filled with host tensors (ambiguous: element residency)
    acc += static_cast<float>(host_list.size() + st.history.size() + st.weights.numel());
  }
  return acc > 0;
}
