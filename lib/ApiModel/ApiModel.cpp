//===- ApiModel.cpp - Rule-pack queries over Clang AST nodes --------------===//
#include "ApiModel/ApiModel.h"

#include "Basic/ConstantValue.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <map>

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
    // std::move(x) and std::forward<T>(x) are x.
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Copies && Call && Call->getNumArgs() == 1)
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->isInStdNamespace() && FD->getIdentifier() &&
          (FD->getName() == "move" || FD->getName() == "forward"))
        E = Call->getArg(0);
    if (E == Prev)
      break;
  }
  return E;
}

static void fill(llvm::StringSet<> &Set, const std::vector<std::string> &V) {
  for (const auto &S : V)
    Set.insert(S);
}

ApiIndex::ApiIndex(RulePack P) : Pack(std::move(P)) {
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
  fill(DeviceFactory, Pack.DeviceFactories);
  fill(Transform, Pack.Transforms);
  fill(Invoke, Pack.InvokeFunctions);
  for (const PlacementDefault &D : Pack.Defaults)
    (D.Scoped ? DefaultScopes : DefaultCalls)[D.Name] = &D;
  // Rules keep their pack's tensor types; equal scopes share one set.
  std::map<std::vector<std::string>, int> Scopes;
  for (unsigned I = 0; I < Pack.Triggers.size(); ++I) {
    TriggerRule &R = Pack.Triggers[I];
    R.Index = I;
    int Scope = -1;
    if (!R.Scope.empty()) {
      auto [It, New] = Scopes.try_emplace(R.Scope, ScopeSets.size());
      if (New) {
        ScopeSets.emplace_back();
        fill(ScopeSets.back(), R.Scope);
      }
      Scope = It->second;
    }
    RuleScope.push_back(Scope);
    if (R.Kind == CallKind::Conversion)
      ConversionRules.push_back(&R);
    HasEffects |= R.Does != Effect::None;
  }
  for (const auto &N : Pack.HostDeviceNames)
    DeviceNames[N] = Residency::Host;
  for (const auto &N : Pack.DeviceDeviceNames)
    DeviceNames[N] = Residency::Device;
  for (const OpRule &O : Pack.Ops)
    Ops[O.Name].push_back(O);
  for (const auto &N : Pack.TranscendentalOps)
    TranscendentalOps.insert(N);
  for (const auto &N : Pack.MatmulOps)
    MatmulOps.insert(N);
  for (const auto &N : Pack.TransposeOps) {
    TransposeOps.insert(N);
    if (!Ops.count(N))
      Ops[N].push_back({N, OpClass::View, {}});
  }
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
    case CallKind::Constructor:
      ConstructorRules[R.Name].push_back(&R);
      break;
    case CallKind::Conversion:
      break; // ConversionRules, below
    }
  }
}

ApiModel::ApiModel(std::shared_ptr<const ApiIndex> Index)
    : Index(std::move(Index)), Ix(*this->Index),
      ScopeCaches(Ix.ScopeSets.size()) {}

ApiModel::ApiModel(RulePack Pack)
    : ApiModel(std::make_shared<const ApiIndex>(std::move(Pack))) {}

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
  return typeMatches(T, Ix.Tensor, TensorCache);
}

bool ApiModel::isDeviceLikeType(QualType T) const {
  if (T.isNull())
    return false;
  QualType C = T.getNonReferenceType().getCanonicalType();
  if (const auto *ET = C->getAs<EnumType>())
    return Ix.DeviceLike.contains(qualifiedName(ET->getDecl()));
  if (typeMatches(T, Ix.DeviceLike, DeviceCache))
    return true;
  // An alias names a device type too: `using StreamOrDevice =
  // std::variant<...>`.
  for (const Type *Ty = T.getNonReferenceType().getTypePtr(); Ty;) {
    if (const auto *ET = dyn_cast<ElaboratedType>(Ty)) {
      Ty = ET->getNamedType().getTypePtr();
    } else if (const auto *TT = dyn_cast<TypedefType>(Ty)) {
      if (Ix.DeviceLike.contains(qualifiedName(TT->getDecl())))
        return true;
      Ty = TT->getDecl()->getUnderlyingType().getTypePtr();
    } else {
      break;
    }
  }
  return false;
}

