//===- ResidencyWalker.cpp - Flow-sensitive residency of tensor values ----===//
#include "Residency/ResidencyWalker.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace seam {

namespace {

const Expr *strip(const Expr *E) { return stripValue(E); }

/// A call through a lambda's or functor's operator(): the object is
/// argument 0 and is not a value operand.
unsigned firstValueArg(const CallExpr *CE) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE))
    if (Op->getOperator() == OO_Call)
      return 1;
  return 0;
}

} // namespace

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
    bool Recorded =
        Api.isTensorType(P->getType()) || Api.isDeviceLikeType(P->getType());
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
        !(Api.isTensorType(P->getType()) || Api.isDeviceLikeType(P->getType())))
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
    if (Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
      if (const CXXRecordDecl *Impl =
              Api.moduleHolderTarget(Op->getArg(0)->getType()))
        for (const CXXMethodDecl *M : Impl->methods())
          if (Api.isHotMethod(M) && M->getNumParams() + 1 == Op->getNumArgs())
            recordArgs(M, CE, 1, W);
  }
  recordArgs(Callee, CE, First, W);
  return Changed && !Before;
}

void ResidencyWalker::run(const FunctionDecl *FD, CallHook H) {
  Current = FD;
  Hook = std::move(H);
  Cur.clear();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      if (auto It = RC.LambdaStates.find(MD->getParent());
          It != RC.LambdaStates.end())
        Cur = It->second;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten())
        visitExpr(Init->getInit());
  walk(FD->getBody());
}

bool ResidencyWalker::tracked(QualType T) const {
  if (!T.isNull() && T->isPointerType() &&
      Api.isTensorType(T->getPointeeType()))
    return true; // Tensor *p = &x
  return Api.isTensorType(T) || Api.isDeviceLikeType(T) || isModuleType(T) ||
         isContainer(T);
}

bool ResidencyWalker::isContainer(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  return Spec && Spec->isInStdNamespace() && Spec->getIdentifier() &&
         llvm::is_contained({"vector", "deque", "list", "array"},
                            Spec->getName()) &&
         Api.mentionsTensor(T);
}

bool ResidencyWalker::isModuleType(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isDependentType())
    return false;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  // std::shared_ptr<NetImpl>, std::unique_ptr<NetImpl>
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
      Spec && Spec->isInStdNamespace() && Spec->getIdentifier() &&
      (Spec->getName() == "shared_ptr" || Spec->getName() == "unique_ptr") &&
      Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    RD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return Api.isModuleClass(RD);
}

const VarDecl *ResidencyWalker::moduleVar(const Expr *Obj) const {
  Obj = strip(Obj);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Obj);
      Op && Op->getOperator() == OO_Arrow && Op->getNumArgs() == 1)
    Obj = strip(Op->getArg(0));
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Obj);
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
      !isModuleType(VD->getType()))
    return nullptr;
  return VD;
}

Residency ResidencyWalker::moduleResidency(const Expr *Obj) const {
  if (const VarDecl *VD = moduleVar(Obj))
    if (auto It = Cur.find(VD); It != Cur.end())
      return It->second.Where;
  return Residency::Unknown; // members, globals, parameters
}

void ResidencyWalker::trackOutParams(const CallExpr *CE) {
  // A local passed by non-const reference may come back holding anything:
  // a tensor to a user function, a container to any function.
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return;
  unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
  for (unsigned I = 0; I < FD->getNumParams() && I + Shift < CE->getNumArgs();
       ++I) {
    QualType PT = FD->getParamDecl(I)->getType();
    if (!PT->isLValueReferenceType() ||
        PT.getNonReferenceType().isConstQualified())
      continue;
    const auto *DRE = dyn_cast<DeclRefExpr>(stripValue(CE->getArg(I + Shift)));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage())
      continue;
    bool Container = isContainer(VD->getType());
    bool UserTensor = Api.isTensorType(VD->getType()) && !Api.isLibraryDecl(FD);
    if (Container || UserTensor)
      Cur[VD].Where = join(Cur[VD].Where, Residency::Unknown);
  }
}

