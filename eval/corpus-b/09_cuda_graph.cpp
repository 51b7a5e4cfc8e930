// CUDA graph capture spans, helpers called during capture, host tensors in spans.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>
#include <vector>

namespace cg {

torch::Tensor checked_step(const torch::Tensor& x) {
  auto y = torch::relu(x) + 1;
  if (y.isnan().any().item<bool>())   //@ cs@item #called only inside the capture span
    y.zero_();
  return y;
}

torch::Tensor compact(const torch::Tensor& y) {
  return y.masked_select(y > 0);      //@ cs@masked_select #two levels down from the span
}

torch::Tensor body(const torch::Tensor& x) {
  auto y = checked_step(x);
  return compact(y) .sum() + y.mean();
}

void recapture(std::vector<at::cuda::CUDAGraph>& graphs, torch::Tensor buf) {
  for (auto& g : graphs) {
    buf = buf * 2;
    g.capture_begin();
    buf.add_(1);
    if (buf.equal(buf.abs())) buf.neg_();    //@ cs@equal #capture span inside a loop: capture-sync replaces host-sync
    torch::cuda::synchronize();               //@ cs@synchronize
    g.capture_end();
    std::cout << buf.sizes() << std::endl;    // metadata after capture
    auto nz = buf.nonzero();                  //@ hs@nonzero #after capture_end, still in the loop
  }
}

}  // namespace cg

int main() {
  auto static_in = torch::randn({64}, torch::kCUDA);
  auto host_cfg = torch::tensor({2.0f});
  torch::Tensor static_out;
  // warm-up outside capture: not hot, not reported
  auto warm = cg::body(static_in);
  at::cuda::CUDAGraph graph;
  auto stream = c10::cuda::getStreamFromPool();
  graph.capture_begin();
  static_out = cg::body(static_in);
  float k = host_cfg.item<float>();          // host tensor inside the span: not reported
  static_out = static_out * k;
  stream.synchronize();                      //@ cs@synchronize #explicit stream sync inside capture
  auto cpu_copy = static_out.cpu();          //@ cs@cpu
  graph.capture_end();
  float acc = 0;
  for (int i = 0; i < 10; ++i) {
    graph.replay();
    acc += static_out.sum().item<float>();   //@ hs@item #after capture_end, in a loop: ordinary host sync
  }
  torch::cuda::synchronize();                // outside any hot path
  return acc > 0 && cpu_copy.numel() > 0 && warm.numel() > 0;
}
