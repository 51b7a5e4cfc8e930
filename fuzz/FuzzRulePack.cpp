//===- FuzzRulePack.cpp - libFuzzer target: the rule-pack loader ----------===//
// Any bytes: a pack or one clear error, never a crash, hang or leak.
#include "ApiModel/ApiModel.h"
#include "ApiModel/RulePack.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<seam::RulePack> P = seam::parseRulePack(Text, "fuzz.json");
  if (!P) {
    llvm::consumeError(P.takeError());
    return 0;
  }
  seam::ApiModel Api(std::move(*P)); // building the model must not crash
  return 0;
}