bool ApiModel::isHostRecordType(QualType T) const {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return typeMatches(T, Ix.HostRecord, HostCache);
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
  return recordMatches(RD, Ix.Module, ModuleCache) ||
         recordMatches(RD, Ix.Holder, HolderCache);
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
      if (Ix.Holder.contains(qualifiedName(Spec->getSpecializedTemplate()))) {
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

/// The namespace path of \p D from the outside in, e.g.
/// "seam::rt::detail".
static std::string namespacePath(const Decl *D) {
  std::string Path;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C);
        NS && !NS->isInline() && !NS->isAnonymousNamespace())
      Path = NS->getName().str() + (Path.empty() ? "" : "::" + Path);
  return Path;
}

/// Whether namespace path \p Path is \p Ns or nested in it ("at::native"
/// is in "at", "atlas" is not).
static bool inNamespace(llvm::StringRef Path, llvm::StringRef Ns) {
  return Path == Ns ||
         (Path.starts_with(Ns) && Path.substr(Ns.size()).starts_with("::"));
}

bool ApiModel::isLibraryDecl(const Decl *D) const {
  const ASTContext &Ctx = D->getASTContext();
  SourceLocation Loc = D->getLocation();
  if (Loc.isValid() && Ctx.getSourceManager().isInSystemHeader(
                           Ctx.getSourceManager().getExpansionLoc(Loc)))
    return true;
  std::string Path = namespacePath(D);
  if (Path.empty())
    return false;
  if (inNamespace(Path, "std"))
    return true;
  return llvm::any_of(Ix.LibNs, [&](const auto &Entry) {
    return inNamespace(Path, Entry.getKey());
  });
}

bool ApiModel::isFactory(llvm::StringRef N) const {
  return Ix.Factory.contains(N);
}
bool ApiModel::isLikeFactory(llvm::StringRef N) const {
  return Ix.LikeFactory.contains(N);
}
bool ApiModel::isToHostMethod(llvm::StringRef N) const {
  return Ix.ToHost.contains(N);
}
bool ApiModel::isToDeviceMethod(llvm::StringRef N) const {
  return Ix.ToDevice.contains(N);
}
bool ApiModel::isMoveMethod(llvm::StringRef N) const {
  return Ix.Move.contains(N);
}
bool ApiModel::isBoolProducer(llvm::StringRef N) const {
  return Ix.BoolProd.contains(N);
}
bool ApiModel::isBoolDtypeName(llvm::StringRef N) const {
  return Ix.BoolDtype.contains(N);
}
bool ApiModel::isMetadata(llvm::StringRef N) const {
  return Ix.Meta.contains(N);
}

std::optional<Residency> ApiModel::deviceName(llvm::StringRef N) const {
  if (auto It = Ix.DeviceNames.find(N); It != Ix.DeviceNames.end())
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
      if (Ix.Annot.contains(A->getAnnotation()))
        return true;
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    if (P != FD)
      return isRegionAnnotated(P);
  return false;
}

bool ApiModel::isCompileFunction(const FunctionDecl *FD) const {
  return FD && Ix.Compile.contains(qualifiedName(FD));
}

bool ApiModel::isLoopFunction(const FunctionDecl *FD) const {
  return FD && Ix.LoopFn.contains(qualifiedName(FD));
}

bool ApiModel::isHotMethod(const FunctionDecl *FD) const {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getIdentifier() || !Ix.HotMethod.contains(MD->getName()))
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
  for (const CaptureMarker &M : Ix.Pack.CaptureSpans) {
    if (M.Class != Cls)
      continue;
    if (M.Begin == Fn)
      return CaptureEdge::Begin;
    if (M.End == Fn)
      return CaptureEdge::End;
  }
  return CaptureEdge::None;
}

bool ApiModel::ownTensor(QualType T, const TriggerRule *Rule) const {
  if (!Rule || Ix.RuleScope[Rule->Index] < 0)
    return isTensorType(T);
  int S = Ix.RuleScope[Rule->Index];
  return typeMatches(T, Ix.ScopeSets[S], ScopeCaches[S]);
}

