// An in-house tensor library Seam knows nothing about until a rule pack
// (inhouse.json beside this file) describes it.
#pragma once
namespace ml {
enum class Where { Host, Gpu };
class Array {
public:
  float value() const;      // reads one element on the host
  Array to_host() const;    // copies to host memory
  Array upload() const;     // copies to the GPU
  Array operator+(const Array &o) const;
  int rows() const;         // metadata
};
Array make(int n, Where w = Where::Host);
void barrier();
template <typename F> F jit(F f) { return f; }
} // namespace ml
