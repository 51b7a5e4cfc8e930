//===- CheckCommand.cpp - The `seam check` pipeline -----------------------===//
#include "Driver/CheckCommand.h"

#include "ApiModel/ApiModel.h"
#include "Driver/Config.h"
#include "Driver/Output.h"
#include "Pipeline/TranslationUnit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

namespace seam {

static const char *const DefaultPacks[] = {"libtorch.json", "seamrt.json"};

std::string findRulesDir(const char *Argv0) {
  if (auto Env = llvm::sys::Process::GetEnv("SEAM_RULES_DIR");
      Env && !Env->empty())
    return *Env;
  std::string Exe =
      llvm::sys::fs::getMainExecutable(Argv0, (void *)&findRulesDir);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Dir, "..", "share", "seam", "rules");
  if (llvm::sys::fs::exists(Dir + "/libtorch.json"))
    return std::string(Dir);
#ifdef SEAM_SOURCE_RULES_DIR
  return SEAM_SOURCE_RULES_DIR;
#else
  return std::string(Dir);
#endif
}

static void errorLine(const std::string &Msg) {
  llvm::errs() << "seam: error: " << Msg << "\n";
}

int analyze(const CheckOptions &Opts, Report &R, bool &InputError,
            const std::function<bool()> &BeforeParse) {
  InputError = false;
  auto Fail = [&](const std::string &Input, const std::string &Msg) {
    errorLine(Msg);
    R.Errors.push_back({Input, Msg});
    InputError = true;
  };

  // Rule packs: configuration errors stop the run before any parsing.
  RulePack Merged;
  std::vector<std::string> PackPaths;
  if (Opts.DefaultRules)
    for (const char *Name : DefaultPacks) {
      llvm::SmallString<256> P(Opts.RulesDir);
      llvm::sys::path::append(P, Name);
      PackPaths.push_back(std::string(P));
    }
  PackPaths.insert(PackPaths.end(), Opts.RulePacks.begin(),
                   Opts.RulePacks.end());
  for (const std::string &Path : PackPaths) {
    llvm::Expected<RulePack> P = loadRulePack(Path);
    if (!P) {
      errorLine("invalid rule pack: " + llvm::toString(P.takeError()));
      return 2;
    }
    mergeRulePack(Merged, *P);
    R.RulePacks.push_back(Path);
  }
  for (const std::string &G : Opts.Analysis.Regions.RegionGlobs)
    if (auto E = llvm::GlobPattern::create(G); !E) {
      errorLine("invalid --region pattern '" + G +
                "': " + llvm::toString(E.takeError()));
      return 2;
    }
  ApiModel Api(std::move(Merged));

  CostOptions Cost;
  {
    llvm::SmallString<256> ProfilesDir(Opts.RulesDir);
    llvm::sys::path::append(ProfilesDir, "profiles");
    llvm::Expected<DeviceProfile> P = loadProfile(Opts.Profile, ProfilesDir);
    if (!P) {
      errorLine("invalid profile: " + llvm::toString(P.takeError()));
      return 2;
    }
    Cost.Profile = std::move(*P);
  }
  for (const std::string &S : Opts.Shapes)
    if (auto Err = parseShapeHint(S, Api, Cost.Hints)) {
      errorLine("invalid --shape '" + S + "': " + *Err);
      return 2;
    }

  // .seam.yaml files: regions and shapes that add to the command line's. A
  // bad one costs the files it governs, not the whole run.
  ConfigFinder Configs;
  std::map<std::string, const FileConfig *> ConfigOf;
  std::vector<std::string> ToParse;
  for (const std::string &File : Opts.Files) {
    llvm::Expected<const FileConfig *> C = Configs.forFile(File);
    if (!C) {
      Fail(File, "invalid configuration: " + llvm::toString(C.takeError()) +
                     "; '" + File + "' was not analyzed");
      continue;
    }
    std::string Bad;
    for (const std::string &G : (*C)->Regions)
      if (auto E = llvm::GlobPattern::create(G); !E && Bad.empty())
        Bad = (*C)->Path + ": invalid region pattern '" + G +
              "': " + llvm::toString(E.takeError());
    ShapeHints Scratch;
    for (const std::string &S : (*C)->Shapes)
      if (auto Err = parseShapeHint(S, Api, Scratch); Err && Bad.empty())
        Bad = (*C)->Path + ": invalid shape '" + S + "': " + *Err;
    if (!Bad.empty()) {
      Fail(File, Bad + "; '" + File + "' was not analyzed");
      continue;
    }
    ConfigOf[File] = *C;
    ToParse.push_back(File);
  }

  std::string Warning;
  auto DB = makeCompilationDatabase(Opts.Frontend, Warning);
  if (!DB) {
    errorLine(llvm::toString(DB.takeError()));
    return 2;
  }
  if (!Warning.empty())
    llvm::errs() << "seam: warning: " << Warning << "\n";

  if (BeforeParse && !BeforeParse())
    return 2;

  std::vector<ParseResult> Parsed = parseFiles(
      **DB, Opts.Frontend, ToParse,
      [&](clang::ASTContext &Ctx, llvm::StringRef File) {
        AnalysisOptions Analysis = Opts.Analysis;
        CostOptions TUCost = Cost;
        if (const FileConfig *C = ConfigOf[File.str()]) {
          Analysis.Regions.RegionGlobs.insert(
              Analysis.Regions.RegionGlobs.end(), C->Regions.begin(),
              C->Regions.end());
          for (const std::string &S : C->Shapes)
            if (!TUCost.Hints.count(S.substr(0, S.find('='))))
              (void)parseShapeHint(S, Api, TUCost.Hints); // validated above
        }
        TUAnalysis TU = analyzeTranslationUnit(Ctx, Api, Analysis, TUCost);
        for (const std::string &F : TU.Incomplete)
          llvm::errs() << "seam: note: the analysis of '" << F
                       << "' stopped at its iteration limit; its results may "
                          "be incomplete\n";
        R.Incomplete += TU.Incomplete.size();
        R.Summary.insert(R.Summary.end(), TU.Summary.begin(), TU.Summary.end());
        R.Findings.insert(R.Findings.end(),
                          std::make_move_iterator(TU.Findings.begin()),
                          std::make_move_iterator(TU.Findings.end()));
      });
  for (const ParseResult &P : Parsed)
    if (!P.Ok)
      Fail(P.File, P.Error);
  sortAndDedupe(R.Findings);
  std::stable_sort(
      R.Summary.begin(), R.Summary.end(),
      [](const SummaryRow &A, const SummaryRow &B) { return A.Rank > B.Rank; });
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd))
    R.WorkDir = std::string(Cwd);
  return 0;
}

