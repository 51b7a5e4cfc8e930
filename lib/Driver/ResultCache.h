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
// The shared preambles (SharedPreamble.h) are kept here too, under
// preambles/<key>/: a re-run after editing a project header re-analyzes the
// TUs that include it, but does not parse torch/torch.h again.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_RESULTCACHE_H
#define SEAM_DRIVER_RESULTCACHE_H

#include "Frontend/Frontend.h"
#include "Pipeline/TranslationUnit.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace seam {

/// A file a parse read, as it was then.
struct PreambleInput {
  std::string Path;
  uint64_t Size = 0;
  /// Nanoseconds since the epoch, as the file system keeps it: two saves
  /// within one second still differ.
  int64_t MTime = 0;
};

/// What a translation unit produced, as the cache stores it.
struct CachedTU {
  ParseResult Parse; ///< Seconds is that of the original run
  TUAnalysis Analysis;
  /// Non-system files read, with a hash of their contents.
  std::vector<std::pair<std::string, std::string>> Deps;
  /// Every file read, system headers included (through its preamble too),
  /// by size and time: a library upgrade makes the entry stale.
  std::vector<PreambleInput> Inputs;
};

/// A precompiled preamble kept between runs: the header it was built from,
/// the PCH, the non-system files it read (for the TUs' dependencies), and
/// every file it read by size and time.
struct CachedPreamble {
  std::string Header, Pch;
  std::vector<std::pair<std::string, std::string>> Deps;
  std::vector<PreambleInput> Inputs;
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
  /// The modification time of \p Path in nanoseconds (0 when it has none).
  static int64_t modificationTime(llvm::StringRef Path);
  /// Whether every one of \p Inputs still has its size and time.
  static bool unchanged(const std::vector<PreambleInput> &Inputs);
  /// The non-system files \p SM read, with the hashes of what it read.
  static std::vector<std::pair<std::string, std::string>>
  dependencies(const clang::SourceManager &SM);

  /// The entry for \p Key when every dependency is unchanged. \p Note gets
  /// a line for the user when the entry was corrupt.
  std::optional<CachedTU> lookup(const std::string &Key, std::string &Note);
  /// Stores \p TU under \p Key; returns an error line, or nothing.
  std::optional<std::string> store(const std::string &Key, const CachedTU &TU);
  /// Every file \p SM read (system headers too; with \p SystemOnly, only
  /// those), with its size and time.
  static std::vector<PreambleInput> inputs(const clang::SourceManager &SM,
                                           bool SystemOnly = false);

  /// The preamble stored under \p Key (under <dir>/preambles), when every
  /// file it read, system headers included, has its size and time still:
  /// clang checks the times of a PCH's inputs when it loads one, and a
  /// new LibTorch package must not be read from an old PCH.
  std::optional<CachedPreamble> lookupPreamble(const std::string &Key,
                                               std::string &Note);
  /// Where to build the preamble \p Key: writes its header (once: an
  /// existing one is kept, as a PCH records its header's time) and returns
  /// the header's path and a temporary PCH path to build into; or an error.
  llvm::Expected<CachedPreamble> preparePreamble(const std::string &Key,
                                                 llvm::StringRef Text);
  /// Moves the PCH built into \p Built.Pch into place and records what it
  /// read; returns an error line, or nothing.
  std::optional<std::string>
  commitPreamble(const std::string &Key, const CachedPreamble &Built,
                 const std::vector<PreambleInput> &Inputs);

  /// Forgets the preamble \p Key (clang could not load it); true when
  /// there was one.
  bool dropPreamble(const std::string &Key);
  /// <dir>/preambles/<key>: the header, the PCH and the manifest.
  std::string preambleDir(const std::string &Key) const;

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
