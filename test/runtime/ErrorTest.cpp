//===- ErrorTest.cpp - User mistakes give one clear exception, no crash ---===//

#include "TestUtil.h"

using namespace seam::rt;

namespace {

/// Expects Fn to throw seam::rt::Error whose message contains Needle.
template <typename Fn> void expectError(Fn F, const std::string &Needle) {
  try {
    F();
    ADD_FAILURE() << "no exception; expected '" << Needle << "'";
  } catch (const Error &E) {
    EXPECT_NE(std::string(E.what()).find(Needle), std::string::npos)
        << E.what();
  }
}

class ErrorTest : public testing::TestWithParam<test::Config> {
protected:
  template <typename Fn> void inMode(Fn F, const std::string &Needle) {
    if (GetParam().Compiled)
      expectError([&] { compile([&] { F(); })(); }, Needle);
    else
      expectError(F, Needle);
  }
};

TEST_P(ErrorTest, Mismatches) {
  Device D = GetParam().Dev;
  Tensor A = ones({2, 3}, D), B = ones({3, 2}, D), L = arange(6, D);
  inMode([&] { A + B; }, "shape mismatch: add of [2,3] [3,2]");
  inMode([&] { A.reshape({6}) + L; }, "dtype mismatch: add of float and long");
  inMode([&] { matmul(A, A); }, "shape mismatch: matmul of [2,3] and [2,3]");
  inMode([&] { where(A, A, A); }, "where needs a bool condition");
  inMode([&] { A.reshape({4, 2}); }, "cannot reshape [2,3]");
  inMode([&] { A.sum(5); }, "dim 5 out of range");
  inMode([&] { A.item<float>(); }, "item() needs a tensor with one element, "
                                   "got 6 elements");
  inMode([&] { -(A > 0.0); }, "neg needs a float or long tensor, got bool");
  inMode([&] { masked_select(A, A); }, "masked_select needs a bool mask");
  Device Other = D == kCPU ? kAccel : kCPU;
  inMode([&] { A + ones({2, 3}, Other); }, "device mismatch");
  inMode([&] { A.size(2); }, "dim out of range");
}

TEST_P(ErrorTest, RuntimeStaysUsable) {
  Device D = GetParam().Dev;
  Tensor A = ones({2, 3}, D);
  EXPECT_THROW(A + ones({4}, D), Error);
  EXPECT_FLOAT_EQ((A + 1.0).sum().item<float>(), 12.0f);
}

INSTANTIATE_TEST_SUITE_P(AllModes, ErrorTest,
                         testing::Values(test::Config{kCPU, false},
                                         test::Config{kCPU, true},
                                         test::Config{kAccel, false},
                                         test::Config{kAccel, true}),
                         test::configName);

TEST(ErrorTest, HostCannotReadDeviceMemory) {
  Tensor A = ones({2}, kAccel);
  expectError([&] { A.data_ptr<float>(); }, "data_ptr() on an accel tensor");
  expectError([&] { ones({2}).data_ptr<int64_t>(); },
              "data_ptr<long>() on a float tensor");
  EXPECT_EQ(A.cpu().data_ptr<float>()[1], 1.0f);
  expectError([&] { from_vector({1, 2, 3}, {2, 2}); },
              "3 values do not fill shape [2,2]");
  expectError([&] { Tensor().sum(); }, "undefined tensor");
  EXPECT_THROW(ones({2}).max(0).transpose(0, 3), Error);
  EXPECT_THROW(zeros({0}).max(), Error);
}

} // namespace
