//===- Frontend.cpp - Parse translation units with Clang LibTooling -------===//
#include "Frontend/Frontend.h"
#include "Basic/InputFile.h"
#include "Basic/SourcePoint.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticDriver.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include <chrono>
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
          llvm::sys::fs::exists(Opts.BuildDir)
              ? "build directory '%s' (from -p) is not a directory"
              : "build directory '%s' (from -p) does not exist",
          Opts.BuildDir.c_str());
    // Clang's loader prints YAML parser lines of its own for a broken file;
    // check it first so the user gets one line naming it.
    llvm::SmallString<256> DBPath(Opts.BuildDir);
    llvm::sys::path::append(DBPath, "compile_commands.json");
    llvm::SmallString<256> FlagsPath(Opts.BuildDir);
    llvm::sys::path::append(FlagsPath, "compile_flags.txt");
    // Clang's loader would read a FIFO or /dev/zero without end.
    for (llvm::StringRef P : {DBPath.str(), FlagsPath.str()})
      if (llvm::sys::fs::exists(P)) {
        std::string Problem = inputFileProblem(P, "-p", MaxDataBytes);
        if (!Problem.empty())
          return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                         Problem.c_str());
      }
    if (auto Buf = llvm::MemoryBuffer::getFile(DBPath)) {
      nlohmann::json J =
          nlohmann::json::parse((*Buf)->getBuffer().begin(),
                                (*Buf)->getBuffer().end(), nullptr, false);
      bool Entries = J.is_array() && llvm::all_of(J, [](const auto &E) {
                       return E.is_object();
                     });
      if (J.is_discarded() || !Entries)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "'%s' is not a valid compilation database (expected a JSON "
            "array of {directory, file, command|arguments})",
            std::string(DBPath).c_str());
    }
    std::string Err;
    std::unique_ptr<CompilationDatabase> DB =
        CompilationDatabase::loadFromDirectory(Opts.BuildDir, Err);
    if (!DB) {
      // LLVM gives one line per database kind it tried: one line here.
      std::string Why = llvm::StringRef(Err).trim().str();
      std::replace(Why.begin(), Why.end(), '\n', ';');
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "cannot load the compilation database in '%s': %s",
          Opts.BuildDir.c_str(), Why.c_str());
    }
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
  if (Opts.HasExtraArgs) {
    // The command after "--" may be a whole compile command, as CMake's
    // CXX_CLANG_TIDY passes it: `/usr/bin/c++ -DX -o f.o -c f.cpp`. Clang's
    // own loader drops the compiler, the inputs and what only linking uses.
    std::vector<const char *> Argv = {"seam", "--"};
    for (const std::string &A : Args)
      Argv.push_back(A.c_str());
    int Argc = static_cast<int>(Argv.size());
    std::string Err;
    if (std::unique_ptr<FixedCompilationDatabase> DB =
            FixedCompilationDatabase::loadFromCommandLine(Argc, Argv.data(),
                                                          Err))
      return std::unique_ptr<CompilationDatabase>(std::move(DB));
  }
  return std::unique_ptr<CompilationDatabase>(
      std::make_unique<FixedCompilationDatabase>(".", Args));
}

namespace {

/// A database of the commands read for one file, so that a worker thread
/// never touches the shared database.
class CommandsDatabase : public CompilationDatabase {
public:
  explicit CommandsDatabase(std::vector<CompileCommand> Commands)
      : Commands(std::move(Commands)) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return Commands;
  }

private:
  std::vector<CompileCommand> Commands;
};

class Consumer : public ASTConsumer {
public:
  Consumer(const std::function<void(ASTContext &)> &Fn, SourceManager &SM,
           bool SkipSystemBodies)
      : Fn(Fn), SM(SM), SkipSystemBodies(SkipSystemBodies) {}
  void HandleTranslationUnit(ASTContext &Ctx) override { Fn(Ctx); }
  /// What a library function does is in the rule pack, not in its body:
  /// bodies in system headers are not parsed (Sema still parses constexpr
  /// and deduced-return-type ones, which declarations need).
  bool shouldSkipFunctionBody(Decl *D) override {
    return SkipSystemBodies &&
           SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
  }

private:
  const std::function<void(ASTContext &)> &Fn;
  SourceManager &SM;
  bool SkipSystemBodies;
};

