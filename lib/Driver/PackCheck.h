//===- PackCheck.h - `seam pack check`: validate a pack, find dead rules --===//
//
// Validates one rule pack as the analyzer would load it and, given code,
// lists the entries that never matched anything in it: triggers, names of
// functions (factories, compile and loop functions, transforms, defaults)
// and tensor types that name no class. A pack author runs it against the
// library's headers or example programs to find a misspelt name before a
// user finds a silent rule.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_PACKCHECK_H
#define SEAM_DRIVER_PACKCHECK_H

#include "Frontend/Frontend.h"
#include <string>
#include <vector>

namespace seam {

struct PackCheckOptions {
  std::string Pack;                 ///< the pack to check
  std::vector<std::string> Against; ///< --against sources
  FrontendOptions Frontend;         ///< flags after "--", or -p
  bool DefaultRules = true;         ///< load the default packs beside it
  std::string RulesDir;
  bool Json = false; ///< --format json
};

/// Runs `seam pack check`: 0 when the pack is valid (unmatched entries are
/// listed but do not fail), 1 with --against when an entry never matched
/// and --strict was given, 2 for an invalid pack or unreadable input.
int runPackCheck(const PackCheckOptions &Opts, bool Strict);

} // namespace seam

#endif
