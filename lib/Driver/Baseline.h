//===- Baseline.h - Fingerprints, and results accepted on an earlier day --===//
//
// A fingerprint names a result by what survives unrelated edits: the rule,
// the file (relative to the project root), the enclosing function, the text
// of the line with all white space removed, and which occurrence of that
// triple it is in the file. Line numbers are not part of it, so results keep
// their fingerprint when code above them moves. The same fingerprint is the
// SARIF result's partialFingerprints["seam/v1"].
//
// A baseline file (--write-baseline) lists today's results; with
// --baseline, results it lists are not reported. Entries may carry a
// `reason` and an `expires` date (YYYY-MM-DD); an expired entry no longer
// hides its result. See docs/ci.md.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_BASELINE_H
#define SEAM_DRIVER_BASELINE_H

#include "Basic/Finding.h"

#include "llvm/Support/Error.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace seam {

/// \p Path relative to \p Root when it lies below it, else \p Path.
std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root);

/// Sets Finding::Fingerprint on each of \p Findings (one translation unit's,
/// or a whole run's, sorted by position).
void assignFingerprints(std::vector<Finding> &Findings, llvm::StringRef Root);

struct BaselineEntry {
  std::string Fingerprint, Rule, File, Function, Message;
  unsigned Line = 0;   ///< when recorded; informative only
  std::string Reason;  ///< optional
  std::string Expires; ///< optional, YYYY-MM-DD
};

class Baseline {
public:
  static llvm::Expected<Baseline> load(llvm::StringRef Path);

  /// Drops the results the baseline accepts (and that have not expired).
  /// Returns how many it dropped.
  unsigned filter(std::vector<Finding> &Findings, llvm::StringRef Today);
  /// Entries for files this run analyzed that matched nothing.
  std::vector<BaselineEntry>
  stale(const std::set<std::string> &AnalyzedRelFiles) const;
  /// Entries whose date has passed and whose result was reported.
  const std::vector<BaselineEntry> &expired() const { return Expired; }
  const std::string &path() const { return Path; }
  /// The entry of \p Fingerprint, for carrying reasons into a new baseline.
  const BaselineEntry *find(const std::string &Fingerprint) const;
  /// Every entry, by fingerprint.
  const std::map<std::string, BaselineEntry> &entries() const {
    return Entries;
  }

private:
  std::string Path;
  std::map<std::string, BaselineEntry> Entries;
  std::set<std::string> Used;
  std::vector<BaselineEntry> Expired;
};

/// Writes today's \p Findings as a baseline; entries of \p Previous with the
/// same fingerprint keep their reason and expiry. With \p Analyzed (files
/// relative to \p Root), the run covered only those files: \p Previous's
/// entries for every other file are kept as they were.
std::string baselineText(const std::vector<Finding> &Findings,
                         llvm::StringRef Root, const Baseline *Previous,
                         const std::set<std::string> *Analyzed = nullptr,
                         size_t *Written = nullptr);

/// Today's date as YYYY-MM-DD (UTC); $SEAM_TODAY overrides it for tests.
std::string today();

} // namespace seam

#endif
