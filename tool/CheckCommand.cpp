//===- CheckCommand.cpp - seam check: options, then the driver ------------===//
#include "Command.h"

#include "Driver/CheckCommand.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace seam {
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

class CheckCommand : public Command {
public:
  const char *name() const override { return "check"; }

  CLI::App *define(CLI::App &App, const Invocation &Inv) override {
    Opts.Frontend.HasExtraArgs = Inv.SawDashDash;
    Opts.Frontend.ExtraArgs = Inv.Extra;
    CLI::App *Cmd = App.add_subcommand(
        "check", "Analyze C++ files for graph breaks, host syncs and capture "
                 "syncs. Usage: seam check [options] <file>... [-- <compiler "
                 "flags>]");
    defineInputOptions(*Cmd);
    defineCostOptions(*Cmd);
    defineTidyOptions(*Cmd);
    defineRunOptions(*Cmd);
    defineOutputOptions(*Cmd);
    // A repeatable option takes one value each time, so that a file after
    // it stays a file.
    for (CLI::Option *O : Cmd->get_options())
      if (!O->get_positional())
        O->allow_extra_args(false);
    return Cmd;
  }

  int run(const Invocation &Inv) override;

private:
  void defineInputOptions(CLI::App &Cmd) {
    Cmd.footer(CheckFooter);
    Cmd.add_option("files", Opts.Files,
                   "Source files to analyze, or regexes over the compile "
                   "database's files (with -p; none = all of them)");
    Cmd.add_option("-p,--build-dir", Opts.Frontend.BuildDir,
                   "Directory holding compile_commands.json (as for "
                   "clang-tidy). Without -p or '--' flags, -std=c++17 is "
                   "assumed");
    Cmd.add_option("--format", Format,
                   "Output format: text (clang-style), json (docs/cli.md) "
                   "or sarif (SARIF 2.1.0). Default: text")
        ->check(CLI::IsMember({"text", "json", "sarif"}));
    OutputOpt = Cmd.add_option(
        "-o,--output", Opts.OutputPath,
        "Write results to this file instead of stdout; written to a temporary "
        "file and renamed when complete, never one of the inputs");
    Cmd.add_option("--region", Opts.Analysis.Regions.RegionGlobs,
                   "Treat functions whose qualified name matches this glob "
                   "(e.g. 'Net::forward', 'train_*') as compiled regions. "
                   "Repeatable");
    Cmd.add_option("--rules", Opts.RulePacks,
                   "Load an extra rule pack (JSON, docs/rule-packs.md) to "
                   "teach Seam another tensor API; a bare name loads a "
                   "shipped pack (--rules thrust). Repeatable");
    Cmd.add_flag("!--no-default-rules", Opts.DefaultRules,
                 "Do not load the bundled packs (libtorch.json, "
                 "seamrt.json), nor what they declare: the seam.compiled "
                 "annotation (SEAM_COMPILED), std loop functions, "
                 "'forward'; use only --rules");
    Cmd.add_option("--rules-dir", Opts.RulesDir,
                   "Directory of the bundled packs (default: "
                   "<prefix>/share/seam/rules, or $SEAM_RULES_DIR)");
    Cmd.add_option("--fail-on", FailOn,
                   "Lowest severity that makes the exit status 1: error, "
                   "warning, note or none. Default: warning")
        ->check(CLI::IsMember({"error", "warning", "note", "none"}));
    Cmd.add_flag("--all-syncs", Opts.Analysis.ReportColdSyncs,
                 "Also report host syncs outside hot paths (one-off reads), "
                 "as notes");
    Cmd.add_option("--default-residency", Opts.DefaultResidency,
                   "Where a tensor whose origin is not visible is taken to "
                   "live: device (default) or host, for a CPU-only program "
                   "(then only tensors seen moved to a device can sync). "
                   "Beats DefaultResidency in .seam.yaml")
        ->check(CLI::IsMember({"device", "host"}));
    Cmd.add_option("--color", Color,
                   "Colour text output: auto (only on a terminal), always, "
                   "never. Default: auto")
        ->check(CLI::IsMember({"auto", "always", "never"}));
  }

