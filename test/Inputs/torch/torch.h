// Mock LibTorch for Seam's lit tests: the same names, namespaces and
// signatures shapes as libtorch 1.13, no bodies. Tests include it with
// -isystem, as real projects include LibTorch.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace c10 {
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, HIP = 6, XLA = 9, MPS = 13 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
struct Device {
  Device(DeviceType type, int8_t index = -1);
  Device(const std::string &device_string);
  DeviceType type() const;
  bool is_cuda() const;
  bool is_cpu() const;
};
enum class ScalarType : int8_t { Byte, Int = 3, Long = 4, Float = 6, Double = 7, Bool = 11 };
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kBool = ScalarType::Bool;
template <typename T> class ArrayRef {
public:
  ArrayRef();
  ArrayRef(const T &one);
  ArrayRef(const std::vector<T> &v);
  ArrayRef(std::initializer_list<T> l);
  size_t size() const;
  const T &operator[](size_t i) const;
};
using IntArrayRef = ArrayRef<int64_t>;
struct TensorOptions {
  TensorOptions();
  TensorOptions(Device d);
  TensorOptions(DeviceType t);
  TensorOptions(ScalarType s);
  TensorOptions device(Device d) const;
  TensorOptions dtype(ScalarType s) const;
  TensorOptions requires_grad(bool r) const;
};
class Scalar {
public:
  Scalar(double v);
  Scalar(int v);
  Scalar(int64_t v);
  Scalar(float v);
  Scalar(bool v);
  float toFloat() const;
  double toDouble() const;
  int64_t toLong() const;
  bool toBool() const;
  template <typename T> T to() const;
};
namespace cuda {
class CUDAStream {
public:
  void synchronize() const;
  bool query() const;
};
CUDAStream getCurrentCUDAStream(int8_t device = -1);
CUDAStream getStreamFromPool(bool high_priority = false, int8_t device = -1);
void device_synchronize();
} // namespace cuda
} // namespace c10

