// A small lazy, asynchronous tensor API in the style of real ones (arrays
// are graphs until evaluated; the default device is the accelerator), used
// to test rule packs of format 2 (lazy.json). Declarations only.
#pragma once
#include <functional>
#include <ostream>
#include <variant>
#include <vector>

namespace lz {

enum class DeviceType { cpu, gpu };
struct Device {
  DeviceType type;
  static const Device cpu;
  static const Device gpu;
};
struct Stream {
  Device device;
};
using StreamOrDevice = std::variant<std::monostate, Stream, Device>;

class array {
public:
  array();
  array(float value); // a scalar made on the host
  array(const std::vector<float> &data, const std::vector<int> &shape);
  template <typename T> T item() const;
  explicit operator bool() const;
  explicit operator float() const;
  int ndim() const;
  array operator<<(const array &other) const; // bit shift, element-wise
};

array operator+(const array &a, const array &b);
std::ostream &operator<<(std::ostream &os, const array &a);

array zeros(const std::vector<int> &shape, StreamOrDevice s = {});
array ones(const std::vector<int> &shape, StreamOrDevice s = {});
array add(const array &a, const array &b, StreamOrDevice s = {});
array sum(const array &a, int axis, StreamOrDevice s = {});
template <typename T> T sum(const array &a);
void eval(const std::vector<array> &outputs);
void eval(const array &a);
void async_eval(const array &a);
void synchronize();
void set_default_device(const Device &d);

class StreamContext {
public:
  explicit StreamContext(StreamOrDevice s);
  ~StreamContext();
};

std::function<std::vector<array>(const std::vector<array> &)>
compile(std::function<std::vector<array>(const std::vector<array> &)> fun);
std::function<array(const array &)>
grad(std::function<array(const array &)> fun);
/// Calls fn(i) for each batch index, like a loop.
void for_each_batch(int batches, void (*fn)(int));

} // namespace lz

namespace other {
class Vec {
public:
  float item() const;
};
std::ostream &operator<<(std::ostream &os, const Vec &v);
} // namespace other
