//===- Eval.cpp - Where a tensor or device expression lives now ---------===//
#include "Residency/ResidencyWalker.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

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
         llvm::is_contained(
             {"vector", "deque", "list", "array", "pair", "tuple"},
             Spec->getName()) &&
         Api.mentionsTensor(T);
}

bool ResidencyWalker::isModuleType(QualType T) const {
  return isModuleTyped(Api, T);
}

bool isModuleTyped(const ApiModel &Api, QualType T) {
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
  if (!VD || !VD->hasLocalStorage() || !isModuleType(VD->getType()))
    return nullptr;
  return VD;
}

Residency ResidencyWalker::moduleResidency(const Expr *Obj) const {
  if (const VarDecl *VD = moduleVar(Obj)) {
    if (auto It = Cur.find(VD); It != Cur.end())
      return It->second.Where;
    // A module parameter: where the modules the file passes it live.
    if (const auto *P = dyn_cast<ParmVarDecl>(VD))
      if (std::optional<AbsValue> Origin = RC.paramOrigin(P))
        return Origin->Where;
  }
  return Residency::Unknown; // members, globals, parameters nobody passes
}

AbsValue ResidencyWalker::evalDecl(const ValueDecl *D) const {
  AbsValue Unknown{Residency::Unknown, false};
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    if (auto R = Api.deviceName(EC->getName()))
      return {*R, false};
    return {};
  }
  if (const auto *BD = dyn_cast<BindingDecl>(D)) {
    // Made ready or assigned since it was bound.
    if (auto It = Cur.find(BD); It != Cur.end())
      return It->second;
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
    if (const auto *Base = dyn_cast<DeclRefExpr>(strip(ME->getBase()));
        Base && isContainer(Base->getType()) &&
        isa<FieldDecl>(ME->getMemberDecl()))
      if (const auto *VD = dyn_cast<VarDecl>(Base->getDecl());
          VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
        return {evalDecl(VD).Where, false}; // b.first of a local pair
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
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && Api.isTensorType(E->getType()))
    if (std::optional<AbsValue> V =
            constructedTensor(CE->getConstructor(),
                              llvm::ArrayRef(CE->getArgs(), CE->getNumArgs())))
      return *V;
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

std::optional<AbsValue>
ResidencyWalker::constructedTensor(const CXXConstructorDecl *Ctor,
                                   llvm::ArrayRef<const Expr *> Args) const {
  // A device argument says where the new tensor lives (`array(dims, ptr,
  // afHost)`); else the pack's constructor rule (`Array(0.5f)`).
  Residency Dev = Residency::None;
  for (const Expr *A : Args)
    if (!isa<CXXDefaultArgExpr>(A) && Api.isDeviceLikeType(A->getType()))
      Dev = join(Dev, eval(A).Where);
  if (Dev != Residency::None && !Args.empty() &&
      !Api.isTensorType(Args[0]->getType()))
    return AbsValue{Dev, false};
  if (std::optional<Residency> R = Api.constructed(Ctor, Args))
    return AbsValue{*R, false};
  return std::nullopt;
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
  // net->forward(x) or net(x) on a local module: where its parameters are,
  // as for a module returning one tensor (evalMemberCall, evalOperator).
  if (const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && Api.isModuleClass(MD->getParent()) &&
        moduleVar(MC->getImplicitObjectArgument()))
      return join(tensorArgs(MC).Where,
                  moduleResidency(MC->getImplicitObjectArgument()));
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(S);
      Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0 &&
      Api.moduleHolderTarget(Op->getArg(0)->getType()) &&
      moduleVar(Op->getArg(0)))
    return join(tensorArgs(Op).Where, moduleResidency(Op->getArg(0)));
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
      // A local container (std::get<0>(pair), v.at(i)) says where its
      // elements live.
      AbsValue V = Api.isTensorType(T->getType()) || isContainer(T->getType())
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
  // The object's own type, not the base class the method is declared in
  // (`h.begin()` on a vector deriving from vector_base).
  QualType ObjTy = Obj->IgnoreParenImpCasts()->getType();
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
    R.Ready = false; // a new value, computed from Self
    R.Where = join(R.Where, tensorArgs(MC).Where);
    R.IsBool = Api.isBoolProducer(Name) ||
               (Self.IsBool &&
                Api.opClass(Name, MC->getMethodDecl()) == OpClass::View);
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
    // W(0), a(idx): indexing a tensor with operator() keeps its residency.
    if (Op->getNumArgs() > 0 &&
        Api.isTensorType(Op->getArg(0)->IgnoreParenImpCasts()->getType()))
      return {eval(Op->getArg(0)).Where, false};
    if (Op->getNumArgs() > 0 &&
        Api.moduleHolderTarget(Op->getArg(0)->getType()))
      return {join(tensorArgs(Op).Where, moduleResidency(Op->getArg(0))),
              false};
    return Unknown;
  }
  if (K == OO_Subscript && Op->getNumArgs() >= 1 &&
      Api.isTensorType(Op->getArg(0)->IgnoreParenImpCasts()->getType()))
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
    return {Dev != Residency::None ? Dev : factoryDefault(CE, Residency::Host),
            mentionsBoolDtype(CE)};
  if (Api.isDeviceFactory(QN))
    return {Dev != Residency::None ? Dev
                                   : factoryDefault(CE, Residency::Device),
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
    // A device or stream argument says where an op runs and its result
    // lives (`add(a, b, stream)`).
    if (Dev != Residency::None)
      R.Where = Dev;
    else if (R.Where == Residency::None)
      R.Where = Residency::Unknown;
    R.IsBool = FD->getIdentifier() && Api.isBoolProducer(FD->getName());
    return R;
  }
  if (FD->hasBody())
    return evalUserCall(FD, CE);
  return Unknown;
}

