//===- InputFile.cpp - Reading a user's input file, bounded ---------------===//
#include "Basic/InputFile.h"

#include "llvm/Support/FileSystem.h"

namespace seam {

std::string inputFileProblem(llvm::StringRef Path, llvm::StringRef What,
                             uint64_t MaxBytes) {
  namespace fs = llvm::sys::fs;
  std::string From = What.empty() ? "" : " (from " + What.str() + ")";
  fs::file_status St;
  if (std::error_code EC = fs::status(Path, St))
    return "cannot read '" + Path.str() + "'" + From + ": " + EC.message();
  if (fs::is_directory(St))
    return "'" + Path.str() + "'" + From + " is a directory, not a file";
  if (!fs::is_regular_file(St))
    return "'" + Path.str() + "'" + From +
           " is not a regular file (a device, FIFO or socket is not read)";
  if (St.getSize() > MaxBytes)
    return "'" + Path.str() + "'" + From + " is " +
           std::to_string(St.getSize() >> 20) +
           " MiB; Seam reads such files of up to " +
           std::to_string(MaxBytes >> 20) + " MiB";
  return "";
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, llvm::StringRef What, uint64_t MaxBytes) {
  std::string Problem = inputFileProblem(Path, What, MaxBytes);
  if (!Problem.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   Problem.c_str());
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "cannot read '%s'%s: %s",
        Path.str().c_str(),
        What.empty() ? "" : (" (from " + What.str() + ")").c_str(),
        Buf.getError().message().c_str());
  // Replaced between the check and the read (a race, or a file that grew).
  if ((*Buf)->getBufferSize() > MaxBytes)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'%s' is too large", Path.str().c_str());
  return std::move(*Buf);
}

} // namespace seam
