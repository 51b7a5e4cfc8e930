//===- Callables.cpp - Flow of callables through holders in one TU --------===//
#include "Regions/Callables.h"

#include "ApiModel/ApiModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace seam {
namespace {

bool isStdCall(const CallExpr *CE,
               std::initializer_list<llvm::StringRef> Names) {
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  return FD && FD->isInStdNamespace() && FD->getIdentifier() &&
         llvm::is_contained(Names, FD->getName());
}

} // namespace

const Expr *peelCallable(const Expr *E) {
  for (unsigned Guard = 0; E && Guard < 64; ++Guard) {
    const Expr *N = stripValue(E, /*Copies=*/true);
    if (const auto *Call = dyn_cast_or_null<CallExpr>(N);
        Call && Call->getNumArgs() == 1 &&
        isStdCall(Call, {"ref", "cref"})) // stripValue takes move, forward
      N = Call->getArg(0);
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

namespace {

const Expr *peel(const Expr *E) { return peelCallable(E); }

void addLambda(const LambdaExpr *LE,
               llvm::SmallVectorImpl<const FunctionDecl *> &Out) {
  Out.push_back(LE->getCallOperator());
  if (FunctionTemplateDecl *T = LE->getDependentCallOperator())
    for (FunctionDecl *Spec : T->specializations())
      Out.push_back(Spec);
}

const FunctionDecl *definition(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (FD && FD->hasBody(Def) && Def)
    return Def;
  return FD;
}

} // namespace

/// The holder named by \p E: a variable, parameter or member, possibly an
/// element of a container of callables (`v[i]`, `v.at(i)`, `v.front()`), or
/// the loop variable of a range-for over one.
static const ValueDecl *holderOf(const Expr *E) {
  for (unsigned Guard = 0; E && Guard < 64; ++Guard) {
    E = peel(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return nullptr;
      if (VD->isCXXForRangeDecl())
        return VD; // linked to its range by the scan
      return VD;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op &&
        (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star) &&
        Op->getNumArgs() >= 1) {
      E = Op->getArg(0);
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
        MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
        llvm::is_contained({"at", "front", "back", "get", "value"},
                           MC->getMethodDecl()->getName())) {
      E = MC->getImplicitObjectArgument();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      E = UO->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

const ValueDecl *CallableFlow::invokedHolder(const CallExpr *CE) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
      return nullptr;
    return holderOf(Op->getArg(0));
  }
  if (isStdCall(CE, {"invoke", "invoke_r", "apply"}) && CE->getNumArgs() > 0)
    return holderOf(CE->getArg(0));
  if (CE->getDirectCallee())
    return nullptr;
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Callee);
      BO && (BO->getOpcode() == BO_PtrMemD || BO->getOpcode() == BO_PtrMemI))
    return holderOf(BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(Callee);
      UO && UO->getOpcode() == UO_Deref)
    Callee = UO->getSubExpr();
  return holderOf(Callee);
}

void CallableFlow::flowInto(const ValueDecl *To, const Expr *From) {
  if (!To || !From)
    return;
  const Expr *E = peel(From);
  llvm::SmallVector<const FunctionDecl *, 4> Found;
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    addLambda(LE, Found);
  } else if (const auto *Call = dyn_cast<CallExpr>(E);
             Call && Call->getNumArgs() >= 1 &&
             isStdCall(Call, {"bind", "bind_front", "bind_back", "mem_fn"})) {
    flowInto(To, Call->getArg(0));
    return;
  } else if (const auto *Call = dyn_cast<CallExpr>(E);
             Api && Call && Call->getNumArgs() >= 1 &&
             (Api->isCompileFunction(Call->getDirectCallee()) ||
              Api->isTransform(Call->getDirectCallee()))) {
    // compile(f) and grad(f) return something that runs f.
    flowInto(To, Call->getArg(0));
    return;
  } else {
    const Expr *F = E;
    if (const auto *UO = dyn_cast<UnaryOperator>(F);
        UO && UO->getOpcode() == UO_AddrOf)
      F = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(F)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
        Found.push_back(definition(FD));
      } else if (const ValueDecl *H = holderOf(F)) {
        Edges.push_back({H, To});
        return;
      }
    } else if (const ValueDecl *H = holderOf(E)) {
      Edges.push_back({H, To});
      return;
    }
  }
  for (const FunctionDecl *FD : Found)
    Targets[To].insert(FD);
}

