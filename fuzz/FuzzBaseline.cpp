//===- FuzzBaseline.cpp - libFuzzer target: the baseline reader -----------===//
#include "Driver/Baseline.h"
#include "FuzzInputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = seam::fuzz::writeInput("baseline.json", Data, Size);
  llvm::Expected<seam::Baseline> B = seam::Baseline::load(Path);
  if (!B) {
    llvm::consumeError(B.takeError());
    return 0;
  }
  // What loads must be usable: filtering and staleness over its entries.
  std::vector<seam::Finding> None;
  (void)B->filter(None, "2026-01-01");
  std::set<std::string> Files;
  for (const auto &[Fingerprint, E] : B->entries())
    Files.insert(E.File);
  (void)B->stale(Files);
  return 0;
}
