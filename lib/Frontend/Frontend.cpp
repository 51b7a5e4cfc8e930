//===- Frontend.cpp - Parse translation units with Clang LibTooling -------===//
#include "Frontend/Frontend.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <nlohmann/json.hpp>

#ifndef SEAM_CLANG_RESOURCE_DIR
#error "SEAM_CLANG_RESOURCE_DIR must name clang's resource directory"
#endif

using namespace clang;
using namespace clang::tooling;

namespace seam {

/// Larger sources are refused with a message rather than analyzed for
/// minutes: generated files of this size are not hand-written model code.
static constexpr uint64_t MaxSourceBytes = uint64_t(32) << 20;

llvm::Expected<std::unique_ptr<CompilationDatabase>>
makeCompilationDatabase(const FrontendOptions &Opts, std::string &Warning) {
  if (!Opts.BuildDir.empty()) {
    if (!llvm::sys::fs::is_directory(Opts.BuildDir))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "build directory '%s' (from -p) does not exist",
          Opts.BuildDir.c_str());
    // Clang's loader prints YAML parser lines of its own for a broken file;
    // check it first so the user gets one line naming it.
    llvm::SmallString<256> DBPath(Opts.BuildDir);
    llvm::sys::path::append(DBPath, "compile_commands.json");
    if (auto Buf = llvm::MemoryBuffer::getFile(DBPath)) {
      nlohmann::json J =
          nlohmann::json::parse((*Buf)->getBuffer().begin(),
                                (*Buf)->getBuffer().end(), nullptr, false);
      if (J.is_discarded() || !J.is_array())
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "'%s' is not a valid compilation database (expected a JSON "
            "array of {directory, file, command|arguments})",
            std::string(DBPath).c_str());
    }
    std::string Err;
    std::unique_ptr<CompilationDatabase> DB =
        CompilationDatabase::loadFromDirectory(Opts.BuildDir, Err);
    if (!DB)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "cannot load the compilation database in '%s': %s",
          Opts.BuildDir.c_str(), Err.c_str());
    // As clang-tidy does: files missing from the database borrow the
    // flags of a similar file.
    return inferTargetAndDriverMode(inferMissingCompileCommands(
        expandResponseFiles(std::move(DB), llvm::vfs::getRealFileSystem())));
  }
  std::vector<std::string> Args = Opts.ExtraArgs;
  if (!Opts.HasExtraArgs) {
    Args = {"-std=c++17"};
    Warning = "no compilation database (-p) and no flags after '--'; "
              "assuming -std=c++17";
  }
  return std::unique_ptr<CompilationDatabase>(
      std::make_unique<FixedCompilationDatabase>(".", Args));
}

namespace {

class Consumer : public ASTConsumer {
public:
  Consumer(std::function<void(ASTContext &)> &Fn, DiagnosticsEngine &Diags)
      : Fn(Fn), Diags(Diags) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Diags.hasErrorOccurred())
      Fn(Ctx);
  }

private:
  std::function<void(ASTContext &)> &Fn;
  DiagnosticsEngine &Diags;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(std::function<void(ASTContext &)> &Fn) : Fn(Fn) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(Fn, CI.getDiagnostics());
  }

private:
  std::function<void(ASTContext &)> &Fn;
};

class Factory : public FrontendActionFactory {
public:
  explicit Factory(std::function<void(ASTContext &)> &Fn) : Fn(Fn) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Fn);
  }

private:
  std::function<void(ASTContext &)> &Fn;
};

/// Prints errors as clang does and counts them; drops warnings, which are
/// the user's compiler's business, not Seam's.
class ErrorPrinter : public TextDiagnosticPrinter {
public:
  ErrorPrinter(DiagnosticOptions *Opts)
      : TextDiagnosticPrinter(llvm::errs(), Opts) {}
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    if (L >= DiagnosticsEngine::Error)
      ++Errors;
    if (L >= DiagnosticsEngine::Error ||
        (L == DiagnosticsEngine::Note && LastWasError))
      TextDiagnosticPrinter::HandleDiagnostic(L, Info);
    if (L != DiagnosticsEngine::Note)
      LastWasError = L >= DiagnosticsEngine::Error;
  }
  unsigned Errors = 0;