void ResidencyWalker::trackContainerInsert(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
      stripValue(MC->getImplicitObjectArgument()));
  if (!MD || !MD->getIdentifier() || !DRE)
    return;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !isContainer(VD->getType()) ||
      !llvm::is_contained({"push_back", "emplace_back", "push_front",
                           "emplace_front", "insert", "emplace"},
                          MD->getName()))
    return;
  AbsValue &V = Cur[VD];
  V.Where = join(V.Where, tensorArgs(MC).Where);
}

void ResidencyWalker::trackModuleMove(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const VarDecl *VD = moduleVar(MC->getImplicitObjectArgument());
  if (!VD || !MD || !MD->getIdentifier())
    return;
  llvm::StringRef Name = MD->getName();
  if (Api.isToHostMethod(Name))
    Cur[VD] = {Residency::Host, false};
  else if (Api.isToDeviceMethod(Name))
    Cur[VD] = {Residency::Device, false};
  else if (Api.isMoveMethod(Name))
    if (Residency Dev = deviceArgs(MC); Dev != Residency::None)
      Cur[VD] = {Dev, false};
}

VarState ResidencyWalker::joinStates(const VarState &A,
                                     const VarState &B) const {
  VarState Out = A;
  for (const auto &[VD, V] : B) {
    auto [It, New] = Out.try_emplace(VD, V);
    if (!New)
      It->second = It->second.joined(V);
  }
  return Out;
}

static bool sameState(const VarState &A, const VarState &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[VD, V] : A) {
    auto It = B.find(VD);
    if (It == B.end() || It->second != V)
      return false;
  }
  return true;
}

template <typename Fn> void ResidencyWalker::loop(Fn Body) {
  // The lattice is 4 high and booleans only grow: a few rounds suffice.
  VarState In = Cur;
  for (int Round = 0; Round < 6; ++Round) {
    Cur = In;
    Body();
    VarState Next = joinStates(In, Cur);
    if (sameState(Next, In))
      break;
    In = std::move(Next);
  }
  Cur = In;
}

void ResidencyWalker::declare(const VarDecl *VD) {
  if (!VD)
    return;
  if (const Expr *Init = VD->getInit())
    visitExpr(Init);
  if (!tracked(VD->getType()))
    return;
  if (isContainer(VD->getType())) {
    // A local std::vector<Tensor>: where its elements live, joined.
    const auto *CE =
        dyn_cast_or_null<CXXConstructExpr>(stripValue(VD->getInit()));
    bool Empty = !VD->getInit() || (CE && CE->getNumArgs() == 0);
    Cur[VD] = {Empty ? Residency::None : bundle(VD->getInit()), false};
    return;
  }
  Cur[VD] = VD->getInit() ? eval(VD->getInit()) : AbsValue{};
}

void ResidencyWalker::walk(const Stmt *S) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      walk(Child);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      declare(dyn_cast<VarDecl>(D));
  } else if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getInit());
    declare(If->getConditionVariable());
    visitExpr(If->getCond());
    VarState AfterCond = Cur;
    walk(If->getThen());
    VarState Then = std::move(Cur);
    Cur = std::move(AfterCond);
    walk(If->getElse());
    Cur = joinStates(Then, Cur);
  } else if (const auto *For = dyn_cast<ForStmt>(S)) {
    walk(For->getInit());
    loop([&] {
      declare(For->getConditionVariable());
      visitExpr(For->getCond());
      walk(For->getBody());
      visitExpr(For->getInc());
    });
  } else if (const auto *While = dyn_cast<WhileStmt>(S)) {
    loop([&] {
      declare(While->getConditionVariable());
      visitExpr(While->getCond());
      walk(While->getBody());
    });
  } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
    loop([&] {
      walk(Do->getBody());
      visitExpr(Do->getCond());
    });
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
    walk(Range->getInit());
    visitExpr(Range->getRangeInit());
    loop([&] {
      const VarDecl *LV = Range->getLoopVariable();
      if (LV && tracked(LV->getType())) {
        // Elements of a local container live where it says; of anything
        // else, unknown.
        AbsValue V{Residency::Unknown, false};
        if (isContainer(Range->getRangeInit()->getType()))
          V = {eval(Range->getRangeInit()).Where, false};
        Cur[LV] = V;
      }
      walk(Range->getBody());
    });
  } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    walk(Sw->getInit());
    declare(Sw->getConditionVariable());
    visitExpr(Sw->getCond());
    VarState Entry = Cur;
    walk(Sw->getBody());
    Cur = joinStates(Entry, Cur);
  } else if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
    VarState Entry = Cur;
    walk(Try->getTryBlock());
    VarState Out = Cur;
    for (unsigned I = 0; I < Try->getNumHandlers(); ++I) {
      Cur = Entry;
      walk(Try->getHandler(I)->getHandlerBlock());
      Out = joinStates(Out, Cur);
    }
    Cur = std::move(Out);
  } else if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *V = Ret->getRetValue()) {
      visitExpr(V);
      if (tracked(V->getType()))
        Returned = join(Returned, eval(V).Where);
      else if (Api.mentionsTensor(V->getType()))
        Returned = join(Returned, bundle(V));
    }
  } else if (const auto *E = dyn_cast<Expr>(S)) {
    visitExpr(E);
  } else {
    for (const Stmt *Child : S->children())
      walk(Child);
  }
}

