//===- Residency.h - Where a tensor value lives ---------------------------===//
//
// The residency lattice: None < Host < Unknown < Device. A join takes the
// most device-ward value, which is also how op results are computed ("the
// result lives where its most device-ward operand lives"). None means "no
// information yet" (an unassigned variable, or options that name no device).
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_RESIDENCY_H
#define SEAM_BASIC_RESIDENCY_H

#include "llvm/ADT/StringRef.h"
#include <algorithm>

namespace seam {

enum class Residency { None = 0, Host = 1, Unknown = 2, Device = 3 };

inline Residency join(Residency A, Residency B) { return std::max(A, B); }

/// A value that may wait on the device when read on the host.
inline bool maySync(Residency R) {
  return R == Residency::Unknown || R == Residency::Device;
}

inline llvm::StringRef residencyName(Residency R) {
  switch (R) {
  case Residency::None:
  case Residency::Host:
    return "host";
  case Residency::Unknown:
    return "unknown";
  case Residency::Device:
    return "device";
  }
  return "unknown";
}

/// Abstract value of a tensor or device expression.
struct AbsValue {
  Residency Where = Residency::None;
  bool IsBool = false; ///< a boolean tensor (a mask), when known
  /// Materialised on every path (after `eval(a)` in a lazy API): reading it
  /// does not wait for the device again.
  bool Ready = false;

  friend bool operator==(const AbsValue &A, const AbsValue &B) {
    return A.Where == B.Where && A.IsBool == B.IsBool && A.Ready == B.Ready;
  }
  friend bool operator!=(const AbsValue &A, const AbsValue &B) {
    return !(A == B);
  }
  AbsValue joined(const AbsValue &O) const {
    return {join(Where, O.Where), IsBool || O.IsBool, Ready && O.Ready};
  }
};

} // namespace seam

#endif
