//===- FuzzSummaries.cpp - libFuzzer target: seam merge --summaries -------===//
//
// A fixed SARIF run (the merge corpus's seed) with a fuzzed summaries file
// (seam check --summaries-out): the reader and the project pass over what
// it holds.
//
//===----------------------------------------------------------------------===//
#include "Driver/Merge.h"
#include "FuzzInputs.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Sarif = [] {
    std::ifstream In(SEAM_FUZZ_SARIF);
    std::stringstream S;
    S << In.rdbuf();
    std::string Text = S.str();
    return seam::fuzz::writeInput(
        "run.sarif", reinterpret_cast<const uint8_t *>(Text.data()),
        Text.size());
  }();
  seam::MergeOptions Opts;
  Opts.Inputs = {Sarif};
  Opts.Summaries = {seam::fuzz::writeInput("in.json", Data, Size)};
  Opts.OutputPath = seam::fuzz::scratchDir() + "/out.sarif";
  int Code = seam::runMerge(Opts);
  // 0, or 2 with one line naming the input: nothing else.
  if (Code != 0 && Code != 2)
    std::abort();
  return 0;
}
