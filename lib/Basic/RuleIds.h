//===- RuleIds.h - The ids of the built-in rules --------------------------===//
//
// A rule's id names it everywhere (--checks, NOLINT, SARIF, docs/rules/).
// Stages that must know a particular rule take its traits from its RuleInfo
// (lib/Rules/Rule.h); these constants are for the places that name one rule
// on purpose (the rule's own file, its tests).
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_RULEIDS_H
#define SEAM_BASIC_RULEIDS_H

namespace seam::rule_ids {

inline constexpr const char GraphBreak[] = "seam-graph-break";
inline constexpr const char HostSync[] = "seam-host-sync";
inline constexpr const char CaptureSync[] = "seam-capture-sync";
/// A compiler error, reported as clang-tidy reports one.
inline constexpr const char CompileError[] = "clang-diagnostic-error";
/// A NOLINTBEGIN without its NOLINTEND, or the reverse.
inline constexpr const char Nolint[] = "seam-nolint";

} // namespace seam::rule_ids

#endif
