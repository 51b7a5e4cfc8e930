//===- Frontend.h - Parse translation units with Clang LibTooling ---------===//
//
// Turns the user's inputs (files, -p build dir, flags after --) into parsed
// ASTs, one at a time, and reports per file whether it parsed. Everything
// the user can get wrong here (a missing file, a broken compile database, a
// file that does not compile) comes back as an error line, never an abort.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FRONTEND_FRONTEND_H
#define SEAM_FRONTEND_FRONTEND_H

#include "Basic/Finding.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct FrontendOptions {
  std::string BuildDir;                ///< -p
  bool HasExtraArgs = false;           ///< "--" was given
  std::vector<std::string> ExtraArgs;  ///< the command after "--"
  std::vector<std::string> ArgsBefore; ///< --extra-arg-before
  std::vector<std::string> ArgsAfter;  ///< --extra-arg
  /// Do not parse function bodies in system headers (LibTorch's): the
  /// results are the same, the parse is shorter. --keep-system-bodies.
  bool SkipSystemBodies = true;
};

/// Loads the compile database the options describe. \p Warning receives a
/// note for the user when Seam has to guess the flags.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
makeCompilationDatabase(const FrontendOptions &Opts, std::string &Warning);

struct ParseResult {
  std::string File;
  bool Ok = false;
  std::string Error; ///< one line, when !Ok
  /// The compiler's errors (with their notes), as 'clang-diagnostic-error'
  /// findings; the AST was still analyzed where clang recovered.
  std::vector<Finding> CompileErrors;
  /// Clang could not use the precompiled preamble it was given (changed
  /// since it was built, not a PCH, out of date, built with other options):
  /// the caller parses the file again without it.
  bool PreambleRefused = false;
  /// A file the parse needed was missing (an #include not found, a file the
  /// command names): the result must not be cached, since the file
  /// appearing later would not invalidate it.
  bool MissingInput = false;
  double Seconds = 0; ///< wall time of the parse and the analysis
};

/// The compile commands for \p File, looked up by its absolute path as
/// clang-tidy does: a database's commands run in their own directory, so a
/// path relative to the working directory names nothing there.
std::vector<clang::tooling::CompileCommand>
commandsFor(const clang::tooling::CompilationDatabase &DB,
            llvm::StringRef File);

/// \p Args without the flags that would make clang write a file
/// (dependency files, serialized diagnostics, time traces, ...), also when
/// they come through -Xclang, -Xpreprocessor or -Wp.
std::vector<std::string> dropOutputFlags(const std::vector<std::string> &Args);

/// Checks that \p File can be parsed at all (exists, regular, not huge, its
/// compile command's directory exists); returns the one-line reason if not.
std::optional<std::string>
checkSourceFile(const clang::tooling::CompilationDatabase &DB,
                const std::string &File);

/// Parses \p File with \p Commands (from the database, read by the caller)
/// and calls \p OnTU with its AST, also when clang reported errors and
/// recovered. Safe to call from several threads at once: each call has its
/// own compiler instance, file manager and diagnostics.
ParseResult
parseFile(const std::vector<clang::tooling::CompileCommand> &Commands,
          const FrontendOptions &Opts, const std::string &File,
          const std::function<void(clang::ASTContext &)> &OnTU,
          const std::string &Pch = "");

/// Precompiles \p Header (the leading includes that several files share)
/// with \p Command's flags into \p Pch, skipping bodies in system headers as
/// parseFile does. \p OnDone sees the source manager of that parse (for the
/// files it read). With \p BasePch, the PCH is built on that one (chained:
/// it holds only what \p Header adds). Returns the error line, or nothing.
std::optional<std::string>
buildPch(const clang::tooling::CompileCommand &Command,
         const FrontendOptions &Opts, const std::string &Header,
         const std::string &Pch,
         const std::function<void(const clang::SourceManager &)> &OnDone,
         const std::string &BasePch = "");

/// Preprocesses \p Header with \p Command's flags and returns, for each of
/// its lines, the bytes of the files its #include brought in that no
/// earlier line had: what sharing that header saves. Nothing when the
/// header does not preprocess.
std::optional<std::vector<uint64_t>>
measureIncludes(const clang::tooling::CompileCommand &Command,
                const FrontendOptions &Opts, const std::string &Header);

} // namespace seam

#endif
