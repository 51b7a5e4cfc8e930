//===- NextLaunch.cpp - What the host records before the device works again
//===//
#include "Cost/NextLaunch.h"

#include "ApiModel/ApiModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace seam {

std::optional<unsigned> NextLaunch::nextPieceOps(const TriggerSite &S,
                                                 const SiteContext &C) {
  const RegionShape &R = RegionOf(C.RegionRoot);
  unsigned Piece = 0;
  for (const OpEvent &Ev : R.Seq) {
    if (!Ev.IsBreak)
      continue;
    ++Piece;
    if (Ev.Call == S.Call)
      return Piece < R.OpsPerPiece.size()
                 ? std::optional<unsigned>(R.OpsPerPiece[Piece])
                 : std::nullopt;
  }
  return std::nullopt;
}

const std::vector<NextLaunch::Launch> &
NextLaunch::launchesIn(const Stmt *Scope, const FunctionNode &Fn) {
  auto [Cached, New] = LaunchesIn.try_emplace(Scope);
  std::vector<Launch> &Launches = Cached->second;
  if (!New)
    return Launches;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<unsigned, const FunctionDecl *> RegionCalls;
  for (const CallSite &CS : Fn.Calls)
    if (!CS.IsLambdaDefinition && Regions.functions()[CS.Callee].IsRegionRoot)
      RegionCalls[SM.getExpansionLoc(CS.Loc).getRawEncoding()] =
          Regions.functions()[CS.Callee].FD;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
    if (!St || isa<LambdaExpr>(St))
      return;
    for (const Stmt *Child : St->children())
      Walk(Child);
    // Post-order: an op's operands launch before it.
    const auto *CE = dyn_cast<CallExpr>(St);
    if (!CE)
      return;
    SourceLocation L = SM.getExpansionLoc(CE->getExprLoc());
    if (auto It = RegionCalls.find(L.getRawEncoding()); It != RegionCalls.end())
      Launches.push_back({L, It->second, CE});
    else if (Api.isTensorType(CE->getType()) &&
             !Api.isCompileFunction(CE->getDirectCallee()))
      Launches.push_back({L, nullptr, CE});
  };
  Walk(Scope);
  return Launches;
}

NextLaunch::Next NextLaunch::nextLaunch(const TriggerSite &S) {
  Next Out;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionNode &Fn = Regions.functions()[S.Node];
  if (!Fn.FD->hasBody())
    return Out;
  std::vector<LoopVisit> Loops = Regions.loopsAt(S.Node, S.Call, S.Match.Loc);
  const Stmt *Scope = Fn.FD->getBody();
  bool Wraps = false;
  for (const LoopVisit &V : Loops)
    if (V.Loop->S && !V.Freq.OncePerLoop) {
      Scope = V.Loop->S;
      Wraps = true;
      break;
    }
  const std::vector<Launch> &Launches = launchesIn(Scope, Fn);
  SourceLocation Here =
      SM.getExpansionLoc(S.Call ? S.Call->getEndLoc() : S.Match.Loc);
  Out.Span.Scope = Scope;
  Out.Span.From = Here;
  for (const Launch &L : Launches)
    if (L.Call != S.Call && SM.isBeforeInTranslationUnit(Here, L.Loc)) {
      Out.L = &L;
      break;
    }
  if (!Out.L && Wraps)
    for (const Launch &L : Launches)
      if (L.Call != S.Call) {
        Out.L = &L;
        Out.Span.Wraps = true;
        break;
      }
  if (Out.L)
    Out.Span.To = Out.L->Loc;
  return Out;
}

AfterSpan NextLaunch::spanAfter(const TriggerSite &S) {
  return nextLaunch(S).Span;
}

std::optional<unsigned> NextLaunch::opsAfter(const TriggerSite &S,
                                             const SiteContext &C) {
  if (C.RegionRoot)
    return nextPieceOps(S, C);
  const Launch *L = nextLaunch(S).L;
  if (!L)
    return std::nullopt;
  if (!L->Region)
    return 1u; // an eager op: one op recorded and launched
  const RegionShape &R = RegionOf(L->Region);
  return R.OpsPerPiece.empty() ? std::nullopt
                               : std::optional<unsigned>(R.OpsPerPiece[0]);
}

bool NextLaunch::eagerAfter(const TriggerSite &S, const SiteContext &C) {
  if (C.RegionRoot)
    return false;
  const Launch *L = nextLaunch(S).L;
  return L && !L->Region;
}

} // namespace seam
