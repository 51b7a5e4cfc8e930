//===- ExecCount.cpp - Guards to expected executions per iteration --------===//
#include "Flow/ExecCount.h"

#include "Basic/ConstantValue.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/DenseSet.h"
#include <cmath>

using namespace clang;

namespace seam {
namespace {

const Expr *bare(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXMemberCallExpr>(N);
        C && isa_and_nonnull<CXXConversionDecl>(C->getMethodDecl()))
      N = C->getImplicitObjectArgument()->IgnoreParenImpCasts();
    if (N == E)
      break;
    E = N;
  }
  return E;
}

/// \p E's value when it is a constant, or (with \p Params) a parameter or
/// unchanged local bound there, or a field of such a local (`cfg.steps`).
std::optional<int64_t> constant(const Expr *E, ASTContext &Ctx,
                                const ParamValues *Params = nullptr) {
  if (std::optional<int64_t> V = constantInt(E, Ctx))
    return V;
  if (!E || E->isValueDependent() || !Params)
    return std::nullopt;
  E = bare(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (auto It = Params->Vars.find(V); It != Params->Vars.end())
        return It->second;
  // `cfg.steps` with cfg an unchanged local.
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          if (auto It = Params->Fields.find({V, F}); It != Params->Fields.end())
            return It->second;
  return std::nullopt;
}

/// `X % N` with a constant N > 1: N.
std::optional<int64_t> modulus(const Expr *E, ASTContext &Ctx,
                               const ParamValues *Params) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(bare(E));
  if (!BO || BO->getOpcode() != BO_Rem)
    return std::nullopt;
  std::optional<int64_t> N = constant(BO->getRHS(), Ctx, Params);
  if (!N || *N < 2 || *N > (int64_t(1) << 40))
    return std::nullopt;
  return N;
}

