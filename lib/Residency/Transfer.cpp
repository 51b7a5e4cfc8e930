//===- Transfer.cpp - Residency transfer functions, one per CFG element ---===//
//
// The transfer table: each entry matches one kind of CFG element and
// updates the state with a small handler. The CFG is built with every
// expression as its own element, in evaluation order, so a handler never
// recurses into sub-expressions: they were transferred before it.
//
//===----------------------------------------------------------------------===//
#include "Residency/ResidencyWalker.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace seam {

static const Expr *strip(const Expr *E) { return stripValue(E); }

/// How well \p Arg fits a parameter of type \p Param without overload
/// resolution: 2 the same type, 1 a standard conversion between builtins
/// or pointers, 0 something else (a user conversion, or none).
static int fit(QualType Param, const Expr *Arg) {
  QualType P =
      Param.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  QualType A = Arg->getType().getCanonicalType().getUnqualifiedType();
  if (P == A)
    return 2;
  if ((P->isArithmeticType() && A->isArithmeticType()) ||
      (P->isPointerType() &&
       (A->isPointerType() || A->isArrayType() || A->isNullPtrType())))
    return 1;
  return 0;
}

/// The constructor of \p Elem that an emplace call runs with \p Args (the
/// library's body that calls it is not parsed): the one whose parameters
/// the arguments fit best, when exactly one does. Copies and moves count
/// only when the one argument is an element itself.
static const CXXConstructorDecl *
emplacedConstructor(QualType Elem, llvm::ArrayRef<const Expr *> Args) {
  const CXXRecordDecl *RD = Elem->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  const CXXConstructorDecl *Best = nullptr;
  int BestScore = -1;
  bool Tie = false;
  for (const CXXConstructorDecl *C : RD->getDefinition()->ctors()) {
    if (C->isDeleted() || Args.size() < C->getMinRequiredArguments() ||
        (Args.size() > C->getNumParams() && !C->isVariadic()))
      continue;
    if (C->isCopyOrMoveConstructor() &&
        !(Args.size() == 1 &&
          Args[0]->getType().getCanonicalType().getUnqualifiedType() == Elem))
      continue;
    int Score = 0;
    for (unsigned I = 0; I < Args.size() && I < C->getNumParams(); ++I)
      Score += fit(C->getParamDecl(I)->getType(), Args[I]);
    if (Score > BestScore) {
      Best = C;
      BestScore = Score;
      Tie = false;
    } else if (Score == BestScore) {
      Tie = true;
    }
  }
  return Tie ? nullptr : Best;
}

llvm::ArrayRef<ResidencyWalker::TransferRule> ResidencyWalker::transferTable() {
  static const TransferRule Table[] = {
      {[](const Stmt *S) { return isa<LambdaExpr>(S); },
       &ResidencyWalker::onLambda},
      {[](const Stmt *S) { return isa<DeclStmt>(S); },
       &ResidencyWalker::onDecl},
      {[](const Stmt *S) { return isa<ReturnStmt>(S); },
       &ResidencyWalker::onReturn},
      {[](const Stmt *S) { return isa<CallExpr>(S); },
       &ResidencyWalker::onCall},
      {[](const Stmt *S) { return isa<CXXConstructExpr>(S); },
       &ResidencyWalker::onConstruct},
      {[](const Stmt *S) {
         const auto *BO = dyn_cast<BinaryOperator>(S);
         return BO && BO->isAssignmentOp();
       },
       &ResidencyWalker::onAssign},
  };
  return Table;
}

void ResidencyWalker::transfer(const Stmt *S) {
  for (const TransferRule &R : transferTable())
    if (R.Matches(S)) {
      (this->*R.Apply)(S);
      return;
    }
}