private:
  bool LastWasError = false;
};

} // namespace

std::vector<ParseResult>
parseFiles(const CompilationDatabase &DB, const FrontendOptions &Opts,
           const std::vector<std::string> &Files,
           std::function<void(ASTContext &, llvm::StringRef)> OnTU) {
  std::vector<ParseResult> Results;
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts(new DiagnosticOptions);
  DiagOpts->ShowColors = llvm::errs().has_colors();
  for (const std::string &File : Files) {
    ParseResult R;
    R.File = File;
    if (!llvm::sys::fs::exists(File)) {
      R.Error = "no such file: '" + File + "'";
      Results.push_back(R);
      continue;
    }
    if (llvm::sys::fs::is_directory(File)) {
      R.Error = "'" + File + "' is a directory, not a source file";
      Results.push_back(R);
      continue;
    }
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(File, St) ||
        !llvm::sys::fs::is_regular_file(St)) {
      // A FIFO or device would block or never end.
      R.Error = "'" + File + "' is not a regular file";
      Results.push_back(R);
      continue;
    }
    if (St.getSize() > MaxSourceBytes) {
      R.Error = "'" + File + "' is " + std::to_string(St.getSize() >> 20) +
                " MiB; Seam analyzes source files of up to " +
                std::to_string(MaxSourceBytes >> 20) + " MiB";
      Results.push_back(R);
      continue;
    }
    std::string BadDir;
    for (const CompileCommand &C : DB.getCompileCommands(File))
      if (!C.Directory.empty() && !llvm::sys::fs::is_directory(C.Directory))
        BadDir = C.Directory;
    if (!BadDir.empty()) {
      R.Error = "the compile command for '" + File + "' runs in '" + BadDir +
                "', which does not exist";
      Results.push_back(R);
      continue;
    }
    ClangTool Tool(DB, {File});
    ArgumentsAdjuster Extra = getInsertArgumentAdjuster(
        CommandLineArguments{"-w", "-ferror-limit=10"},
        ArgumentInsertPosition::END);
    Tool.appendArgumentsAdjuster(
        [](const CommandLineArguments &Args, llvm::StringRef) {
          for (const std::string &A : Args)
            if (llvm::StringRef(A).starts_with("-resource-dir"))
              return Args;
          CommandLineArguments Out = Args;
          Out.insert(Out.begin() + (Out.empty() ? 0 : 1),
                     "-resource-dir=" SEAM_CLANG_RESOURCE_DIR);
          return Out;
        });
    if (!Opts.BuildDir.empty() && Opts.HasExtraArgs)
      Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
          Opts.ExtraArgs, ArgumentInsertPosition::END));
    Tool.appendArgumentsAdjuster(Extra);
    ErrorPrinter Printer(DiagOpts.get());
    Tool.setDiagnosticConsumer(&Printer);
    Tool.setPrintErrorMessage(false);
    std::function<void(ASTContext &)> ForFile = [&](ASTContext &Ctx) {
      OnTU(Ctx, File);
    };
    Factory F(ForFile);
    // Parsing and the analysis recurse on expression depth: a generated
    // chain of 20,000 calls needs more than the main thread's 8 MiB.
    int Status = 1;
    llvm::thread Worker(std::optional<unsigned>(1u << 30),
                        [&] { Status = Tool.run(&F); });
    Worker.join();
    if (Status == 0 && Printer.Errors == 0) {
      R.Ok = true;
    } else if (Printer.Errors > 0) {
      R.Error = "'" + File + "' does not compile (" +
                std::to_string(Printer.Errors) + " error" +
                (Printer.Errors == 1 ? "" : "s") +
                " above); it was not analyzed";
    } else {
      R.Error = "'" + File +
                "' could not be analyzed (no compile command "
                "or the compiler could not start)";
    }
    Results.push_back(R);
  }
  return Results;
}

} // namespace seam
