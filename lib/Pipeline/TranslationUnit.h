//===- TranslationUnit.h - The one entry point that analyses a TU ---------===//
//
// Runs the pipeline on one parsed translation unit: control flow (Flow),
// regions and hot paths (Regions), residency and trigger sites (Residency,
// Hazards), the rules (Rules), the cost model (Cost) and the fixes (Fixes).
// The CLI and the clang-tidy plugin both call this and only differ in what
// they do with the result.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_PIPELINE_TRANSLATIONUNIT_H
#define SEAM_PIPELINE_TRANSLATIONUNIT_H

#include "Basic/ProjectSummary.h"
#include "Cost/CostModel.h"
#include "Hazards/HazardFinder.h"

#include <optional>
#include <string>
#include <vector>

namespace seam {

struct TUAnalysis {
  std::vector<Finding> Findings;
  std::vector<SummaryRow> Summary;
  /// Functions whose analysis stopped at an iteration limit; their results
  /// may be incomplete. Reported, never silent.
  std::vector<std::string> Incomplete;
  /// Unmatched NOLINTBEGIN/NOLINTEND comments ('seam-nolint'); the
  /// clang-tidy plugin leaves them to clang-tidy, which reports its own.
  std::vector<Finding> NolintProblems;
  /// With AnalysisOptions::Summarize: what the project pass needs of this
  /// TU (lib/Project, docs/whole-project.md).
  std::optional<TUSummary> Project;
};

TUAnalysis analyzeTranslationUnit(clang::ASTContext &Ctx, const ApiModel &Api,
                                  const AnalysisOptions &Opts,
                                  const CostOptions &Cost);

} // namespace seam

#endif
