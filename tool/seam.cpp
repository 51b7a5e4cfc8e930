//===- seam.cpp - Seam's command line: a thin shell over the library ------===//
//
// Splits the arguments (compiler flags after "--", `validate --run`),
// builds the command line from the one list of subcommands (Commands.cpp)
// and runs the one that was parsed.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "Report/Reporters.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <iostream>

using namespace seam;

namespace {

/// clang-tidy's options are spelled with one dash (-checks=...); CLI11
/// wants two for a long name.
const char *const TidyLongOptions[] = {
    "checks",           "warnings-as-errors",
    "header-filter",    "exclude-header-filter",
    "line-filter",      "extra-arg",
    "extra-arg-before", "quiet",
    "config-file",      "dump-config",
    "list-checks",      "fix",
    "export-fixes",     "use-color",
    "system-headers",   "format-style"};

std::string tidySpelling(const std::string &Arg) {
  if (Arg.size() < 3 || Arg[0] != '-' || Arg[1] == '-')
    return Arg;
  llvm::StringRef Name = llvm::StringRef(Arg).drop_front().split('=').first;
  for (const char *Long : TidyLongOptions)
    if (Name == Long)
      return "-" + Arg;
  return Arg;
}

/// The arguments CLI11 parses, with the rest of the command line in \p Inv:
/// everything after "--" is compiler flags, as with clang-tidy, and
/// `seam validate ... --run PROG [ARGS...] [-- FLAGS]` runs PROG with ARGS.
std::vector<std::string> splitArguments(int Argc, char **Argv,
                                        Invocation &Inv) {
  std::vector<std::string> Args;
  bool SawRun = false;
  for (int I = 1; I < Argc; ++I) {
    bool DashDash = std::strcmp(Argv[I], "--") == 0;
    if (SawRun && !Inv.SawDashDash && !DashDash) {
      Inv.RunArgv.push_back(Argv[I]);
      continue;
    }
    if (!Inv.SawDashDash && !SawRun && std::strcmp(Argv[I], "--run") == 0 &&
        !Args.empty() && Args[0] == "validate") {
      SawRun = Inv.SawRunFlag = true;
      continue;
    }
    if (!Inv.SawDashDash && DashDash) {
      SawRun = false;
      Inv.SawDashDash = true;
      continue;
    }
    if (Inv.SawDashDash) {
      Inv.Extra.push_back(Argv[I]);
      continue;
    }
    std::string A = tidySpelling(Argv[I]);
    // CLI11 reads "--header-filter=" as a flag waiting for its value in the
    // next argument; for clang-tidy it is the empty value.
    if (llvm::StringRef(A).starts_with("--") &&
        llvm::StringRef(A).ends_with("=") && A.find('=') == A.size() - 1) {
      Inv.EmptyValue.insert(A.substr(2, A.size() - 3));
      continue;
    }
    Args.push_back(A);
  }
  return Args;
}

/// "'check', 'explain', ... or 'pack'".
std::string commandList(const std::vector<std::unique_ptr<Command>> &Cmds) {
  std::string Out;
  for (size_t I = 0; I < Cmds.size(); ++I)
    Out += std::string(I == 0                 ? ""
                       : I + 1 == Cmds.size() ? " or "
                                              : ", ") +
           "'" + Cmds[I]->name() + "'";
  return Out;
}

int runSeam(int Argc, char **Argv) {
  Invocation Inv;
  Inv.Argv0 = Argv[0];
  std::vector<std::string> Args = splitArguments(Argc, Argv, Inv);

  CLI::App App{"Seam finds graph breaks and host syncs in C++ tensor code "
               "(LibTorch) and says what they cost.",
               "seam"};
  App.set_version_flag("--version", std::string("seam ") + SeamVersion);
  App.require_subcommand(1);
  std::vector<std::unique_ptr<Command>> Cmds = makeCommands();
  if (!Args.empty() && Args[0][0] != '-' &&
      llvm::none_of(Cmds, [&](const std::unique_ptr<Command> &C) {
        return Args[0] == C->name();
      }))
    return usageError("unknown command '" + Args[0] + "' (expected " +
                          commandList(Cmds) + ")",
                      "");
  std::vector<CLI::App *> Apps;
  for (const std::unique_ptr<Command> &C : Cmds)
    Apps.push_back(C->define(App, Inv));

  try {
    std::vector<std::string> Reversed(Args.rbegin(), Args.rend());
    App.parse(Reversed);
  } catch (const CLI::CallForHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForAllHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForVersion &E) {
    return App.exit(E);
  } catch (const CLI::ParseError &E) {
    for (size_t I = 0; I < Cmds.size(); ++I)
      if (Apps[I]->parsed())
        return usageError(E.what(), Cmds[I]->usageName());
    return usageError(E.what(), "");
  }
  for (size_t I = 0; I < Cmds.size(); ++I)
    if (Apps[I]->parsed())
      return Cmds[I]->run(Inv);
  return 2; // require_subcommand(1) makes this unreachable
}

} // namespace

/// A full disk or a closed pipe on standard output is one line and exit 2,
/// never `LLVM ERROR` at exit (exit 1 would read as "results found") nor a
/// silent 0.
int main(int Argc, char **Argv) {
  // LLVM installs its signal handlers, with an alternate signal stack, on the
  // first thread that asks (clang writing a preamble registers its temporary
  // file for removal). Asking here keeps that stack on the main thread: one
  // made on a worker outlives it, and a crash prints a stack trace.
  llvm::sys::PrintStackTraceOnErrorSignal(Argv[0]);
  int Code = runSeam(Argc, Argv);
  std::cout.flush();
  bool CoutFailed = !std::cout.good();
  llvm::outs().flush();
  if (llvm::outs().has_error() || CoutFailed) {
    std::string Why = llvm::outs().has_error() ? llvm::outs().error().message()
                                               : std::string("write error");
    llvm::outs().clear_error();
    llvm::errs() << "seam: error: cannot write to standard output: " << Why
                 << "\n";
    return 2;
  }
  return Code;
}
