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

#include <functional>
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
  std::string Profile = "h100";    ///< --profile: bundled name or path
  std::vector<std::string> Shapes; ///< --shape NAME=DIMS[:DTYPE]
  bool Summary = false;            ///< --summary
};

/// Directory holding the default rule packs, searched next to \p Argv0.
std::string findRulesDir(const char *Argv0);

/// Runs the analysis of `seam check` into \p R without writing it. Returns
/// 2 for a configuration error (already reported), else 0; \p InputError
/// tells whether some input could not be analyzed. \p BeforeParse runs
/// after configuration is validated and may veto the run.
int analyze(const CheckOptions &Opts, Report &R, bool &InputError,
            const std::function<bool()> &BeforeParse = nullptr);

/// Runs `seam check`; returns the process exit code (0, 1 or 2).
int runCheck(const CheckOptions &Opts);

} // namespace seam

#endif
