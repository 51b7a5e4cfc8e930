//===- ResultCache.h - Results of unchanged translation units, reused -----===//
//
// A re-run with nothing changed should cost file reads, not parses. Each
// translation unit's results (before the per-run filters) are stored under a
// key made of everything that can change them except the sources: Seam's
// own executable, the compile command and extra arguments, the rule packs'
// and the profile's contents, and the effective configuration. The entry
// also lists every non-system file the TU read with a hash of its contents;
// it is used only when all of them are unchanged, so editing one .cpp
// re-analyzes that TU, and editing a project header every TU that includes
// it. System headers are not hashed (their packages change with the
// compile flags' paths, or with a new Seam, which changes the key).
//
// Entries live under --cache-dir, else $XDG_CACHE_HOME/seam, else
// ~/.cache/seam; they are written to a temporary file and renamed, so
// concurrent runs never see half an entry; a corrupt one is ignored with a
// note; past the size cap the least recently used go first. See docs/cli.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_RESULTCACHE_H
#define SEAM_DRIVER_RESULTCACHE_H

#include "Frontend/Frontend.h"
#include "Pipeline/TranslationUnit.h"

#include "clang/Basic/SourceManager.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace seam {

/// What a translation unit produced, as the cache stores it.
struct CachedTU {
  ParseResult Parse; ///< Seconds is that of the original run
  TUAnalysis Analysis;
  /// Non-system files read, with a hash of their contents.
  std::vector<std::pair<std::string, std::string>> Deps;
};

class ResultCache {
public:
  /// \p Dir "" = the default directory; \p MaxBytes caps its size.
  ResultCache(std::string Dir, uint64_t MaxBytes);

  /// $XDG_CACHE_HOME/seam, else $HOME/.cache/seam.
  static std::string defaultDir();
  /// A hash of \p Text, as keys and dependency hashes use.
  static std::string hash(llvm::StringRef Text);
  /// A hash of the contents of \p Path ("" when it cannot be read).
  static std::string hashFile(llvm::StringRef Path);
  /// The non-system files \p SM read, with the hashes of what it read.
  static std::vector<std::pair<std::string, std::string>>
  dependencies(const clang::SourceManager &SM);

  /// The entry for \p Key when every dependency is unchanged. \p Note gets
  /// a line for the user when the entry was corrupt.
  std::optional<CachedTU> lookup(const std::string &Key, std::string &Note);
  /// Stores \p TU under \p Key; returns an error line, or nothing.
  std::optional<std::string> store(const std::string &Key, const CachedTU &TU);
  /// Removes the least recently used entries while the cache is over its cap.
  void evict();
  const std::string &dir() const { return Dir; }

private:
  std::string pathOf(const std::string &Key) const;
  std::string Dir;
  uint64_t MaxBytes;
};

} // namespace seam

#endif