namespace at {
using c10::ArrayRef;
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::kBool;
using c10::kCPU;
using c10::kCUDA;
using c10::kDouble;
using c10::kFloat;
using c10::kInt;
using c10::kLong;
using c10::Scalar;
using c10::ScalarType;
using c10::TensorOptions;
class Tensor;
namespace indexing {
struct Slice {
  Slice();
  Slice(int64_t start, int64_t stop);
};
struct TensorIndex {
  TensorIndex(const Tensor &t);
  TensorIndex(int64_t i);
  TensorIndex(int i);
  TensorIndex(Slice s);
};
} // namespace indexing
class TensorBase {
public:
  int64_t dim() const;
  int64_t numel() const;
  IntArrayRef sizes() const;
  int64_t size(int64_t d) const;
  Device device() const;
  ScalarType scalar_type() const;
  bool is_cuda() const;
  bool defined() const;
  TensorOptions options() const;
  template <typename T> T *data_ptr() const;
  void *data_ptr() const;
};
class Tensor : public TensorBase {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  Tensor &operator=(const Scalar &v) &;
  Tensor &operator+=(const Tensor &o);
  Tensor &operator+=(const Scalar &o);
  Tensor &operator*=(const Scalar &o);
  Tensor &operator*=(const Tensor &o);
  Tensor &operator-=(const Tensor &o);
  Tensor &operator-=(const Scalar &o);
  Scalar item() const;
  template <typename T> T item() const;
  bool is_nonzero() const;
  bool equal(const Tensor &other) const;
  bool allclose(const Tensor &other, double rtol = 1e-5, double atol = 1e-8) const;
  Tensor cpu() const;
  Tensor cuda() const;
  Tensor to(ScalarType t, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device d, ScalarType t, bool non_blocking = false, bool copy = false) const;
  Tensor to(TensorOptions o = {}, bool non_blocking = false, bool copy = false) const;
  Tensor to(const Tensor &other, bool non_blocking = false, bool copy = false) const;
  Tensor type_as(const Tensor &other) const;
  Tensor &copy_(const Tensor &src, bool non_blocking = false);
  void print() const;
  Tensor nonzero() const;
  Tensor masked_select(const Tensor &mask) const;
  Tensor unique_consecutive() const;
  Tensor index(ArrayRef<indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor &index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor &v);
  Tensor &index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar &v);
  Tensor operator[](const Tensor &index) const;
  Tensor operator[](int64_t index) const;
  Tensor sum() const;
  Tensor sum(int64_t dim, bool keepdim = false) const;
  Tensor mean() const;
  Tensor max() const;
  Tensor min() const;
  Tensor abs() const;
  Tensor exp() const;
  Tensor log() const;
  Tensor relu() const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor sqrt() const;
  Tensor neg() const;
  Tensor any() const;
  Tensor all() const;
  Tensor argmax(int64_t dim, bool keepdim = false) const;
  Tensor gt(const Scalar &s) const;
  Tensor lt(const Scalar &s) const;
  Tensor ge(const Scalar &s) const;
  Tensor eq(const Tensor &t) const;
  Tensor ne(const Scalar &s) const;
  Tensor isnan() const;
  Tensor logical_and(const Tensor &t) const;
  Tensor logical_not() const;
  Tensor view(IntArrayRef s) const;
  Tensor reshape(IntArrayRef s) const;
  Tensor transpose(int64_t a, int64_t b) const;
  Tensor squeeze() const;
  Tensor unsqueeze(int64_t d) const;
  Tensor contiguous() const;
  Tensor detach() const;
  Tensor clone() const;
  Tensor add(const Tensor &t) const;
  Tensor mul(const Tensor &t) const;
  Tensor matmul(const Tensor &t) const;
  Tensor masked_fill(const Tensor &mask, const Scalar &v) const;
  Tensor &add_(const Tensor &t);
  Tensor &mul_(const Scalar &s);
  Tensor &mul_(const Tensor &t);
  Tensor div(const Scalar &s) const;
  Tensor div(const Tensor &t) const;
  Tensor &zero_();
  void backward() const;
  Tensor grad() const;
};
Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator+(const Tensor &a, const Scalar &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Scalar &b);
Tensor operator-(const Tensor &a);
Tensor operator+(const Scalar &a, const Tensor &b);
Tensor operator-(const Scalar &a, const Tensor &b);
Tensor operator/(const Scalar &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Scalar &b);
Tensor operator*(const Scalar &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Scalar &b);
Tensor operator>(const Tensor &a, const Tensor &b);
Tensor operator>(const Tensor &a, const Scalar &b);
Tensor operator<(const Tensor &a, const Tensor &b);
Tensor operator<(const Tensor &a, const Scalar &b);
Tensor operator>=(const Tensor &a, const Scalar &b);
Tensor operator<=(const Tensor &a, const Scalar &b);
Tensor operator==(const Tensor &a, const Tensor &b);
Tensor operator==(const Tensor &a, const Scalar &b);
Tensor operator!=(const Tensor &a, const Scalar &b);
Tensor operator&(const Tensor &a, const Tensor &b);
Tensor operator|(const Tensor &a, const Tensor &b);
Tensor operator~(const Tensor &a);
std::ostream &operator<<(std::ostream &out, const Tensor &t);
void print(const Tensor &t, int64_t linesize = 80);
Tensor nonzero(const Tensor &t);
Tensor masked_select(const Tensor &t, const Tensor &mask);
std::tuple<Tensor, Tensor> _unique(const Tensor &t, bool sorted = true, bool return_inverse = false);
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor &t, bool return_inverse = false, bool return_counts = false);
bool equal(const Tensor &a, const Tensor &b);
bool allclose(const Tensor &a, const Tensor &b, double rtol = 1e-5, double atol = 1e-8);
bool is_nonzero(const Tensor &t);
Tensor relu(const Tensor &t);
Tensor sigmoid(const Tensor &t);
Tensor tanh(const Tensor &t);
Tensor exp(const Tensor &t);
Tensor log(const Tensor &t);
Tensor abs(const Tensor &t);
Tensor sum(const Tensor &t);
Tensor mean(const Tensor &t);
Tensor max(const Tensor &t);
Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b);
ScalarType result_type(const Tensor &tensor, const Scalar &other);
Tensor clamp(const Tensor &t, const Scalar &lo, const Scalar &hi);
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor mm(const Tensor &a, const Tensor &b);
Tensor cat(ArrayRef<Tensor> ts, int64_t dim = 0);
Tensor stack(ArrayRef<Tensor> ts, int64_t dim = 0);
Tensor mse_loss(const Tensor &a, const Tensor &b);
Tensor nll_loss(const Tensor &a, const Tensor &b);
Tensor log_softmax(const Tensor &t, int64_t dim);
Tensor softmax(const Tensor &t, int64_t dim);
Tensor isnan(const Tensor &t);
Tensor gt(const Tensor &t, const Scalar &s);
Tensor zeros_like(const Tensor &t, TensorOptions o = {});
Tensor ones_like(const Tensor &t, TensorOptions o = {});
Tensor randn_like(const Tensor &t, TensorOptions o = {});
Tensor ones(IntArrayRef size, TensorOptions o = {});
Tensor zeros(IntArrayRef size, TensorOptions o = {});
Tensor empty(IntArrayRef size, TensorOptions o = {});
Tensor randn(IntArrayRef size, TensorOptions o = {});
Tensor full(IntArrayRef size, const Scalar &v, TensorOptions o = {});
Tensor arange(const Scalar &end, TensorOptions o = {});
} // namespace at

