//===- InputFile.h - Reading a user's input file, bounded -----------------===//
//
// Every file Seam reads besides the sources clang parses (rule packs,
// profiles, baselines, SARIF to merge, site reports, the compile database,
// .seam.yaml) is read through readInputFile: a regular file (a symlink is
// followed) of at most a size that input could sensibly have. A FIFO would
// block, /dev/zero would fill memory; a repository can carry a symlink to
// either, so both are refused with one line naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_INPUTFILE_H
#define SEAM_BASIC_INPUTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <memory>
#include <string>

namespace seam {

/// The largest rule pack, profile, baseline, .seam.yaml or site report read.
constexpr uint64_t MaxConfigBytes = 64ull << 20;
/// The largest compile database or SARIF file read.
constexpr uint64_t MaxDataBytes = 1ull << 30;

/// Why \p Path cannot be read as an input of at most \p MaxBytes (not
/// there, not a regular file, too large), or "" when it can. The message
/// names the file and, as "(from WHAT)", what it was given as.
std::string inputFileProblem(llvm::StringRef Path, llvm::StringRef What,
                             uint64_t MaxBytes);

/// The contents of \p Path, after inputFileProblem found nothing wrong;
/// the error is that one line.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, llvm::StringRef What,
              uint64_t MaxBytes = MaxConfigBytes);

} // namespace seam

#endif
