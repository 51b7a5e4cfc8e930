//===- RegionModel.cpp - Regions, hot paths and capture spans of a TU -----===//
#include "Regions/RegionModel.h"
#include "Regions/Callables.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/GlobPattern.h"
#include <deque>
#include <map>

using namespace clang;

namespace seam {

/// The functions a callable expression may run: a lambda (each
/// instantiation of a generic one), a function or member function named or
/// taken by address, a variable initialized with one, a holder the TU fills
/// (std::function parameter, member, container), and what a transform or
/// compile function returns (`grad(f)` runs f).
static void resolveCallables(const Expr *E, const ApiModel &Api,
                             const CallableFlow *Callables,
                             llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                             unsigned Depth = 0) {
  if (!E || Depth > 8)
    return;
  for (unsigned Guard = 0; Guard < 16; ++Guard) {
    const Expr *N = peelCallable(E);
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(N);
        UO && UO->getOpcode() == UO_AddrOf)
      N = UO->getSubExpr();
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(N);
        CE && CE->getNumArgs() == 1)
      N = CE->getArg(0); // std::function<...>(f)
    if (N == E || !N)
      break;
    E = N;
  }
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    Out.push_back(LE->getCallOperator());
    if (FunctionTemplateDecl *T = LE->getDependentCallOperator())
      for (FunctionDecl *Spec : T->specializations())
        Out.push_back(Spec);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (Api.isTransform(FD) || Api.isCompileFunction(FD))
      for (const Expr *A : Call->arguments())
        resolveCallables(A, Api, Callables, Out, Depth + 1);
    return;
  }
  const ValueDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    D = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(E))
    D = ME->getMemberDecl();
  if (!D)
    return;
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    Out.push_back(FD);
    return;
  }
  if (const auto *VD = dyn_cast<VarDecl>(D);
      VD && VD->getInit() && !isa<ParmVarDecl>(VD))
    resolveCallables(VD->getInit(), Api, Callables, Out, Depth + 1);
  if (Callables)
    for (const FunctionDecl *T : Callables->targetsOf(D))
      Out.push_back(T);
}

namespace {

/// Finds every user-code function body of the TU, lambdas and template
/// instantiations included, without descending into system headers.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(const ApiModel &Api, SourceManager &SM,
            std::vector<const FunctionDecl *> &Out)
      : Api(Api), SM(SM), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !Api.isLibraryDecl(FD))
      Out.push_back(FD);
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr *LE) {
    if (FunctionTemplateDecl *T = LE->getDependentCallOperator())
      for (FunctionDecl *Spec : T->specializations())
        Out.push_back(Spec);
    Out.push_back(LE->getCallOperator());
    return true;
  }

private:
  const ApiModel &Api;
  SourceManager &SM;
  std::vector<const FunctionDecl *> &Out;
};

/// The function whose body holds \p FD (for lambdas and local classes).
const FunctionDecl *enclosingFunction(const FunctionDecl *FD) {
  for (const DeclContext *C = FD->getParent(); C; C = C->getParent())
    if (const auto *F = dyn_cast<FunctionDecl>(C))
      return F;
  return nullptr;
}

/// Scans one body: loops, capture markers, calls and lambda definitions.
/// Lambda bodies and local classes are separate functions; not entered.
class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
public:
  using Base = RecursiveASTVisitor<BodyScanner>;
  std::function<void(const LambdaExpr *)> OnLambda;
  std::function<void(const CallExpr *)> OnCall;
  std::function<void(const CXXConstructExpr *)> OnConstruct;
  std::function<void(const VarDecl *)> OnLocal;

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseLambdaExpr(LambdaExpr *LE) {
    OnLambda(LE);
    // Init-captures run in the enclosing function; the body does not.
    for (const LambdaCapture &C : LE->captures())
      if (LE->isInitCapture(&C))
        if (auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          TraverseStmt(VD->getInit());
    return true;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

  bool VisitCallExpr(CallExpr *CE) {
    OnCall(CE);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    OnConstruct(CE);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
      OnLocal(VD);
    return true;
  }
};

} // namespace

const Stmt *loopBody(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getBody();
  if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    return W->getBody();
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    return D->getBody();
  if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(S))
    return R->getBody();
  return nullptr;
}

