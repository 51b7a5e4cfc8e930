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
