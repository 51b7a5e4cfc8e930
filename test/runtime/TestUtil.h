//===- TestUtil.h - Helpers shared by the seam::rt tests ------------------===//
//
// Plain host references and a parameter (device x mode) so every op test
// runs four ways: kCPU/kAccel, eager/compiled.
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_TEST_UTIL_H
#define SEAM_RT_TEST_UTIL_H

#include "seam/rt.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace seam::rt::test {

/// Host copy of any tensor's values as doubles.
inline std::vector<double> values(const Tensor &T) {
  Tensor H = T.cpu();
  std::vector<double> R(H.numel());
  for (int64_t I = 0; I < H.numel(); ++I) {
    switch (H.dtype()) {
    case kFloat:
      R[I] = H.data_ptr<float>()[I];
      break;
    case kLong:
      R[I] = double(H.data_ptr<int64_t>()[I]);
      break;
    case kBool:
      R[I] = H.data_ptr<bool>()[I] ? 1 : 0;
      break;
    }
  }
  return R;
}

inline std::vector<float> hostRandn(size_t N, unsigned Seed) {
  std::vector<float> V(N);
  uint64_t S = Seed * 2654435761u + 1;
  for (float &X : V) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    X = float(int64_t(S >> 40) % 2000 - 1000) / 250.0f;
  }
  return V;
}

inline void expectNear(const std::vector<double> &Got,
                       const std::vector<double> &Want, double Tol = 1e-4,
                       const std::string &What = "") {
  ASSERT_EQ(Got.size(), Want.size()) << What;
  for (size_t I = 0; I < Got.size(); ++I) {
    if (std::isnan(Want[I])) {
      EXPECT_TRUE(std::isnan(Got[I])) << What << " at " << I;
      continue;
    }
    if (std::isinf(Want[I])) {
      EXPECT_EQ(Got[I], Want[I]) << What << " at " << I;
      continue;
    }
    EXPECT_NEAR(Got[I], Want[I], Tol * (1 + std::fabs(Want[I])))
        << What << " at " << I;
  }
}

struct Config {
  Device Dev;
  bool Compiled;
};

inline std::string configName(const testing::TestParamInfo<Config> &I) {
  return std::string(I.param.Dev == kCPU ? "CPU" : "Accel") +
         (I.param.Compiled ? "Compiled" : "Eager");
}

/// Runs Fn eagerly or through compile(), as the config says.
template <typename Fn, typename... Args>
Tensor runIn(const Config &C, Fn F, const Args &...As) {
  if (C.Compiled)
    return compile(F)(As...);
  return F(As...);
}

} // namespace seam::rt::test

#endif // SEAM_RT_TEST_UTIL_H