void ResidencyWalker::onLambda(const Stmt *S) {
  // The body runs later, as its own function; remember the state here.
  const auto *LE = cast<LambdaExpr>(S);
  if (ParamsOnHost)
    return; // a summary's made-up parameters say nothing of real calls
  auto [It, New] = RC.LambdaStates.try_emplace(LE->getLambdaClass(), Cur);
  if (New) {
    RC.markChanged();
    return;
  }
  VarState J = joinStates(It->second, Cur);
  if (J.size() != It->second.size() || llvm::any_of(J, [&](const auto &KV) {
        return It->second.lookup(KV.first) != KV.second;
      })) {
    It->second = std::move(J);
    RC.markChanged();
  }
}

void ResidencyWalker::onDecl(const Stmt *S) {
  for (const Decl *D : cast<DeclStmt>(S)->decls())
    declare(dyn_cast<VarDecl>(D));
}

void ResidencyWalker::onReturn(const Stmt *S) {
  const Expr *V = cast<ReturnStmt>(S)->getRetValue();
  if (!V || !Collecting)
    return;
  if (tracked(V->getType()))
    Returned = join(Returned, eval(V).Where);
  else if (Api.mentionsTensor(V->getType()))
    Returned = join(Returned, bundle(V));
}

void ResidencyWalker::onConstruct(const Stmt *S) {
  // A construction can be a trigger (`host_vector<float> h = d;`).
  if (Hook && Collecting)
    Hook(cast<CXXConstructExpr>(S), *this);
}

void ResidencyWalker::onCall(const Stmt *S) {
  const auto *CE = cast<CallExpr>(S);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    trackModuleMove(MC);
    trackContainerInsert(MC);
  }
  trackOutParams(CE);
  if (!ParamsOnHost)
    RC.recordCall(CE, *this);
  if (Hook && Collecting)
    Hook(CE, *this);
  markReady(CE);
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!Op || Op->getNumArgs() != 2 || !Op->isAssignmentOp())
    return;
  assignFrom(Op->getArg(0), Op->getArg(1), Op->getOperator() != OO_Equal);
  // std::tie(a, b) = f(...), std::forward_as_tuple(a, std::tie(b, c)) =
  // f(...): each tied tensor takes the bundle's place.
  if (isTie(Op->getArg(0)))
    assignTied(Op->getArg(0), {bundle(Op->getArg(1)), false});
}

void ResidencyWalker::markReady(const CallExpr *CE) {
  Effect E = Api.materialises(CE);
  if (E == Effect::None)
    return;
  if (E == Effect::MaterialisesAll) {
    // `sync()`: every tensor computed so far is ready.
    for (auto &[VD, V] : Cur)
      if (Api.isTensorType(VD->getType()))
        V.Ready = true;
    return;
  }
  auto Mark = [&](const Expr *E) {
    forEachTensor(E, [&](const Expr *T) {
      // A variable, or a name a structured binding made (`auto [loss,
      // grads] = f(); eval(loss);`).
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(T)))
        if (isa<VarDecl, BindingDecl>(DRE->getDecl())) {
          AbsValue V = evalDecl(DRE->getDecl());
          V.Ready = true;
          Cur[DRE->getDecl()] = V;
        }
    });
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Mark(MC->getImplicitObjectArgument());
  for (const Expr *A : CE->arguments())
    Mark(A);
}

bool ResidencyWalker::isTie(const Expr *E) const {
  const auto *Tie = dyn_cast_or_null<CallExpr>(strip(E));
  const FunctionDecl *FD = Tie ? Tie->getDirectCallee() : nullptr;
  return FD && FD->isInStdNamespace() && FD->getIdentifier() &&
         (FD->getName() == "tie" || FD->getName() == "forward_as_tuple");
}

void ResidencyWalker::assignTied(const Expr *Tie, AbsValue V) {
  for (const Expr *A : cast<CallExpr>(strip(Tie))->arguments()) {
    if (isTie(A))
      assignTied(A, V);
    else
      assign(A, V, /*Compound=*/false);
  }
}

void ResidencyWalker::onAssign(const Stmt *S) {
  const auto *BO = cast<BinaryOperator>(S);
  assignFrom(BO->getLHS(), BO->getRHS(), BO->isCompoundAssignmentOp());
}

