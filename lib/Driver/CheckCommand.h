//===- CheckCommand.h - The `seam check` pipeline, front door agnostic ----===//
//
// Runs the whole pipeline (packs -> frontend -> regions -> residency ->
// hazards -> reporters) for a set of files. The CLI is a thin shell over
// this; tests and other front doors can call it directly.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_CHECKCOMMAND_H
#define SEAM_DRIVER_CHECKCOMMAND_H

#include "Cost/CostModel.h"
#include "Frontend/Frontend.h"
#include "Hazards/HazardFinder.h"
#include "Report/Reporters.h"
#include "Setup/Setup.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace seam {

enum class OutputFormat { Text, Json, Sarif };

struct CheckOptions {
  std::vector<std::string> Files;
  FrontendOptions Frontend;
  AnalysisOptions Analysis;
  std::vector<std::string> RulePacks; ///< --rules
  bool DefaultRules = true;
  std::string RulesDir; ///< where the default packs live ("" = search)
  OutputFormat Format = OutputFormat::Text;
  std::string OutputPath;                       ///< "" = stdout
  std::optional<Level> FailOn = Level::Warning; ///< nullopt = never fail
  enum class ColorMode { Auto, Always, Never } Color = ColorMode::Auto;
  std::string Profile = "h100"; ///< --profile: bundled name or path
  bool ProfileGiven = false;    ///< --profile was given (beats .seam.yaml)
  /// --default-residency: "device" or "host" (beats .seam.yaml).
  std::optional<std::string> DefaultResidency;
  std::vector<std::string> Shapes; ///< --shape NAME=DIMS[:DTYPE]
  std::vector<std::string> Trips;  ///< --trips NAME=COUNT
  bool Summary = false;            ///< --summary
  /// Summary rows for regions without findings too (seam validate).
  bool AllRegionRows = false;

  // clang-tidy's options, with its meaning (docs/cli.md).
  std::optional<std::string> Checks;           ///< --checks, appended to config
  std::optional<std::string> WarningsAsErrors; ///< --warnings-as-errors
  std::optional<std::string> HeaderFilter;     ///< --header-filter
  std::optional<std::string> ExcludeHeaderFilter;
  std::string LineFilterJson; ///< --line-filter
  std::string ConfigFile;     ///< --config-file
  bool ListChecks = false, DumpConfig = false, Quiet = false;
  unsigned Jobs = 0; ///< -j; 0 = one per core
  std::string Shard; ///< --shard I/N
  /// --summaries-out: every file's summary for the project pass, for
  /// `seam merge --summaries` (docs/whole-project.md).
  std::string SummariesOut;
  /// --per-tu: each translation unit alone, as the clang-tidy plugin: no
  /// summaries, no project pass.
  bool PerTU = false;
  std::string BaselinePath, WriteBaselinePath;
  bool Fix = false;            ///< --fix: apply the fixes in place
  std::string ExportFixesPath; ///< --export-fixes FILE (clang-tidy YAML)
  std::string FormatStyle;     ///< --format-style for the fixed lines
  std::string SarifCategory, SarifRoot;
  std::string CacheDir;       ///< --cache-dir; "" = the default
  bool Cache = true;          ///< --no-cache
  bool SharePreambles = true; ///< --no-shared-preamble
  uint64_t CacheMaxMB = 1024; ///< --cache-max-size
  /// Whether progress lines may go to stderr (a terminal, and not --quiet).
  std::optional<bool> Progress;
};

/// Every file a run reads, so that nothing it writes can replace one.
struct RunInputs {
  /// Known before parsing: the sources, the database, configuration files,
  /// packs, profiles and the baseline in use.
  std::vector<std::string> Declared;
  /// The project's own headers (and sources) the parses read.
  std::set<std::string> Read;
  /// Files this run analyzed, relative to the project root.
  std::set<std::string> AnalyzedFiles;
  /// Whether the run covered only part of the database (named files, or
  /// --shard): a baseline written by it keeps the other files' entries.
  bool Partial = false;
};

/// Runs the analysis of `seam check` into \p R without writing it. Returns
/// 2 for a configuration error (already reported), else 0; \p InputError
/// tells whether some input could not be analyzed. \p BeforeParse runs
/// after configuration is validated, with the inputs known then, and may
/// veto the run; \p Inputs, when given, receives every file the run read. \p
/// OnFile, when given, receives each file's results in the order of the files,
/// as soon as that file and every one before it are done.
int analyze(
    const CheckOptions &Opts, Report &R, bool &InputError,
    const std::function<bool(const RunInputs &)> &BeforeParse = nullptr,
    const std::function<void(llvm::ArrayRef<Finding>)> &OnFile = nullptr,
    RunInputs *Inputs = nullptr);

/// The project root for relative paths: --sarif-root, else the git top
/// level above the working directory, else the working directory.
std::string projectRoot(const std::string &SarifRoot);

/// Runs `seam check`; returns the process exit code (0, 1 or 2).
int runCheck(const CheckOptions &Opts);

} // namespace seam

#endif
