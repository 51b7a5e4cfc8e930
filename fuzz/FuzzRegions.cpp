//===- FuzzRegions.cpp - Differential fuzzer: region compiler vs eager ----===//
//
// The input is a program: a shape, then a chain of pointwise ops,
// reductions and break points (item() inside the region). The chain runs
// eagerly and inside compile(); results must agree within a tolerance.
// Errors the runtime reports (seam::rt::Error) must be the same in both.
//
//===----------------------------------------------------------------------===//
#include "seam/rt.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace seam::rt;

namespace {

struct Program {
  Shape Sizes;
  std::vector<uint8_t> Ops;
};

Program decode(const uint8_t *Data, size_t Size) {
  Program P;
  size_t I = 0;
  auto Next = [&]() -> uint8_t { return I < Size ? Data[I++] : 0; };
  unsigned Rank = 1 + Next() % 3;
  for (unsigned R = 0; R < Rank; ++R)
    P.Sizes.push_back(1 + Next() % 7);
  while (I < Size && P.Ops.size() < 48)
    P.Ops.push_back(Next());
  return P;
}

/// Runs the chain; \p Breaks adds item() reads (graph breaks when compiled).
Tensor run(const Program &P, const Tensor &X, double &Scalars) {
  Tensor T = X;
  Scalars = 0;
  for (uint8_t Op : P.Ops) {
    switch (Op % 12) {
    case 0:
      T = T + 1.5;
      break;
    case 1:
      T = T * 0.5;
      break;
    case 2:
      T = relu(T);
      break;
    case 3:
      T = sigmoid(T);
      break;
    case 4:
      T = tanh(T);
      break;
    case 5:
      T = T * T;
      break;
    case 6:
      T = T - X;
      break;
    case 7:
      T = abs(T) + 1.0;
      break;
    case 8:
      T = where(T > 0.25, T, X);
      break;
    case 9:
      T = T + T.sum() * 0.01;
      break;
    case 10:
      Scalars += T.mean().item<float>();
      break; // a break point
    case 11:
      T = T / (abs(T) + 1.0);
      break;
    }
  }
  return T.sum();
}

bool close(double A, double B) {
  if (std::isnan(A) && std::isnan(B))
    return true;
  return std::fabs(A - B) <= 1e-3 * (1 + std::fabs(A) + std::fabs(B));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Program P = decode(Data, Size);
  for (Device D : {kCPU, kAccel}) {
    Tensor X = randn(P.Sizes, D, /*Seed=*/Size);
    double EagerScalars = 0, CompiledScalars = 0;
    std::string EagerErr, CompiledErr;
    double Eager = 0, Compiled = 0;
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
    if (EagerErr.empty() != CompiledErr.empty() ||
        (EagerErr.empty() &&
         (!close(Eager, Compiled) || !close(EagerScalars, CompiledScalars)))) {
      std::fprintf(stderr,
                   "mismatch on %s: eager %g (%g) '%s' vs compiled %g (%g) "
                   "'%s'\n",
                   D == kCPU ? "cpu" : "accel", Eager, EagerScalars,
                   EagerErr.c_str(), Compiled, CompiledScalars,
                   CompiledErr.c_str());
      std::abort();
    }
  }
  return 0;
}
