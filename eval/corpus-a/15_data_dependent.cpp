// Data-dependent shapes and boolean reads in a per-batch loop.
#include <torch/torch.h>

#include <iostream>

using torch::indexing::Slice;
using torch::indexing::None;

void process(torch::Tensor logits, torch::Tensor labels, int iters) {
  for (int i = 0; i < iters; ++i) {
    torch::Tensor probs = logits.softmax(-1);
    torch::Tensor conf = std::get<0>(probs.max(-1));
    torch::Tensor keep = conf > 0.9;
    auto kept_idx = torch::nonzero(keep);  //@ hs:nonzero
    auto kept_logits = logits.index({keep});  //@ hs:index
    auto first_half = logits.index({Slice(0, 16), Slice()});
    auto cls = std::get<0>(torch::unique_dim(labels, 0));  //@ hs:unique_dim
    auto u = std::get<0>(torch::unique_consecutive(labels));  //@ hs:unique_consecutive
    auto sel = conf.masked_select(keep);  //@ hs:masked_select
    auto where = torch::where(keep, conf, torch::zeros_like(conf));
    auto tail = probs.index({Slice(None, None, 2)});
    if (keep.any().is_nonzero()) {  //@ hs:is_nonzero
      logits = logits * 0.9;
    }
    if (probs.allclose(probs.detach())) {  //@ hs:allclose
      continue;
    }
    std::cout << kept_idx.size(0) << kept_logits.size(0) << first_half.dim()
              << cls.numel() << u.numel() << sel.numel() << where.dim()
              << tail.dim() << "\n";
  }
}

int main() {
  auto logits = torch::randn({32, 10}).cuda();
  auto labels = torch::randint(0, 10, {32}).cuda();
  process(logits, labels, 100);
}