class Action : public ASTFrontendAction {
public:
  Action(const std::function<void(ASTContext &)> &Fn, bool SkipSystemBodies)
      : Fn(Fn), SkipSystemBodies(SkipSystemBodies) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    // The parser asks the consumer about each body only when this is set.
    CI.getFrontendOpts().SkipFunctionBodies = SkipSystemBodies;
    return std::make_unique<Consumer>(Fn, CI.getSourceManager(),
                                      SkipSystemBodies);
  }

private:
  const std::function<void(ASTContext &)> &Fn;
  bool SkipSystemBodies;
};

class Factory : public FrontendActionFactory {
public:
  Factory(const std::function<void(ASTContext &)> &Fn, bool SkipSystemBodies)
      : Fn(Fn), SkipSystemBodies(SkipSystemBodies) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Fn, SkipSystemBodies);
  }

private:
  const std::function<void(ASTContext &)> &Fn;
  bool SkipSystemBodies;
};

/// Keeps the compiler's errors, and the notes that follow them, as
/// 'clang-diagnostic-error' findings, as clang-tidy reports them. Warnings
/// are the user's compiler's business, not Seam's.
class ErrorCollector : public DiagnosticConsumer {
public:
  explicit ErrorCollector(std::string MainFile)
      : MainFile(std::move(MainFile)) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *) override {
    LangOpts = LO;
  }
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L == DiagnosticsEngine::Note && LastWasError && !Errors.empty()) {
      llvm::SmallString<128> Msg;
      Info.FormatDiagnostic(Msg);
      PathNote N;
      N.Message = std::string(Msg);
      if (Info.hasSourceManager() && Info.getLocation().isValid())
        N.Where =
            makePoint(Info.getSourceManager(), LangOpts, Info.getLocation());
      Errors.back().Path.push_back(std::move(N));
      return;
    }
    if (L == DiagnosticsEngine::Note)
      return;
    LastWasError = L >= DiagnosticsEngine::Error;
    if (!LastWasError)
      return;
    PreambleRefused |= refusesPreamble(Info.getID());
    MissingInput |= missesInput(Info.getID());
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    Finding F;
    F.RuleId = rule_ids::CompileError;
    F.Severity = Level::Error;
    F.Message = std::string(Msg);
    F.Trigger = "compile-error";
    if (Info.hasSourceManager() && Info.getLocation().isValid())
      F.Where =
          makePoint(Info.getSourceManager(), LangOpts, Info.getLocation());
    if (!F.Where.valid()) { // a driver error: it belongs to the file
      F.Where = SourcePoint();
      F.Where.File = MainFile;
    }
    Errors.push_back(std::move(F));
  }
  std::vector<Finding> Errors;
  bool PreambleRefused = false, MissingInput = false;

private:
  /// Errors reading a precompiled header: every serialization diagnostic
  /// (out of date, modified inputs, malformed, other options) and the
  /// frontend's own about loading one.
  static bool refusesPreamble(unsigned ID) {
    if (ID >= diag::DIAG_START_SERIALIZATION && ID < diag::DIAG_START_LEX)
      return true;
    switch (ID) {
    case diag::err_fe_unable_to_load_pch:
    case diag::err_fe_no_pch_in_dir:
      return true;
    default:
      return false;
    }
  }
  static bool missesInput(unsigned ID) {
    switch (ID) {
    case diag::err_pp_file_not_found:
    case diag::err_pp_file_not_found_typo_not_fatal:
    case diag::err_pp_file_not_found_angled_include_not_fatal:
    case diag::err_drv_no_such_file:
    case diag::err_drv_no_such_file_with_suggestion:
      return true;
    default:
      return false;
    }
  }

  std::string MainFile;
  LangOptions LangOpts;
  bool LastWasError = false;
};

} // namespace

