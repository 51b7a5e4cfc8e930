//===- SeamTidyModule.cpp - Seam's rules as clang-tidy checks -------------===//
//
// Load with `clang-tidy --load libSeamTidy.so -checks='-*,seam-*'`. Each
// check runs the same library pipeline as `seam check` (once per
// translation unit, shared by the three checks) and reports its own rule's
// findings as clang-tidy diagnostics, with the path as notes.
//
//===----------------------------------------------------------------------===//
#include "ApiModel/ApiModel.h"
#include "Cost/CostModel.h"
#include "Hazards/HazardFinder.h"
#include "Pipeline/TranslationUnit.h"
#include "Rules/Rule.h"
#include "Setup/Setup.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"

#include <memory>
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy;

namespace seam {
namespace {

/// Settings shared by the three checks (read from the first one's options).
struct TidySettings {
  std::string RulesDir, RulePacks, Regions, Profile;
  bool operator==(const TidySettings &O) const {
    return RulesDir == O.RulesDir && RulePacks == O.RulePacks &&
           Regions == O.Regions && Profile == O.Profile;
  }
};

/// The findings of the TU being checked, computed once for all checks.
/// Whether they are current is kept per translation unit, not by the
/// ASTContext's address: clang-tidy checks several files in one process and
/// a later AST can be allocated where an earlier one was.
struct SharedAnalysis {
  bool Current = false;
  std::optional<TidySettings> Settings;
  std::shared_ptr<const ApiIndex> Index;
  std::optional<CostOptions> Cost;
  std::string Error;
  std::vector<Finding> Findings;

  void ensure(ASTContext &C, const TidySettings &S) {
    if (!Settings || !(*Settings == S)) {
      Settings = S;
      Current = false;
      Error.clear();
      std::vector<std::string> Paths = defaultPackPaths(S.RulesDir);
      llvm::SmallVector<llvm::StringRef, 4> Extra;
      llvm::StringRef(S.RulePacks).split(Extra, ';', -1, false);
      for (llvm::StringRef E : Extra)
        Paths.push_back(packPath(E.trim().str(), S.RulesDir));
      llvm::Expected<RulePack> Merged = loadPacks(Paths);
      if (!Merged) {
        Error = llvm::toString(Merged.takeError());
        return;
      }
      Index = std::make_shared<const ApiIndex>(std::move(*Merged));
      llvm::Expected<DeviceProfile> Prof =
          loadProfile(S.Profile, profilesDir(S.RulesDir));
      if (!Prof) {
        Error = "invalid profile: " + llvm::toString(Prof.takeError());
        return;
      }
      Cost = CostOptions{std::move(*Prof), {}};
      llvm::SmallVector<llvm::StringRef, 4> Globs;
      llvm::StringRef(S.Regions).split(Globs, ';', -1, false);
      for (llvm::StringRef G : Globs)
        if (auto E = llvm::GlobPattern::create(G.trim()); !E) {
          Error = "invalid region pattern '" + G.trim().str() +
                  "' (from Regions): " + llvm::toString(E.takeError());
          return;
        }
    }
    if (Current || !Error.empty())
      return;
    Current = true;
    AnalysisOptions Opts;
    llvm::SmallVector<llvm::StringRef, 4> Globs;
    llvm::StringRef(S.Regions).split(Globs, ';', -1, false);
    for (llvm::StringRef G : Globs)
      Opts.Regions.RegionGlobs.push_back(G.trim().str());
    ApiModel Api(Index); // per translation unit: its caches are per AST
    Findings = analyzeTranslationUnit(C, Api, Opts, *Cost).Findings;
  }

