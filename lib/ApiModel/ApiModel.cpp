//===- ApiModel.cpp - Rule-pack queries over Clang AST nodes --------------===//
#include "ApiModel/ApiModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace seam {

std::string qualifiedName(const NamedDecl *D) {
  std::string Out;
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx)) {
      if (NS->isInline() || NS->isAnonymousNamespace())
        continue;
      Out = NS->getName().str() + "::" + Out;
    } else if (const auto *RD = dyn_cast<RecordDecl>(Ctx)) {
      if (RD->getIdentifier())
        Out = RD->getName().str() + "::" + Out;
    } else if (isa<TranslationUnitDecl>(Ctx) || isa<LinkageSpecDecl>(Ctx)) {
      continue;
    }
  }
  return Out + D->getNameAsString();
}

const Expr *stripValue(const Expr *E, bool Copies) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    if (const auto *S = dyn_cast<CXXStaticCastExpr>(E))
      E = S->getSubExpr();
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      E = D->getExpr();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E);
        Copies && C && C->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(C))
      E = C->getArg(0);
    if (E == Prev)
      break;
  }
  return E;
}

static void fill(llvm::StringSet<> &Set, const std::vector<std::string> &V) {
  for (const auto &S : V)
    Set.insert(S);
}

ApiModel::ApiModel(RulePack P) : Pack(std::move(P)) {
  fill(Tensor, Pack.TensorTypes);
  fill(DeviceLike, Pack.DeviceLikeTypes);
  fill(HostRecord, Pack.HostRecordTypes);
  fill(Module, Pack.ModuleTypes);
  fill(Holder, Pack.ModuleHolders);
  fill(LibNs, Pack.LibraryNamespaces);
  fill(Factory, Pack.Factories);
  fill(LikeFactory, Pack.LikeFactories);
  fill(ToHost, Pack.ToHostMethods);
  fill(ToDevice, Pack.ToDeviceMethods);
  fill(Move, Pack.MoveMethods);
  fill(BoolProd, Pack.BoolProducers);
  fill(BoolDtype, Pack.BoolDtypeNames);
  fill(Meta, Pack.Metadata);
  fill(Annot, Pack.RegionAnnotations);
  fill(Compile, Pack.CompileFunctions);
  fill(HotMethod, Pack.HotMethods);
  fill(LoopFn, Pack.LoopFunctions);
  for (const auto &N : Pack.HostDeviceNames)
    DeviceNames[N] = Residency::Host;
  for (const auto &N : Pack.DeviceDeviceNames)
    DeviceNames[N] = Residency::Device;
  for (const auto &[Name, Class] : Pack.Ops)
    Ops[Name] = Class;
  for (const auto &[Name, Bytes] : Pack.DtypeBytes)
    Dtypes[Name] = Bytes;
  for (const auto &R : Pack.Triggers) {
    switch (R.Kind) {
    case CallKind::Method:
      MethodRules[R.Name].push_back(&R);
      break;
    case CallKind::Function:
      FunctionRules[R.Name].push_back(&R);
      break;
    case CallKind::Operator:
      OperatorRules[R.Name].push_back(&R);
      break;
    }
  }
}

bool ApiModel::recordMatches(
    const CXXRecordDecl *RD, const llvm::StringSet<> &Names,
    llvm::DenseMap<const CXXRecordDecl *, bool> &Cache) const {
  if (!RD)
    return false;
  RD = RD->getCanonicalDecl();
  if (auto It = Cache.find(RD); It != Cache.end())
    return It->second;
  Cache[RD] = false; // guards against cycles through dependent bases
  bool Result = Names.contains(qualifiedName(RD));
  if (!Result) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      Result = Names.contains(qualifiedName(Spec->getSpecializedTemplate()));
  }
  if (!Result && RD->hasDefinition()) {
    for (const auto &Base : RD->getDefinition()->bases()) {
      if (recordMatches(Base.getType()->getAsCXXRecordDecl(), Names, Cache)) {
        Result = true;
        break;
      }
    }
  }
  Cache[RD] = Result;
  return Result;
}

bool ApiModel::typeMatches(
    QualType T, const llvm::StringSet<> &Names,
    llvm::DenseMap<const CXXRecordDecl *, bool> &Cache) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isDependentType())
    return false;
  return recordMatches(T->getAsCXXRecordDecl(), Names, Cache);
}

bool ApiModel::isTensorType(QualType T) const {
  return typeMatches(T, Tensor, TensorCache);
}

