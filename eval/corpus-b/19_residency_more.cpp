// More residency corners: device expressions, chained copies, captures, try/catch, switch.
#include <torch/torch.h>
#include <iostream>

int main(int argc, char**) {
  torch::Device cuda0("cuda:0");
  auto host = torch::rand({6});
  auto dev = host.to(cuda0);                              // device via Device("cuda:0")
  auto nb = host.to(torch::kCUDA, /*non_blocking=*/true); // device
  auto back = dev.to(torch::Device(torch::kCPU));         // host (not hot here)
  auto same_as_host = dev.to(host.device());              // device of a host tensor (not hot here)
  auto by_val = [dev] { return dev.sum().item<float>(); };      //@ hs@item #capture by value of a device tensor, called in loop
  auto host_cap = [host] { return host.sum().item<float>(); };  // captured host tensor: host
  float acc = 0;
  for (int i = 0; i < 4; ++i) {
    acc += dev.cpu().item<float>();                       //@ hs@cpu #only the copy syncs; the item reads a host tensor
    acc += dev.to(torch::kCPU).sum().item<float>();       //@ hs@to
    acc += dev.sum().item().toFloat();                    //@ hs@item #Scalar::toFloat is on the host already
    acc += back.sum().item<float>();                      // host
    acc += same_as_host.sum().item<float>();              // host (ambiguous: to(<expr>.device()) of a host tensor)
    acc += nb.max().item<float>();                        //@ hs@item
    acc += host.equal(back) ? 1 : 0;                      // both host
    auto sel = dev[dev > 0.5];                            //@ hs@[ #boolean-mask indexing through operator[] (location: operator; ambiguous column)
    acc += sel.numel();
    acc += by_val() + host_cap();
    switch (i % 3) {
      case 0: acc += dev.std().item<float>(); break;      //@ hs@item #switch inside loop
      case 1: continue;
      default: break;
    }
    try {
      TORCH_CHECK(acc < 1e9, "overflow");
    } catch (const c10::Error&) {
      std::cerr << dev << std::endl;                      //@ hs@<< #catch block inside loop
    }
  }
  return acc > 0 && argc > 0;
}