RegionModel::RegionModel(ASTContext &Ctx, const ApiModel &Api,
                         const RegionOptions &Opts, FlowCache &Flows)
    : Ctx(Ctx), Api(Api), Flows(Flows) {
  collect();
  std::vector<const FunctionDecl *> Bodies;
  for (const FunctionNode &N : Nodes)
    Bodies.push_back(N.FD);
  Callables = std::make_unique<CallableFlow>(Ctx, Bodies, &Api);
  for (unsigned I = 0; I < Nodes.size(); ++I)
    scanBody(I);
  findRoots(Opts);
  propagate();
}

RegionModel::~RegionModel() = default;

std::optional<unsigned> RegionModel::nodeFor(const FunctionDecl *FD) const {
  if (!FD)
    return std::nullopt;
  auto It = Index.find(FD->getCanonicalDecl());
  if (It == Index.end())
    return std::nullopt;
  return It->second;
}

std::string RegionModel::displayName(const FunctionDecl *FD) const {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda()) {
    const SourceManager &SM = Ctx.getSourceManager();
    PresumedLoc P =
        SM.getPresumedLoc(SM.getFileLoc(MD->getParent()->getLocation()));
    std::string Where = P.isValid() ? std::to_string(P.getLine()) + ":" +
                                          std::to_string(P.getColumn())
                                    : "?";
    const FunctionDecl *Outer = enclosingFunction(FD);
    return (Outer ? displayName(Outer) + "::" : std::string()) + "(lambda at " +
           Where + ")";
  }
  return qualifiedName(FD);
}

unsigned RegionModel::addNode(const FunctionDecl *FD) {
  auto [It, New] = Index.try_emplace(FD->getCanonicalDecl(), Nodes.size());
  if (!New)
    return It->second;
  FunctionNode N;
  N.FD = FD;
  N.Name = displayName(FD);
  N.NameLoc = FD->getLocation();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda())
    N.NameLoc = MD->getParent()->getLocation();
  Nodes.push_back(std::move(N));
  return It->second;
}

void RegionModel::collect() {
  std::vector<const FunctionDecl *> Found;
  Collector C(Api, Ctx.getSourceManager(), Found);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());

  // A template pattern with instantiations is analyzed through them; a
  // pattern nobody instantiates is analyzed as written.
  llvm::DenseSet<const FunctionDecl *> Instantiated;
  for (const FunctionDecl *FD : Found)
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      if (P != FD)
        Instantiated.insert(P->getCanonicalDecl());
  std::function<bool(const FunctionDecl *)> PatternUsed =
      [&](const FunctionDecl *FD) {
        if (Instantiated.count(FD->getCanonicalDecl()))
          return true;
        if (const auto *T = FD->getDescribedFunctionTemplate())
          if (!T->specializations().empty())
            return true;
        if (const FunctionDecl *Outer = enclosingFunction(FD))
          return PatternUsed(Outer);
        return false;
      };
  for (const FunctionDecl *FD : Found) {
    if (FD->isDependentContext() && PatternUsed(FD))
      continue;
    addNode(FD);
  }
  // A virtual call may run any override defined here.
  std::function<void(const CXXMethodDecl *, unsigned)> AddOverridden =
      [&](const CXXMethodDecl *M, unsigned Node) {
        for (const CXXMethodDecl *O : M->overridden_methods()) {
          Overriders[O->getCanonicalDecl()].push_back(Node);
          AddOverridden(O, Node);
        }
      };
  for (unsigned I = 0; I < Nodes.size(); ++I)
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Nodes[I].FD))
      AddOverridden(MD, I);
}

namespace {

/// What scanning one function body finds: its call edges (direct, virtual,
/// through callable holders and transforms, lambdas run by loop functions)
/// and its capture markers.
class CallScanner {
public:
  CallScanner(
      const RegionModel &Model, const ApiModel &Api,
      const CallableFlow *Callables,
      const llvm::DenseMap<const FunctionDecl *, std::vector<unsigned>>
          &Overriders,
      std::vector<std::pair<const Expr *, SourceLocation>> &CompiledTargets)
      : Model(Model), Api(Api), Callables(Callables), Overriders(Overriders),
        CompiledTargets(CompiledTargets) {}

