//===- Rule.h - A Seam rule: what selects its sites, severity, message ----===//
//
// Each rule id has one implementation file here named by the id
// (seam-host-sync.cpp), as it has one docs page (docs/rules/seam-host-sync.md)
// and one test folder (test/seam-host-sync/). A rule looks at one trigger
// site (what it asks of the host, where its operand lives) in its context
// (region, hot path, capture span, how often it runs) and either reports it
// or not. Registry.cpp lists the rules, in the order they are applied.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_RULES_RULE_H
#define SEAM_RULES_RULE_H

#include "Basic/Finding.h"
#include "Hazards/HazardFinder.h"
#include "Regions/RegionModel.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace seam {

/// What a rule's findings are, for the stages after the rules.
enum class Hazard {
  None,       ///< neither (compiler errors, unmatched NOLINT comments)
  GraphBreak, ///< a compiled region cut in two: priced as the cut
  HostSync,   ///< the device waiting on the host: priced as device idle
};

/// What `seam explain`, SARIF and --help say about a rule, and the traits
/// the stages after the rules read from it (never from its id).
struct RuleInfo {
  std::string Id;
  std::string Name; ///< PascalCase, for SARIF
  /// One line. What it finds, why it costs and how to fix it are in its
  /// docs page, docs/rules/<id>.md, the one source of its prose.
  std::string ShortDescription;
  Level DefaultLevel;
  /// False for what is always reported and cannot be selected by --checks
  /// (compiler errors, unmatched NOLINT comments).
  bool Selectable = true;
  /// How the cost model prices a finding (docs/cost-model.md): a graph
  /// break by the region's pieces, a host sync by the device's idle time.
  Hazard Is = Hazard::None;
  /// Whether `seam validate` compares its findings with what seam::rt
  /// counted (graph breaks with breaks, host syncs with syncs).
  bool Validated = false;
};

/// \p Info with its traits, for a rule's `static const RuleInfo`.
inline RuleInfo withTraits(RuleInfo Info, Hazard Is, bool Validated) {
  Info.Is = Is;
  Info.Validated = Validated;
  return Info;
}

/// One site with everything a rule may ask about it.
struct RuleInput {
  const TriggerSite &Site;
  const SiteContext &Where;
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  const AnalysisOptions &Opts;
};

class Rule {
public:
  virtual ~Rule() = default;
  virtual const RuleInfo &info() const = 0;
  /// Completes \p F (which holds the site's common fields) and returns
  /// true when this rule reports the site.
  virtual bool check(const RuleInput &In, Finding &F) const = 0;
};

/// Every rule, in the order they are applied.
llvm::ArrayRef<const Rule *> ruleRegistry();

/// Every rule id Seam reports: the rules, then what the driver reports
/// (compiler errors, unmatched NOLINT comments).
const std::vector<RuleInfo> &ruleCatalog();
/// The rule \p Id, or null.
const RuleInfo *findRule(llvm::StringRef Id);
/// What the findings of rule \p Id are (Hazard::None for an unknown id).
Hazard hazardOf(llvm::StringRef Id);

/// A finding with the site and the context it was made from: what the
/// stages after the rules (Cost, Fixes) read, inside one TU's pipeline. The
/// Finding itself holds no way back into AST data.
struct SiteFinding {
  Finding F;
  const TriggerSite *Site = nullptr;
  const SiteContext *Context = nullptr;
};

/// Classifies the sites of one TU, each with its context (\p Contexts,
/// parallel to \p Sites, computed once), into findings, rule by rule,
/// leaving out what NOLINT comments suppress (Suppressions.h).
/// \p NolintProblems, when given, receives the unmatched NOLINTBEGIN and
/// NOLINTEND comments.
std::vector<SiteFinding>
findHazards(clang::ASTContext &Ctx, const RegionModel &Regions,
            const std::vector<TriggerSite> &Sites,
            const std::vector<SiteContext> &Contexts,
            const AnalysisOptions &Opts,
            std::vector<Finding> *NolintProblems = nullptr);

// Shared by the rules (RuleSupport.cpp).
/// "'.item()' reads 'x' on the host", "printing 'x' with '<<' ...".
std::string actionPhrase(const TriggerSite &S);
/// Adds the matched rule's `source` (why the call waits, from its pack) to
/// \p Details, when the pack gives one.
void addRuleSource(const TriggerSite &S, std::vector<std::string> &Details);
/// The words for one step of a path: "inside this loop, which runs it every
/// 100th iteration", "'f' called here through 'fn', from 'g'", ...
std::string describePathStep(const PathStep &P);
std::vector<PathNote> toNotes(const clang::SourceManager &SM,
                              const clang::LangOptions &LO,
                              const std::vector<PathStep> &Steps);
/// loop | forward | region | call | capture, from the first path step.
std::string hotReason(const std::vector<PathStep> &Steps);

} // namespace seam

#endif