const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(bare(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

/// Integer variables stepped by ++, --, += or -= inside the loop, and
/// neither declared nor assigned there: the counter of a loop nested in
/// it starts again every iteration, so `i == k` runs once per iteration
/// of the outer loop, not once per outer loop.
const llvm::DenseSet<const VarDecl *> &counters(const FunctionFlow &F,
                                                const NaturalLoop &L) {
  if (L.Counters)
    return *L.Counters;
  llvm::DenseSet<const VarDecl *> &Out = L.Counters.emplace();
  llvm::DenseSet<const VarDecl *> Reset;
  for (const CFGBlock *B : F.reversePostOrder()) {
    if (!L.contains(B))
      continue;
    for (const CFGElement &El : *B) {
      auto S = El.getAs<CFGStmt>();
      if (!S)
        continue;
      if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            Reset.insert(VD);
      if (const auto *BO = dyn_cast<BinaryOperator>(S->getStmt());
          BO && BO->getOpcode() == BO_Assign)
        if (const VarDecl *VD = varOf(BO->getLHS()))
          Reset.insert(VD);
      const Expr *Target = nullptr;
      if (const auto *UO = dyn_cast<UnaryOperator>(S->getStmt());
          UO && UO->isIncrementDecrementOp())
        Target = UO->getSubExpr();
      else if (const auto *CA = dyn_cast<CompoundAssignOperator>(S->getStmt());
               CA && (CA->getOpcode() == BO_AddAssign ||
                      CA->getOpcode() == BO_SubAssign))
        Target = CA->getLHS();
      if (const VarDecl *VD = varOf(Target);
          VD && VD->getType()->isIntegerType())
        Out.insert(VD);
    }
  }
  for (const VarDecl *VD : Reset)
    Out.erase(VD);
  return Out;
}

bool mentions(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == VD;
  for (const Stmt *C : S->children())
    if (mentions(C, VD))
      return true;
  return false;
}

std::optional<int64_t> evaluateAt(const Expr *E, const VarDecl *VD, int64_t V,
                                  ASTContext &Ctx, const ParamValues *Params);

/// `for (T i = A; i < B; i += K)` with constant A, B and K (any of <, <=,
/// >, >=, != and ++, --, +=, -=; a bound may be a parameter in \p Params):
/// the counter and the values it takes.
struct CountedFor {
  const VarDecl *Counter = nullptr;
  int64_t Start = 0, Step = 0, Trips = 0;
};

std::optional<CountedFor> countedFor(const Stmt *S, ASTContext &Ctx,
                                     const ParamValues *Params) {
  const auto *For = dyn_cast_or_null<ForStmt>(S);
  if (!For)
    return std::nullopt;
  CountedFor Out;
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  if (!DS || !DS->isSingleDecl())
    return std::nullopt;
  Out.Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!Out.Counter || !Out.Counter->getType()->isIntegerType())
    return std::nullopt;
  std::optional<int64_t> Start = constant(Out.Counter->getInit(), Ctx, Params);
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Start || !Cond || varOf(Cond->getLHS()) != Out.Counter)
    return std::nullopt;
  // The bound: a constant, or arithmetic over constants and parameters.
  std::optional<int64_t> End =
      mentions(Cond->getRHS(), Out.Counter)
          ? std::nullopt
          : evaluateAt(Cond->getRHS(), Out.Counter, 0, Ctx, Params);
  const Expr *Inc =
      For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp() && varOf(U->getSubExpr()) == Out.Counter)
    Out.Step = U->isIncrementOp() ? 1 : -1;
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           C && varOf(C->getLHS()) == Out.Counter &&
           (C->getOpcode() == BO_AddAssign || C->getOpcode() == BO_SubAssign))
    Out.Step = constant(C->getRHS(), Ctx, Params).value_or(0) *
               (C->getOpcode() == BO_SubAssign ? -1 : 1);
  // Bounds and step within 2^40, so that no value walked overflows.
  constexpr int64_t Far = int64_t(1) << 40;
  auto Near = [&](int64_t V) { return V <= Far && V >= -Far; };
  if (!End || Out.Step == 0 || !Near(Out.Step) || !Near(*Start) ||
      !Near(*End) || *End - *Start > (int64_t(1) << 20) ||
      *Start - *End > (int64_t(1) << 20))
    return std::nullopt;
  Out.Start = *Start;
  // Walk it: at most 2^20 values, and the bound is constant.
  auto Holds = [&](int64_t V) {
    switch (Cond->getOpcode()) {
    case BO_LT:
      return V < *End;
    case BO_LE:
      return V <= *End;
    case BO_GT:
      return V > *End;
    case BO_GE:
      return V >= *End;
    case BO_NE:
      return V != *End;
    default:
      return false;
    }
  };
  if (!Cond->isComparisonOp() || Cond->getOpcode() == BO_EQ)
    return std::nullopt;
  for (int64_t V = Out.Start; Holds(V); V += Out.Step)
    if (++Out.Trips > (int64_t(1) << 20))
      return std::nullopt;
  return Out;
}

/// \p E with the counter \p VD at \p V, for integer arithmetic,
/// comparisons and logic over the counter, constants and the parameters
/// in \p Params; nothing else.
std::optional<int64_t> evaluateAt(const Expr *E, const VarDecl *VD, int64_t V,
                                  ASTContext &Ctx, const ParamValues *Params) {
  E = bare(E);
  if (!E)
    return std::nullopt;
  if (!mentions(E, VD))
    if (std::optional<int64_t> C = constant(E, Ctx, Params))
      return C; // else arithmetic over the parameters, below
  if (VD && varOf(E) == VD)
    return V;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<int64_t> X = evaluateAt(U->getSubExpr(), VD, V, Ctx, Params);
    if (!X)
      return std::nullopt;
    if (U->getOpcode() == UO_LNot)
      return int64_t(!*X);
    if (U->getOpcode() == UO_Minus)
      return -*X;
    return std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  std::optional<int64_t> A = evaluateAt(BO->getLHS(), VD, V, Ctx, Params);
  if (!A)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd && !*A)
    return 0;
  if (BO->getOpcode() == BO_LOr && *A)
    return 1;
  std::optional<int64_t> B = evaluateAt(BO->getRHS(), VD, V, Ctx, Params);
  if (!B)
    return std::nullopt;
  constexpr int64_t Big = int64_t(1) << 40; // no overflow in +, -, *
  if (*A > Big || *A < -Big || *B > Big || *B < -Big)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return *A + *B;
  case BO_Sub:
    return *A - *B;
  case BO_Mul:
    return *A * *B;
  case BO_Div:
    return *B ? std::optional<int64_t>(*A / *B) : std::nullopt;
  case BO_Rem:
    return *B ? std::optional<int64_t>(*A % *B) : std::nullopt;
  case BO_LT:
    return int64_t(*A < *B);
  case BO_LE:
    return int64_t(*A <= *B);
  case BO_GT:
    return int64_t(*A > *B);
  case BO_GE:
    return int64_t(*A >= *B);
  case BO_EQ:
    return int64_t(*A == *B);
  case BO_NE:
    return int64_t(*A != *B);
  case BO_LAnd:
  case BO_LOr:
    return int64_t(*B != 0);
  default:
    return std::nullopt;
  }
}