  void defineCostOptions(CLI::App &Cmd) {
    ProfileOpt = Cmd.add_option(
        "--profile", Opts.Profile,
        "Device profile for cost estimates: a bundled name (h100, "
        "h200, a100, l4, seamrt-local) or a JSON file "
        "(docs/cost-model.md). Default: h100");
    Cmd.add_option("--shape", Opts.Shapes,
                   "Shape hint NAME=DIMS[:DTYPE] for a variable or parameter "
                   "(e.g. x=64x1024:f16), used to size materialized "
                   "intermediates. Repeatable");
    Cmd.add_option("--trips", Opts.Trips,
                   "Trip-count hint NAME=COUNT: a loop whose bound reads "
                   "the variable, parameter or member NAME (i < num_steps, "
                   "i < cfg.epochs(), for (auto &b : *loader)) runs COUNT "
                   "times, for execution counts and totals, where the "
                   "source does not give its value (a constant, a local "
                   "nothing changes, a call's constant argument). "
                   "Repeatable; beats Trips in .seam.yaml");
    Cmd.add_flag("--summary", Opts.Summary,
                 "After the results, print a table of compiled regions and "
                 "hot loops ranked by estimated cost (text format)");
  }

  void defineTidyOptions(CLI::App &Cmd) {
    // clang-tidy's options, with its meaning.
    ChecksOpt = Cmd.add_option(
        "--checks", Checks,
        "Comma-separated check globs, as clang-tidy's: '-*,seam-host-sync'. "
        "Appended to .seam.yaml's Checks; the default is 'seam-*'");
    WAEOpt = Cmd.add_option(
        "--warnings-as-errors", WAE,
        "Check globs whose warnings become errors (exit status 1 even with "
        "--fail-on=none). Appended to .seam.yaml's WarningsAsErrors");
    HeaderOpt = Cmd.add_option(
        "--header-filter", HeaderFilter,
        "Regex: report results in headers only when their path matches. "
        "Default: every non-system header ('.*'); '' reports main files only");
    ExcludeOpt = Cmd.add_option(
        "--exclude-header-filter", ExcludeHeaderFilter,
        "Regex: never report results in headers whose path matches");
    Cmd.add_option("--line-filter", Opts.LineFilterJson,
                   "Report only results on these lines, as clang-tidy's "
                   "JSON: '[{\"name\":\"a.cpp\",\"lines\":[[1,3]]}]'");
    Cmd.add_option("--extra-arg", Opts.Frontend.ArgsAfter,
                   "Add this argument to the end of each compile command. "
                   "Repeatable");
    Cmd.add_option("--extra-arg-before", Opts.Frontend.ArgsBefore,
                   "Add this argument to the start of each compile command "
                   "(e.g. --driver-mode=g++, as CMake passes it). Repeatable");
    Cmd.add_option("--config-file", Opts.ConfigFile,
                   "Read this configuration file for every source file "
                   "instead of the nearest .seam.yaml");
    Cmd.add_flag("--dump-config", Opts.DumpConfig,
                 "Print the effective configuration for the first file (or "
                 "the working directory) as YAML and exit");
    Cmd.add_flag("--list-checks", Opts.ListChecks,
                 "List the checks --checks and .seam.yaml enable, and exit");
  }

