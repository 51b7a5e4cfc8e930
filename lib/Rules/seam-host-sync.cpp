//===- seam-host-sync.cpp - A device value forced to the host, hot path ---===//
//
// Selects: a trigger site whose operand may be on the device (Device or
// Unknown residency) on a hot path: a loop that really repeats it, a module
// forward, a compiled region, or what they call. Outside a capture span
// only (there it is seam-capture-sync). Severity: warning; with
// --all-syncs, cold sites are reported as notes. Docs:
// docs/rules/seam-host-sync.md; tests: test/seam-host-sync/.
//
//===----------------------------------------------------------------------===//
#include "Basic/SourcePoint.h"
#include "Rules/Rule.h"

namespace seam {
namespace {

/// Notes at the guards the cost model could not count.
void noteUncounted(const RuleInput &In, std::vector<PathNote> &Notes) {
  const SiteContext &C = In.Where;
  const Frequency *F = &C.PerCall;
  if (!C.LocalLoops.empty())
    F = &C.LocalLoops.front().Freq;
  else if (!C.SeedLoops.empty())
    F = &C.SeedLoops.front().Freq;
  std::vector<const clang::Expr *> Conds = F->Uncounted;
  if (F != &C.PerCall)
    Conds.insert(Conds.end(), C.PerCall.Uncounted.begin(),
                 C.PerCall.Uncounted.end());
  for (const clang::Expr *E : Conds)
    Notes.push_back({"under this condition, which Seam cannot count; the "
                     "cost takes it as always true",
                     makePoint(In.SM, In.LO, E->getExprLoc()), false});
}

class HostSyncRule : public Rule {
public:
  const RuleInfo &info() const override {
    // Its prose is docs/rules/seam-host-sync.md.
    static const RuleInfo Info =
        withTraits({"seam-host-sync", "HostSync",
                    "A device value is forced to the host on a hot path.",
                    Level::Warning, /*Selectable=*/true},
                   Hazard::HostSync, /*Validated=*/true);
    return Info;
  }

  bool check(const RuleInput &In, Finding &F) const override {
    const SiteContext &C = In.Where;
    if (In.Site.Where == Residency::Unknown && In.Opts.AssumeHost)
      return false; // DefaultResidency: host
    if (!maySync(In.Site.Where) || C.Capture ||
        !(C.Hot || In.Opts.ReportColdSyncs))
      return false;
    F.Severity = C.Hot ? Level::Warning : Level::Note;
    // One line says what and (with the cost model's summary) what it costs;
    // the why and what was assumed are notes.
    F.Message = "host sync: " + actionPhrase(In.Site);
    switch (In.Site.Match.Rule->What) {
    case Trigger::ExplicitSync:
      F.Details.push_back(
          "the device then idles until the host enqueues more work");
      break;
    case Trigger::DynamicShape:
      F.Details.push_back("the host blocks until the device has computed the "
                          "output, to size it; the device then idles until "
                          "the host enqueues more work");
      break;
    default:
      F.Details.push_back("the host blocks until the device has computed it; "
                          "the device then idles until the host enqueues "
                          "more work");
    }
    addRuleSource(In.Site, F.Details);
    if (In.Site.Where == Residency::Unknown && !In.Site.Operand.empty())
      F.Details.push_back("'" + In.Site.Operand +
                          "' is assumed to be on the device: where it was "
                          "made is not visible here");
    if (!C.Hot)
      F.Message += "; not on a hot path";
    F.Path = toNotes(In.SM, In.LO, C.HotPath);
    if (C.Hot)
      noteUncounted(In, F.Path);
    F.HotReason = hotReason(C.HotPath);
    return true;
  }
};

} // namespace

const Rule &hostSyncRule() {
  static const HostSyncRule R;
  return R;
}

} // namespace seam
