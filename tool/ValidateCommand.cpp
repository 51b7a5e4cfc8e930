//===- ValidateCommand.cpp - seam validate: estimates against a run -------===//
#include "Command.h"

#include "Driver/CheckCommand.h"
#include "Driver/Validate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {
namespace {

class ValidateCommand : public Command {
public:
  const char *name() const override { return "validate"; }

  CLI::App *define(CLI::App &App, const Invocation &) override {
    CLI::App *Cmd = App.add_subcommand(
        "validate",
        "Run a seam::rt program and check Seam's estimates line by line "
        "against what the runtime measured (docs/runtime.md). Usage: seam "
        "validate [options] <file>... --run <program> [<args>...] [-- "
        "<compiler flags>]");
    defineRunOptions(*Cmd);
    defineFixedOptions(*Cmd);
    Sub = Cmd;
    return Cmd;
  }

  int run(const Invocation &Inv) override {
    Valid.Check.Frontend.HasExtraArgs = Inv.SawDashDash;
    Valid.Check.Frontend.ExtraArgs = Inv.Extra;
    Valid.Check.RulesDir = findRulesDir(installedRulesDir(Inv.Argv0));
    if (!Profile.empty()) {
      Valid.Check.Profile = Profile;
      Valid.Check.ProfileGiven = true;
    }
    return Fixed ? runFixed(Inv) : runProgram(Inv);
  }

private:
  void defineRunOptions(CLI::App &Cmd) {
    Cmd.add_option("files", Valid.Check.Files,
                   "The program's source files to analyze (or regexes "
                   "over the compile database with -p)");
    Cmd.add_option("-p,--build-dir", Valid.Check.Frontend.BuildDir,
                   "Directory holding compile_commands.json");
    Cmd.add_flag(
        "--run",
        "The program to run, then its arguments: everything after "
        "--run up to '--' (required; its stdout goes to stderr; give seam's "
        "options before it)");
    TolOpt = Cmd.add_option(
        "--tolerance", Tolerance,
        "Exit 1 unless every count matches exactly and every device idle "
        "per execution is within this much of the measurement ('25%' or "
        "0.25); exit 3 when none differs but some idle was too noisy to "
        "judge (--repeat). Without it, differences are marked but the exit "
        "status is 0");
    Cmd.add_option("--format", Format,
                   "text (default) or json (docs/cli.md, 'seam "
                   "validate')")
        ->check(CLI::IsMember({"text", "json"}));
    Cmd.add_option("-o,--output", Valid.OutputPath,
                   "Write the comparison to this file instead of stdout");
    Cmd.add_option("--profile", Profile,
                   "Device profile for the estimates. Default: one the "
                   "runtime measures in the program's own process before "
                   "main() (SEAM_RT_CALIBRATE)");
    Cmd.add_option("--trace", Valid.TracePath,
                   "Also write the run's Chrome trace (Perfetto, "
                   "chrome://tracing) to this file; syncs are named "
                   "after their source line");
    Cmd.add_option("--timeline", Valid.TimelinePath,
                   "Also draw an SVG of three syncs of the line whose "
                   "syncs left the device idle longest: device busy and "
                   "idle, host waits, each sync labelled with its line");
    Cmd.add_option("--rules", Valid.Check.RulePacks,
                   "Load an extra rule pack (as for check). Repeatable");
    Cmd.add_option("--calibration-repetitions", Valid.CalibrationReps,
                   "Timed runs per measurement of that profile. "
                   "Default: 300")
        ->check(CLI::Range(11, 1000000));
    Cmd.add_option("--timeout", Valid.TimeoutSeconds,
                   "Stop the program after this many seconds (exit 2); 0: "
                   "never. Default: 600")
        ->check(CLI::Range(0u, 604800u));
    RepeatOpt =
        Cmd.add_option(
               "--repeat", Valid.Repeat,
               "Run the program (and calibrate and predict) this many "
               "times; each line's idle is the median of the runs' "
               "medians, and a line whose runs spread too wide to tell "
               "whether it is within the tolerance is 'noisy', not "
               "judged (with --tolerance, exit 3 when nothing failed but "
               "a line was noisy). Default: 5; with --fixed, each "
               "version's runs (alternately; each line's idle the median "
               "of the runs' totals), default 1")
            ->check(CLI::Range(1u, 100u));
    MaxRepeatOpt =
        Cmd.add_option(
               "--max-repeat", Valid.MaxRepeat,
               "When a line is noisy after --repeat runs, run the program "
               "again, one run at a time, until no line is or this many runs "
               "in all (the median's standard error shrinks with the runs). "
               "Default: three times --repeat; the same as --repeat to run "
               "exactly that many")
            ->check(CLI::Range(1u, 300u));
  }

