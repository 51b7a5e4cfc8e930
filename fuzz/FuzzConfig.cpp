//===- FuzzConfig.cpp - libFuzzer target: the .seam.yaml reader -----------===//
#include "Driver/Config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<seam::FileConfig> C = seam::parseConfig(Text, ".seam.yaml");
  if (!C)
    llvm::consumeError(C.takeError());
  return 0;
}