namespace torch {
using namespace at;
// LibTorch defines its factories again in torch:: (variable_factories.h).
at::Tensor ones(at::IntArrayRef size, at::TensorOptions o = {});
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions o = {});
at::Tensor empty(at::IntArrayRef size, at::TensorOptions o = {});
at::Tensor rand(at::IntArrayRef size, at::TensorOptions o = {});
at::Tensor randn(at::IntArrayRef size, at::TensorOptions o = {});
at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions o = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar &v, at::TensorOptions o = {});
at::Tensor arange(const at::Scalar &end, at::TensorOptions o = {});
at::Tensor eye(int64_t n, at::TensorOptions o = {});
at::Tensor tensor(at::ArrayRef<float> values, at::TensorOptions o = {});
at::Tensor tensor(std::initializer_list<float> values, at::TensorOptions o = {});
at::Tensor from_blob(void *data, at::IntArrayRef sizes, at::TensorOptions o = {});
at::Tensor zeros_like(const at::Tensor &t, at::TensorOptions o = {});
inline at::TensorOptions dtype(at::ScalarType t) { return at::TensorOptions(t); }
inline at::TensorOptions device(at::Device d) { return at::TensorOptions(d); }
namespace indexing = at::indexing;
namespace cuda {
bool is_available();
int64_t device_count();
void synchronize(int64_t device_index = -1);
} // namespace cuda
struct NoGradGuard {
  NoGradGuard();
  ~NoGradGuard();
};
namespace nn {
class Module {
public:
  virtual ~Module();
  void to(at::Device d);
  void train(bool on = true);
  void eval();
  std::vector<at::Tensor> parameters() const;
  template <typename M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> m);
  template <typename H> H register_module(std::string name, H holder);
  at::Tensor &register_parameter(std::string name, at::Tensor t);
};
template <typename Contained> class ModuleHolder {
public:
  ModuleHolder();
  template <typename... Args> explicit ModuleHolder(Args &&...args);
  Contained *operator->();
  const Contained *operator->() const;
  template <typename... Args>
  auto operator()(Args &&...args)
      -> decltype(std::declval<Contained &>().forward(std::forward<Args>(args)...));
  std::shared_ptr<Contained> ptr() const;
};
struct LinearImpl : Module {
  LinearImpl(int64_t in, int64_t out);
  at::Tensor forward(const at::Tensor &x);
  at::Tensor weight, bias;
};
class Linear : public ModuleHolder<LinearImpl> {
public:
  using ModuleHolder<LinearImpl>::ModuleHolder;
};
namespace functional {
at::Tensor relu(const at::Tensor &t);
at::Tensor dropout(const at::Tensor &t, double p = 0.5, bool train = true);
} // namespace functional
} // namespace nn
namespace optim {
class SGD {
public:
  SGD(std::vector<at::Tensor> params, double lr);
  void zero_grad();
  void step();
};
} // namespace optim
namespace data {
template <typename Data = at::Tensor, typename Target = at::Tensor>
struct Example {
  Data data;
  Target target;
};
template <typename Batch> class DataLoader {
public:
  struct iterator {
    Batch &operator*();
    iterator &operator++();
    bool operator!=(const iterator &) const;
  };
  iterator begin();
  iterator end();
};
template <typename Batch = Example<>>
std::unique_ptr<DataLoader<Batch>> make_data_loader(int64_t batch_size);
} // namespace data
} // namespace torch

#define TORCH_MODULE(Name)                                                     \
  class Name : public torch::nn::ModuleHolder<Name##Impl> {                    \
  public:                                                                      \
    using torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                   \
  }

#define TORCH_CHECK(cond, ...)                                                 \
  if (!(cond)) {                                                               \
    throw std::runtime_error("check failed");                                  \
  }