bool ApiModel::isDeviceLikeType(QualType T) const {
  if (T.isNull())
    return false;
  QualType C = T.getNonReferenceType().getCanonicalType();
  if (const auto *ET = C->getAs<EnumType>())
    return DeviceLike.contains(qualifiedName(ET->getDecl()));
  return typeMatches(T, DeviceLike, DeviceCache);
}

bool ApiModel::isHostRecordType(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return typeMatches(T, HostRecord, HostCache);
}

bool ApiModel::mentionsTensor(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (isTensorType(T))
    return true;
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec)
    return false;
  // std::tuple<Tensor, Tensor>: its arguments come as one pack.
  std::function<bool(const TemplateArgument &)> Mentions =
      [&](const TemplateArgument &A) {
        if (A.getKind() == TemplateArgument::Type)
          return mentionsTensor(A.getAsType());
        if (A.getKind() == TemplateArgument::Pack)
          return llvm::any_of(A.pack_elements(), Mentions);
        return false;
      };
  return llvm::any_of(Spec->getTemplateArgs().asArray(), Mentions);
}

bool ApiModel::isModuleClass(const CXXRecordDecl *RD) const {
  return recordMatches(RD, Module, ModuleCache) ||
         recordMatches(RD, Holder, HolderCache);
}

const CXXRecordDecl *ApiModel::moduleHolderTarget(QualType T) const {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    T = T->getPointeeType().getCanonicalType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  // Walk to the holder base (user holders derive from ModuleHolder<Impl>).
  while (RD) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
      if (Holder.contains(qualifiedName(Spec->getSpecializedTemplate()))) {
        const auto &Args = Spec->getTemplateArgs();
        if (Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Type)
          return Args[0].getAsType()->getAsCXXRecordDecl();
        return nullptr;
      }
    }
    if (!RD->hasDefinition() || RD->getDefinition()->getNumBases() == 0)
      return nullptr;
    RD = RD->getDefinition()->bases_begin()->getType()->getAsCXXRecordDecl();
  }
  return nullptr;
}

bool ApiModel::isLibraryDecl(const Decl *D) const {
  const ASTContext &Ctx = D->getASTContext();
  SourceLocation Loc = D->getLocation();
  if (Loc.isValid() && Ctx.getSourceManager().isInSystemHeader(
                           Ctx.getSourceManager().getExpansionLoc(Loc)))
    return true;
  // The namespace path from the outside in, e.g. "seam::rt::detail".
  std::string Path;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C);
        NS && !NS->isInline() && !NS->isAnonymousNamespace())
      Path = NS->getName().str() + (Path.empty() ? "" : "::" + Path);
  if (Path.empty())
    return false;
  llvm::StringRef P(Path);
  if (P == "std" || P.starts_with("std::"))
    return true;
  for (const auto &Entry : LibNs) {
    llvm::StringRef E = Entry.getKey();
    if (P == E || (P.starts_with(E) && P.substr(E.size()).starts_with("::")))
      return true;
  }
  return false;
}

bool ApiModel::isFactory(llvm::StringRef N) const {
  return Factory.contains(N);
}
bool ApiModel::isLikeFactory(llvm::StringRef N) const {
  return LikeFactory.contains(N);
}
bool ApiModel::isToHostMethod(llvm::StringRef N) const {
  return ToHost.contains(N);
}
bool ApiModel::isToDeviceMethod(llvm::StringRef N) const {
  return ToDevice.contains(N);
}
bool ApiModel::isMoveMethod(llvm::StringRef N) const {
  return Move.contains(N);
}
bool ApiModel::isBoolProducer(llvm::StringRef N) const {
  return BoolProd.contains(N);
}
bool ApiModel::isBoolDtypeName(llvm::StringRef N) const {
  return BoolDtype.contains(N);
}
bool ApiModel::isMetadata(llvm::StringRef N) const { return Meta.contains(N); }

std::optional<Residency> ApiModel::deviceName(llvm::StringRef N) const {
  if (auto It = DeviceNames.find(N); It != DeviceNames.end())
    return It->second;
  return std::nullopt;
}

std::optional<Residency> ApiModel::deviceString(llvm::StringRef S) const {
  // "cuda:1" names the same kind of device as "cuda".
  llvm::StringRef Kind = S.split(':').first;
  if (auto R = deviceName(Kind))
    return R;
  return Kind.empty() ? std::nullopt : std::optional(Residency::Device);
}

bool ApiModel::isRegionAnnotated(const FunctionDecl *FD) const {
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (Annot.contains(A->getAnnotation()))
        return true;
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    if (P != FD)
      return isRegionAnnotated(P);
  return false;
}

bool ApiModel::isCompileFunction(const FunctionDecl *FD) const {
  return FD && Compile.contains(qualifiedName(FD));
}

