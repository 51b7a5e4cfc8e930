//===- Validate.h - `seam validate`: estimates against seam::rt's counters ===//
//
// Runs the static analysis of a seam::rt program and the program itself,
// then puts what Seam predicted per compiled call (graph breaks, regions,
// syncs, device idle) beside what the runtime counted (its stats() line).
// The check that keeps the cost model honest; see docs/cost-model.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_VALIDATE_H
#define SEAM_DRIVER_VALIDATE_H

#include "Driver/CheckCommand.h"

namespace seam {

struct ValidateOptions {
  CheckOptions Check;  ///< the source to analyze and how
  std::string Program; ///< the built program to run
  unsigned Calls = 0;  ///< compiled calls it makes while counting
};

/// Returns 0 when both ran, 2 on any error (reported on one line).
int runValidate(const ValidateOptions &Opts);

} // namespace seam

#endif
