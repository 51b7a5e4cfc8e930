//===- LatticeTest.cpp - The residency lattice
//-----------------------------===//
#include "Basic/Residency.h"

#include "gtest/gtest.h"

using namespace seam;

namespace {

const Residency All[] = {Residency::None, Residency::Host, Residency::Unknown,
                         Residency::Device};

TEST(Lattice, JoinIsALeastUpperBound) {
  for (Residency A : All)
    for (Residency B : All) {
      Residency J = join(A, B);
      EXPECT_EQ(J, join(B, A)); // commutative
      EXPECT_EQ(join(J, A), J); // an upper bound of A
      EXPECT_EQ(join(J, B), J); // and of B
      for (Residency C : All)
        EXPECT_EQ(join(join(A, B), C), join(A, join(B, C))); // associative
    }
  for (Residency A : All) {
    EXPECT_EQ(join(A, A), A);                                 // idempotent
    EXPECT_EQ(join(A, Residency::None), A);                   // None is bottom
    EXPECT_EQ(join(A, Residency::Device), Residency::Device); // top
  }
}

TEST(Lattice, OpResultsTakeTheMostDevicewardOperand) {
  EXPECT_EQ(join(Residency::Host, Residency::Device), Residency::Device);
  EXPECT_EQ(join(Residency::Host, Residency::Unknown), Residency::Unknown);
  EXPECT_EQ(join(Residency::Unknown, Residency::Device), Residency::Device);
}

TEST(Lattice, OnlyDeviceAndUnknownMaySync) {
  EXPECT_FALSE(maySync(Residency::None));
  EXPECT_FALSE(maySync(Residency::Host));
  EXPECT_TRUE(maySync(Residency::Unknown));
  EXPECT_TRUE(maySync(Residency::Device));
}

TEST(Lattice, Names) {
  EXPECT_EQ(residencyName(Residency::Host), "host");
  EXPECT_EQ(residencyName(Residency::None), "host");
  EXPECT_EQ(residencyName(Residency::Unknown), "unknown");
  EXPECT_EQ(residencyName(Residency::Device), "device");
}

TEST(Lattice, AbsValueJoinKeepsMaskness) {
  AbsValue Mask{Residency::Host, true};
  AbsValue Dev{Residency::Device, false};
  AbsValue J = Mask.joined(Dev);
  EXPECT_EQ(J.Where, Residency::Device);
  EXPECT_TRUE(J.IsBool);
  EXPECT_EQ(J, Dev.joined(Mask));
}

} // namespace
