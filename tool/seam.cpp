//===- seam.cpp - Seam's command line: a thin shell over the library ------===//
#include "Driver/Calibrate.h"
#include "Driver/CheckCommand.h"
#include "Driver/Merge.h"
#include "Driver/PackCheck.h"
#include "Driver/Validate.h"
#include "Report/Reporters.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include <CLI/CLI.hpp>
#include <cstring>
#include <iostream>
#include <set>

using namespace seam;

namespace {

const char *const CheckFooter = R"(
Exit status: 0 no results at or above --fail-on, 1 results (or a warning
made an error by --warnings-as-errors), 2 a usage, configuration or input
error (missing file, file that does not compile, malformed rule pack,
profile, .seam.yaml, baseline or compile database).

Files: with -p and no files, every file of the compile database, each once.
A name that is not a file is a regex searched in the database's file names,
as run-clang-tidy takes them. Options also take clang-tidy's single-dash
spelling (-checks=..., -header-filter=...).

Configuration: the nearest .seam.yaml above each file (Checks,
WarningsAsErrors, HeaderFilterRegex, Regions, Shapes, Trips, Profile, Rules,
DefaultResidency, InheritParentConfig), as clang-tidy reads .clang-tidy;
see docs/cli.md.

Examples:
  seam check -p build                      # the whole database, -j cores
  seam check -p build 'src/.*' --checks=-*,seam-host-sync
  seam check model.cpp -- -std=c++17 -isystem /usr/include/torch/csrc/api/include
  seam check -p build --format sarif -o seam.sarif --sarif-category seam
  seam check -p build --write-baseline seam-baseline.json   # adopt
  seam check -p build --baseline seam-baseline.json         # only new results
  cmake -DCMAKE_CXX_CLANG_TIDY="seam;check;--fail-on=none" ...)";

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

std::string knownRules() {
  std::string Out;
  for (const RuleInfo &R : ruleCatalog())
    Out += (Out.empty() ? "" : ", ") + R.Id;
  return Out;
}

int usageError(const std::string &Msg, const std::string &Cmd) {
  std::cerr << "seam: error: " << Msg << " (see 'seam " << Cmd << "--help')\n";
  return 2;
}

} // namespace

static int runSeam(int Argc, char **Argv);

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

