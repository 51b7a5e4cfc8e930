// User classes wrapping tensors with overloaded operators.
#include <torch/torch.h>
#include <iostream>
#include <algorithm>
#include <vector>

class Score {
 public:
  explicit Score(torch::Tensor v) : v_(std::move(v)) {}
  bool operator<(const Score& o) const {
    return (v_ < o.v_).all().item<bool>();         //@ hs@item #operator< called directly in the while loop
  }
  Score operator+(const Score& o) const { return Score(v_ + o.v_); }   // pure device op
  explicit operator bool() const { return v_.is_nonzero(); }          //@ hs@is_nonzero #explicit conversion used in a loop condition
  friend std::ostream& operator<<(std::ostream& os, const Score& s) {
    return os << s.v_;                                                //@ hs@<< #printing member tensor from an overloaded << used in a loop
  }
  int64_t rank() const { return v_.dim(); }
 private:
  torch::Tensor v_;
};

struct HostScore {
  float value;
  bool operator<(const HostScore& o) const { return value < o.value; }
  float item() const { return value; }
};

int main() {
  std::vector<Score> scores;
  for (int i = 0; i < 4; ++i) scores.emplace_back(torch::rand({1}, torch::kCUDA));
  Score total(torch::zeros({1}, torch::kCUDA));
  std::vector<HostScore> hs = {{1.f}, {2.f}};
  int it = 0;
  while (static_cast<bool>(total) == false && it < 3) {
    for (auto& s : scores) total = total + s;
    if (scores[0] < scores[1]) std::cout << scores[0] << "\n";
    std::sort(hs.begin(), hs.end());
    float f = hs[0].item();                          // non-tensor item()
    it += static_cast<int>(f) + static_cast<int>(total.rank());
  }
  return it;
}
