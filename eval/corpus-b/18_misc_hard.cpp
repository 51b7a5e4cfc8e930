// Globals, functions returning host copies, compiled methods, nested lambdas in regions.
#include <seam/compiled.h>
#include <torch/torch.h>

torch::Tensor g_scale;                           // global of unknown origin: device

torch::Tensor to_host(const torch::Tensor& t) {
  return t.cpu();                                //@ hs@cpu #helper called in the loop
}

class Decoder {
 public:
  SEAM_COMPILED torch::Tensor decode(const torch::Tensor& logits) {
    auto probs = torch::softmax(logits * g_scale, -1);
    auto apply = [&](const torch::Tensor& p) {
      auto inner = [](const torch::Tensor& q) { return q.argmax(-1).max().item<int64_t>(); };  //@ gb@item hs@item #nested lambda two levels inside a compiled method
      return inner(p);
    };
    auto best = apply(probs);
    return probs.narrow(-1, 0, best + 1);
  }
};

int main() {
  g_scale = torch::ones({1});
  auto logits = torch::randn({2, 16}, torch::kCUDA);
  Decoder dec;
  float acc = 0;
  for (int i = 0; i < 4; ++i) {
    auto out = dec.decode(logits);
    acc += g_scale.sum().item<float>();         //@ hs@item #global: counted as device by the spec even though assigned a host tensor in main (ambiguous)
    auto h = to_host(out);
    acc += h.size(0);                           // metadata
    auto mask = logits > 0;
    auto sel = logits.index({mask});            //@ hs@index #boolean-mask indexing via index
    acc += sel.numel();
  }
  return acc > 0;
}