  void addEdge(const FunctionDecl *Callee, SourceLocation Loc, const Stmt *Site,
               bool IsDef, std::string Through = std::string()) {
    const FunctionDecl *Def = nullptr;
    if (!Callee)
      return;
    if (!Callee->hasBody(Def) || !Def) {
      if (!Api.isLibraryDecl(Callee))
        External.push_back({Callee, nullptr, Loc, Site});
      return;
    }
    if (auto N = Model.nodeFor(Def)) {
      CallSite CS{*N, Loc, Site, IsDef};
      CS.Through = std::move(Through);
      Calls.push_back(std::move(CS));
    }
  }

  void onLambda(const LambdaExpr *LE) {
    size_t First = Calls.size();
    if (FunctionTemplateDecl *T = LE->getDependentCallOperator())
      for (FunctionDecl *Spec : T->specializations())
        addEdge(Spec, LE->getBeginLoc(), LE, true);
    addEdge(LE->getCallOperator(), LE->getBeginLoc(), LE, true);
    PendingLambdas.push_back({First, LE});
  }

  /// A local's destructor runs where its scope ends (each iteration, for a
  /// variable declared in a loop body).
  void onLocal(const VarDecl *VD) {
    if (const CXXRecordDecl *RD =
            VD->getType().getNonReferenceType()->getAsCXXRecordDecl())
      if (RD->hasDefinition() && !VD->getType()->isReferenceType())
        if (const CXXDestructorDecl *D = RD->getDestructor())
          addEdge(D, VD->getLocation(), VD->getInit(), false);
  }

  void onCall(const CallExpr *CE);

  /// The loop function's call is visited after its lambda argument: marks
  /// the lambdas it runs once per element.
  void markIteratedLambdas() {
    for (auto [First, LE] : PendingLambdas)
      if (auto It = IteratedLambdas.find(LE->getBeginLoc().getRawEncoding());
          It != IteratedLambdas.end())
        for (size_t C = First; C < Calls.size(); ++C)
          if (Calls[C].IsLambdaDefinition && Calls[C].Loc == LE->getBeginLoc())
            Calls[C].IteratedBy = It->second;
  }

  std::vector<CallSite> Calls;
  std::vector<ExternalCall> External;
  std::vector<std::pair<SourceLocation, SourceLocation>> Begins;
  std::vector<SourceLocation> Ends;

private:
  void throughHolders(const CallExpr *CE, const FunctionDecl *Callee,
                      SourceLocation Loc);
  void throughTransforms(const CallExpr *CE, const FunctionDecl *Callee,
                         SourceLocation Loc);
  void iteratedBy(const CallExpr *CE, const FunctionDecl *Callee,
                  SourceLocation Loc);
  void invokedBy(const CallExpr *CE, const FunctionDecl *Callee,
                 SourceLocation Loc);

  const RegionModel &Model;
  const ApiModel &Api;
  const CallableFlow *Callables;
  const llvm::DenseMap<const FunctionDecl *, std::vector<unsigned>> &Overriders;
  std::vector<std::pair<const Expr *, SourceLocation>> &CompiledTargets;
  std::vector<std::pair<size_t, const LambdaExpr *>> PendingLambdas;
  std::map<unsigned, std::string> IteratedLambdas;
};

void CallScanner::onCall(const CallExpr *CE) {
  switch (Api.captureMarker(CE)) {
  case CaptureEdge::Begin:
    Begins.push_back({CE->getEndLoc(), CE->getExprLoc()});
    return;
  case CaptureEdge::End:
    Ends.push_back(CE->getBeginLoc());
    return;
  case CaptureEdge::None:
    break;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  SourceLocation Loc = CE->getExprLoc();
  if (Api.isCompileFunction(Callee)) {
    for (const Expr *Arg : CE->arguments())
      CompiledTargets.push_back({Arg, Loc});
    return;
  }
  addEdge(Callee, Loc, CE, false);
  throughHolders(CE, Callee, Loc);
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
      MD && MD->isVirtual())
    if (auto It = Overriders.find(MD->getCanonicalDecl());
        It != Overriders.end())
      for (unsigned O : It->second)
        Calls.push_back({O, Loc, CE, false});
  // Overrides in other files: the project pass adds them.
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
      MD && MD->isVirtual() && !Api.isLibraryDecl(MD)) {
    if (External.empty() || External.back().Callee != MD ||
        External.back().Loc != Loc)
      External.push_back({MD, nullptr, Loc, CE});
    External.back().Virtual = true;
  }
  throughTransforms(CE, Callee, Loc);
  iteratedBy(CE, Callee, Loc);
  invokedBy(CE, Callee, Loc);
  // A module holder's operator() forwards to Impl::forward.
  for (const CXXMethodDecl *M : Api.holderForwards(CE))
    addEdge(M, Loc, CE, false);
}

