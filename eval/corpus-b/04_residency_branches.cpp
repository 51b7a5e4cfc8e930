// Tensors reassigned between host and device in branches; cpu() then read.
#include <torch/torch.h>
#include <cstdlib>

int main(int argc, char** argv) {
  bool use_gpu = argc > 1;
  auto a = torch::zeros({4});          // host
  if (use_gpu) a = a.cuda();            // maybe device
  auto b = torch::ones({4}).to(torch::kCUDA);
  if (argc > 2) b = b.cpu(); else b = b.to(torch::kCPU);  // host on both paths (not hot)
  auto c = torch::randn({4});           // host
  auto d = c.to(torch::kFloat);         // dtype change: still host
  auto e = torch::zeros({4}, torch::TensorOptions().device(torch::kCPU));  // explicit CPU: host
  auto g = at::empty({4}, at::TensorOptions().device(at::kCUDA)).fill_(1);  // device
  float acc = 0;
  for (int i = 0; i < 5; ++i) {
    acc += a.sum().item<float>();       //@ hs@item #may be device after the branch (most device-ward join)
    acc += b.sum().item<float>();       // host on all paths
    acc += c.mean().item<float>();      //@ hs@item #c may be device via the loop back edge (c = c.cuda() below)
    acc += d.max().item<float>();       // host
    acc += e.min().item<float>();       // host
    acc += (c + g).sum().item<float>(); //@ hs@item #mixed operands: device wins
    auto gh = g.cpu();                  //@ hs@cpu #device-to-host copy
    acc += gh.sum().item<float>();      // gh is host now
    auto gc = g.to(torch::kCPU);        //@ hs@to
    acc += gc[0].item<float>();         // host
    auto cc = c.cpu();                  //@ hs@cpu #c may be device via the back edge
    acc += cc.sum().item<float>();
    if (i % 2) {
      c = c.cuda();                     // c becomes device inside the loop body...
    } else {
      c = c.cpu();                      //@ hs@cpu #...so on the next iteration c may be device (loop back edge)
    }
  }
  return acc > 0;
}