Residency ResidencyWalker::factoryDefault(const CallExpr *CE,
                                          Residency Otherwise) const {
  if (!Current || !Current->getBody())
    return Otherwise;
  if (!Placements) {
    Placements.emplace();
    // Scope objects last to the end of their block; set-default calls to
    // the end of the function.
    SourceLocation FnEnd = Current->getBody()->getEndLoc();
    std::function<void(const Stmt *, SourceLocation)> Scan =
        [&](const Stmt *S, SourceLocation BlockEnd) {
          if (!S)
            return;
          if (const auto *CS = dyn_cast<CompoundStmt>(S))
            BlockEnd = CS->getEndLoc();
          if (const auto *DS = dyn_cast<DeclStmt>(S))
            for (const Decl *D : DS->decls())
              if (const auto *VD = dyn_cast<VarDecl>(D))
                if (const Expr *Dev = Api.placementScope(VD))
                  Placements->push_back({VD->getLocation(), BlockEnd, Dev});
          if (const auto *Call = dyn_cast<CallExpr>(S))
            if (const Expr *Dev = Api.placementDefault(Call))
              Placements->push_back({Call->getBeginLoc(), FnEnd, Dev});
          if (isa<LambdaExpr>(S))
            return; // its body is its own function
          for (const Stmt *Child : S->children())
            Scan(Child, BlockEnd);
        };
    Scan(Current->getBody(), FnEnd);
  }
  if (Placements->empty())
    return Otherwise;
  const SourceManager &SM = Current->getASTContext().getSourceManager();
  SourceLocation Loc = CE->getBeginLoc();
  const Placement *Best = nullptr;
  for (const Placement &P : *Placements)
    if (SM.isBeforeInTranslationUnit(P.Begin, Loc) &&
        !SM.isBeforeInTranslationUnit(P.End, Loc) &&
        (!Best || SM.isBeforeInTranslationUnit(Best->Begin, P.Begin)))
      Best = &P;
  if (!Best)
    return Otherwise;
  Residency R = eval(Best->Device).Where;
  return R == Residency::None ? Otherwise : R;
}

} // namespace seam