void CallScanner::throughHolders(const CallExpr *CE, const FunctionDecl *Callee,
                                 SourceLocation Loc) {
  // A call through a callable holder (std::function or function-pointer
  // parameter, member callback, container of callbacks) runs whatever this
  // TU puts in it.
  const ValueDecl *H = CallableFlow::invokedHolder(CE);
  // What other files put in a member, a global or a parameter.
  if (H && CallableFlow::sharedHolder(H))
    External.push_back({nullptr, H, Loc, CE});
  if (H)
    for (const FunctionDecl *T : Callables->targetsOf(H))
      if (T != Callee)
        addEdge(T, Loc, CE, false,
                H->getIdentifier() ? H->getName().str() : std::string());
  // f() where f is a std::function (or any functor variable) made from a
  // lambda: the lambda runs.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
      Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
      if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
          Var && Var->getInit())
        if (const auto *LE = dyn_cast<LambdaExpr>(
                stripValue(Var->getInit(), /*Copies=*/true)))
          if (LE->getCallOperator() != Callee)
            addEdge(LE->getCallOperator(), Loc, CE, false);
}

void CallScanner::throughTransforms(const CallExpr *CE,
                                    const FunctionDecl *Callee,
                                    SourceLocation Loc) {
  // Calling what a transform returned calls its argument: `g(x)` after
  // `auto g = grad(f)`, or `value_and_grad(f)(x)`.
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
    return;
  const Expr *Obj = stripValue(Op->getArg(0), /*Copies=*/true);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getInit() && !isa<ParmVarDecl>(VD))
      Obj = stripValue(VD->getInit(), /*Copies=*/true);
  if (const auto *Made = dyn_cast_or_null<CallExpr>(Obj);
      Made && (Api.isTransform(Made->getDirectCallee()) ||
               Api.isCompileFunction(Made->getDirectCallee()))) {
    llvm::SmallVector<const FunctionDecl *, 4> Runs;
    resolveCallables(Made, Api, Callables, Runs);
    for (const FunctionDecl *T : Runs)
      if (T != Callee)
        addEdge(T, Loc, CE, false,
                qualifiedName(Made->getDirectCallee()) + "(...)");
  }
}

void CallScanner::invokedBy(const CallExpr *CE, const FunctionDecl *Callee,
                            SourceLocation Loc) {
  // vjp(f, primals, cotangents), std::invoke(f, x): f runs here, once.
  if (!Api.isInvokeFunction(Callee))
    return;
  for (const Expr *Arg : CE->arguments()) {
    QualType T = Arg->getType();
    if (!T->isFunctionPointerType() && !T->isRecordType() &&
        !T->isFunctionType() && !T->isMemberFunctionPointerType())
      continue;
    llvm::SmallVector<const FunctionDecl *, 4> Runs;
    resolveCallables(Arg, Api, Callables, Runs);
    for (const FunctionDecl *T : Runs)
      if (T != Callee)
        addEdge(T, Loc, CE, false, qualifiedName(Callee) + "(...)");
  }
}

