//===- OpsTest.cpp - Every op against a plain host reference, four ways ---===//

#include "TestUtil.h"

#include <functional>

using namespace seam::rt;
using namespace seam::rt::test;

namespace {

class OpsTest : public testing::TestWithParam<Config> {
protected:
  Device dev() const { return GetParam().Dev; }
  Tensor input(const std::vector<float> &V, const Shape &S) {
    return from_vector(V, S, dev());
  }
};

using UnaryRef = std::function<double(double)>;

struct UnaryCase {
  const char *Name;
  Tensor (*Fn)(const Tensor &);
  UnaryRef Ref;
};

Tensor negate(const Tensor &X) { return -X; }

TEST_P(OpsTest, UnaryFloat) {
  const UnaryCase Cases[] = {
      {"relu", relu, [](double X) { return X > 0 ? X : 0; }},
      {"sigmoid", sigmoid, [](double X) { return 1 / (1 + std::exp(-X)); }},
      {"tanh", seam::rt::tanh, [](double X) { return std::tanh(X); }},
      {"exp", seam::rt::exp, [](double X) { return std::exp(X); }},
      {"abs", seam::rt::abs, [](double X) { return std::fabs(X); }},
      {"gelu", gelu,
       [](double X) { return 0.5 * X * (1 + std::erf(X / std::sqrt(2.0))); }},
      {"neg", negate, [](double X) { return -X; }},
  };
  std::vector<float> V = hostRandn(1000, 1);
  for (const UnaryCase &C : Cases) {
    Tensor X = input(V, {10, 100});
    Tensor Y = runIn(GetParam(), C.Fn, X);
    EXPECT_EQ(Y.sizes(), (Shape{10, 100}));
    EXPECT_EQ(Y.dtype(), kFloat);
    EXPECT_EQ(Y.device(), dev());
    std::vector<double> Want;
    for (float F : V)
      Want.push_back(C.Ref(F));
    expectNear(values(Y), Want, 1e-5, C.Name);
  }
  // log and sqrt on positive inputs.
  std::vector<float> P;
  for (float F : V)
    P.push_back(std::fabs(F) + 0.01f);
  Tensor X = input(P, {1000});
  std::vector<double> WantLog, WantSqrt;
  for (float F : P) {
    WantLog.push_back(std::log(F));
    WantSqrt.push_back(std::sqrt(F));
  }
  expectNear(values(runIn(GetParam(), seam::rt::log, X)), WantLog, 1e-5, "log");
  expectNear(values(runIn(GetParam(), seam::rt::sqrt, X)), WantSqrt, 1e-5,
             "sqrt");
}

TEST_P(OpsTest, BinaryAndScalar) {
  std::vector<float> A = hostRandn(300, 2), B = hostRandn(300, 3);
  for (float &F : B)
    if (F == 0)
      F = 0.5f;
  Tensor TA = input(A, {3, 100}), TB = input(B, {3, 100});
  struct Case {
    const char *Name;
    std::function<Tensor(Tensor, Tensor)> Fn;
    std::function<double(double, double)> Ref;
  };
  const Case Cases[] = {
      {"add", [](Tensor X, Tensor Y) { return X + Y; },
       [](double X, double Y) { return X + Y; }},
      {"sub", [](Tensor X, Tensor Y) { return X - Y; },
       [](double X, double Y) { return X - Y; }},
      {"mul", [](Tensor X, Tensor Y) { return X * Y; },
       [](double X, double Y) { return X * Y; }},
      {"div", [](Tensor X, Tensor Y) { return X / Y; },
       [](double X, double Y) { return X / Y; }},
      {"add_s", [](Tensor X, Tensor) { return X + 1.5; },
       [](double X, double) { return X + 1.5; }},
      {"rsub_s", [](Tensor X, Tensor) { return 2.0 - X; },
       [](double X, double) { return 2.0 - X; }},
      {"mul_s", [](Tensor X, Tensor) { return 3.0 * X; },
       [](double X, double) { return 3.0 * X; }},
      {"rdiv_s", [](Tensor, Tensor Y) { return 1.0 / Y; },
       [](double, double Y) { return 1.0 / Y; }},
      {"gt", [](Tensor X, Tensor Y) { return X > Y; },
       [](double X, double Y) { return double(X > Y); }},
      {"lt_s", [](Tensor X, Tensor) { return X < 0.25; },
       [](double X, double) { return double(X < 0.25); }},
      {"ge", [](Tensor X, Tensor Y) { return X >= Y; },
       [](double X, double Y) { return double(X >= Y); }},
      {"le_s", [](Tensor X, Tensor) { return X <= 0.0; },
       [](double X, double) { return double(X <= 0.0); }},
      {"eq", [](Tensor X, Tensor) { return X == X; },
       [](double, double) { return 1.0; }},
      {"s_gt", [](Tensor X, Tensor) { return 0.5 > X; },
       [](double X, double) { return double(0.5 > X); }},
      {"s_le", [](Tensor X, Tensor) { return -0.5 <= X; },
       [](double X, double) { return double(-0.5 <= X); }},
      {"where", [](Tensor X, Tensor Y) { return where(X > Y, X, Y); },
       [](double X, double Y) { return X > Y ? X : Y; }},
      {"where_s", [](Tensor X, Tensor) { return where(X > 0.0, X, 0.0); },
       [](double X, double) { return X > 0 ? X : 0.0; }},
  };
  for (const Case &C : Cases) {
    Tensor Y = runIn(GetParam(), C.Fn, TA, TB);
    std::vector<double> Want;
    for (size_t I = 0; I < A.size(); ++I)
      Want.push_back(float(C.Ref(A[I], B[I])));
    expectNear(values(Y), Want, 1e-5, C.Name);
    EXPECT_EQ(Y.sizes(), (Shape{3, 100})) << C.Name;
  }
  EXPECT_EQ(
      runIn(GetParam(), [](Tensor X) { return X > 0.0; }, TA).dtype(), kBool);
}

TEST_P(OpsTest, BroadcastOneElement) {
  std::vector<float> A = hostRandn(64, 4);
  Tensor X = input(A, {8, 8});
  Tensor S = input({2.5f}, {1});
  Tensor Y = runIn(
      GetParam(), [](Tensor X, Tensor S) { return X * S + X.mean(); }, X, S);
  double Mean = 0;
  for (float F : A)
    Mean += F;
  Mean /= A.size();
  std::vector<double> Want;
  for (float F : A)
    Want.push_back(F * 2.5 + Mean);
  expectNear(values(Y), Want, 1e-5);
}

TEST_P(OpsTest, Reductions) {
  std::vector<float> A = hostRandn(24, 5);
  Tensor X = input(A, {2, 3, 4});
  double Sum = 0, Max = -1e9, Min = 1e9;
  for (float F : A) {
    Sum += F;
    Max = std::max<double>(Max, F);
    Min = std::min<double>(Min, F);
  }
  auto C = GetParam();
  expectNear(values(runIn(C, [](Tensor T) { return T.sum(); }, X)), {Sum});
  expectNear(
      values(runIn(C, [](Tensor T) { return T.mean(); }, X)), {Sum / 24});
  expectNear(values(runIn(C, [](Tensor T) { return T.max(); }, X)), {Max});
  expectNear(values(runIn(C, [](Tensor T) { return T.min(); }, X)), {Min});
  EXPECT_EQ(runIn(C, [](Tensor T) { return T.sum(); }, X).dim(), 0);

  // Over dim 1 of [2,3,4].
  std::vector<double> S1(8, 0), M1(8, -1e9);
  for (int I = 0; I < 2; ++I)
    for (int J = 0; J < 3; ++J)
      for (int K = 0; K < 4; ++K) {
        S1[I * 4 + K] += A[I * 12 + J * 4 + K];
        M1[I * 4 + K] = std::max<double>(M1[I * 4 + K], A[I * 12 + J * 4 + K]);
      }
  Tensor SD = runIn(C, [](Tensor T) { return T.sum(1); }, X);
  EXPECT_EQ(SD.sizes(), (Shape{2, 4}));
  expectNear(values(SD), S1);
  Tensor MD = runIn(C, [](Tensor T) { return T.max(-2, true); }, X);
  EXPECT_EQ(MD.sizes(), (Shape{2, 1, 4}));
  expectNear(values(MD), M1);
  std::vector<double> Mean1 = S1;
  for (double &V : Mean1)
    V /= 3;
  expectNear(values(runIn(C, [](Tensor T) { return T.mean(1); }, X)), Mean1);
  std::vector<double> Min2;
  for (int I = 0; I < 6; ++I)
    Min2.push_back(*std::min_element(A.begin() + I * 4, A.begin() + I * 4 + 4));
  expectNear(values(runIn(C, [](Tensor T) { return T.min(2); }, X)), Min2);
}

TEST_P(OpsTest, LongAndBool) {
  auto C = GetParam();
  Tensor N = arange(10, dev());
  EXPECT_EQ(N.dtype(), kLong);
  Tensor Y = runIn(C, [](Tensor T) { return (T * 3 - 4).sum(); }, N);
  EXPECT_EQ(Y.dtype(), kLong);
  EXPECT_EQ(Y.item<int64_t>(), 3 * 45 - 40);
  Tensor H = runIn(C, [](Tensor T) { return T * 0.5; }, N);
  EXPECT_EQ(H.dtype(), kFloat);
  EXPECT_FLOAT_EQ(H.sum().item<float>(), 22.5f);
  Tensor B = runIn(C, [](Tensor T) { return T > 4; }, N);
  EXPECT_EQ(B.dtype(), kBool);
  EXPECT_EQ(B.sum().item<int64_t>(), 5);
  EXPECT_EQ(B.max().item<bool>(), true);
  EXPECT_EQ(runIn(
                C, [](Tensor T) { return relu(T - 5).max(); }, N)
                .item<int64_t>(),
            4);
  EXPECT_FLOAT_EQ(N.mean().item<float>(), 4.5f);
  EXPECT_EQ(runIn(C, [](Tensor T) { return T / 4; }, N).dtype(), kFloat);
}

// Both matmul kernels: a thin B (fewer columns than the dot-product kernel's
// partial sums; one column, as a weight vector) and a wide one, with K not a
// multiple of the partial sums, against sums in double.
TEST_P(OpsTest, MatmulThinAndWide) {
  auto C = GetParam();
  const int M = 5, K = 37;
  for (int N : {1, 3, 8, 11}) {
    std::vector<float> A = hostRandn(M * K, 21), B = hostRandn(K * N, 22 + N);
    Tensor TA = input(A, {M, K}), TB = input(B, {K, N});
    Tensor P =
        runIn(C, [](Tensor X, Tensor Y) { return matmul(X, Y); }, TA, TB);
    EXPECT_EQ(P.sizes(), (Shape{M, N}));
    std::vector<double> Want(M * N, 0.0);
    for (int I = 0; I < M; ++I)
      for (int J = 0; J < N; ++J)
        for (int Kk = 0; Kk < K; ++Kk)
          Want[I * N + J] += double(A[I * K + Kk]) * B[Kk * N + J];
    expectNear(values(P), Want, 1e-4);
  }
}

TEST_P(OpsTest, MatmulTransposeReshape) {
  auto C = GetParam();
  std::vector<float> A = hostRandn(6, 6), B = hostRandn(12, 7);
  Tensor TA = input(A, {2, 3}), TB = input(B, {3, 4});
  Tensor M =
      runIn(C, [](Tensor X, Tensor Y) { return matmul(X, Y) + 1.0; }, TA, TB);
  EXPECT_EQ(M.sizes(), (Shape{2, 4}));
  std::vector<double> Want(8, 1.0);
  for (int I = 0; I < 2; ++I)
    for (int J = 0; J < 4; ++J)
      for (int K = 0; K < 3; ++K)
        Want[I * 4 + J] += double(A[I * 3 + K]) * B[K * 4 + J];
  expectNear(values(M), Want, 1e-5);

  Tensor T = runIn(C, [](Tensor X) { return X.transpose(0, 1) * 2.0; }, TA);
  EXPECT_EQ(T.sizes(), (Shape{3, 2}));
  std::vector<double> WantT;
  for (int J = 0; J < 3; ++J)
    for (int I = 0; I < 2; ++I)
      WantT.push_back(2.0 * A[I * 3 + J]);
  expectNear(values(T), WantT);

  Tensor R = runIn(C, [](Tensor X) { return (X + 1.0).reshape({3, -1}); }, TA);
  EXPECT_EQ(R.sizes(), (Shape{3, 2}));
  std::vector<double> WantR;
  for (float F : A)
    WantR.push_back(F + 1.0);
  expectNear(values(R), WantR);
  EXPECT_EQ(
      runIn(C, [](Tensor X) { return X.view({6}); }, TA).sizes(), (Shape{6}));
}

TEST_P(OpsTest, Factories) {
  auto C = GetParam();
  Tensor Z = zeros({2, 3}, dev()), O = ones({2, 3}, dev()),
         F = full({2, 3}, 7.0, dev());
  Tensor S =
      runIn(C, [](Tensor A, Tensor B, Tensor D) { return A + B + D; }, Z, O, F);
  expectNear(values(S), std::vector<double>(6, 8.0));
  // randn is reproducible on every device.
  EXPECT_EQ(values(randn({100}, dev(), 9)), values(randn({100}, kCPU, 9)));
  EXPECT_NE(values(randn({100}, dev(), 9)), values(randn({100}, dev(), 10)));
  std::vector<double> R = values(randn({10000}, dev(), 3));
  double Mean = 0, Var = 0;
  for (double V : R)
    Mean += V / R.size();
  for (double V : R)
    Var += (V - Mean) * (V - Mean) / R.size();
  EXPECT_NEAR(Mean, 0, 0.05);
  EXPECT_NEAR(Var, 1, 0.05);
}

INSTANTIATE_TEST_SUITE_P(AllModes, OpsTest,
                         testing::Values(Config{kCPU, false},
                                         Config{kCPU, true},
                                         Config{kAccel, false},
                                         Config{kAccel, true}),
                         configName);

} // namespace
