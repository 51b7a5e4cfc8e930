//===- Command.h - One `seam` subcommand: its options and how it runs -----===//
//
// Every subcommand is a Command in its own file (CheckCommand.cpp, ...),
// listed once in Commands.cpp; seam.cpp builds the command line from that
// list. A command defines its options on the CLI11 app, and runs once the
// command line is parsed; the work itself is in lib/Driver.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_TOOL_COMMAND_H
#define SEAM_TOOL_COMMAND_H

#include <CLI/CLI.hpp>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace seam {

/// What the command line holds besides what CLI11 parses.
struct Invocation {
  const char *Argv0 = "seam";
  /// Compiler flags: everything after "--", as with clang-tidy.
  std::vector<std::string> Extra;
  bool SawDashDash = false;
  /// `seam validate ... --run PROG [ARGS...]`: the program and its
  /// arguments, up to "--".
  std::vector<std::string> RunArgv;
  bool SawRunFlag = false;
  /// Options given as "--name=" (clang-tidy's empty value).
  std::set<std::string> EmptyValue;
};

class Command {
public:
  virtual ~Command() = default;
  /// The word after `seam`.
  virtual const char *name() const = 0;
  /// Adds the subcommand and its options to \p App; returns the subcommand
  /// whose parsing selects this command.
  virtual CLI::App *define(CLI::App &App, const Invocation &Inv) = 0;
  /// Runs it, once the command line is parsed.
  virtual int run(const Invocation &Inv) = 0;
  /// The command as usage errors name it ("pack check ").
  virtual std::string usageName() const { return std::string(name()) + " "; }
};

/// Every subcommand, in the order usage messages list them.
std::vector<std::unique_ptr<Command>> makeCommands();

// One factory per file.
std::unique_ptr<Command> makeCheckCommand();
std::unique_ptr<Command> makeExplainCommand();
std::unique_ptr<Command> makeCalibrateCommand();
std::unique_ptr<Command> makeValidateCommand();
std::unique_ptr<Command> makeMergeCommand();
std::unique_ptr<Command> makePackCommand();

/// "seam: error: MSG (see 'seam CMD--help')"; returns 2.
int usageError(const std::string &Msg, const std::string &Cmd);

} // namespace seam

#endif