/// In a counted `for` loop, guards over its counter and constants alone are
/// counted exactly by walking the counter's values: `i > 0 && i % 4 == 0`
/// with i stepping by 2 from 0 to 20 runs 4 times in 10, which the guards
/// counted one by one (9 in 10 times 1 in 4) would not say.
std::optional<Frequency> walkedFrequency(const std::vector<Guard> &Guards,
                                         const NaturalLoop *L, ASTContext &Ctx,
                                         const ParamValues *Params) {
  if (!L || Guards.empty())
    return std::nullopt;
  std::optional<CountedFor> For = countedFor(L->Statement, Ctx, Params);
  if (!For || For->Trips < 2)
    return std::nullopt;
  for (const Guard &G : Guards)
    if (G.Switch || !mentions(G.Condition, For->Counter))
      return std::nullopt;
  int64_t Hits = 0, First = -1, Gap = -1, Last = -1;
  bool Even = true;
  for (int64_t I = 0; I < For->Trips; ++I) {
    int64_t V = For->Start + I * For->Step;
    bool Runs = true;
    for (const Guard &G : Guards) {
      std::optional<int64_t> C =
          evaluateAt(G.Condition, For->Counter, V, Ctx, Params);
      if (!C)
        return std::nullopt;
      Runs &= (*C != 0) == G.WhenTrue;
    }
    if (!Runs)
      continue;
    ++Hits;
    if (First < 0)
      First = I;
    else if (Gap < 0)
      Gap = I - Last;
    else
      Even &= I - Last == Gap;
    Last = I;
  }
  Frequency Out;
  if (Hits == 0) {
    // Counting one call's runs (parameters bound): it does not run there.
    // Otherwise the guards' own estimate stands (a line never reached is
    // still a finding).
    if (!Params)
      return std::nullopt;
    Out.PerIteration = 0;
    return Out;
  }
  if (Hits == 1) {
    Out.OncePerLoop = true;
    return Out;
  }
  Out.PerIteration = double(Hits) / double(For->Trips);
  if (Even && Gap > 0 && Hits * Gap == For->Trips) {
    Out.EveryNth = static_cast<unsigned>(Gap);
    Out.FirstRun = First;
  }
  return Out;
}

/// What one guard contributes.
struct GuardCount {
  enum { Uncounted, Fraction, Once } Kind = Uncounted;
  double P = 1; ///< probability the guarded side runs
  unsigned Nth = 0;
};