void CallScanner::iteratedBy(const CallExpr *CE, const FunctionDecl *Callee,
                             SourceLocation Loc) {
  // Lambdas handed to std::for_each and the like run once per element; so
  // do functions, function pointers and callables held in variables.
  if (!Api.isLoopFunction(Callee))
    return;
  for (const Expr *Arg : CE->arguments()) {
    if (const auto *LE = dyn_cast<LambdaExpr>(
            Arg->IgnoreParenImpCasts()->IgnoreImplicit())) {
      IteratedLambdas[LE->getBeginLoc().getRawEncoding()] =
          qualifiedName(Callee);
      continue;
    }
    if (!Arg->getType()->isFunctionPointerType() &&
        !Arg->getType()->isRecordType() && !Arg->getType()->isFunctionType())
      continue;
    llvm::SmallVector<const FunctionDecl *, 4> Runs;
    resolveCallables(Arg, Api, Callables, Runs);
    for (const FunctionDecl *T : Runs) {
      size_t Before = Calls.size(), BeforeExternal = External.size();
      addEdge(T, Loc, CE, false);
      for (size_t C = Before; C < Calls.size(); ++C)
        Calls[C].IteratedBy = qualifiedName(Callee);
      for (size_t C = BeforeExternal; C < External.size(); ++C)
        External[C].IteratedBy = qualifiedName(Callee);
    }
  }
}

/// Loops are the cycles of the CFG, not loop keywords: `do { } while (0)`
/// in a macro is not one.
void addLoops(FunctionNode &N) {
  if (!N.Flow)
    return;
  for (const NaturalLoop &NL : N.Flow->loops()) {
    LoopInfo L;
    L.S = NL.Statement;
    L.Keyword = NL.Keyword;
    L.Natural = &NL;
    if (NL.Statement)
      L.Hot = NL.Statement->getSourceRange();
    N.Loops.push_back(L);
  }
}

/// Each capture begin with the first end after it (else the body's end).
void addCaptureSpans(
    FunctionNode &N, const SourceManager &SM,
    std::vector<std::pair<SourceLocation, SourceLocation>> Begins,
    std::vector<SourceLocation> Ends) {
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
  };
  llvm::sort(Begins, [&](const auto &A, const auto &B) {
    return Before(A.first, B.first);
  });
  llvm::sort(Ends, Before);
  for (auto [B, Marker] : Begins) {
    SourceLocation E = N.FD->getBody()->getEndLoc();
    for (SourceLocation Cand : Ends)
      if (Before(B, Cand)) {
        E = Cand;
        break;
      }
    N.Spans.push_back({Marker, B, E});
  }
}

} // namespace

void RegionModel::scanBody(unsigned Node) {
  const FunctionDecl *FD = Nodes[Node].FD;
  CallScanner Scan(*this, Api, Callables.get(), Overriders, CompiledTargets);
  BodyScanner S;
  S.OnLambda = [&](const LambdaExpr *LE) { Scan.onLambda(LE); };
  S.OnConstruct = [&](const CXXConstructExpr *CE) {
    Scan.addEdge(CE->getConstructor(), CE->getBeginLoc(), CE, false);
  };
  S.OnLocal = [&](const VarDecl *VD) { Scan.onLocal(VD); };
  S.OnCall = [&](const CallExpr *CE) { Scan.onCall(CE); };
  S.TraverseStmt(FD->getBody());
  Scan.markIteratedLambdas();
  // Lambdas defined in a default argument or member initializer are rare;
  // constructors' initializers run in the constructor.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten())
        S.TraverseStmt(Init->getInit());

  FunctionNode &N = Nodes[Node];
  N.Calls = std::move(Scan.Calls);
  N.External = std::move(Scan.External);
  N.Flow = Flows.get(FD);
  addLoops(N);
  addCaptureSpans(N, Ctx.getSourceManager(), std::move(Scan.Begins),
                  std::move(Scan.Ends));
}

