//===- HazardFinder.cpp - Graph breaks, host syncs and capture syncs ------===//
#include "Hazards/HazardFinder.h"

#include "Basic/SourcePoint.h"
#include "Residency/ResidencyWalker.h"

#include <map>
#include <tuple>

using namespace clang;

namespace seam {
namespace {

/// Decides whether a matched call really triggers, and on what operand.
struct SiteEvaluation {
  bool Triggers = false;
  Residency Where = Residency::None;
  const Expr *Operand = nullptr;
};

const Expr *firstTensorArg(const CallExpr *CE, const ResidencyWalker &W) {
  const Expr *Found = nullptr;
  for (const Expr *A : CE->arguments())
    if (!Found)
      W.forEachTensor(A, [&](const Expr *T) {
        if (!Found)
          Found = T;
      });
  return Found;
}

SiteEvaluation evaluate(const TriggerMatch &M, const CallExpr *CE,
                        const ResidencyWalker &W) {
  SiteEvaluation S;
  AbsValue Self = M.Object ? W.eval(M.Object) : AbsValue{};
  AbsValue Args = W.tensorArgs(CE);
  S.Operand = M.Object ? M.Object : firstTensorArg(CE, W);
  // `os << d[i]` of a non-tensor the rule's operand types name: the
  // printed value is the last operand.
  if (!S.Operand && !M.Rule->Operands.empty() && isa<CXXOperatorCallExpr>(CE) &&
      CE->getNumArgs() > 0) {
    S.Operand = CE->getArg(CE->getNumArgs() - 1);
    Self = W.eval(S.Operand);
  }
  if (int N = M.Rule->Operand; N >= 0) {
    // The rule names the argument whose residency decides.
    unsigned I = N + (isa<CXXOperatorCallExpr>(CE) &&
                      isa_and_nonnull<CXXMethodDecl>(CE->getDirectCallee()));
    if (I >= CE->getNumArgs() || isa<CXXDefaultArgExpr>(CE->getArg(I)))
      return S;
    const Expr *A = CE->getArg(I);
    S.Operand = A;
    Args = W.eval(A);
    if (W.api().mentionsTensor(A->getType()) &&
        !W.api().isTensorType(A->getType()))
      Args = {W.bundle(A), false};
    Self = Args;
  }
  // Values a materialising call made ready read without waiting: the
  // object, or for a free function (`sum<float>(a)`) every tensor argument.
  bool Ready = Self.Ready;
  if (!M.Object && M.Rule->Operand < 0) {
    bool Any = false, All = true;
    for (const Expr *A : CE->arguments())
      W.forEachTensor(A, [&](const Expr *T) {
        Any = true;
        All &= W.eval(T).Ready;
      });
    Ready = Any && All;
  }
  // An explicit sync waits whatever its operands hold, unless the rule
  // names an operand: then it waits only on device data (a lazy API's
  // eval(x) of host data does nothing).
  bool ByResidency =
      M.Rule->What != Trigger::ExplicitSync || M.Rule->Operand >= 0;
  if (ByResidency && M.Rule->When != TriggerWhen::HostDestination && Ready)
    return S;
  switch (M.Rule->When) {
  case TriggerWhen::Always:
    S.Triggers = true;
    S.Where = join(Self.Where, Args.Where);
    break;
  case TriggerWhen::ToHost:
    S.Triggers = W.deviceArgs(CE) == Residency::Host;
    S.Where = Self.Where;
    break;
  case TriggerWhen::BoolIndex: {
    bool Mask = false;
    for (const Expr *A : CE->arguments())
      W.forEachTensor(A, [&](const Expr *T) {
        if (T != M.Object && W.eval(T).IsBool)
          Mask = true;
      });
    S.Triggers = Mask;
    S.Where = Self.Where;
    break;
  }
  case TriggerWhen::HostDestination:
    S.Triggers = Self.Where == Residency::Host && maySync(Args.Where);
    S.Where = Args.Where;
    // The source: the first tensor argument that is not the destination.
    S.Operand = nullptr;
    for (const Expr *A : CE->arguments())
      if (!S.Operand && A != M.Object)
        W.forEachTensor(A, [&](const Expr *T) {
          if (!S.Operand)
            S.Operand = T;
        });
    break;
  case TriggerWhen::TensorArg: {
    // A tensor of the rule's own pack: seam::rt's `<<` rule does not print
    // another library's arrays.
    const Expr *Own = nullptr;
    for (const Expr *A : CE->arguments())
      W.forEachTensor(A, [&](const Expr *T) {
        if (!Own && W.api().ownTensor(T->getType(), M.Rule))
          Own = T;
      });
    S.Triggers = Own != nullptr;
    if (Own)
      S.Operand = Own;
    S.Where = Args.Where;
    break;
  }
  }
  if (!ByResidency) {
    S.Where = Residency::Device;
    S.Operand = nullptr;
  }
  if (S.Where == Residency::None)
    S.Where = S.Operand ? Residency::Host : Residency::Unknown;
  return S;
}

/// A `constructor` rule's site: it copies from its operand, the argument
/// the rule names or else the first tensor argument; without one there is
/// nothing to wait for.
SiteEvaluation evaluateConstruction(const TriggerMatch &M,
                                    const CXXConstructExpr *CE,
                                    const ResidencyWalker &W) {
  SiteEvaluation S;
  if (int N = M.Rule->Operand; N >= 0) {
    if (static_cast<unsigned>(N) < CE->getNumArgs() &&
        !isa<CXXDefaultArgExpr>(CE->getArg(N)))
      S.Operand = CE->getArg(N);
  } else {
    for (const Expr *A : CE->arguments())
      if (!S.Operand)
        W.forEachTensor(A, [&](const Expr *T) {
          if (!S.Operand && (M.Rule->When != TriggerWhen::TensorArg ||
                             W.api().ownTensor(T->getType(), M.Rule)))
            S.Operand = T;
        });
  }
  if (!S.Operand)
    return S;
  AbsValue V = W.eval(S.Operand);
  if (W.api().mentionsTensor(S.Operand->getType()) &&
      !W.api().isTensorType(S.Operand->getType()))
    V = {W.bundle(S.Operand), false};
  bool ByResidency =
      M.Rule->What != Trigger::ExplicitSync || M.Rule->Operand >= 0;
  if (ByResidency && V.Ready)
    return S;
  S.Triggers = true;
  S.Where = ByResidency ? V.Where : Residency::Device;
  if (S.Where == Residency::None)
    S.Where = Residency::Host;
  return S;
}

/// Whether any of \p Args is a tensor or a device (`t.add(bias)`,
/// `t.to(device)`): then where the value made lives is not only the
/// object's.
bool takesTensor(const ApiModel &Api, llvm::ArrayRef<const Expr *> Args) {
  return llvm::any_of(Args, [&](const Expr *A) {
    return A && (Api.isTensorType(A->getType()) ||
                 Api.isDeviceLikeType(A->getType()));
  });
}

/// The index of the parameter of \p FD that \p Operand is made from by
/// method calls and indexing on it alone (`t`, `t.mean()`,
/// `image[0].clamp(lo, hi)`; not `t.add(bias)`), or -1. Asked only when the
/// operand's residency is unknown: then it is the parameter's, which the
/// callers decide.
int paramIndexOf(const ApiModel &Api, const Expr *Operand,
                 const FunctionDecl *FD) {
  const Expr *E = Operand;
  for (unsigned Guard = 0; E && Guard < 32; ++Guard) {
    E = E->IgnoreParenImpCasts();
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      llvm::SmallVector<const Expr *, 4> Args(MC->arguments());
      if (takesTensor(Api, Args))
        return -1;
      E = MC->getImplicitObjectArgument();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
               Op && Op->getOperator() == OO_Subscript &&
               Op->getNumArgs() == 2) {
      if (takesTensor(Api, {Op->getArg(1)}))
        return -1;
      E = Op->getArg(0);
    } else if (const auto *Tmp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Tmp->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1)
      E = C->getArg(0);
    else
      break;
  }
  if (!E)
    return -1;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != FD)
    return -1;
  return static_cast<int>(P->getFunctionScopeIndex());
}