void ResidencyWalker::assign(const Expr *LHS, AbsValue V, bool Compound) {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(LHS));
  if (!DRE)
    return;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !tracked(VD->getType()))
    return;
  if (Compound)
    V = evalDecl(VD).joined(V);
  Cur[VD] = V;
}

void ResidencyWalker::visitExpr(const Stmt *S) {
  if (!S)
    return;
  if (const auto *LE = dyn_cast<LambdaExpr>(S)) {
    // The body runs later, as its own function; remember the state here.
    auto [It, New] = RC.LambdaStates.try_emplace(LE->getLambdaClass(), Cur);
    if (!New)
      It->second = joinStates(It->second, Cur);
    for (const Expr *Init : LE->capture_inits())
      visitExpr(Init);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) { // statement expressions
    for (const Decl *D : DS->decls())
      declare(dyn_cast<VarDecl>(D));
    return;
  }
  for (const Stmt *Child : S->children())
    visitExpr(Child);

  // `t = 0` and `t += 1` fill or update t in place: only a tensor or
  // device on the right changes where t lives.
  auto Assign = [&](const Expr *LHS, const Expr *RHS, bool Compound) {
    if (tracked(RHS->getType()))
      assign(LHS, eval(RHS), Compound);
  };
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      trackModuleMove(MC);
      trackContainerInsert(MC);
    }
    trackOutParams(CE);
    if (!ParamsOnHost)
      RC.recordCall(CE, *this);
    if (Hook)
      Hook(CE, *this);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
        Op && Op->getNumArgs() == 2 && Op->isAssignmentOp()) {
      Assign(Op->getArg(0), Op->getArg(1), Op->getOperator() != OO_Equal);
      // std::tie(a, b) = f(...): each tied tensor takes the bundle's place.
      if (const auto *Tie = dyn_cast<CallExpr>(strip(Op->getArg(0))))
        if (const FunctionDecl *FD = Tie->getDirectCallee();
            FD && FD->isInStdNamespace() && FD->getIdentifier() &&
            FD->getName() == "tie") {
          Residency R = bundle(Op->getArg(1));
          for (const Expr *A : Tie->arguments())
            assign(A, {R, false}, /*Compound=*/false);
        }
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Assign(BO->getLHS(), BO->getRHS(), BO->isCompoundAssignmentOp());
  }
}

