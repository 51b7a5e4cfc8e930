//===- DifferentialTest.cpp - Region compiler vs eager on random programs -===//
//
// A differential fuzzer run as a test: random op chains (pointwise ops,
// reductions, where, item() break points) on random shapes, run eagerly and
// under compile() on both devices; results must agree within a tolerance
// and errors must be the same. A fixed seed keeps it reproducible; set
// SEAM_RT_DIFF_PROGRAMS and SEAM_RT_DIFF_SEED to hunt longer.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

using namespace seam::rt;

namespace {

struct Program {
  Shape Sizes;
  std::vector<unsigned> Ops;
};

Program randomProgram(std::mt19937_64 &R) {
  Program P;
  unsigned Rank = 1 + R() % 3;
  for (unsigned I = 0; I < Rank; ++I)
    P.Sizes.push_back(1 + R() % 7);
  unsigned N = R() % 24;
  for (unsigned I = 0; I < N; ++I)
    P.Ops.push_back(R() % 12);
  return P;
}

Tensor run(const Program &P, const Tensor &X, double &Scalars) {
  Tensor T = X;
  Scalars = 0;
  for (unsigned Op : P.Ops) {
    switch (Op) {
    case 0: T = T + 1.5; break;
    case 1: T = T * 0.5; break;
    case 2: T = relu(T); break;
    case 3: T = sigmoid(T); break;
    case 4: T = tanh(T); break;
    case 5: T = T * T; break;
    case 6: T = T - X; break;
    case 7: T = abs(T) + 1.0; break;
    case 8: T = where(T > 0.25, T, X); break;
    case 9: T = T + T.sum() * 0.01; break;
    case 10: Scalars += T.mean().item<float>(); break; // a graph break
    default: T = T / (abs(T) + 1.0); break;
    }
  }
  return T.sum();
}

bool close(double A, double B) {
  if (std::isnan(A) && std::isnan(B))
    return true;
  return std::fabs(A - B) <= 1e-3 * (1 + std::fabs(A) + std::fabs(B));
}

std::string describe(const Program &P) {
  std::string S = "shape [";
  for (int64_t D : P.Sizes)
    S += std::to_string(D) + ",";
  S += "] ops";
  for (unsigned Op : P.Ops)
    S += " " + std::to_string(Op);
  return S;
}

TEST(Differential, CompiledMatchesEager) {
  const char *N = std::getenv("SEAM_RT_DIFF_PROGRAMS");
  const char *Seed = std::getenv("SEAM_RT_DIFF_SEED");
  unsigned Programs = N ? std::strtoul(N, nullptr, 10) : 100;
  std::mt19937_64 R(Seed ? std::strtoull(Seed, nullptr, 10) : 1);
  for (unsigned I = 0; I < Programs; ++I) {
    Program P = randomProgram(R);
    for (Device D : {kCPU, kAccel}) {
      Tensor X = randn(P.Sizes, D, /*Seed=*/I);
      double EagerScalars = 0, CompiledScalars = 0, Eager = 0, Compiled = 0;
      std::string EagerErr, CompiledErr;
      try {
        Eager = run(P, X, EagerScalars).item<float>();
      } catch (const Error &E) {
        EagerErr = E.what();
      }
      try {
        auto F = compile(
            [&](const Tensor &In) { return run(P, In, CompiledScalars); });
        Compiled = F(X).item<float>();
      } catch (const Error &E) {
        CompiledErr = E.what();
      }
      ASSERT_EQ(EagerErr, CompiledErr) << describe(P);
      ASSERT_TRUE(close(Eager, Compiled))
          << describe(P) << ": eager " << Eager << " compiled " << Compiled;
      ASSERT_TRUE(close(EagerScalars, CompiledScalars))
          << describe(P) << ": eager reads " << EagerScalars << " compiled "
          << CompiledScalars;
    }
  }
}

} // namespace
