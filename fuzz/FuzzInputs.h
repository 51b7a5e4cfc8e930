//===- FuzzInputs.h - Fuzz inputs that Seam reads from files --------------===//
//
// Baselines, SARIF to merge and cache entries are read from a path, through
// the same bounded reader users' files go through; the targets write each
// input to a file of their own and hand Seam its path.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FUZZ_FUZZINPUTS_H
#define SEAM_FUZZ_FUZZINPUTS_H

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>
#include <string>

namespace seam::fuzz {

/// A directory of this process's own (made once, under $TMPDIR).
inline const std::string &scratchDir() {
  static const std::string Dir = [] {
    llvm::SmallString<128> P;
    if (llvm::sys::fs::createUniqueDirectory("seam-fuzz", P))
      std::abort();
    return std::string(P);
  }();
  return Dir;
}

/// Writes \p Data to \p Name in the scratch directory; returns its path.
inline std::string writeInput(const std::string &Name, const uint8_t *Data,
                              size_t Size) {
  llvm::SmallString<128> P(scratchDir());
  llvm::sys::path::append(P, Name);
  std::error_code EC;
  llvm::raw_fd_ostream OS(P, EC);
  if (EC)
    std::abort();
  OS.write(reinterpret_cast<const char *>(Data), Size);
  OS.close();
  if (OS.has_error())
    std::abort();
  return std::string(P);
}

} // namespace seam::fuzz

#endif