GuardCount countGuard(const Guard &G, const NaturalLoop *L,
                      const llvm::DenseSet<const VarDecl *> &Counters,
                      ASTContext &Ctx, const ParamValues *Params) {
  GuardCount Out;
  if (G.Switch)
    return Out;
  bool WhenTrue = G.WhenTrue;
  const Expr *C = bare(G.Condition);
  while (const auto *UO = dyn_cast_or_null<UnaryOperator>(C)) {
    if (UO->getOpcode() != UO_LNot)
      break;
    WhenTrue = !WhenTrue;
    C = bare(UO->getSubExpr());
  }
  if (!C)
    return Out;
  // The guarded side runs with probability P; every Nth time when P is 1/N.
  auto Side = [&](double PTrue, int64_t N) {
    Out.Kind = GuardCount::Fraction;
    Out.P = WhenTrue ? PTrue : 1 - PTrue;
    if (std::fabs(Out.P * double(N) - 1) < 1e-9)
      Out.Nth = static_cast<unsigned>(N);
  };
  // `i % N` alone is true when it is not zero.
  if (std::optional<int64_t> N = modulus(C, Ctx, Params)) {
    Side(1 - 1.0 / double(*N), *N);
    return Out;
  }
  const auto *BO = dyn_cast<BinaryOperator>(C);
  if (!BO || (BO->getOpcode() != BO_EQ && BO->getOpcode() != BO_NE))
    return Out;
  bool Eq = BO->getOpcode() == BO_EQ;
  for (int Flip = 0; Flip < 2; ++Flip) {
    const Expr *A = Flip ? BO->getRHS() : BO->getLHS();
    const Expr *B = Flip ? BO->getLHS() : BO->getRHS();
    if (std::optional<int64_t> N = modulus(A, Ctx, Params)) {
      std::optional<int64_t> K = constant(B, Ctx, Params);
      if (!K || *K < 0 || *K >= *N)
        return Out;
      double P = 1.0 / double(*N);
      Side(Eq ? P : 1 - P, *N);
      return Out;
    }
    // The loop counter against one value: once per loop (or all but once).
    if (const VarDecl *VD = varOf(A);
        L && VD && Counters.count(VD) && !mentions(B, VD)) {
      if (Eq == WhenTrue) {
        Out.Kind = GuardCount::Once;
        Out.P = 0;
      } else {
        Out.Kind = GuardCount::Fraction;
        Out.P = 1; // every iteration but one
      }
      return Out;
    }
  }
  return Out;
}

std::string ordinal(unsigned N) {
  const char *Suffix = "th";
  if (N % 100 < 11 || N % 100 > 13) {
    if (N % 10 == 1)
      Suffix = "st";
    else if (N % 10 == 2)
      Suffix = "nd";
    else if (N % 10 == 3)
      Suffix = "rd";
  }
  return std::to_string(N) + Suffix;
}

} // namespace

std::optional<int64_t> integerValue(const Expr *E, ASTContext &Ctx,
                                    const ParamValues *Params) {
  return evaluateAt(E, /*VD=*/nullptr, 0, Ctx, Params);
}

std::vector<const VarDecl *> unchangedLocals(const FunctionDecl *FD,
                                             ASTContext &Ctx) {
  std::vector<const VarDecl *> Out;
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body)
    return Out;
  std::vector<const VarDecl *> Candidates;
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue; // a lambda's locals belong to its own body
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->hasLocalStorage() && V->hasInit() &&
            !V->getType().isVolatileQualified() &&
            !V->getType()->isReferenceType() &&
            (V->getType()->isIntegerType() ||
             V->getType()->getAsStructureType()))
          Candidates.push_back(V);
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  if (Candidates.empty())
    return Out;
  ExprMutationAnalyzer Mutations(*Body, Ctx);
  for (const VarDecl *V : Candidates)
    if (!Mutations.isMutated(V))
      Out.push_back(V);
  // In source order, so that one local's initializer can read another.
  llvm::sort(Out, [&](const VarDecl *A, const VarDecl *B) {
    return Ctx.getSourceManager().isBeforeInTranslationUnit(A->getLocation(),
                                                            B->getLocation());
  });
  return Out;
}

