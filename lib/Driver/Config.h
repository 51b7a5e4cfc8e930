//===- Config.h - .seam.yaml: per-directory settings, as .clang-tidy ------===//
//
// Seam reads the nearest `.seam.yaml` found upward from each analyzed file
// (or the one --config-file names), with the keys of clang-tidy's
// .clang-tidy where they mean the same thing:
//
//   Checks: '-*,seam-host-sync'      # check globs, as --checks
//   WarningsAsErrors: 'seam-*'       # as --warnings-as-errors
//   HeaderFilterRegex: 'src/.*'      # as --header-filter
//   Regions: ['Net::forward']        # as --region
//   Shapes: {x: 64x1024:f16}         # as --shape
//   Profile: h200                    # as --profile
//   Rules: [packs/inhouse.json]      # extra packs, relative to this file
//   InheritParentConfig: true        # also read the next one up, then
//                                    # apply this one on top of it
//
// The lower-case `regions:` and `shapes:` of Seam 0.1 keep working. The
// command line wins over the file, as with clang-tidy. See docs/cli.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_CONFIG_H
#define SEAM_DRIVER_CONFIG_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct FileConfig {
  /// The files it came from, nearest last; empty when none applies.
  std::vector<std::string> Sources;
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilterRegex;
  std::vector<std::string> Regions;
  std::map<std::string, std::string> Shapes; ///< name -> DIMS[:DTYPE]
  std::map<std::string, std::string> Trips;  ///< name -> trip count
  std::optional<std::string> Profile;
  /// Where a tensor whose origin is not visible is taken to live: "device"
  /// (the default) or "host" (a CPU-only program).
  std::optional<std::string> DefaultResidency;
  std::vector<std::string> Rules; ///< absolute paths of extra packs
  bool InheritParentConfig = false;

  /// "path" of the nearest file, for messages; "" when none.
  std::string path() const { return Sources.empty() ? "" : Sources.back(); }
  /// --shape spellings of Shapes.
  std::vector<std::string> shapeHints() const;
  /// Applies \p Child on top of this one (InheritParentConfig).
  void inherit(const FileConfig &Child);
};

/// Parses one file's text; \p Path names it in errors and anchors Rules.
llvm::Expected<FileConfig> parseConfig(llvm::StringRef Text,
                                       llvm::StringRef Path);

/// Writes \p C as YAML, as --dump-config prints it.
void dumpConfig(llvm::raw_ostream &OS, const FileConfig &C);

/// Finds, parses and caches the configuration of each source file.
class ConfigFinder {
public:
  /// With \p ConfigFile, every file gets that one and nothing is searched.
  explicit ConfigFinder(std::string ConfigFile = "")
      : ConfigFile(std::move(ConfigFile)) {}
  /// The configuration that applies to \p SourceFile (empty when none).
  llvm::Expected<FileConfig> forFile(llvm::StringRef SourceFile);

private:
  llvm::Expected<FileConfig> load(llvm::StringRef Path);
  /// The nearest config at or above \p Dir, following InheritParentConfig.
  llvm::Expected<FileConfig> forDir(llvm::StringRef Dir);
  std::string ConfigFile;
  std::map<std::string, FileConfig> Parsed; ///< by .seam.yaml path
};

} // namespace seam

#endif