AbsValue ResidencyWalker::evalDecl(const ValueDecl *D) const {
  AbsValue Unknown{Residency::Unknown, false};
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    if (auto R = Api.deviceName(EC->getName()))
      return {*R, false};
    return {};
  }
  if (const auto *BD = dyn_cast<BindingDecl>(D)) {
    // auto [a, b] = f(...): each binding lives where the bundle does.
    if (const auto *DD = dyn_cast_or_null<VarDecl>(BD->getDecomposedDecl()))
      if (const Expr *Init = DD->getInit())
        return {bundle(Init), false};
    return Unknown;
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return Unknown;
  if (auto It = Cur.find(VD); It != Cur.end())
    return It->second;
  if (Api.isDeviceLikeType(VD->getType()) && VD->getIdentifier())
    if (auto R = Api.deviceName(VD->getName()))
      return {*R, false};
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    if (ParamsOnHost)
      return {Residency::Host, false};
    if (auto Origin = RC.paramOrigin(P))
      return *Origin;
    return Unknown;
  }
  if (VD->hasLocalStorage() && VD->getDeclContext() == Current)
    return {}; // declared later in a loop, or not yet assigned
  // Globals and captured variables: constants may still be readable.
  if (VD->getType().isConstQualified() && VD->getInit() &&
      Api.isDeviceLikeType(VD->getType()))
    return eval(VD->getInit());
  return Unknown;
}

AbsValue ResidencyWalker::eval(const Expr *E) const {
  AbsValue Unknown{Residency::Unknown, false};
  E = strip(E);
  if (!E)
    return Unknown;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return evalDecl(DRE->getDecl());
  if (const auto *SL = dyn_cast<StringLiteral>(E)) {
    if (auto R = Api.deviceString(SL->getString()))
      return {*R, false};
    return Unknown;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (Api.isHostRecordType(ME->getBase()->getType()))
      return {Residency::Host, false};
    if (moduleVar(ME->getBase())) // net->weight
      return {moduleResidency(ME->getBase()), false};
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl())) // static
      return evalDecl(VD);
    return Unknown;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return eval(CO->getTrueExpr()).joined(eval(CO->getFalseExpr()));
  if (const auto *CE = dyn_cast<CallExpr>(E); CE && isModuleType(E->getType()))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->isInStdNamespace() && FD->getIdentifier() &&
        (FD->getName() == "make_shared" || FD->getName() == "make_unique"))
      return {Residency::Host, false}; // a new module: parameters on host
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return evalMemberCall(MC);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return evalOperator(Op);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evalCall(CE);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && isModuleType(E->getType())) {
    // A new module's parameters are made on the host; a copy shares them.
    if (CE->getNumArgs() == 1 && isModuleType(CE->getArg(0)->getType()))
      return eval(CE->getArg(0));
    return {Residency::Host, false};
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(CE->getArg(0)))
      return {}; // an undefined tensor, or options naming no device
    const Expr *Arg = CE->getArg(0);
    // TensorOptions(kFloat), TensorOptions(true): options naming no device.
    if (Api.isDeviceLikeType(E->getType()) && !tracked(Arg->getType()) &&
        !isa<StringLiteral>(strip(Arg)) && !Arg->getType()->isPointerType() &&
        !Api.isDeviceLikeType(strip(Arg)->getType()) &&
        !strip(Arg)->getType()->isRecordType())
      return {};
    return eval(Arg);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
    return eval(UO->getSubExpr()); // &x, *p: the same tensor
  if (isa<CXXNullPtrLiteralExpr>(E))
    return {};
  return Unknown;
}

Residency ResidencyWalker::deviceArgs(const CallExpr *CE) const {
  Residency R = Residency::None;
  for (unsigned I = firstValueArg(CE); I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    if (!isa<CXXDefaultArgExpr>(A) && Api.isDeviceLikeType(A->getType()))
      R = join(R, eval(A).Where);
  }
  return R;
}

void ResidencyWalker::forEachTensor(
    const Expr *E, llvm::function_ref<void(const Expr *)> Fn) const {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return;
  if (Api.isTensorType(E->getType())) {
    Fn(E);
    return;
  }
  const Expr *S = strip(E);
  if (S != E && S) {
    forEachTensor(S, Fn);
    return;
  }
  if (isa<InitListExpr>(E) || isa<CXXStdInitializerListExpr>(E) ||
      isa<CXXConstructExpr>(E) || isa<ImplicitCastExpr>(E)) {
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        forEachTensor(CE, Fn);
    return;
  }
  // std::make_pair(a, b), std::make_tuple, std::tie: look through to the
  // tensors they bundle.
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->isInStdNamespace() && FD->getIdentifier() &&
        llvm::is_contained(
            {"make_pair", "make_tuple", "tie", "forward_as_tuple"},
            FD->getName())) {
      for (const Expr *A : CE->arguments())
        forEachTensor(A, Fn);
      return;
    }
  if (Api.mentionsTensor(E->getType()))
    Fn(E); // a container of tensors: eval() says Unknown
}

