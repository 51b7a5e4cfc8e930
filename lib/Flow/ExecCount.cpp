//===- ExecCount.cpp - Guards to expected executions per iteration --------===//
#include "Flow/ExecCount.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
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

std::optional<int64_t> constant(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().tryExtValue();
  return std::nullopt;
}

/// `X % N` with a constant N > 1: N.
std::optional<int64_t> modulus(const Expr *E, ASTContext &Ctx) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(bare(E));
  if (!BO || BO->getOpcode() != BO_Rem)
    return std::nullopt;
  std::optional<int64_t> N = constant(BO->getRHS(), Ctx);
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

/// What one guard contributes.
struct GuardCount {
  enum { Uncounted, Fraction, Once } Kind = Uncounted;
  double P = 1; ///< probability the guarded side runs
  unsigned Nth = 0;
};

GuardCount countGuard(const Guard &G, const NaturalLoop *L,
                      const llvm::DenseSet<const VarDecl *> &Counters,
                      ASTContext &Ctx) {
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
  if (std::optional<int64_t> N = modulus(C, Ctx)) {
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
    if (std::optional<int64_t> N = modulus(A, Ctx)) {
      std::optional<int64_t> K = constant(B, Ctx);
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

void Frequency::multiply(const Frequency &O) {
  // phrase() uses EveryNth only while it still equals 1 / PerIteration.
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
                      const NaturalLoop *L, ASTContext &Ctx) {
  Frequency Out;

  if (!B)
    return Out;
  static const llvm::DenseSet<const VarDecl *> None;
  const llvm::DenseSet<const VarDecl *> &Counters = L ? counters(F, *L) : None;
  for (const Guard &G : F.guardsOf(B, L)) {
    GuardCount C = countGuard(G, L, Counters, Ctx);

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