void RegionModel::findRoots(const RegionOptions &Opts) {
  std::vector<std::pair<std::string, llvm::GlobPattern>> Globs;
  for (const std::string &G : Opts.RegionGlobs)
    if (auto P = llvm::GlobPattern::create(G))
      Globs.emplace_back(G, std::move(*P));
    else
      llvm::consumeError(P.takeError()); // validated by the CLI
  for (FunctionNode &N : Nodes) {
    if (Api.isRegionAnnotated(N.FD)) {
      N.IsRegionRoot = true;
      N.RegionWhy = "annotated as a compiled region";
    } else {
      for (const auto &[Text, G] : Globs)
        if (G.match(N.Name)) {
          N.IsRegionRoot = true;
          N.RegionWhy = "matches --region '" + Text + "'";
          break;
        }
    }
    if (Api.isHotMethod(N.FD))
      N.IsHotRoot = true;
  }
  // Callables passed to compile(...): lambdas, functions, or variables
  // initialized with a lambda.
  for (const auto &[Arg, Loc] : CompiledTargets) {
    llvm::SmallVector<const FunctionDecl *, 4> Targets;
    resolveCallables(Arg, Api, Callables.get(), Targets);
    for (const FunctionDecl *FD : Targets) {
      const FunctionDecl *Def = FD->getDefinition();
      if (auto N = nodeFor(Def ? Def : FD)) {
        Nodes[*N].IsRegionRoot = true;
        Nodes[*N].RegionWhy = "passed to a compile function";
        if (Nodes[*N].CompiledAt.isInvalid())
          Nodes[*N].CompiledAt = Loc;
      }
    }
  }
}

void RegionModel::propagate() {
  // Breadth-first from the roots, so each reach records a shortest chain.
  auto Run = [&](Reach FunctionNode::*Which, std::deque<unsigned> Queue) {
    while (!Queue.empty()) {
      unsigned N = Queue.front();
      Queue.pop_front();
      for (unsigned C = 0; C < Nodes[N].Calls.size(); ++C) {
        unsigned Callee = Nodes[N].Calls[C].Callee;
        Reach &R = Nodes[Callee].*Which;
        if (R.Reached)
          continue;
        R = {true, static_cast<int>(N), static_cast<int>(C),
             (Nodes[N].*Which).Root};
        Queue.push_back(Callee);
      }
    }
  };

  std::deque<unsigned> Regions, Hot, Capture;
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    FunctionNode &N = Nodes[I];
    if (N.IsRegionRoot) {
      N.RegionReach = {true, -1, -1, static_cast<int>(I)};
      Regions.push_back(I);
    }
    if (N.IsRegionRoot || N.IsHotRoot) {
      N.HotReach = {true, -1, -1, static_cast<int>(I)};
      Hot.push_back(I);
    }
  }
  // Calls made inside loops or capture spans seed their callees.
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    for (unsigned C = 0; C < Nodes[I].Calls.size(); ++C) {
      const CallSite &CS = Nodes[I].Calls[C];
      FunctionNode &Callee = Nodes[CS.Callee];
      if (!Callee.HotReach.Reached &&
          (runsRepeatedly(I, CS.Site, CS.Loc) || !CS.IteratedBy.empty())) {
        Callee.HotReach = {true, static_cast<int>(I), static_cast<int>(C), -1};
        Hot.push_back(CS.Callee);
      }
      if (!Callee.CaptureReach.Reached && captureAt(I, CS.Loc)) {
        Callee.CaptureReach = {true, static_cast<int>(I), static_cast<int>(C),
                               -1};
        Capture.push_back(CS.Callee);
      }
    }
  }
  Run(&FunctionNode::RegionReach, std::move(Regions));
  Run(&FunctionNode::HotReach, std::move(Hot));
  Run(&FunctionNode::CaptureReach, std::move(Capture));
}

bool RegionModel::contains(SourceRange R, SourceLocation L) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = SM.getExpansionLoc(R.getBegin());
  SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
  SourceLocation X = SM.getExpansionLoc(L);
  if (B.isInvalid() || E.isInvalid() || X.isInvalid())
    return false;
  return !SM.isBeforeInTranslationUnit(X, B) &&
         !SM.isBeforeInTranslationUnit(E, X);
}

bool RegionModel::inAnyLoop(unsigned Node, const Stmt *Site,
                            SourceLocation Loc) const {
  // As loopsAt(), without counting guards: seeding hot paths asks this for
  // every call of the TU.
  const FunctionNode &N = Nodes[Node];
  const CFGBlock *B = N.Flow && Site ? N.Flow->blockOf(Site) : nullptr;
  if (B && !N.Flow->reachable(B))
    return false;
  if (B && !N.Flow->loopsAt(B).empty())
    return true;
  for (const LoopInfo &L : N.Loops) {
    const Stmt *Body = B ? loopBody(L.S) : L.S;
    if (Body && contains(Body->getSourceRange(), Loc))
      return true;
  }
  return false;
}

