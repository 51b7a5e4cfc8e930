// CUDA graph capture in a function, with a sync hidden in a helper.
#include <torch/torch.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAGuard.h>

#include <iostream>
#include <memory>

struct Graphed {
  at::cuda::CUDAGraph graph;
  at::Tensor in, out;
};

static void drain() { torch::cuda::synchronize(); }  //@ cs:synchronize

static void capture(Graphed& g, torch::nn::Linear& lin) {
  auto stream = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(stream);
  g.graph.capture_begin();
  g.out = lin->forward(g.in);
  auto shape = g.out.sizes();
  (void)shape;
  drain();
  std::cout << g.out << std::endl;  //@ cs:<<#1
  g.graph.capture_end();
  stream.synchronize();
}

int main() {
  torch::Device dev(torch::kCUDA);
  torch::nn::Linear lin(32, 32);
  lin->to(dev);
  auto g = std::make_unique<Graphed>();
  g->in = torch::zeros({8, 32}, dev);
  capture(*g, lin);
  for (int i = 0; i < 10; ++i) {
    g->in.fill_(static_cast<double>(i));
    g->graph.replay();
  }
  torch::cuda::synchronize();
  std::cout << g->out.sum().item<float>() << std::endl;
}
