//===- Merge.h - `seam merge`: join the SARIF of CI shards ----------------===//
//
// `seam check --shard I/N` splits a database across CI jobs; `seam merge`
// joins their SARIF files into one run, dropping the results that several
// shards found in a shared header (same rule, file, line and column).
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_MERGE_H
#define SEAM_DRIVER_MERGE_H

#include <string>
#include <vector>

namespace seam {

struct MergeOptions {
  std::vector<std::string> Inputs;
  std::string OutputPath;    ///< "" = stdout
  std::string SarifCategory; ///< replaces the inputs' automationDetails
};

/// Returns the exit code: 0, or 2 with one line naming a bad input.
int runMerge(const MergeOptions &Opts);

} // namespace seam

#endif