std::optional<LoopVisit> RegionModel::repeatingLoop(unsigned Node,
                                                    const Stmt *Site,
                                                    SourceLocation Loc) const {
  if (!inAnyLoop(Node, Site, Loc))
    return std::nullopt;
  for (const LoopVisit &V : loopsAt(Node, Site, Loc))
    if (!V.Freq.OncePerLoop)
      return V;
  return std::nullopt;
}

std::vector<PathStep> RegionModel::hotPathOf(unsigned Node) const {
  if (!Nodes[Node].HotReach.Reached)
    return {};
  unsigned Calls = 0;
  return pathTo(Node, &FunctionNode::HotReach, PathStep::HotRoot, Calls);
}

bool RegionModel::runsRepeatedly(unsigned Node, const Stmt *Site,
                                 SourceLocation Loc) const {
  // Guards are counted only for calls in a loop: this is asked for every
  // call of the TU.
  if (!inAnyLoop(Node, Site, Loc))
    return false;
  return llvm::any_of(loopsAt(Node, Site, Loc),
                      [](const LoopVisit &V) { return !V.Freq.OncePerLoop; });
}

std::vector<LoopVisit> RegionModel::loopsAt(unsigned Node, const Stmt *Site,
                                            SourceLocation Loc,
                                            const ParamValues *Params) const {
  std::vector<LoopVisit> Out;
  const FunctionNode &N = Nodes[Node];
  if (!N.Flow || !Site)
    return Out;
  const CFGBlock *B = N.Flow->blockOf(Site);
  if (!B) {
    // Not an element of the CFG (a default argument, say): the loops it is
    // written in.
    for (const LoopInfo &L : N.Loops)
      if (L.S && contains(L.Hot, Loc))
        Out.push_back({&L, {}});
    llvm::sort(Out, [&](const LoopVisit &A, const LoopVisit &C) {
      return A.Loop != C.Loop && contains(C.Loop->Hot, A.Loop->Hot.getBegin());
    });
    return Out;
  }
  if (!N.Flow->reachable(B))
    return Out; // dead code runs nowhere
  std::vector<unsigned> Cycling = N.Flow->loopsAt(B);
  // Loops whose body holds the site although it does not cycle with them
  // (a `break` or `return` follows it): at most once per loop.
  for (const LoopInfo &L : N.Loops) {
    const Stmt *Body = loopBody(L.S);
    if (!Body || L.Natural->contains(B) ||
        !contains(Body->getSourceRange(), Loc))
      continue;
    if (!Cycling.empty() &&
        !N.Loops[Cycling.front()].Natural->contains(L.Natural->Header))
      continue;
    LoopVisit V{&L, {}};
    V.Freq.OncePerLoop = true;
    V.Freq.OnceWhy = "it leaves the loop after it runs";
    Out.push_back(std::move(V));
  }
  llvm::sort(Out, [&](const LoopVisit &A, const LoopVisit &C) {
    return A.Loop != C.Loop && contains(C.Loop->Hot, A.Loop->Hot.getBegin());
  });
  const CFGBlock *Inner = B;
  for (unsigned K : Cycling) {
    const LoopInfo &L = N.Loops[K];
    Out.push_back({&L, frequencyOf(*N.Flow, Inner, L.Natural, Ctx, Params)});
    Inner = L.Natural->Header;
  }
  return Out;
}

/// A loop step of a path.
static PathStep loopStep(const LoopVisit &V, bool RunsCall) {
  PathStep P{PathStep::Loop, V.Loop->Keyword};
  P.RunsCall = RunsCall;
  P.Freq = V.Freq;
  return P;
}

const CaptureSpan *RegionModel::captureAt(unsigned Node,
                                          SourceLocation L) const {
  for (const CaptureSpan &S : Nodes[Node].Spans)
    if (contains(SourceRange(S.Begin, S.End), L))
      return &S;
  return nullptr;
}

