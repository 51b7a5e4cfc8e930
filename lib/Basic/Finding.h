//===- Finding.h - One result of the analysis, free of any AST ------------===//
//
// What the analysis hands to the cost model and the reporters: plain data
// (paths, lines, messages), so reporters never touch an ASTContext and
// findings from many translation units can be merged and sorted.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_FINDING_H
#define SEAM_BASIC_FINDING_H

#include "Basic/Format.h"
#include "Basic/RuleIds.h"

#include <optional>
#include <string>
#include <vector>

namespace seam {

enum class Level { Note = 0, Warning = 1, Error = 2 };

inline const char *levelName(Level L) {
  switch (L) {
  case Level::Note:
    return "note";
  case Level::Warning:
    return "warning";
  case Level::Error:
    return "error";
  }
  return "warning";
}

struct SourcePoint {
  std::string File; ///< absolute path
  unsigned Line = 0, Column = 0;
  unsigned EndLine = 0, EndColumn = 0; ///< one past the last character
  std::string LineText;                ///< the source line, for carets

  bool valid() const { return !File.empty() && Line > 0; }
};

/// A step of the path from a region, loop or forward to the finding.
struct PathNote {
  std::string Message;
  SourcePoint Where;
  bool IsCall = false; ///< a call edge (drives SARIF codeFlows)
};

/// Cost estimate attached by the cost model (issue: cost model).
struct CostEstimate {
  std::string Profile;
  unsigned RegionPieces = 0;
  std::vector<unsigned> OpsPerPiece;
  unsigned FusionGroupsCut = 0;
  unsigned ExtraLaunches = 0;
  std::optional<double> BytesMaterialized;
  unsigned IntermediatesMaterialized = 0;
  double IdleMicrosPerExecution = 0;
  /// Expected executions per iteration of the innermost loop (or per call),
  /// from the guards around the site; 0 when it runs at most once per loop.
  double ExecutionsPerIteration = 1;
  std::string Frequency; ///< "every iteration", "every 100th iteration", ...
  /// Guards Seam could not count, taken as always true.
  unsigned UncountedConditions = 0;
  /// Expected executions in all, when every trip count is known.
  std::optional<double> Executions;
  /// Expected executions in one run of the program, counted from main()
  /// through every call in the TU (nullopt when some count is unknown);
  /// RunExecutionsBound: an uncounted guard made it an upper bound.
  std::optional<double> RunExecutions;
  bool RunExecutionsBound = false;
  /// The lines the triggering call spans (compilers differ in which one
  /// __builtin_LINE() names); 0 when unknown.
  unsigned CallFirstLine = 0, CallLastLine = 0;
  std::optional<double> TripCount;
  std::optional<double> IdleMicrosTotal;
  unsigned Rank = 0;   ///< 0-100, higher is costlier
  std::string Summary; ///< appended to the message: what it costs, briefly
  std::string Detail;  ///< the rest of the estimate, for a note ("" = none)
};

/// One source replacement of a fix: Length bytes at Offset in File become
/// Text (Length 0: an insertion). Line/Column locate Offset for reports.
struct TextEdit {
  std::string File; ///< absolute path
  unsigned Offset = 0, Length = 0;
  std::string Text;
  unsigned Line = 0, Column = 0;       ///< where Offset is
  unsigned EndLine = 0, EndColumn = 0; ///< where Offset + Length is
};

/// A rewrite that removes the finding without changing what the program
/// computes (lib/Fixes, docs/fixes.md). Applied by `seam check --fix`.
struct Fix {
  std::string Kind;        ///< deferred-accumulation, ...
  std::string Description; ///< one line: what the rewrite does
  /// What it saves and adds, in the cost model's terms (may be empty).
  std::string Effect;
  std::vector<TextEdit> Edits; ///< in source order, one file
};

struct Finding {
  std::string RuleId; ///< seam-graph-break, seam-host-sync, ...
  Level Severity = Level::Warning;
  std::string Message; ///< without the trailing "[rule-id]"
  SourcePoint Where;
  /// What the one-line message leaves out (why it costs, what was assumed),
  /// shown as notes at the finding's own position.
  std::vector<std::string> Details;
  std::vector<PathNote> Path;

  // Properties kept for JSON and SARIF.
  std::string Trigger;   ///< scalar-read | host-copy | print | ...
  std::string Residency; ///< device | unknown | host
  std::string Region;    ///< compiled region, for graph breaks
  std::string Function;  ///< function holding the expression
  std::string Api;       ///< "'.item()'", "'<<'", ...
  std::string HotReason; ///< loop | forward | region | call | capture
  std::optional<CostEstimate> Cost;
  /// The automatic fix, or why there is none (NoFixReason) and, for what
  /// has no safe rewrite, a suggestion never applied by --fix.
  std::optional<Fix> AutoFix;
  std::string NoFixReason;
  std::string Suggestion;

  /// Stable identity for baselines and SARIF partialFingerprints (set by
  /// the driver, docs/ci.md).
  std::string Fingerprint;
  /// A warning that --warnings-as-errors made an error.
  bool PromotedToError = false;
};

/// One line of the --summary table: a compiled region or a hot loop.
struct SummaryRow {
  std::string Kind; ///< "region" or "loop"
  std::string Name; ///< region name, or the function holding the loop
  SourcePoint Where;
  unsigned Pieces = 1;
  unsigned LaunchesBefore = 0, LaunchesAfter = 0;
  unsigned Syncs = 0;
  double MicrosPerExecution = 0;
  std::optional<double> TripCount;
  std::optional<double> MicrosTotal;
  unsigned Rank = 0;
  std::string Profile;
  /// A region: the compile(...) call that made it one, if any.
  SourcePoint CompiledAt;
  /// A region: its pieces with ops in them (empty pieces launch nothing).
  unsigned NonEmptyPieces = 1;
  /// A region: expected calls in one run of the program (as
  /// CostEstimate::RunExecutions).
  std::optional<double> RunCalls;
  bool RunCallsBound = false;
};

} // namespace seam

#endif
