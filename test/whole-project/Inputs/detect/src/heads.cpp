#include "detect.h"

struct BoxHead : Head {
  torch::Tensor score(const torch::Tensor &x) override {
    if (x.max().item<float>() > 10.0f)
      return x / 10;
    return x;
  }
};

Head *make_head() { return new BoxHead(); }

struct ConvBackbone : Backbone {
  torch::Tensor forward(const torch::Tensor &x) override {
    float peak = x.max().item<float>();
    return x / peak;
  }
};
