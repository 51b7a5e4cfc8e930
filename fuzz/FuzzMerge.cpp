//===- FuzzMerge.cpp - libFuzzer target: seam merge's SARIF reader --------===//
#include "Driver/Merge.h"
#include "FuzzInputs.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  seam::MergeOptions Opts;
  Opts.Inputs = {seam::fuzz::writeInput("in.sarif", Data, Size)};
  Opts.OutputPath = seam::fuzz::scratchDir() + "/out.sarif";
  int Code = seam::runMerge(Opts);
  // 0, or 2 with one line naming the input: nothing else.
  if (Code != 0 && Code != 2)
    std::abort();
  return 0;
}