static int runSeam(int Argc, char **Argv) {
  // Everything after "--" is compiler flags, as with clang-tidy.
  std::vector<std::string> Args, Extra;
  std::set<std::string> EmptyValue; // options given as "--name="
  bool SawDashDash = false;
  // `seam validate ... --run PROG [ARGS...] [-- FLAGS]`: the program and its
  // arguments run up to "--".
  std::vector<std::string> RunArgv;
  bool SawRun = false, SawRunFlag = false;
  for (int I = 1; I < Argc; ++I) {
    if (SawRun && !SawDashDash && std::strcmp(Argv[I], "--") != 0) {
      RunArgv.push_back(Argv[I]);
      continue;
    }
    if (!SawDashDash && !SawRun && std::strcmp(Argv[I], "--run") == 0 &&
        !Args.empty() && Args[0] == "validate") {
      SawRun = SawRunFlag = true;
      continue;
    }
    if (!SawDashDash && std::strcmp(Argv[I], "--") == 0)
      SawRun = false;
    if (!SawDashDash && std::strcmp(Argv[I], "--") == 0) {
      SawDashDash = true;
      continue;
    }
    if (SawDashDash) {
      Extra.push_back(Argv[I]);
      continue;
    }
    std::string A = tidySpelling(Argv[I]);
    // CLI11 reads "--header-filter=" as a flag waiting for its value in the
    // next argument; for clang-tidy it is the empty value.
    if (llvm::StringRef(A).starts_with("--") &&
        llvm::StringRef(A).ends_with("=") && A.find('=') == A.size() - 1) {
      EmptyValue.insert(A.substr(2, A.size() - 3));
      continue;
    }
    Args.push_back(A);
  }

  CLI::App App{"Seam finds graph breaks and host syncs in C++ tensor code "
               "(LibTorch) and says what they cost.",
               "seam"};
  App.set_version_flag("--version", std::string("seam ") + SeamVersion);
  App.require_subcommand(1);

  CheckOptions Opts;
  Opts.Frontend.HasExtraArgs = SawDashDash;
  Opts.Frontend.ExtraArgs = Extra;
  std::string Format = "text", FailOn = "warning", Color = "auto";
  CLI::App *Check = App.add_subcommand(
      "check", "Analyze C++ files for graph breaks, host syncs and capture "
               "syncs. Usage: seam check [options] <file>... [-- <compiler "
               "flags>]");
  Check->footer(CheckFooter);
  Check->add_option("files", Opts.Files,
                    "Source files to analyze, or regexes over the compile "
                    "database's files (with -p; none = all of them)");
  Check->add_option("-p,--build-dir", Opts.Frontend.BuildDir,
                    "Directory holding compile_commands.json (as for "
                    "clang-tidy). Without -p or '--' flags, -std=c++17 is "
                    "assumed");
  Check
      ->add_option("--format", Format,
                   "Output format: text (clang-style), json (docs/cli.md) "
                   "or sarif (SARIF 2.1.0). Default: text")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  CLI::Option *OutputOpt = Check->add_option(
      "-o,--output", Opts.OutputPath,
      "Write results to this file instead of stdout; written to a temporary "
      "file and renamed when complete, never one of the inputs");
  Check->add_option("--region", Opts.Analysis.Regions.RegionGlobs,
                    "Treat functions whose qualified name matches this glob "
                    "(e.g. 'Net::forward', 'train_*') as compiled regions. "
                    "Repeatable");
  Check->add_option("--rules", Opts.RulePacks,
                    "Load an extra rule pack (JSON, docs/rule-packs.md) to "
                    "teach Seam another tensor API; a bare name loads a "
                    "shipped pack (--rules thrust). Repeatable");
  Check->add_flag("!--no-default-rules", Opts.DefaultRules,
                  "Do not load the bundled packs (libtorch.json, "
                  "seamrt.json), nor what they declare: the seam.compiled "
                  "annotation (SEAM_COMPILED), std loop functions, "
                  "'forward'; use only --rules");
  Check->add_option("--rules-dir", Opts.RulesDir,
                    "Directory of the bundled packs (default: "
                    "<prefix>/share/seam/rules, or $SEAM_RULES_DIR)");
  Check
      ->add_option("--fail-on", FailOn,
                   "Lowest severity that makes the exit status 1: error, "
                   "warning, note or none. Default: warning")
      ->check(CLI::IsMember({"error", "warning", "note", "none"}));
  Check->add_flag("--all-syncs", Opts.Analysis.ReportColdSyncs,
                  "Also report host syncs outside hot paths (one-off reads), "
                  "as notes");
  Check
      ->add_option("--default-residency", Opts.DefaultResidency,
                   "Where a tensor whose origin is not visible is taken to "
                   "live: device (default) or host, for a CPU-only program "
                   "(then only tensors seen moved to a device can sync). "
                   "Beats DefaultResidency in .seam.yaml")
      ->check(CLI::IsMember({"device", "host"}));
  Check
      ->add_option("--color", Color,
                   "Colour text output: auto (only on a terminal), always, "
                   "never. Default: auto")
      ->check(CLI::IsMember({"auto", "always", "never"}));

  CLI::Option *ProfileOpt = Check->add_option(
      "--profile", Opts.Profile,
      "Device profile for cost estimates: a bundled name (h100, "
      "h200, a100, l4, seamrt-local) or a JSON file "
      "(docs/cost-model.md). Default: h100");
  Check->add_option("--shape", Opts.Shapes,
                    "Shape hint NAME=DIMS[:DTYPE] for a variable or parameter "
                    "(e.g. x=64x1024:f16), used to size materialized "
                    "intermediates. Repeatable");
  Check->add_option("--trips", Opts.Trips,
                    "Trip-count hint NAME=COUNT: a loop whose bound reads "
                    "the variable, parameter or member NAME (i < num_steps, "
                    "i < cfg.epochs(), for (auto &b : *loader)) runs COUNT "
                    "times, for execution counts and totals. Repeatable; "
                    "beats Trips in .seam.yaml");
  Check->add_flag("--summary", Opts.Summary,
                  "After the results, print a table of compiled regions and "
                  "hot loops ranked by estimated cost (text format)");

  // clang-tidy's options, with its meaning.
  std::string Checks, WAE, HeaderFilter, ExcludeHeaderFilter;
  CLI::Option *ChecksOpt = Check->add_option(
      "--checks", Checks,
      "Comma-separated check globs, as clang-tidy's: '-*,seam-host-sync'. "
      "Appended to .seam.yaml's Checks; the default is 'seam-*'");
  CLI::Option *WAEOpt = Check->add_option(
      "--warnings-as-errors", WAE,
      "Check globs whose warnings become errors (exit status 1 even with "
      "--fail-on=none). Appended to .seam.yaml's WarningsAsErrors");
  CLI::Option *HeaderOpt = Check->add_option(
      "--header-filter", HeaderFilter,
      "Regex: report results in headers only when their path matches. "
      "Default: every non-system header ('.*'); '' reports main files only");
  CLI::Option *ExcludeOpt = Check->add_option(
      "--exclude-header-filter", ExcludeHeaderFilter,
      "Regex: never report results in headers whose path matches");
  Check->add_option("--line-filter", Opts.LineFilterJson,
                    "Report only results on these lines, as clang-tidy's "
                    "JSON: '[{\"name\":\"a.cpp\",\"lines\":[[1,3]]}]'");
  Check->add_option("--extra-arg", Opts.Frontend.ArgsAfter,
                    "Add this argument to the end of each compile command. "
                    "Repeatable");
  Check->add_option("--extra-arg-before", Opts.Frontend.ArgsBefore,
                    "Add this argument to the start of each compile command "
                    "(e.g. --driver-mode=g++, as CMake passes it). Repeatable");
  Check->add_option("--config-file", Opts.ConfigFile,
                    "Read this configuration file for every source file "
                    "instead of the nearest .seam.yaml");
  Check->add_flag("--dump-config", Opts.DumpConfig,
                  "Print the effective configuration for the first file (or "
                  "the working directory) as YAML and exit");
  Check->add_flag("--list-checks", Opts.ListChecks,
                  "List the checks --checks and .seam.yaml enable, and exit");
  Check->add_flag("!--keep-system-bodies", Opts.Frontend.SkipSystemBodies,
                  "Parse the bodies of functions in system headers too (by "
                  "default they are skipped: what library functions do is "
                  "in the rule packs). Slower; the results are the same");
  Check->add_option("--cache-dir", Opts.CacheDir,
                    "Where results of unchanged files and shared preambles are "
                    "kept between runs. "
                    "Default: $XDG_CACHE_HOME/seam, else ~/.cache/seam");
  Check->add_flag("!--no-shared-preamble", Opts.SharePreambles,
                  "Do not precompile the headers that several files include "
                  "before their own code (parsed once per run by default); "
                  "same results");
  Check->add_flag("!--no-cache", Opts.Cache,
                  "Neither read nor write the cache (results and shared "
                  "preambles)");
  Check
      ->add_option("--cache-max-size", Opts.CacheMaxMB,
                   "Cache size cap in MiB; least recently used entries go "
                   "first. Default: 1024")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 20));
  Check->add_flag("--quiet", Opts.Quiet,
                  "No progress lines and no notes about guessed flags on "
                  "stderr");
  Check->add_flag_callback(
      "--progress", [&Opts] { Opts.Progress = true; },
      "Print a progress line per file on stderr (time, 'cached', the "
      "shared preamble used) even when stderr is not a terminal, as in CI "
      "logs");
  Check
      ->add_option("-j,--jobs", Opts.Jobs,
                   "Translation units analyzed in parallel. Default: the "
                   "number of cores. Output is the same whatever -j")
      ->check(CLI::Range(1u, 1024u));
  Check->add_option("--shard", Opts.Shard,
                    "Analyze only shard I of N (I/N, 1-based) of the files, "
                    "split by a stable hash of their paths; join the SARIF "
                    "of the shards with 'seam merge'");
  Check->add_option("--baseline", Opts.BaselinePath,
                    "Report only results that this baseline file (from "
                    "--write-baseline) does not list; see docs/ci.md");
  Check->add_option("--write-baseline", Opts.WriteBaselinePath,
                    "Record this run's results as a baseline file (exit "
                    "status 0 unless an input failed)");
  Check->add_flag("--fix", Opts.Fix,
                  "Apply the results' fixes in place, as clang-tidy -fix does "
                  "(never to a file with compile errors; suggestions are "
                  "never applied); see docs/fixes.md");
  Check->add_option("--export-fixes", Opts.ExportFixesPath,
                    "Write the results and their fixes as clang-tidy's YAML, "
                    "for clang-apply-replacements");
  Check->add_option("--format-style", Opts.FormatStyle,
                    "With --fix: clang-format the fixed lines in this style "
                    "(file, LLVM, Google, {key: value, ...})");
  Check->add_option("--sarif-category", Opts.SarifCategory,
                    "SARIF run.automationDetails.id, as GitHub code "
                    "scanning's upload-sarif 'category'");
  Check->add_option("--sarif-root", Opts.SarifRoot,
                    "Directory that SARIF URIs are relative to (%SRCROOT%) "
                    "and baselines and shards use. Default: the git top "
                    "level above the working directory");

  // A repeatable option takes one value each time, so that a file after it
  // stays a file.
  for (CLI::Option *O : Check->get_options())
    if (!O->get_positional())
      O->allow_extra_args(false);

  std::string RuleId;
  CLI::App *Explain = App.add_subcommand(
      "explain", "Describe a rule: what it finds, why it costs, how to fix");
  Explain->add_option("rule", RuleId, "Rule id, e.g. seam-host-sync")
      ->required();

  MergeOptions Merge;
  CLI::App *MergeCmd = App.add_subcommand(
      "merge", "Join the SARIF files of 'seam check --shard' runs into one, "
               "dropping results that several shards found in a header");
  MergeCmd->add_option("files", Merge.Inputs, "SARIF files to join")
      ->required();
  MergeCmd->add_option("-o,--output", Merge.OutputPath,
                       "Write the joined SARIF here instead of stdout");
  MergeCmd->add_option("--sarif-category", Merge.SarifCategory,
                       "Set run.automationDetails.id of the joined run");

  PackCheckOptions PackOpts;
  PackOpts.Frontend.HasExtraArgs = SawDashDash;
  PackOpts.Frontend.ExtraArgs = Extra;
  bool PackStrict = false, PackNoDefaults = false;
  std::string PackFormat = "text";
  CLI::App *PackCmd =
      App.add_subcommand("pack", "Work with rule packs (docs/rule-packs.md)");
  PackCmd->require_subcommand(1);
  CLI::App *PackCheck = PackCmd->add_subcommand(
      "check", "Validate a rule pack; with --against, list the entries that "
               "never matched anything in the given code");
  PackCheck->add_option("pack", PackOpts.Pack, "The pack (JSON) to check")
      ->required();
  PackCheck->add_option(
      "--against", PackOpts.Against,
      "Source files to match the pack against (compile flags after '--', "
      "or -p); repeatable");
  PackCheck->add_option("-p,--build-path", PackOpts.Frontend.BuildDir,
                        "Build directory with compile_commands.json");
  PackCheck->add_flag("--strict", PackStrict,
                      "Exit 1 when an entry never matched");
  PackCheck->add_flag("--no-default-rules", PackNoDefaults,
                      "Do not load the default packs beside it (their tensor "
                      "types then do not count as 'tensor')");
  PackCheck->add_option("--format", PackFormat, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  PackCheck->add_option("--rules-dir", PackOpts.RulesDir,
                        "Where the default packs live");

  if (!Args.empty() && Args[0][0] != '-' && Args[0] != "check" &&
      Args[0] != "explain" && Args[0] != "calibrate" && Args[0] != "validate" &&
      Args[0] != "merge" && Args[0] != "pack")
    return usageError("unknown command '" + Args[0] +
                          "' (expected 'check', 'explain', 'calibrate', "
                          "'validate', 'merge' or 'pack')",
                      "");
  CalibrateOptions Calib;
  CLI::App *Calibrate = App.add_subcommand(
      "calibrate", "Measure the cost model's parameters on seam::rt's "
                   "virtual accelerator and write a device profile "
                   "(docs/cost-model.md)");
  Calibrate->add_option("-o,--output", Calib.OutputPath,
                        "Write the profile JSON to this file instead of "
                        "stdout");
  Calibrate
      ->add_option("--repetitions", Calib.Repetitions,
                   "Timed runs per measurement (median reported). "
                   "Default: 2000")
      ->check(CLI::Range(11, 1000000));

  ValidateOptions Valid;
  Valid.Check.Frontend = Opts.Frontend;
  std::string ValidProfile, ValidTolerance, ValidFormat = "text";
  CLI::App *Validate = App.add_subcommand(
      "validate",
      "Run a seam::rt program and check Seam's estimates line by line "
      "against what the runtime measured (docs/runtime.md). Usage: seam "
      "validate [options] <file>... --run <program> [<args>...] [-- "
      "<compiler flags>]");
  Validate->add_option("files", Valid.Check.Files,
                       "The program's source files to analyze (or regexes "
                       "over the compile database with -p)");
  Validate->add_option("-p,--build-dir", Valid.Check.Frontend.BuildDir,
                       "Directory holding compile_commands.json");
  Validate->add_flag("--run",
                     "The program to run, then its arguments: everything after "
                     "--run up to '--' (required; its stdout goes to stderr)");
  CLI::Option *ValidTolOpt = Validate->add_option(
      "--tolerance", ValidTolerance,
      "Exit 1 unless every count matches exactly and every device idle "
      "per execution is within this much of the measurement ('25%' or "
      "0.25). Without it, differences are marked but the exit status is 0");
  Validate
      ->add_option("--format", ValidFormat,
                   "text (default) or json (docs/cli.md, 'seam "
                   "validate')")
      ->check(CLI::IsMember({"text", "json"}));
  Validate->add_option("-o,--output", Valid.OutputPath,
                       "Write the comparison to this file instead of stdout");
  Validate->add_option("--profile", ValidProfile,
                       "Device profile for the estimates. Default: one the "
                       "runtime measures in the program's own process before "
                       "main() (SEAM_RT_CALIBRATE)");
  Validate->add_option("--trace", Valid.TracePath,
                       "Also write the run's Chrome trace (Perfetto, "
                       "chrome://tracing) to this file; syncs are named "
                       "after their source line");
  Validate->add_option("--timeline", Valid.TimelinePath,
                       "Also draw an SVG of three syncs of the line whose "
                       "syncs left the device idle longest: device busy and "
                       "idle, host waits, each sync labelled with its line");
  Validate->add_option("--rules", Valid.Check.RulePacks,
                       "Load an extra rule pack (as for check). Repeatable");
  Validate
      ->add_option("--calibration-repetitions", Valid.CalibrationReps,
                   "Timed runs per measurement of that profile. "
                   "Default: 300")
      ->check(CLI::Range(11, 1000000));
  Validate
      ->add_option("--timeout", Valid.TimeoutSeconds,
                   "Stop the program after this many seconds (exit 2); 0: "
                   "never. Default: 600")
      ->check(CLI::Range(0u, 604800u));
  bool ValidFixed = false;
  std::string ValidBuild;
  double ValidOutputTol = 1e-5;
  Validate->add_flag(
      "--fixed", ValidFixed,
      "Prove Seam's fixes by running them: copy the sources twice, apply "
      "the fixes to one copy, build both with --build, run both (without "
      "arguments), and show per line the syncs, graph breaks and device "
      "idle before and after, and whether both printed the same "
      "(docs/fixes.md). Exit 1 when the outputs differ; needs the flags "
      "after --, not -p");
  Validate->add_option(
      "--build", ValidBuild,
      "With --fixed: the shell command that builds the program; {sources} "
      "becomes the copies of the sources, {out} the program to write. The "
      "copies are in a temporary directory: name the originals' include "
      "directories with -I");
  Validate
      ->add_option("--output-tolerance", ValidOutputTol,
                   "With --fixed: how far apart (relative) two numbers "
                   "written with a fraction may be for the outputs to be the "
                   "same. Default: 1e-5")
      ->check(CLI::Range(0.0, 1.0));
  ValidateFixedOptions Fixed;
  Validate->add_option(
      "--ignore-output", Fixed.IgnoreOutput,
      "With --fixed: a regex; output lines it matches are left out of the "
      "comparison. Default: the lines seam::rt's stats() prints "
      "('^regions=[0-9]+ graph_breaks=[0-9]+ '), which count what the fixes "
      "change");

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
    std::string Cmd = Check->parsed()       ? "check "
                      : Explain->parsed()   ? "explain "
                      : Calibrate->parsed() ? "calibrate "
                      : Validate->parsed()  ? "validate "
                      : MergeCmd->parsed()  ? "merge "
                      : PackCheck->parsed() ? "pack check "
                                            : "";
    return usageError(E.what(), Cmd);
  }

  if (PackCheck->parsed()) {
    PackOpts.DefaultRules = !PackNoDefaults;
    PackOpts.Json = PackFormat == "json";
    if (PackOpts.RulesDir.empty())
      PackOpts.RulesDir = findRulesDir(Argv[0]);
    if (!PackOpts.Against.empty() && PackOpts.Frontend.BuildDir.empty() &&
        !SawDashDash)
      return usageError("--against needs compile flags after '--' or a "
                        "build directory with -p",
                        "pack check ");
    return runPackCheck(PackOpts, PackStrict);
  }
  if (Calibrate->parsed())
    return runCalibrate(Calib);
  if (MergeCmd->parsed())
    return runMerge(Merge);
  if (Validate->parsed() && ValidFixed) {
    if (SawRunFlag)
      return usageError("--fixed builds the program with --build; --run "
                        "does not apply",
                        "validate ");
    if (ValidBuild.empty())
      return usageError("--fixed needs --build, the command that builds "
                        "the program ({sources} and {out} are replaced)",
                        "validate ");
    if (ValidBuild.find("{out}") == std::string::npos ||
        ValidBuild.find("{sources}") == std::string::npos)
      return usageError("--build '" + ValidBuild +
                            "': the command must use {sources} and {out}",
                        "validate ");
    Fixed.Check = Valid.Check;
    Fixed.Check.Frontend.HasExtraArgs = SawDashDash;
    Fixed.Check.Frontend.ExtraArgs = Extra;
    Fixed.Check.RulesDir = findRulesDir(Argv[0]);
    if (!ValidProfile.empty()) {
      Fixed.Check.Profile = ValidProfile;
      Fixed.Check.ProfileGiven = true;
    }
    Fixed.BuildCommand = ValidBuild;
    Fixed.OutputTolerance = ValidOutputTol;
    Fixed.Json = ValidFormat == "json";
    Fixed.OutputPath = Valid.OutputPath;
    Fixed.TimeoutSeconds = Valid.TimeoutSeconds;
    return runValidateFixed(Fixed);
  }
  if (Validate->parsed()) {
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
    if (!ValidProfile.empty()) {
      Valid.Check.Profile = ValidProfile;
      Valid.Check.ProfileGiven = true;
    }
    if (ValidTolOpt->count() > 0) {
      Valid.Tolerance = parseTolerance(ValidTolerance);
      if (!Valid.Tolerance)
        return usageError("--tolerance '" + ValidTolerance +
                              "': expected a percentage such as 25% or a "
                              "fraction such as 0.25",
                          "validate ");
    }
    if (Valid.Check.Files.empty() && Valid.Check.Frontend.BuildDir.empty())
      return usageError("validate needs the program's source files",
                        "validate ");
    Valid.Json = ValidFormat == "json";
    Valid.Check.Frontend.HasExtraArgs = SawDashDash;
    Valid.Check.Frontend.ExtraArgs = Extra;
    Valid.Check.RulesDir = findRulesDir(Argv[0]);
    return runValidate(Valid);
  }
  if (Explain->parsed()) {
    const RuleInfo *R = findRule(RuleId);
    if (!R)
      return usageError("unknown rule '" + RuleId +
                            "' (known: " + knownRules() + ")",
                        "explain ");
    std::cout << R->Id << " (default: " << levelName(R->DefaultLevel) << ")\n\n"
              << R->ShortDescription << "\n\n"
              << R->FullDescription << "\n\nHow to fix: " << R->Help << "\n";
    if (!R->Example.empty())
      std::cout << "\n" << R->Example << "\n";
    std::cout << "\nDocs: docs/rules/" << R->Id << ".md (" << ruleDocUri(R->Id)
              << ")\n";
    return 0;
  }

  Opts.Format = Format == "json"    ? OutputFormat::Json
                : Format == "sarif" ? OutputFormat::Sarif
                                    : OutputFormat::Text;
  Opts.FailOn = FailOn == "none"    ? std::nullopt
                : FailOn == "error" ? std::optional(Level::Error)
                : FailOn == "note"  ? std::optional(Level::Note)
                                    : std::optional(Level::Warning);
  Opts.Color = Color == "always"  ? CheckOptions::ColorMode::Always
               : Color == "never" ? CheckOptions::ColorMode::Never
                                  : CheckOptions::ColorMode::Auto;
  if (OutputOpt->count() > 0 && Opts.OutputPath.empty())
    return usageError("-o needs a file name (leave it out to write to "
                      "standard output)",
                      "check ");
  auto Given = [&](CLI::Option *O, const std::string &Name) {
    return O->count() > 0 || EmptyValue.count(Name) > 0;
  };
  if (Given(ChecksOpt, "checks"))
    Opts.Checks = Checks;
  if (Given(WAEOpt, "warnings-as-errors"))
    Opts.WarningsAsErrors = WAE;
  if (Given(HeaderOpt, "header-filter"))
    Opts.HeaderFilter = HeaderFilter;
  if (Given(ExcludeOpt, "exclude-header-filter"))
    Opts.ExcludeHeaderFilter = ExcludeHeaderFilter;
  Opts.ProfileGiven = ProfileOpt->count() > 0;
  if (!Opts.DefaultRules && Opts.RulePacks.empty())
    return usageError("--no-default-rules leaves no rule pack: give one with "
                      "--rules",
                      "check ");
  if (Opts.RulesDir.empty())
    Opts.RulesDir = findRulesDir(Argv[0]);
  // `--rules thrust` names a shipped pack: <rules dir>/thrust.json.
  for (std::string &Pack : Opts.RulePacks)
    if (Pack.find('/') == std::string::npos &&
        !llvm::StringRef(Pack).ends_with(".json") &&
        !llvm::sys::fs::exists(Pack)) {
      llvm::SmallString<256> Shipped(Opts.RulesDir);
      llvm::sys::path::append(Shipped, Pack + ".json");
      if (llvm::sys::fs::exists(Shipped))
        Pack = std::string(Shipped);
    }
  return runCheck(Opts);
}