void bindLocals(llvm::ArrayRef<const VarDecl *> Locals, ASTContext &Ctx,
                ParamValues &Values) {
  auto ValueOf = [&](const Expr *E) -> std::optional<int64_t> {
    if (const auto *D = dyn_cast_or_null<CXXDefaultInitExpr>(E))
      E = D->getExpr();
    if (!E || !E->getType()->isIntegerType())
      return std::nullopt;
    return integerValue(E, Ctx, &Values);
  };
  for (const VarDecl *V : Locals) {
    const Expr *Init = V->getInit()->IgnoreImplicit();
    if (V->getType()->isIntegerType()) {
      if (std::optional<int64_t> X = ValueOf(Init))
        Values.Vars[V] = *X;
      continue;
    }
    const auto *RD = V->getType()->getAsCXXRecordDecl();
    if (!RD || RD->isUnion() || !RD->hasDefinition() || RD->getNumBases())
      continue;
    const auto *List = dyn_cast<InitListExpr>(Init);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Init)) {
      // Only a constructor that runs no code of its own: the members keep
      // the initializers written in the struct.
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (!Ctor->isDefaultConstructor() ||
          !(Ctor->isTrivial() || Ctor->isDefaulted()))
        continue;
    } else if (!List) {
      continue;
    }
    for (const FieldDecl *F : RD->fields()) {
      unsigned I = F->getFieldIndex();
      const Expr *E =
          List ? (I < List->getNumInits() ? List->getInit(I) : nullptr)
               : F->getInClassInitializer();
      if (std::optional<int64_t> X = ValueOf(E))
        Values.Fields[{V, F}] = *X;
    }
  }
}

void Frequency::multiply(const Frequency &O) {
  // phrase() uses EveryNth only while it still equals 1 / PerIteration.
  FirstRun = O.everyTime() ? FirstRun : everyTime() ? O.FirstRun : -1;
  EveryNth = (EveryNth && O.EveryNth) ? 0 : std::max(EveryNth, O.EveryNth);
  PerIteration *= O.PerIteration;
  if (O.OncePerLoop && !OncePerLoop) {
    OncePerLoop = true;
    OnceWhy = O.OnceWhy;
  }
  Uncounted.insert(Uncounted.end(), O.Uncounted.begin(), O.Uncounted.end());
}

std::string Frequency::phrase(llvm::StringRef Unit) const {
  std::string U = Unit.str();
  if (OncePerLoop)
    return U == "call" ? "once per call" : "once per loop";
  if (EveryNth && std::fabs(PerIteration * EveryNth - 1) < 1e-9)
    return "every " + ordinal(EveryNth) + " " + U;
  if (PerIteration < 1) {
    double Inv = 1 / PerIteration;
    if (std::fabs(Inv - std::round(Inv)) < 1e-6 && Inv < 1e12)
      return "1 in " + std::to_string(static_cast<long long>(std::round(Inv))) +
             " " + U + "s";
    char Buf[48];
    std::snprintf(Buf, sizeof(Buf), "%.3g%% of %ss", PerIteration * 100,
                  U.c_str());
    return Buf;
  }
  return "every " + U;
}

Frequency frequencyOf(const FunctionFlow &F, const CFGBlock *B,
                      const NaturalLoop *L, ASTContext &Ctx,
                      const ParamValues *Params) {
  Frequency Out;

  if (!B)
    return Out;
  static const llvm::DenseSet<const VarDecl *> None;
  const llvm::DenseSet<const VarDecl *> &Counters = L ? counters(F, *L) : None;
  std::vector<Guard> Guards = F.guardsOf(B, L);
  if (std::optional<Frequency> Walked = walkedFrequency(Guards, L, Ctx, Params))
    return *Walked;
  for (const Guard &G : Guards) {
    GuardCount C = countGuard(G, L, Counters, Ctx, Params);

    switch (C.Kind) {
    case GuardCount::Uncounted:
      Out.Uncounted.push_back(G.Condition);
      break;
    case GuardCount::Once:
      if (!Out.OncePerLoop) {
        Out.OncePerLoop = true;
        Out.OnceWhy.clear(); // a test of the counter: "once per loop"
      }
      break;
    case GuardCount::Fraction: {
      Frequency One;
      One.PerIteration = C.P;
      One.EveryNth = C.Nth;
      Out.multiply(One);
      break;
    }
    }
  }
  return Out;
}

} // namespace seam
