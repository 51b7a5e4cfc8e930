//===- Summarize.cpp - A translation unit's summary for the project pass --===//
#include "Pipeline/Summarize.h"

#include "Basic/SourcePoint.h"
#include "Regions/Callables.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/SmallString.h"
#include <algorithm>
#include <set>

using namespace clang;

namespace seam {

std::string projectKey(const Decl *D) {
  D = D->getCanonicalDecl();
  const auto *MD = dyn_cast<CXXMethodDecl>(D);
  bool Local = (MD && MD->getParent()->isLambda()) ||
               D->getParentFunctionOrMethod() != nullptr;
  llvm::SmallString<128> Usr;
  if (!Local && !index::generateUSRForDecl(D, Usr))
    return std::string(Usr);
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation L = SM.getFileLoc(MD && MD->getParent()->isLambda()
                                       ? MD->getParent()->getLocation()
                                       : D->getLocation());
  PresumedLoc P = SM.getPresumedLoc(L);
  if (P.isInvalid())
    return "seam:?";
  return "seam:" + std::string(P.getFilename()) + ":" +
         std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
}

namespace {

std::string holderKey(const ValueDecl *H) {
  if (const auto *P = dyn_cast<ParmVarDecl>(H))
    if (const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext()))
      return "holder:" + projectKey(FD) + "#" +
             std::to_string(P->getFunctionScopeIndex());
  return "holder:" + projectKey(H);
}

class Summarizer {
public:
  Summarizer(ASTContext &Ctx, const RegionModel &Regions,
             const CallArgResidency &Args, const TripHints &Trips)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Regions(Regions), Args(Args), Trips(Trips) {}

  SummaryFunction function(unsigned I) {
    const FunctionNode &N = Regions.functions()[I];
    SummaryFunction F;
    F.Usr = keyOf(I);
    F.Name = N.Name;
    F.Where = makePoint(SM, LO, N.NameLoc);
    F.Hot = N.HotReach.Reached;
    if (F.Hot && !N.External.empty()) {
      std::vector<PathStep> Path = Regions.hotPathOf(I);
      F.HotPath = toNotes(SM, LO, Path);
      F.HotReason = hotReason(Path);
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(N.FD))
      addOverridden(MD, F.Overrides);
    for (const CallSite &CS : N.Calls) {
      SummaryCall C = call(I, CS.Site, CS.Loc, CS.IteratedBy);
      const FunctionNode &Callee = Regions.functions()[CS.Callee];
      C.Callee = keyOf(CS.Callee);
      C.CalleeName = Callee.Name;
      C.Through = CS.Through;
      C.LambdaDefinition = CS.IsLambdaDefinition;
      F.Calls.push_back(std::move(C));
    }
    for (const ExternalCall &X : N.External) {
      SummaryCall C = call(I, X.Site, X.Loc, X.IteratedBy);
      if (X.Holder) {
        C.Callee = holderKey(X.Holder);
        C.CalleeName = C.Through = X.Holder->getNameAsString();
      } else {
        C.Callee = projectKey(X.Callee);
        C.CalleeName = qualifiedName(X.Callee);
        C.Virtual = X.Virtual;
      }
      F.Calls.push_back(std::move(C));
    }
    return F;
  }

  /// Node \p I's key, made once: every call to it names it.
  const std::string &keyOf(unsigned I) {
    if (Keys.empty())
      Keys.resize(Regions.functions().size());
    if (Keys[I].empty())
      Keys[I] = projectKey(Regions.functions()[I].FD);
    return Keys[I];
  }

private:
  void addOverridden(const CXXMethodDecl *MD, std::vector<std::string> &Out) {
    for (const CXXMethodDecl *O : MD->overridden_methods()) {
      std::string K = projectKey(O);
      if (llvm::find(Out, K) == Out.end())
        Out.push_back(K);
      addOverridden(O, Out);
    }
  }

  SummaryCall call(unsigned Node, const Stmt *Site, SourceLocation Loc,
                   const std::string &IteratedBy) {
    SummaryCall C;
    C.Where = makePoint(SM, LO, Loc);
    if (!IteratedBy.empty()) {
      PathStep P{PathStep::Loop, Loc};
      P.IteratedBy = IteratedBy;
      C.Repeats = true;
      C.Loop = {describePathStep(P), C.Where, false};
      C.Frequency = "every element";
    } else if (std::optional<LoopVisit> V =
                   Regions.repeatingLoop(Node, Site, Loc)) {
      PathStep P{PathStep::Loop, V->Loop->Keyword};
      P.RunsCall = true;
      P.Freq = V->Freq;
      C.Repeats = true;
      C.Loop = {describePathStep(P), makePoint(SM, LO, P.Loc), false};
      C.PerIteration = V->Freq.PerIteration;
      C.Frequency = V->Freq.phrase();
      // As the cost model counts a site's executions (RunCounts.h).
      Executions X =
          executionsOf(Regions.loopsAt(Node, Site, Loc), {}, Ctx, &Trips);
      C.Iterations = X.Iterations;
      C.Calls = X.Total;
    }
    if (const auto *CE = dyn_cast_or_null<CallExpr>(Site))
      if (auto It = Args.find(CE); It != Args.end())
        for (Residency R : It->second)
          C.Args.push_back(R == Residency::None ? std::string()
                                                : residencyName(R).str());
    return C;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const RegionModel &Regions;
  const CallArgResidency &Args;
  const TripHints &Trips;
  std::vector<std::string> Keys;
};

} // namespace

TUSummary summarizeTU(ASTContext &Ctx, const RegionModel &Regions,
                      const CallArgResidency &Args, const TripHints &Trips,
                      std::vector<SiteFinding> &Conditional) {
  TUSummary S;
  const SourceManager &SM = Ctx.getSourceManager();
  if (const FileEntry *Main = SM.getFileEntryForID(SM.getMainFileID()))
    S.File = Main->tryGetRealPathName().str();
  Summarizer Sum(Ctx, Regions, Args, Trips);
  for (unsigned I = 0; I < Regions.functions().size(); ++I)
    S.Functions.push_back(Sum.function(I));
  std::set<std::pair<std::string, std::string>> Stores;
  for (auto [H, FD] : Regions.callables().sharedStores())
    Stores.insert({holderKey(H).substr(7), projectKey(FD)});
  for (const auto &[H, F] : Stores)
    S.Stores.push_back({H, F});
  for (SiteFinding &SF : Conditional) {
    ConditionalFinding C;
    C.Function = Sum.keyOf(SF.Site->Node);
    C.ParamIndex = SF.Site->ParamIndex;
    C.F = std::move(SF.F);
    S.Conditional.push_back(std::move(C));
  }
  return S;
}

} // namespace seam