Residency ResidencyWalker::bundle(const Expr *E) const {
  // A call returning a pair/tuple of tensors: its tensor arguments, and for
  // a user function its return summary; std::make_pair(a, b): its parts.
  const Expr *S = strip(E);
  if (const auto *CE = dyn_cast_or_null<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && !FD->isInStdNamespace()) {
      Residency Args = tensorArgs(CE).Where;
      if (!Api.isLibraryDecl(FD) && FD->hasBody())
        return join(Args, RC.returnSummary(FD));
      return Args == Residency::None ? Residency::Unknown : Args;
    }
  }
  Residency R = Residency::None;
  bool Any = false;
  forEachTensor(E, [&](const Expr *T) {
    Any = true;
    R = join(R, Api.isTensorType(T->getType()) ? eval(T).Where
                                               : Residency::Unknown);
  });
  return Any ? R : Residency::Unknown;
}

AbsValue ResidencyWalker::tensorArgs(const CallExpr *CE) const {
  AbsValue R;
  for (unsigned I = firstValueArg(CE); I < CE->getNumArgs(); ++I)
    forEachTensor(CE->getArg(I), [&](const Expr *T) {
      AbsValue V = Api.isTensorType(T->getType())
                       ? eval(T)
                       : AbsValue{Residency::Unknown, false};
      R.Where = join(R.Where, V.Where);
    });
  return R;
}

bool ResidencyWalker::mentionsBoolDtype(const CallExpr *CE) const {
  for (const Expr *A : CE->arguments()) {
    A = strip(A);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(A))
      if (DRE->getDecl()->getIdentifier() &&
          Api.isBoolDtypeName(DRE->getDecl()->getName()))
        return true;
  }
  return false;
}

AbsValue ResidencyWalker::evalUserCall(const FunctionDecl *Callee,
                                       const CallExpr *CE) const {
  AbsValue R = tensorArgs(CE);
  R.IsBool = false;
  R.Where = join(R.Where, deviceArgs(CE));
  R.Where = join(R.Where, RC.returnSummary(Callee));
  return R;
}

AbsValue ResidencyWalker::evalMemberCall(const CXXMemberCallExpr *MC) const {
  AbsValue Unknown{Residency::Unknown, false};
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!MD || !Obj)
    return Unknown;
  QualType ObjTy = Obj->getType();
  if (ObjTy->isPointerType())
    ObjTy = ObjTy->getPointeeType();
  llvm::StringRef Name = MD->getIdentifier() ? MD->getName() : "";

  if (Api.isTensorType(ObjTy)) {
    AbsValue Self = eval(Obj);
    if (Api.isDeviceLikeType(MC->getType())) // x.device(), x.options()
      return {Self.Where, false};
    if (Api.isToHostMethod(Name))
      return {Residency::Host, Self.IsBool};
    if (Api.isToDeviceMethod(Name))
      return {Residency::Device, Self.IsBool};
    if (Api.isMoveMethod(Name)) {
      bool ToBool = mentionsBoolDtype(MC);
      Residency Dev = deviceArgs(MC);
      AbsValue Other = tensorArgs(MC); // x.to(other)
      Residency Where = Dev != Residency::None           ? Dev
                        : Other.Where != Residency::None ? Other.Where
                                                         : Self.Where;
      return {Where, ToBool || Self.IsBool};
    }
    AbsValue R = Self;
    R.Where = join(R.Where, tensorArgs(MC).Where);
    R.IsBool = Api.isBoolProducer(Name) ||
               (Self.IsBool && Api.opClass(Name) == OpClass::View);
    return R;
  }
  if (isContainer(ObjTy)) {
    if (Name == "at" || Name == "front" || Name == "back")
      return {eval(Obj).Where, false};
    return Unknown;
  }
  if (Api.isDeviceLikeType(ObjTy)) {
    // TensorOptions().device(d).dtype(t): the device argument decides.
    Residency Dev = deviceArgs(MC);
    AbsValue Self = eval(Obj);
    return {Dev != Residency::None ? Dev : Self.Where, false};
  }
  if (Api.isModuleClass(MD->getParent()) && moduleVar(Obj)) {
    // net.forward(x) on a local module: where its parameters are.
    AbsValue R = tensorArgs(MC);
    return {join(R.Where, moduleResidency(Obj)), false};
  }
  if (!Api.isLibraryDecl(MD) && MD->hasBody())
    return evalUserCall(MD, MC);
  if (const auto *RD = MD->getParent(); RD && Api.isModuleClass(RD)) {
    AbsValue R = tensorArgs(MC);
    return {join(R.Where, Residency::Unknown), false};
  }
  return Unknown;
}

