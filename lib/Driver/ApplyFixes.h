//===- ApplyFixes.h - `seam check --fix` and `--export-fixes` -------------===//
//
// Applies the fixes of a run's results as clang-tidy's -fix does: every
// file written atomically, overlapping fixes detected (the later one is
// skipped with a note), optionally clang-formatted on the touched lines
// only; or writes them in clang-tidy's -export-fixes YAML, which
// clang-apply-replacements applies. Docs: docs/fixes.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_APPLYFIXES_H
#define SEAM_DRIVER_APPLYFIXES_H

#include "Basic/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct FixOutcome {
  unsigned Offered = 0; ///< results with a fix
  unsigned Applied = 0;
  std::vector<std::string> Files; ///< files rewritten
  /// One line each: a fix skipped (overlap, a file changed since), a file
  /// that could not be written.
  std::vector<std::string> Notes;
  bool WriteFailed = false;
};

/// Applies the fixes of \p Findings in place. \p FormatStyle, when not
/// empty, is a clang-format style (file, LLVM, {...}) applied to the
/// touched lines only.
FixOutcome applyFixes(llvm::ArrayRef<Finding> Findings,
                      const std::string &FormatStyle);

/// clang-tidy's -export-fixes YAML for \p Findings (every result, with its
/// replacements where it has a fix).
std::string exportFixesYaml(llvm::ArrayRef<Finding> Findings,
                            const std::string &MainFile,
                            const std::string &BuildDirectory);

} // namespace seam

#endif