  void defineRunOptions(CLI::App &Cmd) {
    Cmd.add_flag("!--keep-system-bodies", Opts.Frontend.SkipSystemBodies,
                 "Parse the bodies of functions in system headers too (by "
                 "default they are skipped: what library functions do is "
                 "in the rule packs). Slower; the results are the same");
    Cmd.add_option("--cache-dir", Opts.CacheDir,
                   "Where results of unchanged files and shared preambles are "
                   "kept between runs. "
                   "Default: $XDG_CACHE_HOME/seam, else ~/.cache/seam");
    Cmd.add_flag("!--no-shared-preamble", Opts.SharePreambles,
                 "Do not precompile the headers that several files include "
                 "before their own code (parsed once per run by default); "
                 "same results");
    Cmd.add_flag("!--no-cache", Opts.Cache,
                 "Neither read nor write the cache (results and shared "
                 "preambles)");
    Cmd.add_option("--cache-max-size", Opts.CacheMaxMB,
                   "Cache size cap in MiB; least recently used entries go "
                   "first. Default: 1024")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 20));
    Cmd.add_flag("--quiet", Opts.Quiet,
                 "No progress lines and no notes about guessed flags on "
                 "stderr");
    Cmd.add_flag_callback(
        "--progress", [this] { Opts.Progress = true; },
        "Print a progress line per file on stderr (time, 'cached', the "
        "shared preamble used) even when stderr is not a terminal, as in CI "
        "logs");
    Cmd.add_option("-j,--jobs", Opts.Jobs,
                   "Translation units analyzed in parallel. Default: the "
                   "number of cores. Output is the same whatever -j")
        ->check(CLI::Range(1u, 1024u));
    Cmd.add_option("--shard", Opts.Shard,
                   "Analyze only shard I of N (I/N, 1-based) of the files, "
                   "split by a stable hash of their paths; join the SARIF "
                   "of the shards with 'seam merge'");
    CLI::Option *PerTU = Cmd.add_flag(
        "--per-tu", Opts.PerTU,
        "Analyze each translation unit alone, as the clang-tidy "
        "plugin does: a helper is hot only if its own file makes it "
        "so (no summaries, no project pass; docs/whole-project.md)");
    Cmd.add_option("--summaries-out", Opts.SummariesOut,
                   "Also write every analyzed file's summary (what it "
                   "defines, calls and stores, and its syncs that another "
                   "file's loop could make hot) to this file, for 'seam "
                   "merge --summaries': with --shard, each shard writes its "
                   "own and the merge adds the results hot only through "
                   "another shard's file (docs/whole-project.md)")
        ->excludes(PerTU);
    Cmd.add_option("--baseline", Opts.BaselinePath,
                   "Report only results that this baseline file (from "
                   "--write-baseline) does not list; see docs/ci.md");
    Cmd.add_option("--write-baseline", Opts.WriteBaselinePath,
                   "Record this run's results as a baseline file (exit "
                   "status 0 unless an input failed)");
  }

  void defineOutputOptions(CLI::App &Cmd) {
    Cmd.add_flag("--fix", Opts.Fix,
                 "Apply the results' fixes in place, as clang-tidy -fix does "
                 "(never to a file with compile errors; suggestions are "
                 "never applied); see docs/fixes.md");
    Cmd.add_option("--export-fixes", Opts.ExportFixesPath,
                   "Write the results and their fixes as clang-tidy's YAML, "
                   "for clang-apply-replacements");
    Cmd.add_option("--format-style", Opts.FormatStyle,
                   "With --fix: clang-format the fixed lines in this style "
                   "(file, LLVM, Google, {key: value, ...})");
    Cmd.add_option("--sarif-category", Opts.SarifCategory,
                   "SARIF run.automationDetails.id, as GitHub code "
                   "scanning's upload-sarif 'category'");
    Cmd.add_option("--sarif-root", Opts.SarifRoot,
                   "Directory that SARIF URIs are relative to (%SRCROOT%) "
                   "and baselines and shards use. Default: the git top "
                   "level above the working directory");
  }

  CheckOptions Opts;
  std::string Format = "text", FailOn = "warning", Color = "auto";
  std::string Checks, WAE, HeaderFilter, ExcludeHeaderFilter;
  CLI::Option *OutputOpt = nullptr, *ProfileOpt = nullptr;
  CLI::Option *ChecksOpt = nullptr, *WAEOpt = nullptr, *HeaderOpt = nullptr,
              *ExcludeOpt = nullptr;
};

int CheckCommand::run(const Invocation &Inv) {
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
    return O->count() > 0 || Inv.EmptyValue.count(Name) > 0;
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
    Opts.RulesDir = findRulesDir(installedRulesDir(Inv.Argv0));
  // `--rules thrust` names a shipped pack: <rules dir>/thrust.json.
  for (std::string &Pack : Opts.RulePacks)
    Pack = packPath(Pack, Opts.RulesDir);
  return runCheck(Opts);
}

} // namespace

std::unique_ptr<Command> makeCheckCommand() {
  return std::make_unique<CheckCommand>();
}

} // namespace seam