void ResidencyWalker::assignFrom(const Expr *LHS, const Expr *RHS,
                                 bool Compound) {
  // `t = 0` and `t += 1` fill or update t in place: only a tensor or
  // device on the right changes where t lives.
  if (tracked(RHS->getType()))
    assign(LHS, eval(RHS), Compound);
}

void ResidencyWalker::declareLoopVariable(const VarDecl *LV) {
  if (!tracked(LV->getType()))
    return;
  // Elements of a local container live where it says; of anything else,
  // unknown.
  AbsValue V{Residency::Unknown, false};
  auto It = RangeOf.find(LV);
  if (It != RangeOf.end() && isContainer(It->second->getType()))
    V = {eval(It->second).Where, false};
  Cur[LV] = V;
}

void ResidencyWalker::trackOutParams(const CallExpr *CE) {
  // A local passed by non-const reference may come back holding anything:
  // a tensor to a user function, a container to any function.
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return;
  // Accessors that take a reference only to hand back a part of it.
  if (FD->isInStdNamespace() && FD->getIdentifier() &&
      llvm::is_contained({"get", "begin", "end", "rbegin", "rend", "size",
                          "data", "tie", "ref", "cref", "addressof", "as_const",
                          "forward_as_tuple"},
                         FD->getName()))
    return;
  unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
  // What a module's method writes back comes from its arguments and its
  // parameters, which live where the module does (as what it returns:
  // evalMemberCall): `net.forward(x)` with `forward(Tensor &x)`.
  Residency Written = Residency::Unknown;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    if (const auto *MD = MC->getMethodDecl();
        MD && Api.isModuleClass(MD->getParent()))
      if (Residency R = moduleResidency(MC->getImplicitObjectArgument());
          R == Residency::Host || R == Residency::Device)
        Written = R;
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
      Cur[VD].Where = join(Cur[VD].Where, Written);
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
  // An element built in place from what is not a tensor takes where its
  // constructor puts it (`v.emplace_back(dims, ptr)`).
  llvm::SmallVector<const Expr *, 4> Args(MC->arguments());
  if (MD->getName() == "emplace" && !Args.empty())
    Args.erase(Args.begin()); // the position
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      VD->getType().getNonReferenceType()->getAsCXXRecordDecl());
  if (MD->getName().starts_with("emplace") && Spec &&
      Spec->getTemplateArgs().size() > 0 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
      llvm::none_of(Args, [&](const Expr *A) {
        return Api.mentionsTensor(A->getType());
      })) {
    QualType Elem = Spec->getTemplateArgs()[0]
                        .getAsType()
                        .getCanonicalType()
                        .getUnqualifiedType();
    if (Api.isTensorType(Elem))
      if (const CXXConstructorDecl *Ctor = emplacedConstructor(Elem, Args))
        if (std::optional<AbsValue> E = constructedTensor(Ctor, Args)) {
          Cur[VD].Where = join(Cur[VD].Where, E->Where);
          return;
        }
  }
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

void ResidencyWalker::declare(const VarDecl *VD) {
  if (!VD)
    return;
  // The initializer's own elements came before this one in the CFG.
  if (VD->isCXXForRangeDecl()) {
    declareLoopVariable(VD);
    return;
  }
  // Bound again (each iteration of a loop): its names hold the new bundle.
  if (const auto *DD = dyn_cast<DecompositionDecl>(VD))
    for (const BindingDecl *B : DD->bindings())
      Cur.erase(B);
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

void ResidencyWalker::assign(const Expr *LHS, AbsValue V, bool Compound) {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(LHS));
  if (!DRE)
    return;
  if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
    if (!tracked(BD->getType()))
      return;
    if (Compound)
      V = evalDecl(BD).joined(V);
    Cur[BD] = V;
    return;
  }
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !tracked(VD->getType()))
    return;
  if (Compound)
    V = evalDecl(VD).joined(V);
  Cur[VD] = V;
}

} // namespace seam