void CallableFlow::bindArgs(const FunctionDecl *Callee,
                            llvm::ArrayRef<const Expr *> Args) {
  const FunctionDecl *Def = definition(Callee);
  // A function defined in another file: its parameters as declared here
  // (the project pass joins them with its definition's, by USR).
  if (!Def && Callee &&
      !Callee->getASTContext().getSourceManager().isInSystemHeader(
          Callee->getLocation()))
    Def = Callee;
  if (!Def)
    return;
  for (unsigned I = 0; I < Def->getNumParams() && I < Args.size(); ++I)
    flowInto(Def->getParamDecl(I), Args[I]);
}

bool CallableFlow::sharedHolder(const ValueDecl *Holder) {
  if (isa<FieldDecl>(Holder) || isa<ParmVarDecl>(Holder))
    return true;
  const auto *VD = dyn_cast<VarDecl>(Holder);
  return VD && VD->hasGlobalStorage() && !VD->isStaticLocal();
}

std::vector<std::pair<const ValueDecl *, const FunctionDecl *>>
CallableFlow::sharedStores() const {
  std::vector<std::pair<const ValueDecl *, const FunctionDecl *>> Out;
  for (const auto &[Holder, Set] : Targets)
    if (sharedHolder(Holder))
      for (const FunctionDecl *FD : Set)
        Out.push_back({Holder, FD});
  return Out;
}

void CallableFlow::scan(const FunctionDecl *FD) {
  struct Scanner : RecursiveASTVisitor<Scanner> {
    CallableFlow &Self;
    explicit Scanner(CallableFlow &S) : Self(S) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitLambdaBody() const { return false; } // scanned on its own
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->isCXXForRangeDecl()) {
        // for (auto &cb : callbacks): each element of the range.
        return true;
      }
      if (const Expr *Init = VD->getInit())
        Self.flowInto(VD, Init);
      return true;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
      if (const VarDecl *LV = S->getLoopVariable())
        if (const ValueDecl *H = holderOf(S->getRangeInit()))
          Self.Edges.push_back({H, LV});
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign)
        Self.flowInto(holderOf(BO->getLHS()), BO->getRHS());
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
          Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
        Self.flowInto(holderOf(Op->getArg(0)), Op->getArg(1));
        return true;
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
        const CXXMethodDecl *MD = MC->getMethodDecl();
        if (MD && MD->getIdentifier() &&
            llvm::is_contained({"push_back", "emplace_back", "push_front",
                                "emplace_front", "insert", "emplace", "assign"},
                               MD->getName()))
          for (const Expr *A : MC->arguments())
            Self.flowInto(holderOf(MC->getImplicitObjectArgument()), A);
      }
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee)
        return true;
      llvm::SmallVector<const Expr *, 8> Args(CE->arguments());
      if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Callee) &&
          !Args.empty())
        Args.erase(Args.begin()); // the object
      Self.bindArgs(Callee, Args);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      llvm::SmallVector<const Expr *, 8> Args(CE->arguments());
      Self.bindArgs(CE->getConstructor(), Args);
      return true;
    }
    bool VisitInitListExpr(InitListExpr *IL) {
      // Aggregate initialization: Trainer t{..., [](...) {...}}.
      const RecordDecl *RD = IL->getType()->getAsRecordDecl();
      if (!RD || IL->isSemanticForm() == false)
        return true;
      unsigned I = 0;
      for (const FieldDecl *F : RD->fields()) {
        if (I >= IL->getNumInits())
          break;
        Self.flowInto(F, IL->getInit(I++));
      }
      return true;
    }
  } S(*this);
  S.TraverseStmt(FD->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getMember()) {
        flowInto(Init->getMember(), Init->getInit());
        S.TraverseStmt(Init->getInit());
      }
}

CallableFlow::CallableFlow(ASTContext &Ctx,
                           const std::vector<const FunctionDecl *> &Bodies,
                           const ApiModel *Api)
    : Api(Api) {
  for (const FunctionDecl *FD : Bodies)
    scan(FD);
  // Globals and static members initialized with callables.
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
      flowInto(VD, VD->getInit());
  // Holder-to-holder edges: sets only grow, so this ends.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto [From, To] : Edges) {
      auto It = Targets.find(From);
      if (It == Targets.end())
        continue;
      TargetSet Copy = It->second;
      TargetSet &Dest = Targets[To];
      for (const FunctionDecl *FD : Copy)
        Changed |= Dest.insert(FD);
    }
  }
}

std::vector<const FunctionDecl *>
CallableFlow::targetsOf(const ValueDecl *Holder) const {
  auto It = Targets.find(Holder);
  if (It == Targets.end())
    return {};
  return {It->second.begin(), It->second.end()};
}

} // namespace seam
