//===- NextLaunch.cpp - What the host records before the device works again
//===//
#include "Cost/NextLaunch.h"

#include "ApiModel/ApiModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

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

std::optional<TriggerSite> NextLaunch::returnSite(const TriggerSite &S) {
  auto [Cached, New] = ReturnSites.try_emplace(S.Node);
  if (!New)
    return Cached->second;
  std::optional<TriggerSite> &Out = Cached->second;
  const auto &Fns = Regions.functions();
  const FunctionNode &Fn = Fns[S.Node];
  if (Fn.IsRegionRoot || Fn.RegionReach.Reached)
    return Out;
  for (unsigned N = 0; N < Fns.size(); ++N)
    for (const CallSite &CS : Fns[N].Calls) {
      if (CS.Callee != S.Node)
        continue;
      const auto *Call = dyn_cast_or_null<Expr>(CS.Site);
      if (Out || !Call || CS.IsLambdaDefinition || !CS.Through.empty() ||
          !CS.IteratedBy.empty() || N == S.Node) {
        Out.reset();
        return Out;
      }
      Out.emplace();
      Out->Node = N;
      Out->Call = Call;
      Out->Match.Loc = CS.Loc;
    }
  return Out;
}

NextLaunch::Path NextLaunch::pathAfter(const TriggerSite &S) {
  Path Out;
  TriggerSite At = S;
  llvm::SmallVector<unsigned, 4> Seen;
  // A few calls up: helpers of helpers; a recursion stops at a function
  // already on the path.
  for (int Depth = 0; Depth < 4; ++Depth) {
    Next N = nextLaunch(At);
    Out.Spans.push_back({At, N.Span});
    if (N.L) {
      Out.L = N.L;
      break;
    }
    const FunctionNode &Fn = Regions.functions()[At.Node];
    // Not found in a loop that repeats the sync, or where there is no body.
    if (!Fn.FD->hasBody() || N.Span.Scope != Fn.FD->getBody())
      break;
    Seen.push_back(At.Node);
    std::optional<TriggerSite> Up = returnSite(At);
    if (!Up || llvm::is_contained(Seen, Up->Node))
      break;
    At = std::move(*Up);
  }
  return Out;
}

std::vector<std::pair<TriggerSite, AfterSpan>>
NextLaunch::spansAfter(const TriggerSite &S) {
  return pathAfter(S).Spans;
}

const CallExpr *NextLaunch::compilingCallBefore(const TriggerSite &S) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionNode &Fn = Regions.functions()[S.Node];
  if (!Fn.FD->hasBody())
    return nullptr;
  const std::vector<Launch> &Launches = launchesIn(Fn.FD->getBody(), Fn);
  SourceLocation SyncEnd =
      SM.getExpansionLoc(S.Call ? S.Call->getEndLoc() : S.Match.Loc);
  // In post-order, the last launch that ends before the sync does: an
  // operand of the sync (`f(x).item()`) or a statement before it, not an
  // expression the sync's value feeds (`x * y.item()`).
  const Launch *Last = nullptr;
  for (const Launch &L : Launches)
    if (L.Call != S.Call &&
        SM.isBeforeInTranslationUnit(SM.getExpansionLoc(L.Call->getEndLoc()),
                                     SyncEnd))
      Last = &L;
  if (!Last || !Last->Region ||
      Regions.inAnyLoop(S.Node, Last->Call, Last->Loc))
    return nullptr;
  for (const Launch &L : Launches) {
    if (&L == Last)
      return L.Call;
    if (L.Region == Last->Region)
      return nullptr; // an earlier call compiled it
  }
  return nullptr;
}

std::optional<unsigned> NextLaunch::opsAfter(const TriggerSite &S,
                                             const SiteContext &C) {
  if (C.RegionRoot)
    return nextPieceOps(S, C);
  const Launch *L = pathAfter(S).L;
  if (!L)
    return std::nullopt;
  if (!L->Region)
    return 1u; // an eager op: one op recorded and launched
  const RegionShape &R = RegionOf(L->Region);
  return R.OpsPerPiece.empty() ? std::nullopt
                               : std::optional<unsigned>(R.OpsPerPiece[0]);
}

std::optional<unsigned> NextLaunch::inputsAfter(const TriggerSite &S,
                                                const SiteContext &C) {
  if (C.RegionRoot)
    return std::nullopt; // the next piece reads what the region holds
  const Launch *L = pathAfter(S).L;
  if (!L || !L->Region)
    return std::nullopt;
  unsigned Inputs = 0;
  for (const ParmVarDecl *P : L->Region->parameters())
    Inputs += Api.isTensorType(P->getType());
  // A lambda's captured tensors are inputs of its region too.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(L->Region))
    if (const CXXRecordDecl *RD = MD->getParent(); RD && RD->isLambda())
      for (const FieldDecl *F : RD->fields())
        Inputs += Api.isTensorType(F->getType());
  return Inputs;
}

bool NextLaunch::eagerAfter(const TriggerSite &S, const SiteContext &C) {
  if (C.RegionRoot)
    return false;
  const Launch *L = pathAfter(S).L;
  return L && !L->Region;
}

} // namespace seam
