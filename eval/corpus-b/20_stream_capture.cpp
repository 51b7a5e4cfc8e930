// Raw CUDA stream capture (cudaStreamBeginCapture/EndCapture) and capture inside helpers.
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <torch/torch.h>

torch::Tensor fill_stats(torch::Tensor buf, const torch::Tensor& src) {
  buf.copy_(src.mean(0));                          // device-to-device copy: fine
  auto host_meta = torch::tensor({1, 2, 3});
  auto n = host_meta.sum().item<int64_t>();        // host inside the span: not reported
  return buf * static_cast<double>(n);
}

void capture_raw(cudaStream_t s, torch::Tensor buf, torch::Tensor src) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  buf = fill_stats(buf, src);
  auto m = src.max().item<float>();                //@ cs@item #inside cudaStreamBeginCapture..EndCapture
  cudaGraph_t g;
  cudaStreamEndCapture(s, &g);
  (void)m;
}

void capture_member(at::cuda::CUDAGraph& graph, torch::Tensor& x) {
  graph.capture_begin();
  x.mul_(2);
  auto k = x.argmax().cpu();                       //@ cs@cpu #capture span in a helper taking the graph by reference
  graph.capture_end();
  auto after = x.max().item<float>();              // after capture_end, not hot: no result
  (void)k; (void)after;
}

int main() {
  auto buf = torch::empty({8}, torch::kCUDA);
  auto src = torch::randn({4, 8}, torch::kCUDA);
  auto stream = c10::cuda::getStreamFromPool();
  capture_raw(stream.stream(), buf, src);
  at::cuda::CUDAGraph graph;
  capture_member(graph, buf);
  return 0;
}
