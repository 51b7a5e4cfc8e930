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

#include <optional>
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
};

/// Returns 0 (compared; within the tolerance, if one was given), 1 (a
/// value outside the tolerance) or 2 (an error, reported on one line).
int runValidate(const ValidateOptions &Opts);

/// Parses "25%" or "0.25" into a fraction; nullopt when malformed.
std::optional<double> parseTolerance(const std::string &Text);

} // namespace seam

#endif
