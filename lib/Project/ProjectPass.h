//===- ProjectPass.h - Hot paths across translation units -----------------===//
//
// Joins the summaries of every translation unit of a run (lib/Basic/
// ProjectSummary.h) into one call graph keyed by USR, finds what is hot in
// the whole project (the functions hot in their own TU, and what calls made
// in a loop reach, through direct calls, virtual calls with the overrides
// defined anywhere, and callables stored in one file and called through a
// holder in another), and reports the conditional findings of the functions
// that are hot only through another file, with the whole cross-file path.
// Pure data in, data out: no AST. docs/whole-project.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_PROJECT_PROJECTPASS_H
#define SEAM_PROJECT_PROJECTPASS_H

#include "Basic/ProjectSummary.h"

#include "llvm/ADT/ArrayRef.h"
#include <cstddef>
#include <vector>

namespace seam {

/// A finding the project pass adds, and the summary (index into the input)
/// that held it: its TU's filters apply to it.
struct ProjectFinding {
  size_t From = 0;
  Finding F;
};

/// The findings hot only through another translation unit, in a stable
/// order (by input, then as each summary lists them). \p TUs may hold null
/// entries (a file that was not analyzed).
std::vector<ProjectFinding>
runProjectPass(llvm::ArrayRef<const TUSummary *> TUs);

} // namespace seam

#endif