std::vector<CompileCommand> commandsFor(const CompilationDatabase &DB,
                                        llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return DB.getCompileCommands(P);
}

std::optional<std::string> checkSourceFile(const CompilationDatabase &DB,
                                           const std::string &File) {
  if (!llvm::sys::fs::exists(File))
    return "no such file: '" + File + "'";
  if (llvm::sys::fs::is_directory(File))
    return "'" + File + "' is a directory, not a source file";
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(File, St) || !llvm::sys::fs::is_regular_file(St))
    return "'" + File + "' is not a regular file"; // a FIFO would block
  if (St.getSize() > MaxSourceBytes)
    return "'" + File + "' is " + std::to_string(St.getSize() >> 20) +
           " MiB; Seam analyzes source files of up to " +
           std::to_string(MaxSourceBytes >> 20) + " MiB";
  for (const CompileCommand &C : commandsFor(DB, File))
    if (!C.Directory.empty() && !llvm::sys::fs::is_directory(C.Directory))
      return "the compile command for '" + File + "' runs in '" + C.Directory +
             "', which does not exist";
  return std::nullopt;
}

namespace {

/// Skips bodies in system headers only; joined with the PCH writer's
/// consumer, whose default would skip every body.
class SystemBodiesOnly : public ASTConsumer {
public:
  explicit SystemBodiesOnly(SourceManager &SM) : SM(SM) {}
  bool shouldSkipFunctionBody(Decl *D) override {
    return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
  }

private:
  SourceManager &SM;
};

class PchAction : public GeneratePCHAction {
public:
  PchAction(std::string Out, bool Skip,
            const std::function<void(const SourceManager &)> &OnDone)
      : Out(std::move(Out)), Skip(Skip), OnDone(OnDone) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef In) override {
    CI.getFrontendOpts().OutputFile = Out;
    CI.getFrontendOpts().SkipFunctionBodies = Skip;
    std::vector<std::unique_ptr<ASTConsumer>> Cs;
    Cs.push_back(GeneratePCHAction::CreateASTConsumer(CI, In));
    if (!Cs.back())
      return nullptr;
    Cs.push_back(std::make_unique<SystemBodiesOnly>(CI.getSourceManager()));
    return std::make_unique<MultiplexConsumer>(std::move(Cs));
  }
  void EndSourceFileAction() override {
    OnDone(getCompilerInstance().getSourceManager());
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  std::string Out;
  bool Skip;
  const std::function<void(const SourceManager &)> &OnDone;
};

class PchFactory : public FrontendActionFactory {
public:
  PchFactory(std::string Out, bool Skip,
             const std::function<void(const SourceManager &)> &OnDone)
      : Out(std::move(Out)), Skip(Skip), OnDone(OnDone) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<PchAction>(Out, Skip, OnDone);
  }

private:
  std::string Out;
  bool Skip;
  const std::function<void(const SourceManager &)> &OnDone;
};

} // namespace

/// The real file system, where only regular files can be opened: a source
/// may name a device or a FIFO (`#include </dev/stdin>` would read Seam's
/// own standard input, `</dev/zero>` never ends). Such an include is then a
/// compile error of that file, reported as such.
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
public:
  RegularFilesOnly()
      : ProxyFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
            llvm::vfs::createPhysicalFileSystem().release())) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    llvm::ErrorOr<llvm::vfs::Status> S = status(Path);
    if (S && S->getType() != llvm::sys::fs::file_type::regular_file)
      return std::make_error_code(std::errc::operation_not_permitted);
    return ProxyFileSystem::openFileForRead(Path);
  }
};

static llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> sourceFileSystem() {
  return llvm::makeIntrusiveRefCnt<RegularFilesOnly>();
}