/// The names a type answers to: each typedef it is spelled through, its
/// class and class template, and its canonical spelling.
static void typeNames(QualType T, llvm::SmallVectorImpl<std::string> &Out) {
  const Type *Ty = T.getTypePtrOrNull();
  for (unsigned Guard = 0; Ty && Guard < 16; ++Guard) {
    if (const auto *ET = dyn_cast<ElaboratedType>(Ty)) {
      Ty = ET->getNamedType().getTypePtrOrNull();
      continue;
    }
    if (const auto *TT = dyn_cast<TypedefType>(Ty)) {
      Out.push_back(qualifiedName(TT->getDecl()));
      Ty = TT->getDecl()->getUnderlyingType().getTypePtrOrNull();
      continue;
    }
    if (const auto *TS = dyn_cast<TemplateSpecializationType>(Ty);
        TS && TS->isTypeAlias()) {
      if (const TemplateDecl *TD = TS->getTemplateName().getAsTemplateDecl())
        Out.push_back(qualifiedName(TD));
      Ty = TS->getAliasedType().getTypePtrOrNull();
      continue;
    }
    break;
  }
  QualType C = T.getCanonicalType().getUnqualifiedType();
  if (const CXXRecordDecl *RD = C->getAsCXXRecordDecl()) {
    Out.push_back(qualifiedName(RD));
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      Out.push_back(qualifiedName(Spec->getSpecializedTemplate()));
  } else if (const auto *ET = C->getAs<EnumType>()) {
    Out.push_back(qualifiedName(ET->getDecl()));
  }
  LangOptions LO;
  LO.CPlusPlus = true;
  PrintingPolicy PP{LO};
  PP.SuppressTagKeyword = true;
  PP.SuppressInlineNamespace = true;
  PP.FullyQualifiedName = true;
  Out.push_back(C.getAsString(PP));
}

bool ApiModel::matchesPattern(QualType T, llvm::StringRef P,
                              const TriggerRule *Rule) const {
  if (P.consume_front("!"))
    return !matchesPattern(T, P, Rule);
  // `P&` and `P&&`: only that kind of reference to what P matches; without
  // the suffix, references are looked through.
  if (P.size() > 1 && P.ends_with("&")) {
    bool RValue = P.ends_with("&&");
    P = P.drop_back(RValue ? 2 : 1).rtrim();
    if (T.isNull() ||
        (RValue ? !T->isRValueReferenceType() : !T->isLValueReferenceType()))
      return false;
    // `const P&`: a reference to const.
    if (P.consume_front("const ") &&
        !T.getNonReferenceType().isConstQualified())
      return false;
  }
  if (P == "*")
    return true;
  if (T.isNull())
    return false;
  T = T.getNonReferenceType();
  QualType C = T.getCanonicalType().getUnqualifiedType();
  if (P == "tensor")
    return ownTensor(T, Rule);
  if (P == "any-tensor")
    return isTensorType(T);
  if (P == "scalar")
    return C->isArithmeticType() && !C->isEnumeralType();
  if (P == "integer")
    return C->isIntegerType() && !C->isBooleanType() && !C->isEnumeralType();
  if (P == "floating")
    return C->isRealFloatingType();
  if (P == "bool")
    return C->isBooleanType();
  if (P == "device")
    return isDeviceLikeType(T);
  if (P == "void")
    return C->isVoidType();
  auto [It, New] = Globs.try_emplace(P);
  if (New) {
    auto G = llvm::GlobPattern::create(P);
    if (G)
      It->second = std::move(*G);
    else
      llvm::consumeError(G.takeError()); // the loader rejects bad globs
  }
  const std::optional<llvm::GlobPattern> &Glob = It->second;
  if (!Glob)
    return false;
  llvm::SmallVector<std::string, 6> Names;
  typeNames(T.getUnqualifiedType(), Names);
  return llvm::any_of(Names,
                      [&](const std::string &N) { return Glob->match(N); });
}

