//===- FuzzProfile.cpp - libFuzzer target: the device-profile loader ------===//
#include "Cost/Profile.h"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<seam::DeviceProfile> P =
      seam::parseProfile(Text, "fuzz-profile.json");
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  // What loads must be usable: finite, in range.
  if (!std::isfinite(P->SyncRoundtripUs.Value) ||
      !std::isfinite(P->MemoryBandwidthGBps.Value) ||
      P->MemoryBandwidthGBps.Value <= 0)
    std::abort();
  return 0;
}