AbsValue ResidencyWalker::evalOperator(const CXXOperatorCallExpr *Op) const {
  AbsValue Unknown{Residency::Unknown, false};
  OverloadedOperatorKind K = Op->getOperator();
  if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
    return eval(Op->getArg(1));
  const FunctionDecl *Callee = Op->getDirectCallee();
  if (K == OO_Call) {
    if (Callee && !Api.isLibraryDecl(Callee))
      return evalUserCall(Callee, Op);
    if (Op->getNumArgs() > 0 &&
        Api.moduleHolderTarget(Op->getArg(0)->getType()))
      return {join(tensorArgs(Op).Where, moduleResidency(Op->getArg(0))),
              false};
    return Unknown;
  }
  if (K == OO_Subscript && Op->getNumArgs() >= 1 &&
      Api.isTensorType(Op->getArg(0)->getType()))
    return eval(Op->getArg(0));
  if (K == OO_Subscript && Op->getNumArgs() >= 1 &&
      isContainer(Op->getArg(0)->getType()))
    return {eval(Op->getArg(0)).Where, false}; // v[i]
  if (Callee && !Api.isLibraryDecl(Callee) && Callee->hasBody())
    return evalUserCall(Callee, Op);
  AbsValue R = tensorArgs(Op);
  if (R.Where == Residency::None)
    return Unknown;
  switch (K) {
  case OO_Less:
  case OO_Greater:
  case OO_LessEqual:
  case OO_GreaterEqual:
  case OO_EqualEqual:
  case OO_ExclaimEqual:
  case OO_Exclaim:
    R.IsBool = true;
    break;
  case OO_Amp:
  case OO_Pipe:
  case OO_Caret:
  case OO_Tilde:
  case OO_AmpAmp:
  case OO_PipePipe: {
    bool AllBool = true;
    for (const Expr *A : Op->arguments())
      if (Api.isTensorType(A->getType()))
        AllBool &= eval(A).IsBool;
    R.IsBool = AllBool;
    break;
  }
  default:
    R.IsBool = false;
  }
  return R;
}

AbsValue ResidencyWalker::evalCall(const CallExpr *CE) const {
  AbsValue Unknown{Residency::Unknown, false};
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return Unknown;
  std::string QN = qualifiedName(FD);
  Residency Dev = deviceArgs(CE);
  if (Api.isFactory(QN))
    return {Dev != Residency::None ? Dev : Residency::Host,
            mentionsBoolDtype(CE)};
  if (Api.isLikeFactory(QN)) {
    if (Dev != Residency::None)
      return {Dev, mentionsBoolDtype(CE)};
    AbsValue R = tensorArgs(CE);
    return {R.Where == Residency::None ? Residency::Unknown : R.Where,
            mentionsBoolDtype(CE)};
  }
  if (Api.isLibraryDecl(FD)) {
    if (Api.isDeviceLikeType(CE->getType()))
      return {Dev, false}; // torch::device(kCUDA), torch::dtype(kFloat)
    AbsValue R = tensorArgs(CE);
    if (R.Where == Residency::None)
      R.Where = Dev != Residency::None ? Dev : Residency::Unknown;
    R.IsBool = FD->getIdentifier() && Api.isBoolProducer(FD->getName());
    return R;
  }
  if (FD->hasBody())
    return evalUserCall(FD, CE);
  return Unknown;
}

} // namespace seam