bool ApiModel::overloadMatches(const FunctionDecl *FD,
                               llvm::ArrayRef<const Expr *> Args,
                               const OverloadFilter &O,
                               const TriggerRule *Rule) const {
  if (O.empty())
    return true;
  int Written = 0;
  for (const Expr *A : Args)
    Written += !isa<CXXDefaultArgExpr>(A);
  if ((O.MinArgs >= 0 && Written < O.MinArgs) ||
      (O.MaxArgs >= 0 && Written > O.MaxArgs))
    return false;
  if (O.Params.size() > FD->getNumParams())
    return false;
  for (unsigned I = 0; I < O.Params.size(); ++I)
    if (!matchesPattern(FD->getParamDecl(I)->getType(), O.Params[I], Rule))
      return false;
  if (!O.Returns.empty() &&
      !(O.Returns == "non-tensor"
            ? !mentionsTensor(FD->getReturnType()) &&
                  !FD->getReturnType()->isVoidType()
            : matchesPattern(FD->getReturnType(), O.Returns, Rule)))
    return false;
  for (const auto &[Index, Value] : O.ArgValues) {
    if (Index >= Args.size() || isa<CXXDefaultArgExpr>(Args[Index]))
      return false;
    std::optional<double> Written =
        constantNumber(Args[Index]->IgnoreImpCasts(), FD->getASTContext());
    if (!Written || *Written != Value)
      return false;
  }
  if (!O.RefQualifier.empty()) {
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    RefQualifierKind K = MD ? MD->getRefQualifier() : RQ_None;
    if ((O.RefQualifier == "&&") != (K == RQ_RValue) ||
        (O.RefQualifier == "&" && K != RQ_LValue))
      return false;
  }
  return true;
}

bool ApiModel::overloadMatches(const FunctionDecl *FD, const CallExpr *CE,
                               const OverloadFilter &O,
                               const TriggerRule *Rule) const {
  llvm::SmallVector<const Expr *, 8> Args(CE->arguments());
  // A member operator's first argument is its object, not an argument.
  if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) && !Args.empty())
    Args.erase(Args.begin());
  return overloadMatches(FD, Args, O, Rule);
}