bool ApiModel::isLoopFunction(const FunctionDecl *FD) const {
  return FD && LoopFn.contains(qualifiedName(FD));
}

bool ApiModel::isHotMethod(const FunctionDecl *FD) const {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getIdentifier() || !HotMethod.contains(MD->getName()))
    return false;
  return isModuleClass(MD->getParent());
}

llvm::SmallVector<const CXXMethodDecl *, 2>
ApiModel::holderForwards(const CallExpr *CE) const {
  llvm::SmallVector<const CXXMethodDecl *, 2> Out;
  const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(CE);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
    return Out;
  if (const CXXRecordDecl *Impl = moduleHolderTarget(Op->getArg(0)->getType()))
    for (const CXXMethodDecl *M : Impl->methods())
      if (isHotMethod(M))
        Out.push_back(M);
  return Out;
}

CaptureEdge ApiModel::captureMarker(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return CaptureEdge::None;
  std::string Cls;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    Cls = qualifiedName(MD->getParent());
  std::string Fn = Cls.empty() ? qualifiedName(FD) : FD->getName().str();
  for (const CaptureMarker &M : Pack.CaptureSpans) {
    if (M.Class != Cls)
      continue;
    if (M.Begin == Fn)
      return CaptureEdge::Begin;
    if (M.End == Fn)
      return CaptureEdge::End;
  }
  return CaptureEdge::None;
}

std::optional<TriggerMatch> ApiModel::matchTrigger(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return std::nullopt;
  TriggerMatch M;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    const char *Spelling = getOperatorSpelling(Op->getOperator());
    if (!Spelling)
      return std::nullopt;
    auto It = OperatorRules.find(Spelling);
    if (It == OperatorRules.end() || It->second.empty())
      return std::nullopt;
    M.Rule = It->second.front();
    M.Spelling = std::string("'") + Spelling + "'";
    M.Loc = Op->getOperatorLoc();
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
      // The operator location is ']'; point at '[' instead.
      const SourceManager &SM = FD->getASTContext().getSourceManager();
      SourceLocation Arg = SM.getFileLoc(Op->getArg(1)->getBeginLoc());
      bool Invalid = false;
      const char *P = SM.getCharacterData(Arg, &Invalid);
      for (unsigned Back = 1; !Invalid && Back < 64; ++Back) {
        char C = *(P - Back);
        if (C == '[') {
          M.Loc = Arg.getLocWithOffset(-static_cast<int>(Back));
          break;
        }
        if (C != ' ' && C != '\t' && C != '\n')
          break;
      }
    }
    if (isa<CXXMethodDecl>(FD) && Op->getNumArgs() > 0 &&
        isTensorType(Op->getArg(0)->getType()))
      M.Object = Op->getArg(0); // x[mask]: x is the operand
    return M;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier())
      return std::nullopt;
    auto It = MethodRules.find(MD->getName());
    if (It == MethodRules.end())
      return std::nullopt;
    const Expr *Obj = MC->getImplicitObjectArgument();
    QualType ObjTy = Obj ? Obj->getType() : QualType();
    if (!ObjTy.isNull() && ObjTy->isPointerType())
      ObjTy = ObjTy->getPointeeType();
    for (const TriggerRule *R : It->second) {
      bool ClassOk = R->Class.empty()
                         ? isTensorType(ObjTy)
                         : qualifiedName(MD->getParent()) == R->Class;
      if (!ClassOk)
        continue;
      M.Rule = R;
      M.Object = Obj;
      M.Spelling = "'." + MD->getName().str() + "()'";
      if (const auto *ME =
              dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        M.Loc = ME->getMemberLoc();
      else
        M.Loc = CE->getExprLoc();
      return M;
    }
    return std::nullopt;
  }
  auto It = FunctionRules.find(qualifiedName(FD));
  if (It == FunctionRules.end() || It->second.empty())
    return std::nullopt;
  M.Rule = It->second.front();
  M.Spelling = "'" + FD->getNameAsString() + "()'";
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    M.Loc = DRE->getLocation(); // the name, not its qualifier
  else
    M.Loc = Callee->getExprLoc();
  return M;
}

std::optional<OpClass> ApiModel::opClass(llvm::StringRef Name) const {
  if (auto It = Ops.find(Name); It != Ops.end())
    return It->second;
  return std::nullopt;
}

std::optional<double> ApiModel::dtypeBytes(llvm::StringRef Name) const {
  if (auto It = Dtypes.find(Name); It != Dtypes.end())
    return It->second;
  return std::nullopt;
}

} // namespace seam
