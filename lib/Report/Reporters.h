//===- Reporters.h - Findings as clang-style text, JSON and SARIF 2.1.0 ---===//
//
// The last stage: writes merged, sorted findings in the format the user
// asked for. Reporters see only plain Finding data; the rule catalog here is
// the one source of rule descriptions for SARIF, `seam explain` and --help.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_REPORT_REPORTERS_H
#define SEAM_REPORT_REPORTERS_H

#include "Basic/Finding.h"
#include "Rules/Rule.h"

#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace seam {

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
  std::string SourceRoot; ///< %SRCROOT%: base of relative paths and URIs
  std::string Category;   ///< SARIF automationDetails (--sarif-category)
  /// Run-level notes (stale or expired baseline entries, ...).
  std::vector<std::string> Notes;
  unsigned Baselined = 0; ///< results a --baseline accepted
  /// Translation units whose results came from the cache, and the others.
  unsigned CacheHits = 0, CacheMisses = 0;
  /// With --write-baseline: every result, before the baseline in use.
  std::vector<Finding> Unfiltered;
  /// Functions whose analysis stopped at an iteration limit.
  unsigned Incomplete = 0;
};

extern const char *const SeamVersion;

/// Where the docs page of rule \p Id is ($SEAM_DOCS_URL, the build's
/// SEAM_DOCS_URL, or the installed docs); with "", the getting-started page.
std::string ruleDocUri(llvm::StringRef Id);
/// Whether \p Uri can be opened from a code review (http or https): a
/// file:// path names the machine that ran Seam, a dead link elsewhere.
bool isWebUri(llvm::StringRef Uri);
/// The page itself, embedded at build time ("" when it has none).
llvm::StringRef ruleDocMarkdown(llvm::StringRef Id);
/// The text of the page's section "## \p Heading", code fences dropped
/// ("" when it has none).
std::string ruleDocSection(llvm::StringRef Id, llvm::StringRef Heading);
/// What the rule finds, in one paragraph of its page.
std::string ruleDocSummary(llvm::StringRef Id);
/// The page as plain text for a terminal: its title dropped, each
/// "## X" heading as "X:", code fences dropped.
std::string ruleDocText(llvm::StringRef Id);

/// GitHub code scanning keeps this many results of a SARIF run; seam check
/// and seam merge keep the highest-ranked ones.
constexpr size_t MaxSarifResults = 5000;
/// The notification text when \p Cut results were left out for that cap.
std::string sarifCutMessage(size_t Cut);
/// One result as writeSarif() writes it, URIs relative to \p Base (the
/// source root; "" = absolute): for `seam merge --summaries`.
nlohmann::json sarifResult(const Finding &F, const std::string &Base);

void writeText(llvm::raw_ostream &OS, const Report &R, bool Color);

/// Prints results as clang prints diagnostics (clang::TextDiagnostic:
/// carets, ranges, tabs, UTF-8, line numbers, colour), re-reading each file.
/// One printer reuses the files it has read; not thread-safe.
class TextPrinter {
public:
  TextPrinter(llvm::raw_ostream &OS, bool Color);
  ~TextPrinter();
  void print(const Finding &F);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};
/// The --summary table: compiled regions and hot loops by estimated cost.
void writeSummary(llvm::raw_ostream &OS, const Report &R);
void writeJson(llvm::raw_ostream &OS, const Report &R);
void writeSarif(llvm::raw_ostream &OS, const Report &R);

} // namespace seam

#endif
