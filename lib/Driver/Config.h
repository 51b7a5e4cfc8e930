//===- Config.h - .seam.yaml: per-directory analysis settings -------------===//
//
// As with clang-tidy's .clang-tidy, Seam reads the nearest `.seam.yaml`
// found upward from each analyzed file. It can name compiled regions by
// glob and give shape hints; both add to the command line's --region and
// --shape. See docs/cli.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_CONFIG_H
#define SEAM_DRIVER_CONFIG_H

#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct FileConfig {
  std::string Path; ///< the .seam.yaml it came from; "" when none
  std::vector<std::string> Regions;
  std::vector<std::string> Shapes; ///< "name=dims[:dtype]", as --shape
};

/// Finds and parses configs, caching each file.
class ConfigFinder {
public:
  /// The config that applies to \p SourceFile (an empty one when none).
  llvm::Expected<const FileConfig *> forFile(llvm::StringRef SourceFile);

private:
  std::map<std::string, const FileConfig *> ByDir;
  std::map<std::string, FileConfig> ByPath;
  FileConfig None;
};

llvm::Expected<FileConfig> parseConfig(llvm::StringRef Text,
                                       llvm::StringRef Path);

} // namespace seam

#endif
