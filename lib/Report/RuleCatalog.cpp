//===- RuleCatalog.cpp - Descriptions of Seam's rules, for the reporters
//---===//
#include "Report/Reporters.h"

namespace seam {

const char *const SeamVersion = "0.1.0";

const std::vector<RuleInfo> &ruleCatalog() {
  // Each rule describes itself in lib/Rules/<rule id>.cpp.
  static const std::vector<RuleInfo> Rules = [] {
    std::vector<RuleInfo> Out;
    for (const Rule *R : ruleRegistry())
      Out.push_back(R->info());
    // Reported by the driver, not by a rule over trigger sites.
    RuleInfo Compile;
    Compile.Id = rule_ids::CompileError;
    Compile.Name = "ClangDiagnosticError";
    Compile.ShortDescription = "The compiler reported an error.";
    Compile.FullDescription =
        "Clang could not compile this translation unit as written. Seam "
        "still analyzes what Clang recovered, but results near the error "
        "may be missing; the exit status is 2.";
    Compile.Help = "Fix the error, or the compile flags (-p, or the flags "
                   "after '--'), so that the file compiles.";
    Compile.DefaultLevel = Level::Error;
    Compile.Selectable = false;
    Out.push_back(Compile);
    RuleInfo Nolint;
    Nolint.Id = "seam-nolint";
    Nolint.Name = "UnmatchedNolint";
    Nolint.ShortDescription =
        "A NOLINTBEGIN without its NOLINTEND, or the reverse.";
    Nolint.FullDescription =
        "As in clang-tidy, a NOLINTBEGIN(checks) comment must be closed by a "
        "NOLINTEND(checks) comment naming the same checks, later in the same "
        "file. An unmatched one suppresses nothing.";
    Nolint.Help = "Add the missing NOLINTEND (or NOLINTBEGIN) with the same "
                  "check list, or remove the stray comment.";
    Nolint.DefaultLevel = Level::Error;
    Nolint.Selectable = false;
    Out.push_back(Nolint);
    return Out;
  }();
  return Rules;
}

const RuleInfo *findRule(llvm::StringRef Id) {
  for (const RuleInfo &R : ruleCatalog())
    if (R.Id == Id)
      return &R;
  return nullptr;
}

} // namespace seam
