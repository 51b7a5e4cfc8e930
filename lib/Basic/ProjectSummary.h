//===- ProjectSummary.h - What crosses a translation unit's boundary ------===//
//
// The per-TU summary the project pass (lib/Project) joins across a whole
// compilation database: the functions a TU defines (by USR), every call
// they make (to functions of the TU and to functions defined elsewhere),
// what the TU stores in callable holders other TUs may call through, and
// the host syncs that would be hot if their function were: conditional
// findings, each already worded, priced per call and given its fix, so the
// project pass needs no AST. Plain data, written to the cache and to
// `--summaries-out` through FindingJson.h. docs/whole-project.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_PROJECTSUMMARY_H
#define SEAM_BASIC_PROJECTSUMMARY_H

#include "Basic/Finding.h"

#include <optional>
#include <string>
#include <vector>

namespace seam {

/// One call a function makes. The callee is a USR: a function's, or for a
/// call through a callable holder (a member, a global, a parameter of a
/// function), "holder:" and the holder's key (HolderKey below).
struct SummaryCall {
  std::string Callee;
  SourcePoint Where;
  std::string CalleeName; ///< for the path's note
  std::string Through;    ///< the holder's name, for a call through one
  bool Virtual = false;   ///< any override defined in the project may run
  bool LambdaDefinition = false;
  /// The call runs more than once per call of its caller: a loop that
  /// repeats it, or a loop function running it per element.
  bool Repeats = false;
  /// When it repeats: the note of the loop around the call, and how often
  /// the call runs per iteration of that loop.
  PathNote Loop;
  double PerIteration = 1;
  std::string Frequency;
  /// When the trip counts of the loops around the call are known: their
  /// product, and how many times the call runs in all.
  std::optional<double> Iterations, Calls;
  /// Where each argument lives, by the callee's parameter index: "host",
  /// "device", "unknown", or "" for what is not a tensor.
  std::vector<std::string> Args;
};

struct SummaryFunction {
  std::string Usr;
  std::string Name;
  SourcePoint Where;
  /// Hot in its own translation unit: its sites were reported there.
  bool Hot = false;
  /// How it is hot there, as the TU's notes say it (a forward, a loop of a
  /// caller, ...): the start of a cross-file path through it.
  std::vector<PathNote> HotPath;
  std::string HotReason;
  /// The virtual methods it overrides, directly or not.
  std::vector<std::string> Overrides;
  std::vector<SummaryCall> Calls;
};

/// The TU puts function \p Function in holder \p Holder.
struct SummaryStore {
  std::string Holder, Function;
};

/// A host sync of function \p Function, cold in its TU, as it would be
/// reported were the function hot: the project pass reports it when a call
/// from another file makes it so.
struct ConditionalFinding {
  std::string Function; ///< USR
  Finding F;
  /// The operand is parameter ParamIndex of Function, unchanged, and its
  /// residency is not known here: whether it syncs depends on the caller.
  int ParamIndex = -1;
};

struct TUSummary {
  std::string File; ///< the main file, absolute
  std::vector<SummaryFunction> Functions;
  std::vector<SummaryStore> Stores;
  std::vector<ConditionalFinding> Conditional;
  bool empty() const {
    return Functions.empty() && Stores.empty() && Conditional.empty();
  }
};

} // namespace seam

#endif
