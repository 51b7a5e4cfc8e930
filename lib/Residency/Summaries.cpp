//===- Summaries.cpp - Interprocedural residency facts of one TU --------===//
#include "Residency/ResidencyWalker.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace seam {
Residency ResidencyContext::returnSummary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return Residency::Unknown;
  if (auto It = Summaries.find(Def); It != Summaries.end())
    return It->second;
  if (!InProgress.insert(Def).second)
    return Residency::Unknown; // recursion: no better answer
  ResidencyWalker W(*this, /*ParamsOnHost=*/true);
  W.run(Def, nullptr);
  Residency R = W.returned();
  if (R == Residency::None)
    R = Residency::Host; // returns only undefined or host-made tensors
  InProgress.erase(Def);
  Summaries[Def] = R;
  return R;
}

std::optional<AbsValue>
ResidencyContext::paramOrigin(const ParmVarDecl *P) const {
  auto It = ParamIn.find(P);
  if (It == ParamIn.end()) {
    const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
    bool Recorded = Api.isTensorType(P->getType()) ||
                    Api.isDeviceLikeType(P->getType()) ||
                    isModuleTyped(Api, P->getType());
    if (!Discovering && FD && Called.count(FD) && Recorded)
      return AbsValue{}; // called, but no argument evaluated yet: bottom
    return std::nullopt;
  }
  AbsValue V = It->second;
  if (V.Where == Residency::None)
    V.Where = Residency::Host; // only undefined tensors were passed
  return V;
}

void ResidencyContext::recordArgs(const FunctionDecl *Callee,
                                  const CallExpr *CE, unsigned FirstArg,
                                  const ResidencyWalker &W) {
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Api.isLibraryDecl(Def))
    return;
  if (Discovering) {
    Called.insert(Def);
    return;
  }
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (I + FirstArg >= CE->getNumArgs() ||
        !(Api.isTensorType(P->getType()) ||
          Api.isDeviceLikeType(P->getType()) ||
          isModuleTyped(Api, P->getType())))
      continue;
    AbsValue V = W.eval(CE->getArg(I + FirstArg));
    auto [It, New] = ParamIn.try_emplace(P, V);
    AbsValue J = New ? V : It->second.joined(V);
    if (New || J != It->second) {
      It->second = J;
      Changed = true;
    }
  }
}

bool ResidencyContext::recordCall(const CallExpr *CE,
                                  const ResidencyWalker &W) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee)
    return false;
  bool Before = Changed;
  unsigned First = 0;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (isa<CXXMethodDecl>(Callee))
      First = 1; // argument 0 is the object
    // A module holder's operator() passes its arguments to Impl::forward.
    for (const CXXMethodDecl *M : Api.holderForwards(Op))
      if (M->getNumParams() + 1 == Op->getNumArgs())
        recordArgs(M, CE, 1, W);
  }
  recordArgs(Callee, CE, First, W);
  return Changed && !Before;
}

void ResidencyContext::noteLimit(const FunctionDecl *FD) {
  if (!llvm::is_contained(LimitHits, FD))
    LimitHits.push_back(FD);
}

void ResidencyContext::solve(llvm::ArrayRef<const FunctionDecl *> Bodies) {
  // First learn which functions the TU calls, so that their parameters
  // start at the bottom of the lattice instead of Unknown.
  setDiscovering(true);
  for (const FunctionDecl *FD : Bodies)
    ResidencyWalker(*this).run(FD, nullptr);
  setDiscovering(false);
  LambdaStates.clear();
  takeChanged();
  // Parameters take the residency of what the TU passes them, and lambdas
  // the state where they are made; both only grow, so this ends. The bound
  // is there for safety and is reported if reached.
  const unsigned MaxRounds = 64;
  for (unsigned Round = 0;; ++Round) {
    for (const FunctionDecl *FD : Bodies)
      ResidencyWalker(*this).run(FD, nullptr);
    if (!takeChanged())
      break;
    if (Round + 1 == MaxRounds) {
      for (const FunctionDecl *FD : Bodies)
        noteLimit(FD);
      break;
    }
  }
}

} // namespace seam
