//===- FixEngine.cpp - Asks each fix kind, in order, about each finding ---===//
#include "Fixes/FixEngine.h"
#include "Rules/Rule.h"

#include "llvm/ADT/DenseMap.h"
#include <map>

namespace seam {

// One line per fix kind, defined in lib/Fixes/<kind>.cpp.
const FixKind &deferredAccumulationFix(); // deferred-accumulation.cpp
const FixKind &lastValueFix();            // last-value.cpp
const FixKind &scalarOperandFix();        // scalar-operand.cpp
const FixKind &branchToSelectFix();       // branch-to-select.cpp
const FixKind &collectedCopiesFix();      // collected-copies.cpp

llvm::ArrayRef<const FixKind *> fixRegistry() {
  static const FixKind *const Kinds[] = {
      &deferredAccumulationFix(), &lastValueFix(), &scalarOperandFix(),
      &branchToSelectFix(), &collectedCopiesFix()};
  return Kinds;
}

namespace {

/// For what no rewrite can make equal: what to do by hand. Never applied.
std::string suggestionFor(const TriggerSite &S, const Finding &F) {
  switch (S.Match.Rule->What) {
  case Trigger::Print:
    return "print every N steps (under `if (step % N == 0)`), or accumulate "
           "on the device and print once after the loop";
  case Trigger::ExplicitSync:
    return "if the wait only serves timing, time with device events instead "
           "and drop it";
  case Trigger::DynamicShape:
    return "keep the mask as a tensor (torch::where, multiply by the mask) "
           "instead of selecting, so the output size is known without "
           "waiting";
  case Trigger::HostCopy:
    return "keep the value on the device, or collect the tensors and copy "
           "them once after the loop";
  case Trigger::ScalarRead:
    break;
  }
  if (hazardOf(F.RuleId) == Hazard::GraphBreak)
    return "branch with torch::where on the tensor instead of reading it, "
           "or move the read out of the compiled region";
  return "read the value every N steps instead of every step, or keep it "
         "as a tensor where it only feeds tensor operations";
}

/// What the rewrite saves, in the cost model's own terms, then the \p Ops
/// device ops it adds, priced with the same profile's launch latency, then
/// what else changes (\p Also, from the fix kind).
std::string effectOf(const Finding &F, unsigned Ops, const std::string &Also,
                     const DeviceProfile &Profile) {
  std::string Adds =
      Ops == 0 ? std::string("adds no device op")
      : Ops == 1
          ? std::string("adds one small device op per execution")
          : "adds " + std::to_string(Ops) + " small device ops per execution";
  if (Ops && F.Cost && Profile.LaunchLatencyUs.Value > 0)
    Adds += ", launched without a wait (~" +
            formatMicros(Ops * Profile.LaunchLatencyUs.Value) +
            " of launch latency at the profile's figure, hidden while the "
            "device has work queued)";
  if (!Also.empty())
    Adds += "; " + Also;
  if (!F.Cost)
    return Adds;
  const CostEstimate &C = *F.Cost;
  std::string S = "removes ~" + formatMicros(C.IdleMicrosPerExecution) +
                  " of device idle per execution";
  if (!C.Frequency.empty())
    S += " (" + C.Frequency + ")";
  if (C.IdleMicrosTotal)
    S += ", ~" + formatMicros(*C.IdleMicrosTotal) + " in all";
  S += "; " + Adds + " (profile " + C.Profile + ")";
  return S;
}

} // namespace

void proposeFixes(clang::ASTContext &Ctx, const ApiModel &Api,
                  const RegionModel &Regions,
                  llvm::MutableArrayRef<SiteFinding> Found,
                  const DeviceProfile &Profile) {
  // Several results at one site (a break and a sync) share its answer.
  std::map<const TriggerSite *, size_t> Answered;
  llvm::DenseMap<const clang::Stmt *, unsigned> Slots;
  // Per function: names declared in different functions do not clash.
  std::map<unsigned, llvm::StringSet<>> Taken;
  for (size_t I = 0; I < Found.size(); ++I) {
    Finding &F = Found[I].F;
    const TriggerSite &S = *Found[I].Site;
    if (auto It = Answered.find(&S); It != Answered.end()) {
      const Finding &Same = Found[It->second].F;
      F.AutoFix = Same.AutoFix;
      F.NoFixReason = Same.NoFixReason;
      F.Suggestion = Same.Suggestion;
      continue;
    }
    Answered[&S] = I;
    FixInput In{Ctx, Api, Regions, S, Taken[S.Node]};
    std::string Reason;
    // Every fix kind rewrites a call's value; a construction (a
    // `constructor` trigger) has none.
    for (const FixKind *K : llvm::isa<clang::CallExpr>(S.Call)
                                ? fixRegistry()
                                : llvm::ArrayRef<const FixKind *>()) {
      FixAnswer A = K->propose(
          In, [&](const clang::Stmt *At) { return Slots.lookup(At); });
      if (A.Rewrite) {
        for (const clang::Stmt *At : A.Anchors)
          ++Slots[At];
        for (const std::string &Name : A.Names)
          Taken[S.Node].insert(Name);
        A.Rewrite->Effect = effectOf(F, A.AddedOps, A.Rewrite->Effect, Profile);
        F.AutoFix = std::move(A.Rewrite);
        break;
      }
      if (Reason.empty())
        Reason = A.Reason;
    }
    if (F.AutoFix)
      continue;
    F.NoFixReason =
        Reason.empty() ? "no fix kind rewrites this use of the value" : Reason;
    F.Suggestion = suggestionFor(S, F);
  }
}

} // namespace seam