/// Drops every flag that would make the compiler write a file: Seam only
/// parses, and a compile command is input it does not control (a database
/// can name the source itself as a dependency file). ClangTool's default
/// adjusters already drop -o and -M*; these are the others, spelled for the
/// driver or passed through to cc1 or the preprocessor.
CommandLineArguments dropOutputFlags(const CommandLineArguments &Args) {
  // cc1 flags that name a file to write (the value separate, or joined
  // after '='), and cc1 actions or flags that write one of their own.
  static constexpr llvm::StringLiteral Cc1WithValue[] = {
      "-o",
      "-dependency-file",
      "-dependency-dot",
      "-MF",
      "-MJ",
      "-header-include-file",
      "-stats-file",
      "-diagnostic-log-file",
      "-serialize-diagnostic-file",
      "-opt-record-file"};
  static constexpr llvm::StringLiteral Cc1Alone[] = {
      "-emit-pch",         "-emit-module", "-emit-module-interface",
      "-emit-obj",         "-emit-llvm",   "-emit-llvm-bc",
      "-module-file-deps", "-ftime-trace", "-save-temps"};
  // Driver flags that write a file: those with a separate value, then
  // those whose value is joined.
  static constexpr llvm::StringLiteral WithValue[] = {
      "--serialize-diagnostics",
      "-serialize-diagnostics",
      "-MJ",
      "-dependency-file",
      "-dependency-dot",
      "-foptimization-record-file",
      "-ftime-trace-file"};
  static constexpr llvm::StringLiteral Joined[] = {
      "-MJ",
      "-ftime-trace",
      "-fsave-optimization-record",
      "-foptimization-record-file=",
      "-save-temps",
      "-fcrash-diagnostics-dir",
      "-fproc-stat-report",
      "-fstats-file",
      "--serialize-diagnostics=",
      "-dependency-file=",
      "-fmodules-cache-path",
      "-fmodule-output",
      "-ftime-report-json"};
  CommandLineArguments Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A(Args[I]);
    // Arguments passed through: -Xclang X, -Xpreprocessor X, -mllvm X.
    if ((A == "-Xclang" || A == "-Xpreprocessor") && I + 1 < Args.size()) {
      llvm::StringRef V(Args[I + 1]);
      bool Valued = llvm::is_contained(Cc1WithValue, V);
      bool Writes = Valued || llvm::is_contained(Cc1Alone, V) ||
                    llvm::any_of(Cc1WithValue,
                                 [&](llvm::StringRef W) {
                                   return V.starts_with(W) &&
                                          V.size() > W.size() &&
                                          V[W.size()] == '=';
                                 }) ||
                    V.starts_with("-ftime-trace=");
      if (!Writes) {
        Out.push_back(Args[I]);
        Out.push_back(Args[++I]);
        continue;
      }
      ++I;
      // A separate value comes as one more pair: -Xclang -o -Xclang f.
      if (Valued && I + 2 < Args.size() && Args[I + 1] == A)
        I += 2;
      continue;
    }
    // -Wp,-MD,file and -Wp,-MF,file write dependency files.
    if (A.starts_with("-Wp,") &&
        (A.contains(",-M") || A.contains(",-dependency-file")))
      continue;
    if (llvm::is_contained(WithValue, A)) {
      ++I;
      continue;
    }
    if (llvm::any_of(Joined,
                     [&](llvm::StringRef J) { return A.starts_with(J); }))
      continue;
    Out.push_back(Args[I]);
  }
  return Out;
}