void ApiModel::candidates(
    const CallExpr *CE, bool ReportingOnly,
    llvm::function_ref<void(const TriggerRule &, const TriggerMatch &)> Fn)
    const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return;
  auto Keep = [&](const TriggerRule *R) {
    return (!ReportingOnly || R->Reports) &&
           overloadMatches(FD, CE, R->Overload, R);
  };
  TriggerMatch M;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    // A module holder's call runs Impl::forward: rules on that method with
    // its class apply (`bag(input, offsets)` is `bag->forward(...)`).
    if (Op->getOperator() == OO_Call)
      for (const CXXMethodDecl *Fwd : holderForwards(CE)) {
        auto MR = Ix.MethodRules.find(Fwd->getName());
        if (MR == Ix.MethodRules.end())
          continue;
        for (const TriggerRule *R : MR->second) {
          if ((ReportingOnly && !R->Reports) ||
              R->Class != qualifiedName(Fwd->getParent()) ||
              !overloadMatches(Fwd, CE, R->Overload, R))
            continue;
          TriggerMatch Each;
          Each.Rule = R;
          Each.Object = Op->getArg(0);
          Each.Spelling = "'" + Fwd->getName().str() + "()'";
          Each.Loc = Op->getBeginLoc();
          Fn(*R, Each);
        }
      }
    const char *Spelling = getOperatorSpelling(Op->getOperator());
    if (!Spelling)
      return;
    auto It = Ix.OperatorRules.find(Spelling);
    if (It == Ix.OperatorRules.end())
      return;
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
    for (const TriggerRule *R : It->second) {
      if (!Keep(R))
        continue;
      if (!R->Operands.empty()) {
        if (R->Operands.size() != Op->getNumArgs())
          continue;
        bool Ok = true;
        for (unsigned I = 0; Ok && I < Op->getNumArgs(); ++I)
          Ok = matchesPattern(Op->getArg(I)->getType(), R->Operands[I], R) ||
               matchesPattern(stripValue(Op->getArg(I))->getType(),
                              R->Operands[I], R);
        if (!Ok)
          continue;
      }
      TriggerMatch Each = M;
      Each.Rule = R;
      if (isa<CXXMethodDecl>(FD) && Op->getNumArgs() > 0 &&
          ownTensor(Op->getArg(0)->getType(), R))
        Each.Object = Op->getArg(0); // x[mask]: x is the operand
      Fn(*R, Each);
    }
    return;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD)
      return;
    const Expr *Obj = MC->getImplicitObjectArgument();
    QualType ObjTy = Obj ? Obj->IgnoreParenImpCasts()->getType() : QualType();
    if (!ObjTy.isNull() && ObjTy->isPointerType())
      ObjTy = ObjTy->getPointeeType();
    auto ClassMatches = [&](const TriggerRule *R) {
      if (R->Class.empty())
        return ownTensor(ObjTy, R);
      return qualifiedName(MD->getParent()) == R->Class;
    };
    if (const auto *CD = dyn_cast<CXXConversionDecl>(MD)) {
      for (const TriggerRule *R : Ix.ConversionRules) {
        if (!Keep(R) || !ClassMatches(R) ||
            !matchesPattern(CD->getConversionType(), R->Name, R))
          continue;
        TriggerMatch Each;
        Each.Rule = R;
        Each.Object = Obj;
        Each.Spelling = "conversion to '" +
                        CD->getConversionType().getCanonicalType().getAsString(
                            PrintingPolicy(FD->getASTContext().getLangOpts())) +
                        "'";
        Each.Loc = Obj ? Obj->getBeginLoc() : CE->getExprLoc();
        Fn(*R, Each);
      }
      return;
    }
    if (!MD->getIdentifier())
      return;
    auto It = Ix.MethodRules.find(MD->getName());
    if (It == Ix.MethodRules.end())
      return;
    M.Object = Obj;
    M.Spelling = "'." + MD->getName().str() + "()'";
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
      M.Loc = ME->getMemberLoc();
    else
      M.Loc = CE->getExprLoc();
    for (const TriggerRule *R : It->second) {
      if (!ClassMatches(R) || !Keep(R))
        continue;
      TriggerMatch Each = M;
      Each.Rule = R;
      Fn(*R, Each);
    }
    return;
  }
  auto It = Ix.FunctionRules.find(qualifiedName(FD));
  if (It == Ix.FunctionRules.end())
    return;
  M.Spelling = "'" + FD->getNameAsString() + "()'";
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    M.Loc = DRE->getLocation(); // the name, not its qualifier
  else
    M.Loc = Callee->getExprLoc();
  for (const TriggerRule *R : It->second) {
    if (!Keep(R))
      continue;
    TriggerMatch Each = M;
    Each.Rule = R;
    Fn(*R, Each);
  }
}

llvm::SmallVector<TriggerMatch, 2>
ApiModel::matchTriggers(const CallExpr *CE) const {
  llvm::SmallVector<TriggerMatch, 2> Out;
  candidates(
      CE, /*ReportingOnly=*/true,
      [&](const TriggerRule &, const TriggerMatch &M) { Out.push_back(M); });
  return Out;
}

llvm::SmallVector<TriggerMatch, 2>
ApiModel::matchTriggers(const CXXConstructExpr *CE) const {
  llvm::SmallVector<TriggerMatch, 2> Out;
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (!Ctor || Ix.ConstructorRules.empty())
    return Out;
  auto It = Ix.ConstructorRules.find(qualifiedName(Ctor->getParent()));
  if (It == Ix.ConstructorRules.end())
    return Out;
  llvm::SmallVector<const Expr *, 4> Args(CE->arguments());
  for (const TriggerRule *R : It->second) {
    if (!R->Reports || !overloadMatches(Ctor, Args, R->Overload, R))
      continue;
    TriggerMatch M;
    M.Rule = R;
    M.Spelling = "constructing a '" + R->Name + "'";
    M.Loc = CE->getLocation();
    Out.push_back(std::move(M));
  }
  return Out;
}

std::optional<TriggerMatch> ApiModel::matchTrigger(const CallExpr *CE) const {
  auto All = matchTriggers(CE);
  if (All.empty())
    return std::nullopt;
  return All.front();
}

