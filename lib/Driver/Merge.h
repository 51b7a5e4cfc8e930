//===- Merge.h - `seam merge`: join the SARIF of CI shards ----------------===//
//
// `seam check --shard I/N` splits a database across CI jobs; `seam merge`
// joins their SARIF files into one run, dropping the results that several
// shards found in a shared header (same rule, file, line and column).
// With the shards' summaries (--summaries), it runs the project pass over
// all of them and adds the results hot only through another shard's file.
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
  /// --summaries: the shards' --summaries-out files; the project pass runs
  /// over them and adds what is hot only through another file.
  std::vector<std::string> Summaries;
};

/// Returns the exit code: 0, or 2 with one line naming a bad input.
int runMerge(const MergeOptions &Opts);

} // namespace seam

#endif