/// What every parse adds to the command: clang's resource directory, then,
/// as clang-tidy, --extra-arg-before right after the compiler, and
/// --extra-arg (with -p, also the flags after "--") and \p Mine at the end.
static void addArguments(ClangTool &Tool, const FrontendOptions &Opts,
                         const std::vector<std::string> &Mine) {
  // Output flags go before ClangTool's own adjusters, which drop -MJ and
  // --serialize-diagnostics but leave their file as a second input.
  Tool.clearArgumentsAdjusters();
  auto DropOutputs = [](const CommandLineArguments &Args, llvm::StringRef) {
    return dropOutputFlags(Args);
  };
  Tool.appendArgumentsAdjuster(DropOutputs);
  Tool.appendArgumentsAdjuster(getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(getClangStripDependencyFileAdjuster());
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
  if (!Opts.ArgsBefore.empty())
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        Opts.ArgsBefore, ArgumentInsertPosition::BEGIN));
  std::vector<std::string> After = Opts.ArgsAfter;
  if (!Opts.BuildDir.empty() && Opts.HasExtraArgs)
    After.insert(After.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  After.insert(After.end(), Mine.begin(), Mine.end());
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster(After, ArgumentInsertPosition::END));
  Tool.appendArgumentsAdjuster(DropOutputs); // and --extra-arg's
}

namespace {

/// A tool that runs \p Command's flags on \p Header, as a C++ header.
struct HeaderTool {
  HeaderTool(const CompileCommand &Command, const FrontendOptions &Opts,
             const std::string &Header, std::vector<std::string> Mine)
      : DB({retarget(Command, Header)}),
        Tool(DB, {Header}, std::make_shared<PCHContainerOperations>(),
             sourceFileSystem()),
        Errors(Header) {
    Mine.insert(Mine.end(), {"-w", "-fno-caret-diagnostics", "-xc++-header"});
    addArguments(Tool, Opts, Mine);
    // "-x c++-header" must come before the file name it applies to.
    Tool.appendArgumentsAdjuster(
        [](const CommandLineArguments &Args, llvm::StringRef File) {
          CommandLineArguments Out;
          for (const std::string &A : Args)
            if (A != "-xc++-header")
              Out.push_back(A);
          for (size_t I = 1; I < Out.size(); ++I)
            if (Out[I] == File) {
              Out.insert(Out.begin() + I, "-xc++-header");
              break;
            }
          return Out;
        });
    Tool.setDiagnosticConsumer(&Errors);
    Tool.setPrintErrorMessage(false);
  }
  /// Runs \p F on a thread with a large stack, as parseFile does; false
  /// when clang failed or reported an error.
  bool run(FrontendActionFactory &F) {
    int Status = 1;
    llvm::thread Worker(std::optional<unsigned>(1u << 30),
                        [&] { Status = Tool.run(&F); });
    Worker.join();
    return Status == 0 && Errors.Errors.empty();
  }
  /// The member's command, compiling the header instead of the member.
  static CompileCommand retarget(const CompileCommand &Command,
                                 const std::string &Header) {
    CompileCommand C = Command;
    for (std::string &A : C.CommandLine)
      if (A == Command.Filename)
        A = Header;
    C.Filename = Header;
    return C;
  }
  CommandsDatabase DB;
  ClangTool Tool;
  ErrorCollector Errors;
};

/// Adds the bytes of each file the preprocessor enters to the main file's
/// #include line it came from.
class IncludeBytes : public PPCallbacks {
public:
  IncludeBytes(const SourceManager &SM, std::vector<uint64_t> &Bytes)
      : SM(SM), Bytes(Bytes) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          llvm::StringRef, bool, CharSourceRange,
                          OptionalFileEntryRef, llvm::StringRef,
                          llvm::StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (SM.isWrittenInMainFile(HashLoc))
      Line = SM.getSpellingLineNumber(HashLoc);
  }
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile || Line == 0)
      return;
    if (std::optional<llvm::MemoryBufferRef> B =
            SM.getBufferOrNone(SM.getFileID(Loc)))
      if (Line <= Bytes.size())
        Bytes[Line - 1] += B->getBufferSize();
  }

private:
  const SourceManager &SM;
  std::vector<uint64_t> &Bytes;
  unsigned Line = 0;
};

class IncludeBytesAction : public PreprocessOnlyAction {
public:
  explicit IncludeBytesAction(std::vector<uint64_t> &Bytes) : Bytes(Bytes) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeBytes>(CI.getSourceManager(), Bytes));
    return PreprocessOnlyAction::BeginSourceFileAction(CI);
  }