std::vector<PathStep>
RegionModel::pathTo(unsigned Node, Reach FunctionNode::*Which,
                    PathStep::Kind RootKind, unsigned &NumCalls,
                    std::vector<LoopVisit> *SeedLoops) const {
  std::vector<PathStep> Rev;
  NumCalls = 0;
  unsigned Cur = Node;
  for (unsigned Guard = 0; Guard <= Nodes.size(); ++Guard) {
    const Reach &R = Nodes[Cur].*Which;
    if (R.Pred < 0) {
      const FunctionNode &Root = Nodes[Cur];
      bool Region = RootKind == PathStep::RegionRoot || Root.IsRegionRoot;
      PathStep P{Region ? PathStep::RegionRoot : PathStep::HotRoot,
                 Root.NameLoc};
      P.Function = Root.Name;
      P.Why = Root.RegionWhy;
      Rev.push_back(std::move(P));
      break;
    }
    const FunctionNode &Caller = Nodes[R.Pred];
    const CallSite &CS = Caller.Calls[R.PredCall];
    ++NumCalls;
    // Loops around any call on the path repeat the site too.
    std::vector<LoopVisit> Around = loopsAt(R.Pred, CS.Site, CS.Loc);
    if (SeedLoops)
      SeedLoops->insert(SeedLoops->end(), Around.begin(), Around.end());
    PathStep Call{PathStep::Call, CS.Loc};
    Call.Function = Nodes[Cur].Name;
    Call.Caller = Caller.Name;
    Call.Through = CS.Through;
    Call.LambdaDefinition = CS.IsLambdaDefinition;
    Rev.push_back(std::move(Call));
    if (!(Caller.*Which).Reached) {
      // A seed: the call sits in a loop or capture span of its caller.
      if (Which == &FunctionNode::CaptureReach) {
        if (const CaptureSpan *S = captureAt(R.Pred, CS.Loc))
          Rev.push_back({PathStep::Capture, S->Marker});
      } else if (!CS.IteratedBy.empty()) {
        PathStep P{PathStep::Loop, CS.Loc};
        P.IteratedBy = CS.IteratedBy;
        Rev.push_back(std::move(P));
      } else if (!Around.empty()) {
        // The innermost loop; one that runs it once still counts, once.
        Rev.push_back(loopStep(Around.front(), /*RunsCall=*/true));
      }
      break;
    }
    Cur = R.Pred;
  }
  std::reverse(Rev.begin(), Rev.end());
  return Rev;
}

SiteContext RegionModel::contextAt(unsigned Node, const Stmt *Site,
                                   SourceLocation Loc) const {
  SiteContext C;
  const FunctionNode &N = Nodes[Node];
  C.LocalLoops = loopsAt(Node, Site, Loc);
  if (C.LocalLoops.empty() && N.Flow)
    C.PerCall = frequencyOf(*N.Flow, N.Flow->blockOf(Site), nullptr, Ctx);
  if (N.RegionReach.Reached) {
    C.Region = Nodes[N.RegionReach.Root].Name;
    C.RegionRoot = Nodes[N.RegionReach.Root].FD;
    C.RegionPath = pathTo(Node, &FunctionNode::RegionReach,
                          PathStep::RegionRoot, C.RegionCalls);
  }
  if (const CaptureSpan *S = captureAt(Node, Loc)) {
    C.Capture = true;
    C.CapturePath = {{PathStep::Capture, S->Marker}};
  } else if (N.CaptureReach.Reached) {
    C.Capture = true;
    C.CapturePath = pathTo(Node, &FunctionNode::CaptureReach, PathStep::Capture,
                           C.CaptureCalls);
  }
  // A loop that runs the line at most once (it breaks after it, or a test
  // of the counter against one value) does not make it hot; one around
  // that loop, a forward or a caller's loop can.
  auto Repeats = llvm::find_if(
      C.LocalLoops, [](const LoopVisit &V) { return !V.Freq.OncePerLoop; });
  if (Repeats != C.LocalLoops.end()) {
    C.Hot = true;
    C.HotPath = {loopStep(*Repeats, /*RunsCall=*/false)};
  } else if (N.HotReach.Reached) {
    C.Hot = true;
    C.HotPath = pathTo(Node, &FunctionNode::HotReach, PathStep::HotRoot,
                       C.HotCalls, &C.SeedLoops);
  }
  return C;
}

} // namespace seam
