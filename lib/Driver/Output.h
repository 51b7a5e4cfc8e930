//===- Output.h - Writing a report without losing anything ----------------===//
//
// `-o FILE` is written to a temporary file beside FILE and renamed over it
// only once complete, so an interrupted or failed run never leaves a
// truncated report, and FILE may not be one of the run's inputs. Devices
// and FIFOs (`-o /dev/stderr`) are written in place. Every failure is one
// line for the caller to print with exit status 2.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_OUTPUT_H
#define SEAM_DRIVER_OUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace seam {

/// Prints "seam: error: MSG" on stderr and returns 2, the exit status of
/// every user-facing error.
int errorExit(const std::string &Msg);

/// Why \p Path cannot receive the report (before any work is done), or
/// nothing. \p Inputs are the files the run reads.
std::optional<std::string> checkOutputPath(llvm::StringRef Path,
                                           llvm::ArrayRef<std::string> Inputs);

/// Writes what \p Fn produces to \p Path (standard output when empty).
/// Returns the error, one line naming the output, or nothing.
std::optional<std::string>
writeOutput(llvm::StringRef Path,
            llvm::function_ref<void(llvm::raw_ostream &)> Fn);

/// Replaces the contents of the existing file \p Path with \p Text, as
/// writeOutput does (a temporary file renamed over it), keeping its
/// permissions; through a symlink, the target is rewritten. For --fix.
std::optional<std::string> rewriteFile(llvm::StringRef Path,
                                       llvm::StringRef Text);

} // namespace seam

#endif