private:
  std::vector<uint64_t> &Bytes;
};

class IncludeBytesFactory : public FrontendActionFactory {
public:
  explicit IncludeBytesFactory(std::vector<uint64_t> &Bytes) : Bytes(Bytes) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<IncludeBytesAction>(Bytes);
  }

private:
  std::vector<uint64_t> &Bytes;
};

} // namespace

std::optional<std::string>
buildPch(const CompileCommand &Command, const FrontendOptions &Opts,
         const std::string &Header, const std::string &Pch,
         const std::function<void(const SourceManager &)> &OnDone,
         const std::string &BasePch) {
  std::vector<std::string> Mine;
  if (!BasePch.empty())
    Mine = {"-include-pch", BasePch};
  HeaderTool T(Command, Opts, Header, Mine);
  PchFactory F(Pch, Opts.SkipSystemBodies, OnDone);
  if (!T.run(F))
    return "the shared preamble '" + Header + "' did not compile" +
           (T.Errors.Errors.empty() ? std::string()
                                    : ": " + T.Errors.Errors.front().Message);
  return std::nullopt;
}

std::optional<std::vector<uint64_t>>
measureIncludes(const CompileCommand &Command, const FrontendOptions &Opts,
                const std::string &Header) {
  auto Buf = llvm::MemoryBuffer::getFile(Header, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  std::vector<uint64_t> Bytes(llvm::count((*Buf)->getBuffer(), '\n') + 1, 0);
  HeaderTool T(Command, Opts, Header, {});
  IncludeBytesFactory F(Bytes);
  if (!T.run(F))
    return std::nullopt;
  return Bytes;
}

ParseResult parseFile(const std::vector<CompileCommand> &Commands,
                      const FrontendOptions &Opts, const std::string &File,
                      const std::function<void(ASTContext &)> &OnTU,
                      const std::string &Pch) {
  auto Start = std::chrono::steady_clock::now();
  ParseResult R;
  R.File = File;
  CommandsDatabase DB(Commands);
  // A file system of its own, so that entering the command's directory does
  // not change the process's working directory under the other workers.
  ClangTool Tool(DB, {File}, std::make_shared<PCHContainerOperations>(),
                 sourceFileSystem());
  // -fno-caret-diagnostics also keeps clang from printing "N errors
  // generated." on stderr: its errors are results here.
  std::vector<std::string> Mine = {"-w", "-ferror-limit=10",
                                   "-fno-caret-diagnostics"};
  if (!Pch.empty()) // the leading includes, parsed once for several files
    Mine.insert(Mine.end(), {"-include-pch", Pch});
  addArguments(Tool, Opts, Mine);
  std::string Abs = File;
  {
    llvm::SmallString<256> P(File);
    llvm::sys::fs::make_absolute(P);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    Abs = std::string(P);
  }
  ErrorCollector Errors(Abs);
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);
  Factory F(OnTU, Opts.SkipSystemBodies);
  // Parsing and the analysis recurse on expression depth: a generated
  // chain of 20,000 calls needs more than a thread's usual 8 MiB.
  int Status = 1;
  llvm::thread Worker(std::optional<unsigned>(1u << 30),
                      [&] { Status = Tool.run(&F); });
  Worker.join();
  R.CompileErrors = std::move(Errors.Errors);
  R.PreambleRefused = Errors.PreambleRefused;
  R.MissingInput = Errors.MissingInput;
  size_t N = R.CompileErrors.size();
  if (Status == 0 && N == 0) {
    R.Ok = true;
  } else if (N > 0) {
    R.Error = "'" + File + "' does not compile (" + std::to_string(N) +
              " error" + (N == 1 ? "" : "s") +
              ", reported as clang-diagnostic-error); it was analyzed where "
              "clang recovered";
  } else {
    R.Error = "'" + File +
              "' could not be analyzed (no compile command or the compiler "
              "could not start)";
  }
  R.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return R;
}

} // namespace seam
