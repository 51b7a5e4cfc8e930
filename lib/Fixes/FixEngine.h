//===- FixEngine.h - Rewrites that remove a finding, or why there is none -===//
//
// The stage after the rules and the cost model. For each finding of a TU it
// asks the fix kinds (one file each, named by the kind, as rules are) for a
// rewrite whose preconditions hold on the AST; the first that offers one
// wins. A finding with no fix gets a one-line reason, and for what has no
// safe rewrite at all (a print every step, an early exit on the loss,
// synchronize() for timing) a suggestion that --fix never applies.
// Docs: docs/fixes.md; tests: test/fixes/.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FIXES_FIXENGINE_H
#define SEAM_FIXES_FIXENGINE_H

#include "Cost/Profile.h"
#include "Hazards/HazardFinder.h"
#include "Regions/RegionModel.h"
#include "Rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace seam {

/// What a fix kind is given: one finding's site and its TU.
struct FixInput {
  clang::ASTContext &Ctx;
  const ApiModel &Api;
  const RegionModel &Regions;
  const TriggerSite &Site;
  /// Names that rewrites offered earlier in this TU declare: a fresh name
  /// must avoid them too (two sums of one variable in two loops).
  const llvm::StringSet<> &Taken;
};

/// A fix kind's answer: a rewrite, or why it does not apply ("" when the
/// kind has nothing to say about this site, so the next kind is asked).
struct FixAnswer {
  std::optional<Fix> Rewrite;
  std::string Reason;
  /// The statements the rewrite is anchored at (see FixKind::propose).
  std::vector<const clang::Stmt *> Anchors;
  /// The names the rewrite declares.
  std::vector<std::string> Names;
  /// Device ops the rewrite adds per execution of the site (the engine
  /// prices them with the profile's launch latency); Rewrite->Effect then
  /// says only what else changes ("one wait after the loop").
  unsigned AddedOps = 0;
};

/// A kind of fix: finds its pattern at a site and proves its preconditions.
class FixKind {
public:
  virtual ~FixKind() = default;
  virtual llvm::StringRef name() const = 0;
  /// Rewrites of one kind that anchor at the same statement (two
  /// accumulators read back after one loop) must not insert at the same
  /// offset, or clang-apply-replacements refuses both: \p SlotOf tells how
  /// many earlier findings of this TU got a rewrite anchored at a statement
  /// (0 for the first); the answer names the anchor it used.
  virtual FixAnswer
  propose(const FixInput &In,
          llvm::function_ref<unsigned(const clang::Stmt *)> SlotOf) const = 0;
};

/// The template in \p Templates that the pack of \p In's trigger gave (the
/// last, when packs were merged), or nullptr: a fix for a site is spelled
/// as the pack of the trigger that matched it.
template <typename Template>
const Template *packTemplate(const std::vector<Template> &Templates,
                             const FixInput &In) {
  const Template *Found = nullptr;
  for (const Template &T : Templates)
    if (T.Pack == In.Site.Match.Rule->Pack)
      Found = &T;
  return Found;
}

/// Every fix kind, in the order they are asked.
llvm::ArrayRef<const FixKind *> fixRegistry();

/// Sets AutoFix, or NoFixReason and Suggestion, on each finding of
/// \p Found. \p Profile prices what a rewrite adds, as the cost model
/// priced what it removes.
void proposeFixes(clang::ASTContext &Ctx, const ApiModel &Api,
                  const RegionModel &Regions,
                  llvm::MutableArrayRef<SiteFinding> Found,
                  const DeviceProfile &Profile);

} // namespace seam

#endif