  void forget() {
    Current = false;
    Findings.clear();
  }
};

SharedAnalysis &shared() {
  static SharedAnalysis S;
  return S;
}

class SeamCheck : public ClangTidyCheck {
public:
  SeamCheck(llvm::StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Rule(Name.str()) {
    S.RulesDir = Options.getLocalOrGlobal("RulesDir", "").str();
    if (S.RulesDir.empty()) // $SEAM_RULES_DIR, the installed packs, the tree's
      S.RulesDir = findRulesDir(SEAM_TIDY_RULES_DIR);
    S.RulePacks = Options.getLocalOrGlobal("RulePacks", "").str();
    S.Regions = Options.getLocalOrGlobal("Regions", "").str();
    S.Profile = Options.getLocalOrGlobal("Profile", "h100").str();
  }

  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "RulesDir", S.RulesDir);
    Options.store(Opts, "RulePacks", S.RulePacks);
    Options.store(Opts, "Regions", S.Regions);
    Options.store(Opts, "Profile", S.Profile);
  }

  // Every check starts every translation unit before any check matches, so
  // the first check() of a file analyzes it and the others reuse that.
  void onStartOfTranslationUnit() override { shared().forget(); }
  void onEndOfTranslationUnit() override { shared().forget(); }

  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CPlusPlus;
  }

  void registerMatchers(MatchFinder *Finder) override {
    Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    SharedAnalysis &A = shared();
    A.ensure(*Result.Context, S);
    // A configuration that analyzes nothing is an error (clang-tidy then
    // exits non-zero), not a warning a CI job would pass with.
    if (!A.Error.empty()) {
      configurationDiag("%0", DiagnosticIDs::Error) << A.Error;
      return;
    }
    SourceManager &SM = *Result.SourceManager;
    for (const Finding &F : A.Findings) {
      if (F.RuleId != Rule)
        continue;
      SourceLocation Loc = locate(SM, F.Where);
      if (Loc.isInvalid())
        continue;
      std::string Msg = F.Message;
      if (F.Cost && !F.Cost->Summary.empty())
        Msg += "; " + F.Cost->Summary;
      {
        auto D = diag(Loc, "%0",
                      F.Severity == Level::Error ? DiagnosticIDs::Error
                                                 : DiagnosticIDs::Warning)
                 << Msg;
        // The fix as clang fix-its, so that clang-tidy -fix applies it.
        for (const FixItHint &H : fixIts(SM, F))
          D << H;
      }
      if (!F.AutoFix && !F.NoFixReason.empty())
        diag(Loc, "no automatic fix: %0", DiagnosticIDs::Note) << F.NoFixReason;
      for (const std::string &D : F.Details)
        diag(Loc, "%0", DiagnosticIDs::Note) << D;
      for (const PathNote &N : F.Path)
        if (SourceLocation NL = locate(SM, N.Where); NL.isValid())
          diag(NL, "%0", DiagnosticIDs::Note) << N.Message;
    }
  }

private:
  /// A finding's fix as fix-its; none unless every edit maps into a file
  /// of this translation unit.
  static std::vector<FixItHint> fixIts(SourceManager &SM, const Finding &F) {
    std::vector<FixItHint> Out;
    if (!F.AutoFix)
      return Out;
    for (const TextEdit &E : F.AutoFix->Edits) {
      auto FE = SM.getFileManager().getOptionalFileRef(E.File);
      FileID FID = FE ? SM.translateFile(*FE) : FileID();
      if (FID.isInvalid() ||
          uint64_t(E.Offset) + E.Length > SM.getBufferData(FID).size())
        return {};
      SourceLocation B = SM.getComposedLoc(FID, E.Offset);
      Out.push_back(FixItHint::CreateReplacement(
          CharSourceRange::getCharRange(B, B.getLocWithOffset(E.Length)),
          E.Text));
    }
    return Out;
  }

  static SourceLocation locate(SourceManager &SM, const SourcePoint &P) {
    if (!P.valid())
      return {};
    auto FE = SM.getFileManager().getOptionalFileRef(P.File);
    if (!FE)
      return {};
    return SM.translateFileLineCol(*FE, P.Line, P.Column);
  }

  std::string Rule;
  TidySettings S;
};

class SeamModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    // One check per rule of the registry (lib/Rules/Registry.cpp).
    for (const Rule *R : ruleRegistry())
      Factories.registerCheck<SeamCheck>(R->info().Id);
  }
};

} // namespace
} // namespace seam

static ClangTidyModuleRegistry::Add<seam::SeamModule>
    X("seam-module", "Seam: graph breaks, host syncs and capture syncs.");
