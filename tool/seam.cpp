//===- seam.cpp - Seam's command line: a thin shell over the library ------===//
#include "Driver/Calibrate.h"
#include "Driver/CheckCommand.h"
#include "Driver/Validate.h"
#include "Report/Reporters.h"

#include <CLI/CLI.hpp>
#include <cstring>
#include <iostream>

using namespace seam;

namespace {

const char *const CheckFooter = R"(
Exit status: 0 no results at or above --fail-on, 1 results, 2 a usage,
configuration or input error (missing file, file that does not compile,
malformed rule pack, profile, .seam.yaml or compile database).

Configuration: the nearest .seam.yaml above each file (keys 'regions' and
'shapes') adds to --region and --shape; see docs/cli.md.

Examples:
  seam check -p build src/train.cpp
  seam check model.cpp -- -std=c++17 -isystem /usr/include/torch/csrc/api/include
  seam check --format sarif -o seam.sarif -p build $(git ls-files '*.cpp'))";

int usageError(const std::string &Msg, const std::string &Cmd) {
  std::cerr << "seam: error: " << Msg << " (see 'seam " << Cmd << "--help')\n";
  return 2;
}

} // namespace

int main(int Argc, char **Argv) {
  // Everything after "--" is compiler flags, as with clang-tidy.
  std::vector<std::string> Args, Extra;
  bool SawDashDash = false;
  for (int I = 1; I < Argc; ++I) {
    if (!SawDashDash && std::strcmp(Argv[I], "--") == 0) {
      SawDashDash = true;
      continue;
    }
    (SawDashDash ? Extra : Args).push_back(Argv[I]);
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
  Check->add_option("files", Opts.Files, "Source files to analyze")->required();
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
                    "teach Seam another tensor API. Repeatable");
  Check->add_flag("!--no-default-rules", Opts.DefaultRules,
                  "Do not load the bundled packs (libtorch.json, "
                  "seamrt.json); use only --rules");
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
      ->add_option("--color", Color,
                   "Colour text output: auto (only on a terminal), always, "
                   "never. Default: auto")
      ->check(CLI::IsMember({"auto", "always", "never"}));

  Check->add_option("--profile", Opts.Profile,
                    "Device profile for cost estimates: a bundled name (h100, "
                    "h200, a100, l4, seamrt-local) or a JSON file "
                    "(docs/cost-model.md). Default: h100");
  Check->add_option("--shape", Opts.Shapes,
                    "Shape hint NAME=DIMS[:DTYPE] for a variable or parameter "
                    "(e.g. x=64x1024:f16), used to size materialized "
                    "intermediates. Repeatable");
  Check->add_flag("--summary", Opts.Summary,
                  "After the results, print a table of compiled regions and "
                  "hot loops ranked by estimated cost (text format)");

  std::string RuleId;
  CLI::App *Explain = App.add_subcommand(
      "explain", "Describe a rule: what it finds, why it costs, how to fix");
  Explain->add_option("rule", RuleId, "Rule id, e.g. seam-host-sync")
      ->required();

  if (!Args.empty() && Args[0][0] != '-' && Args[0] != "check" &&
      Args[0] != "explain" && Args[0] != "calibrate" && Args[0] != "validate")
    return usageError(
        "unknown command '" + Args[0] +
            "' (expected 'check', 'explain', 'calibrate' or 'validate')",
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
  std::string ValidSource, ValidProfile = "seamrt-local";
  CLI::App *Validate = App.add_subcommand(
      "validate", "Run a seam::rt program and compare what Seam predicts "
                  "per compiled call (breaks, regions, syncs, device idle) "
                  "with the runtime's stats() counters");
  Validate
      ->add_option("source", ValidSource,
                   "The program's source file to analyze")
      ->required();
  Validate
      ->add_option("--run", Valid.Program,
                   "The built program; it must print seam::rt::stats() "
                   "as its last stats line")
      ->required();
  Validate
      ->add_option("--calls", Valid.Calls,
                   "How many compiled calls the program makes while its "
                   "stats are counted")
      ->required();
  Validate->add_option("--profile", ValidProfile,
                       "Device profile for the estimates. Default: "
                       "seamrt-local");

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
                                            : "";
    return usageError(E.what(), Cmd);
  }

  if (Calibrate->parsed())
    return runCalibrate(Calib);
  if (Validate->parsed()) {
    Valid.Check.Files = {ValidSource};
    Valid.Check.Profile = ValidProfile;
    Valid.Check.RulesDir = findRulesDir(Argv[0]);
    return runValidate(Valid);
  }
  if (Explain->parsed()) {
    const RuleInfo *R = findRule(RuleId);
    if (!R)
      return usageError("unknown rule '" + RuleId +
                            "' (known: seam-graph-break, seam-host-sync, "
                            "seam-capture-sync)",
                        "explain ");
    std::cout << R->Id << " (default: " << levelName(R->DefaultLevel) << ")\n\n"
              << R->ShortDescription << "\n\n"
              << R->FullDescription << "\n\nHow to fix: " << R->Help << "\n";
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
  if (!Opts.DefaultRules && Opts.RulePacks.empty())
    return usageError("--no-default-rules leaves no rule pack: give one with "
                      "--rules",
                      "check ");
  if (Opts.RulesDir.empty())
    Opts.RulesDir = findRulesDir(Argv[0]);
  return runCheck(Opts);
}