Effect ApiModel::materialises(const CallExpr *CE) const {
  Effect Found = Effect::None;
  if (!Ix.HasEffects)
    return Found; // asked at every call of every walk
  candidates(CE, /*ReportingOnly=*/false,
             [&](const TriggerRule &R, const TriggerMatch &) {
               if (R.Does == Effect::MaterialisesAll || Found == Effect::None)
                 Found = R.Does;
             });
  return Found;
}

void ApiModel::forEachMatchedRule(
    const CallExpr *CE,
    llvm::function_ref<void(const TriggerRule &)> Fn) const {
  candidates(CE, /*ReportingOnly=*/false,
             [&](const TriggerRule &R, const TriggerMatch &) { Fn(R); });
}

bool ApiModel::isDeviceFactory(llvm::StringRef N) const {
  return Ix.DeviceFactory.contains(N);
}

bool ApiModel::isTransform(const FunctionDecl *FD) const {
  return FD && Ix.Transform.contains(qualifiedName(FD));
}

bool ApiModel::isInvokeFunction(const FunctionDecl *FD) const {
  return FD && Ix.Invoke.contains(qualifiedName(FD));
}

std::optional<Residency>
ApiModel::constructed(const CXXConstructExpr *CE) const {
  llvm::SmallVector<const Expr *, 4> Args(CE->arguments());
  return constructed(CE->getConstructor(), Args);
}

std::optional<Residency>
ApiModel::constructed(const CXXConstructorDecl *Ctor,
                      llvm::ArrayRef<const Expr *> Args) const {
  if (!Ctor || Ix.Pack.Constructors.empty())
    return std::nullopt;
  std::string Cls = qualifiedName(Ctor->getParent());
  for (const ConstructorRule &R : Ix.Pack.Constructors)
    if (R.Class == Cls && overloadMatches(Ctor, Args, R.Overload, nullptr))
      return R.OnDevice ? Residency::Device : Residency::Host;
  return std::nullopt;
}

const Expr *ApiModel::placementDefault(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || Ix.DefaultCalls.empty())
    return nullptr;
  auto It = Ix.DefaultCalls.find(qualifiedName(FD));
  if (It == Ix.DefaultCalls.end() ||
      static_cast<unsigned>(It->second->Arg) >= CE->getNumArgs())
    return nullptr;
  return CE->getArg(It->second->Arg);
}

const Expr *ApiModel::placementScope(const VarDecl *VD) const {
  if (Ix.DefaultScopes.empty() || !VD->getInit())
    return nullptr;
  const CXXRecordDecl *RD = VD->getType()->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  auto It = Ix.DefaultScopes.find(qualifiedName(RD));
  if (It == Ix.DefaultScopes.end())
    return nullptr;
  const auto *CE = dyn_cast<CXXConstructExpr>(stripValue(VD->getInit()));
  if (!CE || static_cast<unsigned>(It->second->Arg) >= CE->getNumArgs())
    return nullptr;
  return CE->getArg(It->second->Arg);
}

std::optional<OpClass> ApiModel::opClass(llvm::StringRef Name,
                                         const Decl *Callee) const {
  auto It = Ix.Ops.find(Name);
  if (It == Ix.Ops.end())
    return std::nullopt;
  const llvm::SmallVector<OpRule, 1> &Rules = It->second;
  if (Callee && llvm::any_of(Rules, [&](const OpRule &R) {
        return R.Class != Rules.front().Class;
      })) {
    std::string Path = namespacePath(Callee);
    for (const OpRule &R : llvm::reverse(Rules))
      for (llvm::StringRef Ns : R.Scope)
        if (inNamespace(Path, Ns))
          return R.Class;
  }
  return Rules.back().Class;
}

bool ApiModel::isTranscendental(llvm::StringRef Name) const {
  return Ix.TranscendentalOps.contains(Name);
}

bool ApiModel::isMatmul(llvm::StringRef Name) const {
  return Ix.MatmulOps.contains(Name);
}

bool ApiModel::isTranspose(llvm::StringRef Name) const {
  return Ix.TransposeOps.contains(Name);
}

std::optional<double> ApiModel::dtypeBytes(llvm::StringRef Name) const {
  if (auto It = Ix.Dtypes.find(Name); It != Ix.Dtypes.end())
    return It->second;
  return std::nullopt;
}

} // namespace seam