/// Records where the tensor arguments of a call to a user function live.
void recordArgResidency(const ApiModel &Api, const CallExpr *CE,
                        const ResidencyWalker &W, CallArgResidency &Out) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || Api.isLibraryDecl(Callee))
    return;
  // An operator call on a method passes the object as argument 0.
  unsigned First = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Callee) &&
                           !cast<CXXMethodDecl>(Callee)->isStatic()
                       ? 1
                       : 0;
  std::vector<Residency> &R = Out[CE];
  R.resize(Callee->getNumParams(), Residency::None);
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (I + First >= CE->getNumArgs() ||
        !(Api.isTensorType(P->getType()) || Api.isDeviceLikeType(P->getType())))
      continue;
    R[I] = join(R[I], W.eval(CE->getArg(I + First)).Where);
  }
}

} // namespace

std::vector<TriggerSite> findTriggerSites(ASTContext &Ctx, const ApiModel &Api,
                                          const RegionModel &Regions,
                                          std::vector<std::string> *Incomplete,
                                          CallArgResidency *Args) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  ResidencyContext RC(Ctx, Api, Regions.flows());
  std::map<std::pair<unsigned, const Expr *>, TriggerSite> Sites;
  const auto &Nodes = Regions.functions();
  std::vector<const FunctionDecl *> Bodies;
  for (const FunctionNode &Node : Nodes)
    Bodies.push_back(Node.FD);
  RC.solve(Bodies);
  if (Incomplete)
    for (const FunctionDecl *FD : RC.limitHits())
      if (auto N = Regions.nodeFor(FD))
        Incomplete->push_back(Regions.functions()[*N].Name);
  for (unsigned N = 0; N < Nodes.size(); ++N) {
    ResidencyWalker W(RC);
    W.run(Nodes[N].FD, [&](const Expr *Site, const ResidencyWalker &W) {
      const auto *CE = dyn_cast<CallExpr>(Site);
      const auto *Ctor = dyn_cast<CXXConstructExpr>(Site);
      if (CE && Args)
        recordArgResidency(Api, CE, W, *Args);
      std::optional<TriggerMatch> M;
      SiteEvaluation E;
      // The first rule whose condition holds on a value that may be on the
      // device, else the first that holds: `index_put_` may read a mask or
      // copy into a host tensor, and packs may both name a call.
      for (const TriggerMatch &Each :
           CE ? Api.matchTriggers(CE) : Api.matchTriggers(Ctor)) {
        SiteEvaluation Try =
            CE ? evaluate(Each, CE, W) : evaluateConstruction(Each, Ctor, W);
        if (!Try.Triggers)
          continue;
        if (!M || (!maySync(E.Where) && maySync(Try.Where))) {
          M = Each;
          E = Try;
        }
        if (maySync(E.Where))
          break;
      }
      if (!M)
        return;
      auto [It, New] = Sites.try_emplace({N, Site});
      TriggerSite &S = It->second;
      if (New) {
        S.Node = N;
        S.Call = Site;
        S.Match = *M;
        S.Operand = exprText(SM, LO, E.Operand);
        S.ParamIndex = paramIndexOf(Api, E.Operand, Nodes[N].FD);
      }
      S.Where = join(S.Where, E.Where);
    });
  }
  std::vector<TriggerSite> Out;
  for (auto &[Key, S] : Sites) {
    if (S.Where != Residency::Unknown)
      S.ParamIndex = -1;
    if (!SM.isInSystemHeader(SM.getFileLoc(S.Match.Loc)))
      Out.push_back(std::move(S));
  }
  return Out;
}

void sortAndDedupe(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    // Compiler errors may share a position; rules never do.
    return std::make_tuple(F.Where.File, F.Where.Line, F.Where.Column, F.RuleId,
                           F.RuleId == rule_ids::CompileError ? F.Message : "");
  };
  std::stable_sort(
      Findings.begin(), Findings.end(),
      [&](const Finding &A, const Finding &B) { return Key(A) < Key(B); });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
}

} // namespace seam
