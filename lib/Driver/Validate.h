//===- Validate.h - `seam validate`: estimates checked line by line -------===//
//
// Runs a seam::rt program with its site report enabled (SEAM_RT_REPORT),
// analyses its sources, and joins the two by file and line: for every line
// Seam reports and every line where the runtime synchronized or cut a
// region, what Seam predicted (executions, breaks, pieces, device idle per
// execution) beside what the runtime measured in that run. The check that
// keeps the cost model honest; see docs/cost-model.md and docs/runtime.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_VALIDATE_H
#define SEAM_DRIVER_VALIDATE_H

#include "Driver/CheckCommand.h"

#include "llvm/Support/Error.h"
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace seam {

struct ValidateOptions {
  CheckOptions Check;           ///< the sources to analyze and how
  std::vector<std::string> Run; ///< the program and its arguments
  /// --tolerance as a fraction: exit 1 when a time is further off, or a
  /// count differs; nullopt: compare and print, exit 0.
  std::optional<double> Tolerance;
  bool Json = false;         ///< --format json
  std::string OutputPath;    ///< -o; "" = stdout
  std::string TracePath;     ///< --trace: Chrome trace of the run
  std::string TimelinePath;  ///< --timeline: SVG of the costliest syncs
  int CalibrationReps = 300; ///< when no --profile is given
  /// --timeout: the program is stopped after this many seconds (0: never).
  unsigned TimeoutSeconds = 600;
  /// --repeat: runs of the program; each line's idle is the median of the
  /// runs' medians, judged only when their spread allows it.
  unsigned Repeat = 5;
  /// --max-repeat: while a line is noisy after Repeat runs, the program
  /// runs again, up to this many runs in all (0: three times Repeat).
  unsigned MaxRepeat = 0;
};

/// What the runtime measured at one line (its APIs there together).
struct Measured {
  std::string File;
  unsigned Line = 0;
  bool Region = false;
  std::set<std::string> Apis;
  int64_t Executions = 0, Syncs = 0, Breaks = 0, Pieces = 0, RegionPieces = 0,
          Compiles = 0, Recompiles = 0, IdleSamples = 0;
  double HostWait = 0, Idle = 0, IdleMedian = 0;
  /// Over --repeat runs: IdleMedian is the median of the runs' medians, and
  /// IdleSpread their interquartile range over that median.
  unsigned Runs = 1;
  double IdleSpread = 0;
  /// Over --repeat runs: Idle is the median of the runs' totals, and
  /// IdleTotalSpread their interquartile range over it.
  double IdleTotalSpread = 0;
  bool CountsVary = false; ///< a count was not the same in every run
};

/// The median of \p V (0 when empty).
double median(std::vector<double> V);
/// The interquartile range of \p V over its median (0 with fewer than two
/// values or a zero median): how far one run's value moves.
double relativeSpread(std::vector<double> V);

/// How one line's idle compares at a tolerance.
enum class IdleVerdict { Match, Outside, Noisy };

/// Judges a predicted idle against a measured one, the medians of \p Runs
/// runs, at tolerance \p Tol (a fraction of the measured idle), given the
/// measured runs' relative spread (interquartile range over the median).
/// The measured median's uncertainty is twice its standard error (about
/// 0.93 x IQR / sqrt(Runs)). The idle is noisy, not judged, only when that
/// uncertainty is wider than the tolerance itself and could put the
/// difference on either side of it; otherwise the medians decide.
IdleVerdict judgeIdle(double Predicted, double Measured, double MeasuredSpread,
                      unsigned Runs, double Tol);

/// The lines of the first run, merged with the same lines of the others:
/// each idle (per execution and in total) the median over the runs, with
/// its spread; CountsVary where a count differs between runs, or a run
/// never reached the line. Lines only later runs reached are left out.
std::vector<Measured> mergeRuns(const std::vector<std::vector<Measured>> &Runs);

/// The lines of a seam::rt site report (SEAM_RT_REPORT); throws
/// nlohmann::json::exception on a field of the wrong type.
llvm::Expected<std::vector<Measured>> measurements(const nlohmann::json &J);

/// Returns 0 (compared; within the tolerance, if one was given), 1 (a
/// value outside the tolerance) or 2 (an error, reported on one line).
int runValidate(const ValidateOptions &Opts);

/// `seam validate --fixed`: the fixes proved by running (ValidateFixed.cpp).
struct ValidateFixedOptions {
  CheckOptions Check; ///< the sources, and the flags after "--"
  /// --build: a shell command with {sources} and {out}, run once for the
  /// copies as written and once for the fixed copies.
  std::string BuildCommand;
  /// --output-tolerance: how far apart (relative) two numbers with a
  /// fraction may be for the outputs to count as the same.
  double OutputTolerance = 1e-5;
  /// --ignore-output: lines of the output left out of the comparison. By
  /// default the lines seam::rt's stats() prints: they count what the
  /// fixes change.
  std::string IgnoreOutput = "^regions=[0-9]+ graph_breaks=[0-9]+ ";
  bool Json = false;
  std::string OutputPath;
  unsigned TimeoutSeconds = 600;
  /// --repeat: runs of each version, alternately; each line's idle is the
  /// median of the runs' totals.
  unsigned Repeat = 1;
};

/// Returns 0 (both versions printed the same), 1 (they did not) or 2 (an
/// error: a build or run failed, a bad input).
int runValidateFixed(const ValidateFixedOptions &Opts);

/// Parses "25%" or "0.25" into a fraction; nullopt when malformed.
std::optional<double> parseTolerance(const std::string &Text);

/// Why a program run by llvm::sys::ExecuteAndWait failed, as a message
/// about \p What ("'./train'"), or "" when it exited 0: stopped at the
/// timeout (\p TimeoutSeconds), killed by a signal (\p ErrMsg names it;
/// ExecuteAndWait returns -2 for both), not run, or its exit status.
std::string runFailure(int Status, llvm::StringRef ErrMsg, llvm::StringRef What,
                       unsigned TimeoutSeconds);

} // namespace seam

#endif