int runCheck(const CheckOptions &Opts) {
  Report R;
  bool InputError = false;
  // Check the output before the (slow) parsing so a bad -o fails fast, and
  // never overwrite an input.
  auto CheckOutput = [&] {
    if (Opts.OutputPath.empty())
      return true;
    std::vector<std::string> Inputs = Opts.Files;
    Inputs.insert(Inputs.end(), Opts.RulePacks.begin(), Opts.RulePacks.end());
    if (std::optional<std::string> Err =
            checkOutputPath(Opts.OutputPath, Inputs)) {
      errorLine(*Err);
      return false;
    }
    return true;
  };
  if (int Code = analyze(Opts, R, InputError, CheckOutput))
    return Code;

  bool Color = Opts.Color == CheckOptions::ColorMode::Always ||
               (Opts.Color == CheckOptions::ColorMode::Auto &&
                Opts.OutputPath.empty() && llvm::outs().has_colors());
  std::optional<std::string> WriteError =
      writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
        switch (Opts.Format) {
        case OutputFormat::Text:
          writeText(OS, R, Color);
          if (Opts.Summary)
            writeSummary(OS, R);
          break;
        case OutputFormat::Json:
          writeJson(OS, R);
          break;
        case OutputFormat::Sarif:
          writeSarif(OS, R);
          break;
        }
      });
  if (WriteError) {
    errorLine(*WriteError);
    return 2;
  }

  if (InputError)
    return 2;
  if (Opts.FailOn)
    for (const Finding &F : R.Findings)
      if (F.Severity >= *Opts.FailOn)
        return 1;
  return 0;
}

} // namespace seam