  void defineFixedOptions(CLI::App &Cmd) {
    Cmd.add_flag(
        "--fixed", Fixed,
        "Prove Seam's fixes by running them: copy the sources twice, apply "
        "the fixes to one copy, build both with --build, run both (without "
        "arguments), and show per line the syncs, graph breaks and device "
        "idle before and after, and whether both printed the same "
        "(docs/fixes.md). Exit 1 when the outputs differ; needs the flags "
        "after --, not -p");
    Cmd.add_option(
        "--build", Build,
        "With --fixed: the shell command that builds the program; {sources} "
        "becomes the copies of the sources, {out} the program to write. The "
        "copies are in a temporary directory: name the originals' include "
        "directories with -I");
    Cmd.add_option("--output-tolerance", OutputTolerance,
                   "With --fixed: how far apart (relative) two numbers "
                   "written with a fraction may be for the outputs to be the "
                   "same. Default: 1e-5")
        ->check(CLI::Range(0.0, 1.0));
    Cmd.add_option(
        "--ignore-output", FixedOpts.IgnoreOutput,
        "With --fixed: a regex; output lines it matches are left out of the "
        "comparison. Default: the lines seam::rt's stats() prints "
        "('^regions=[0-9]+ graph_breaks=[0-9]+ '), which count what the fixes "
        "change");
  }

  int runFixed(const Invocation &Inv) {
    if (Inv.SawRunFlag)
      return usageError("--fixed builds the program with --build; --run "
                        "does not apply",
                        "validate ");
    if (MaxRepeatOpt->count())
      return usageError("--fixed runs each version --repeat times; "
                        "--max-repeat does not apply",
                        "validate ");
    if (Build.empty())
      return usageError("--fixed needs --build, the command that builds "
                        "the program ({sources} and {out} are replaced)",
                        "validate ");
    if (Build.find("{out}") == std::string::npos ||
        Build.find("{sources}") == std::string::npos)
      return usageError("--build '" + Build +
                            "': the command must use {sources} and {out}",
                        "validate ");
    FixedOpts.Check = Valid.Check;
    FixedOpts.BuildCommand = Build;
    FixedOpts.OutputTolerance = OutputTolerance;
    FixedOpts.Json = Format == "json";
    FixedOpts.OutputPath = Valid.OutputPath;
    FixedOpts.TimeoutSeconds = Valid.TimeoutSeconds;
    // Counts are exact in one run; the idle is shown, not judged.
    FixedOpts.Repeat = RepeatOpt->count() ? Valid.Repeat : 1;
    return runValidateFixed(FixedOpts);
  }

  int runProgram(const Invocation &Inv) {
    std::vector<std::string> RunArgv = Inv.RunArgv;
    if (RunArgv.empty())
      return usageError("--run needs the program to run (seam validate "
                        "<file>... --run <program> [<args>...])",
                        "validate ");
    // `seam validate --run PROG main.cpp -- FLAGS`: with no source before
    // --run, the source files among the program's arguments are the sources.
    if (Valid.Check.Files.empty() && Valid.Check.Frontend.BuildDir.empty()) {
      std::vector<std::string> Rest{RunArgv.front()};
      for (size_t I = 1; I < RunArgv.size(); ++I) {
        llvm::StringRef Ext = llvm::sys::path::extension(RunArgv[I]);
        if ((Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".c") &&
            llvm::sys::fs::exists(RunArgv[I]))
          Valid.Check.Files.push_back(RunArgv[I]);
        else
          Rest.push_back(RunArgv[I]);
      }
      RunArgv = Rest;
    }
    Valid.Run = RunArgv;
    // The program's arguments may be anything, but one spelled like an
    // option of this command was most likely meant for it.
    for (size_t I = 1; I < RunArgv.size(); ++I) {
      llvm::StringRef Arg = llvm::StringRef(RunArgv[I]).split('=').first;
      if (Arg.starts_with("--") && Arg != "--run" &&
          Sub->get_option_no_throw(Arg.str()))
        llvm::errs() << "seam: warning: '" << Arg
                     << "' after --run is an argument of '" << RunArgv.front()
                     << "', not an option of seam validate; give seam's "
                        "options before --run\n";
    }
    if (TolOpt->count() > 0) {
      Valid.Tolerance = parseTolerance(Tolerance);
      if (!Valid.Tolerance)
        return usageError("--tolerance '" + Tolerance +
                              "': expected a percentage such as 25% or a "
                              "fraction such as 0.25",
                          "validate ");
    }
    if (Valid.Check.Files.empty() && Valid.Check.Frontend.BuildDir.empty())
      return usageError("validate needs the program's source files",
                        "validate ");
    Valid.Json = Format == "json";
    return runValidate(Valid);
  }

  ValidateOptions Valid;
  ValidateFixedOptions FixedOpts;
  std::string Profile, Tolerance, Format = "text", Build;
  CLI::App *Sub = nullptr;
  CLI::Option *TolOpt = nullptr;
  CLI::Option *RepeatOpt = nullptr, *MaxRepeatOpt = nullptr;
  bool Fixed = false;
  double OutputTolerance = 1e-5;
};

} // namespace

std::unique_ptr<Command> makeValidateCommand() {
  return std::make_unique<ValidateCommand>();
}

} // namespace seam
