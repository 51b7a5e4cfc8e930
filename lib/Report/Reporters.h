//===- Reporters.h - Findings as clang-style text, JSON and SARIF 2.1.0 ---===//
//
// The last stage: writes merged, sorted findings in the format the user
// asked for. Reporters see only plain Finding data; the rule catalog here is
// the one source of rule descriptions for SARIF, `seam explain` and --help.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_REPORT_REPORTERS_H
#define SEAM_REPORT_REPORTERS_H

#include "Hazards/Finding.h"
#include "Rules/Rule.h"

#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace seam {

const std::vector<RuleInfo> &ruleCatalog();
const RuleInfo *findRule(llvm::StringRef Id);

/// A problem with one input (file, pack, database) that was reported.
struct InputError {
  std::string Input;
  std::string Message;
};

struct Report {
  std::vector<Finding> Findings;
  std::vector<InputError> Errors;
  std::vector<SummaryRow> Summary;    ///< --summary rows, costliest first
  std::vector<std::string> RulePacks; ///< paths of the packs used
  std::string WorkDir;                ///< base for relative SARIF URIs
  /// Functions whose analysis stopped at an iteration limit.
  unsigned Incomplete = 0;
};

extern const char *const SeamVersion;

void writeText(llvm::raw_ostream &OS, const Report &R, bool Color);
/// The --summary table: compiled regions and hot loops by estimated cost.
void writeSummary(llvm::raw_ostream &OS, const Report &R);
void writeJson(llvm::raw_ostream &OS, const Report &R);
void writeSarif(llvm::raw_ostream &OS, const Report &R);

} // namespace seam

#endif
