//===- Output.cpp - Atomic report files and checked writes ----------------===//
#include "Driver/Output.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace seam {

std::optional<std::string> checkOutputPath(llvm::StringRef Path,
                                           llvm::ArrayRef<std::string> Inputs) {
  namespace fs = llvm::sys::fs;
  for (const std::string &In : Inputs)
    if (fs::equivalent(Path, In))
      return "output file '" + Path.str() + "' is one of the inputs ('" + In +
             "'); refusing to overwrite it";
  fs::file_status St;
  if (!fs::status(Path, St)) {
    if (fs::is_directory(St))
      return "cannot write output file '" + Path.str() + "': is a directory";
    if (fs::is_regular_file(St) && fs::access(Path, fs::AccessMode::Write))
      return "cannot write output file '" + Path.str() + "': permission denied";
    if (!fs::is_regular_file(St))
      return std::nullopt; // a device or FIFO: written in place
  }
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  if (Dir.empty())
    Dir = ".";
  if (!fs::is_directory(Dir))
    return "cannot write output file '" + Path.str() + "': directory '" +
           std::string(Dir) + "' does not exist";
  if (fs::access(Dir, fs::AccessMode::Write))
    return "cannot write output file '" + Path.str() +
           "': directory not writable";
  return std::nullopt;
}

/// Writes what \p Fn produces to a temporary file beside \p Path and
/// renames it over \p Path; \p Perms, when given, are the new file's.
/// Errors start with \p Why.
static std::optional<std::string>
replaceAtomically(llvm::StringRef Path, const std::string &Why,
                  llvm::function_ref<void(llvm::raw_ostream &)> Fn,
                  std::optional<llvm::sys::fs::perms> Perms) {
  namespace fs = llvm::sys::fs;
  int FD = -1;
  llvm::SmallString<256> Tmp;
  if (std::error_code EC =
          fs::createUniqueFile(Path + ".seam-tmp-%%%%%%", FD, Tmp))
    return Why + ": " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    Fn(OS);
    OS.close();
    if (OS.has_error()) {
      std::string Msg = OS.error().message();
      OS.clear_error();
      fs::remove(Tmp);
      return Why + ": " + Msg;
    }
  }
  if (Perms)
    (void)fs::setPermissions(Tmp, *Perms);
  if (std::error_code EC = fs::rename(Tmp, Path)) {
    fs::remove(Tmp);
    return Why + ": " + EC.message();
  }
  return std::nullopt;
}

std::optional<std::string>
writeOutput(llvm::StringRef Path,
            llvm::function_ref<void(llvm::raw_ostream &)> Fn) {
  namespace fs = llvm::sys::fs;
  if (Path.empty()) {
    llvm::raw_fd_ostream &OS = llvm::outs();
    Fn(OS);
    OS.flush();
    if (OS.has_error()) {
      std::string Msg = OS.error().message();
      OS.clear_error(); // reported here, not as "LLVM ERROR" at exit
      return "cannot write to standard output: " + Msg;
    }
    return std::nullopt;
  }
  fs::file_status St;
  bool InPlace = !fs::status(Path, St) && !fs::is_regular_file(St);
  std::error_code EC;
  if (InPlace) {
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return "cannot write output file '" + Path.str() + "': " + EC.message();
    Fn(OS);
    OS.close();
    if (OS.has_error()) {
      std::string Msg = OS.error().message();
      OS.clear_error();
      return "cannot write output file '" + Path.str() + "': " + Msg;
    }
    return std::nullopt;
  }
  return replaceAtomically(
      Path, "cannot write output file '" + Path.str() + "'", Fn, std::nullopt);
}

std::optional<std::string> rewriteFile(llvm::StringRef Path,
                                       llvm::StringRef Text) {
  namespace fs = llvm::sys::fs;
  std::string Why = "cannot rewrite '" + Path.str() + "'";
  llvm::SmallString<256> Real;
  fs::file_status St;
  if (std::error_code EC = fs::real_path(Path, Real))
    return Why + ": " + EC.message();
  if (std::error_code EC = fs::status(Real, St))
    return Why + ": " + EC.message();
  return replaceAtomically(
      Real, Why, [&](llvm::raw_ostream &OS) { OS << Text; }, St.permissions());
}

int errorExit(const std::string &Msg) {
  llvm::errs() << "seam: error: " << Msg << "\n";
  return 2;
}

} // namespace seam
