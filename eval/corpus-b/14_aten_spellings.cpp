// at:: vs torch:: spellings, Scalar reads, TORCH_CHECK, device variables.
#include <ATen/ATen.h>
#include <torch/torch.h>

at::Tensor make_dev() { return at::zeros({4}, at::kCUDA); }

int main(int argc, char**) {
  torch::Device device(argc > 1 ? torch::kCUDA : torch::kCPU);
  at::Tensor a = make_dev();                 // returned from a device factory
  at::Tensor b = at::ones({4}).to(device);   // to(<device variable>): unknown -> device
  at::Tensor h = at::arange(4);              // host
  at::Tensor h2 = at::ones({4}, at::dtype(at::kFloat));  // no device option: host
  int64_t acc = 0;
  for (int i = 0; i < 3; ++i) {
    at::Scalar s = at::sum(a).item();        //@ hs@item #item() without template argument
    acc += s.toLong();                       // Scalar already on host
    TORCH_CHECK(at::equal(a, b), "mismatch");          //@ hs@equal #free-function equal inside TORCH_CHECK
    TORCH_CHECK(h.sum().item<int64_t>() == 6, "bad");   // host: fine
    auto u = at::unique_dim(b, 0);           //@ hs@unique_dim
    auto v = std::get<0>(torch::unique_consecutive(h));  // host operand: fine
    auto w = at::masked_select(b, b > 0);    //@ hs@masked_select #free function
    auto nz = h2.nonzero();                  // host: fine
    acc += std::get<0>(u).size(0) + v.size(0) + w.numel() + nz.size(0);
    acc += at::allclose(a, a + 1) ? 1 : 0;   //@ hs@allclose
    acc += b.is_cuda();                      // metadata
    acc += a.options().device().index();     // metadata
  }
  return static_cast<int>(acc);
}
