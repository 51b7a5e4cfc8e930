//===- Setup.h - Where packs and profiles are, and loading them -----------===//
//
// What every front door (the `seam` command line, the clang-tidy plugin)
// does before the analysis: find the rules folder, name the default packs,
// turn pack and profile names into paths, and load and merge packs.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_SETUP_SETUP_H
#define SEAM_SETUP_SETUP_H

#include "ApiModel/RulePack.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace seam {

/// The folder of the default packs: $SEAM_RULES_DIR, else \p Installed
/// when it holds them, else the source tree's rules/ (a build that was not
/// installed).
std::string findRulesDir(llvm::StringRef Installed);

/// <prefix>/share/seam/rules for the executable \p Argv0.
std::string installedRulesDir(const char *Argv0);

/// The packs loaded unless --no-default-rules, as paths in \p RulesDir.
std::vector<std::string> defaultPackPaths(llvm::StringRef RulesDir);

/// A pack named without a path or extension (`--rules thrust`) is a shipped
/// one, <RulesDir>/thrust.json, when that exists; anything else is a path.
std::string packPath(const std::string &Name, llvm::StringRef RulesDir);

/// <RulesDir>/profiles.
std::string profilesDir(llvm::StringRef RulesDir);

/// The file loadProfile() reads for \p Name: a bundled name in
/// \p ProfilesDir, or the path given.
std::string profilePath(const std::string &Name, llvm::StringRef ProfilesDir);

/// The packs at \p Paths, loaded and merged in order ("invalid rule pack:
/// ..." on error).
llvm::Expected<RulePack> loadPacks(const std::vector<std::string> &Paths);

} // namespace seam

#endif
