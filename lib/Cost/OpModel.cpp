//===- OpModel.cpp - The op sequence of a compiled region -----------------===//
#include "Cost/OpModel.h"

#include "Basic/ConstantValue.h"
#include "Flow/FunctionFlow.h"

#include <cmath>
#include <functional>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace seam {

std::optional<std::string>
parseShapeHint(llvm::StringRef Text, const ApiModel &Api, ShapeHints &Hints) {
  auto [Name, Rest] = Text.split('=');
  Name = Name.trim();
  if (Name.empty() || Rest.empty())
    return "expected NAME=DIMS[:DTYPE], e.g. x=64x1024:f16";
  auto [Dims, Dtype] = Rest.split(':');
  TensorSize Hint;
  Hint.Elements = 1;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Dims.split(Parts, 'x');
  for (llvm::StringRef D : Parts) {
    int64_t V = 0;
    if (D.trim().getAsInteger(10, V) || V < 0)
      return "'" + D.str() +
             "' is not a dimension (expected NAME=DIMS[:DTYPE])";
    Hint.Elements *= static_cast<double>(V);
    Hint.Dims.push_back(V);
  }
  std::optional<double> Size =
      Dtype.empty() ? Api.dtypeBytes("default") : Api.dtypeBytes(Dtype);
  if (!Size)
    return "unknown dtype '" + Dtype.str() + "'";
  Hint.ElementBytes = *Size;
  Hints[Name.str()] = std::move(Hint);
  return std::nullopt;
}

static const Expr *strip(const Expr *E) {
  return stripValue(E, /*Copies=*/true);
}

static std::optional<int64_t> intValue(const Expr *E, ASTContext &Ctx,
                                       const ParamValues *Params = nullptr,
                                       const TripHints *Trips = nullptr) {
  if (std::optional<int64_t> V = constantInt(E, Ctx))
    return V;
  if (!E || E->isValueDependent())
    return std::nullopt;
  if (Params) // `steps`, `steps - 1` with the call's argument for steps
    if (std::optional<int64_t> V = integerValue(E, Ctx, Params))
      return V;
  // --trips: a bound read from a variable, parameter or member by name.
  if (Trips) {
    const Expr *S = E->IgnoreParenImpCasts();
    const NamedDecl *D = nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      D = DRE->getDecl();
    else if (const auto *ME = dyn_cast<MemberExpr>(S))
      D = ME->getMemberDecl();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
             MC && MC->getNumArgs() == 0) // cfg.steps(), v.size()
      D = MC->getMethodDecl();
    if (D && D->getIdentifier())
      if (auto It = Trips->find(D->getName().str()); It != Trips->end())
        return It->second;
  }
  return std::nullopt;
}

std::optional<std::string> parseTripHint(llvm::StringRef Text,
                                         TripHints &Hints) {
  auto [Name, Value] = Text.split('=');
  Name = Name.trim();
  int64_t N;
  if (Name.empty() ||
      !llvm::all_of(Name,
                    [](char C) { return llvm::isAlnum(C) || C == '_'; }) ||
      llvm::isDigit(Name.front()))
    return std::string("expected NAME=COUNT with NAME a variable, parameter "
                       "or member, e.g. num_steps=1000");
  if (Value.trim().getAsInteger(10, N) || N < 0)
    return std::string("expected a whole number of iterations after '=', "
                       "e.g. num_steps=1000");
  Hints[Name.str()] = N;
  return std::nullopt;
}

namespace {
/// The function or lambda body that holds \p S.
const Stmt *enclosingBody(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  for (int Depth = 0; Depth < 256 && !Parents.empty(); ++Depth) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>())
      return FD->getBody();
    if (const auto *LE = P.get<LambdaExpr>())
      return LE->getBody();
    Parents = Ctx.getParents(P);
  }
  return nullptr;
}

/// `continue` in \p S that continues the loop \p S is the body of (not
/// one nested in it).
bool continuesLoop(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return false;
  for (const Stmt *C : S->children())
    if (continuesLoop(C))
      return true;
  return false;
}

/// The step of counter \p V when \p S is `++V`, `V++`, `--V`, `V--`,
/// `V += C` or `V -= C` with a constant C; 0 otherwise.
int64_t stepOf(const Stmt *S, const VarDecl *V, ASTContext &Ctx) {
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return 0;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->isIncrementDecrementOp() && IsV(U->getSubExpr()))
    return U->isIncrementOp() ? 1 : -1;
  if (const auto *C = dyn_cast<CompoundAssignOperator>(E);
      C && IsV(C->getLHS()) &&
      (C->getOpcode() == BO_AddAssign || C->getOpcode() == BO_SubAssign)) {
    std::optional<int64_t> N = constantInt(C->getRHS(), Ctx);
    return N ? *N * (C->getOpcode() == BO_SubAssign ? -1 : 1) : 0;
  }
  return 0;
}
} // namespace

/// The trip count of a counter going from \p Start towards \p End by
/// \p Step while `counter Op End` holds (Op one of <, <=, != counting up,
/// >, >=, != counting down), as a `for` loop runs it; none for another Op
/// or a zero step. In double: bounds near INT64_MIN/MAX must not overflow.
static std::optional<double> stepTrips(int64_t Start, int64_t End,
                                       BinaryOperatorKind Op, int64_t Step) {
  if (Step == 0)
    return std::nullopt;
  bool Up = Step > 0;
  double Span = Up ? static_cast<double>(End) - static_cast<double>(Start)
                   : static_cast<double>(Start) - static_cast<double>(End);
  if (Op == (Up ? BO_LE : BO_GE))
    Span += 1;
  else if (Op != (Up ? BO_LT : BO_GT) && Op != BO_NE)
    return std::nullopt;
  double Stride = Up ? static_cast<double>(Step) : -static_cast<double>(Step);
  return Span <= 0 ? 0.0 : std::ceil(Span / Stride);
}

/// `while (i < N) { ...; ++i; }` and `do { ...; ++i; } while (i < N)`: a
/// local integer counter with a constant start, stepped by one statement
/// of the body itself (not under a condition) by a constant, and only read
/// anywhere else in its function, in a body with no `continue` that could
/// skip the step. Returns the loop's trip count as a `for` loop with the
/// same start, bound and step would have it (a do loop runs at least
/// once).
static std::optional<double> counterLoopTrips(const Stmt *Loop, ASTContext &Ctx,
                                              const ParamValues *Params,
                                              const TripHints *Trips) {
  const Expr *CondE = nullptr;
  const Stmt *Body = nullptr;
  bool Do = false;
  if (const auto *W = dyn_cast<WhileStmt>(Loop)) {
    CondE = W->getCond();
    Body = W->getBody();
  } else if (const auto *D = dyn_cast<DoStmt>(Loop)) {
    CondE = D->getCond();
    Body = D->getBody();
    Do = true;
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      CondE ? CondE->IgnoreParenImpCasts() : nullptr);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Cond || !Block || !Cond->isComparisonOp() || continuesLoop(Block))
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  const Expr *Bound = Cond->getRHS();
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!Ref || !isa<VarDecl>(Ref->getDecl())) {
    Ref = dyn_cast<DeclRefExpr>(Cond->getRHS()->IgnoreParenImpCasts());
    Bound = Cond->getLHS();
    Op = Op == BO_GT   ? BO_LT
         : Op == BO_GE ? BO_LE
         : Op == BO_LT ? BO_GT
         : Op == BO_LE ? BO_GE
                       : Op;
  }
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      !V->getType()->isIntegerType() || V->getType().isVolatileQualified() ||
      !V->getInit())
    return std::nullopt;
  std::optional<int64_t> Start = intValue(V->getInit(), Ctx, Params, Trips);
  std::optional<int64_t> End = intValue(Bound, Ctx, Params, Trips);
  if (!Start || !End)
    return std::nullopt;
  const Stmt *StepStmt = nullptr;
  int64_t Step = 0;
  for (const Stmt *S : Block->body())
    if (int64_t K = stepOf(S, V, Ctx)) {
      if (StepStmt)
        return std::nullopt;
      StepStmt = S;
      Step = K;
    }
  const Stmt *Fn = enclosingBody(Loop, Ctx);
  if (!StepStmt || !Fn)
    return std::nullopt;
  // Every other use of the counter reads it.
  bool OnlyReads = true;
  std::function<void(const Stmt *)> Check = [&](const Stmt *S) {
    if (!S || !OnlyReads || S == StepStmt)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
        DRE && DRE->getDecl() == V) {
      DynTypedNodeList Ps = Ctx.getParents(*DRE);
      const auto *Cast = Ps.empty() ? nullptr : Ps[0].get<ImplicitCastExpr>();
      OnlyReads = Cast && Cast->getCastKind() == CK_LValueToRValue;
      return;
    }
    for (const Stmt *C : S->children())
      Check(C);
  };
  Check(Fn);
  if (!OnlyReads)
    return std::nullopt;
  // `!=` ends the loop only when the counter lands on the bound.
  if (Op == BO_NE && Step != 1 && Step != -1)
    return std::nullopt;
  std::optional<double> Count = stepTrips(*Start, *End, Op, Step);
  if (!Count)
    return std::nullopt;
  return Do ? std::max(*Count, 1.0) : *Count;
}

/// `for (auto &B : Batches)` over a local `std::vector` (or any type with
/// push_back) that starts empty and is filled only by `push_back` or
/// `emplace_back` statements before the loop, each under loops of constant
/// trip count and no condition: the elements those statements add. Any
/// other use of the vector before the loop but `reserve`, `size` and
/// `empty` leaves it unknown.
static std::optional<double> filledSize(const CXXForRangeStmt *Range,
                                        ASTContext &Ctx,
                                        const ParamValues *Params,
                                        const TripHints *Trips) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(strip(Range->getRangeInit()));
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType())
    return std::nullopt;
  // Default-constructed: no arguments, or an empty braced list.
  if (const Expr *Init = V->getInit()) {
    const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
    const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreImplicit());
    if (!(CE && CE->getNumArgs() == 0) && !(IL && IL->getNumInits() == 0))
      return std::nullopt;
  }
  const Stmt *Fn = enclosingBody(Range, Ctx);
  if (!Fn)
    return std::nullopt;
  SourceManager &SM = Ctx.getSourceManager();
  SourceLocation LoopAt = Range->getBeginLoc();
  double Elements = 0;
  bool Known = true;
  // The times a push_back runs: the trip counts of the loops around it,
  // none of them around the range loop, and no condition.
  auto Runs = [&](const Stmt *S) -> std::optional<double> {
    double N = 1;
    DynTypedNodeList Ps = Ctx.getParents(*S);
    for (int Depth = 0; Depth < 256 && !Ps.empty(); ++Depth) {
      const DynTypedNode &P = Ps[0];
      if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
        return N;
      const Stmt *PS = P.get<Stmt>();
      if (!PS)
        return std::nullopt;
      if (PS == Fn)
        return N;
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(PS)) {
        SourceRange R = PS->getSourceRange();
        if (!SM.isBeforeInTranslationUnit(LoopAt, R.getBegin()) &&
            !SM.isBeforeInTranslationUnit(R.getEnd(), LoopAt))
          return std::nullopt; // a loop around the range loop too
        std::optional<double> T = constantTripCount(PS, Ctx, Params, Trips);
        if (!T)
          return std::nullopt;
        N *= *T;
      } else if (!isa<CompoundStmt, ExprWithCleanups, MaterializeTemporaryExpr,
                      CXXBindTemporaryExpr, ImplicitCastExpr>(PS)) {
        return std::nullopt;
      }
      Ps = Ctx.getParents(P);
    }
    return std::nullopt;
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || !Known)
      return;
    if (S == Range)
      return; // its own use, and what it runs
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const auto *Obj = dyn_cast_or_null<DeclRefExpr>(
          MC->getImplicitObjectArgument()
              ? MC->getImplicitObjectArgument()->IgnoreParenImpCasts()
              : nullptr);
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (Obj && Obj->getDecl() == V && M && M->getIdentifier()) {
        StringRef Name = M->getName();
        if (Name == "push_back" || Name == "emplace_back") {
          if (!SM.isBeforeInTranslationUnit(MC->getBeginLoc(), LoopAt)) {
            Known = false;
            return;
          }
          std::optional<double> N = Runs(MC);
          if (!N) {
            Known = false;
            return;
          }
          Elements += *N;
        } else if (Name != "reserve" && Name != "size" && Name != "empty") {
          Known = false;
          return;
        }
        for (const Expr *A : MC->arguments())
          Visit(A);
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
        DRE && DRE->getDecl() == V &&
        SM.isBeforeInTranslationUnit(DRE->getBeginLoc(), LoopAt)) {
      Known = false; // used otherwise before the loop
      return;
    }
    for (const Stmt *C : S->children())
      Visit(C);
  };
  Visit(Fn);
  if (!Known)
    return std::nullopt;
  return Elements;
}

std::optional<double> constantTripCount(const Stmt *Loop, ASTContext &Ctx,
                                        const ParamValues *Params,
                                        const TripHints *Trips) {
  if (std::optional<unsigned> Once = oneShotTrips(Loop, Ctx))
    return *Once;
  if (isa<WhileStmt, DoStmt>(Loop))
    return counterLoopTrips(Loop, Ctx, Params, Trips);
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    // for (T i = A; i < B; ++i / i++ / i += C)
    const VarDecl *IV = nullptr;
    std::optional<int64_t> Start;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
        DS && DS->isSingleDecl())
      if ((IV = dyn_cast<VarDecl>(DS->getSingleDecl())))
        Start = intValue(IV->getInit(), Ctx, Params, Trips);
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!IV || !Start || !Cond)
      return std::nullopt;
    auto IsIV = [&](const Expr *E) {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return D && D->getDecl() == IV;
    };
    std::optional<int64_t> End;
    BinaryOperatorKind Op = Cond->getOpcode();
    if (IsIV(Cond->getLHS())) {
      End = intValue(Cond->getRHS(), Ctx, Params, Trips);
    } else if (IsIV(Cond->getRHS())) {
      End = intValue(Cond->getLHS(), Ctx, Params, Trips);
      Op = Op == BO_GT   ? BO_LT
           : Op == BO_GE ? BO_LE
           : Op == BO_LT ? BO_GT
           : Op == BO_LE ? BO_GE
                         : Op;
    }
    if (!End)
      return std::nullopt;
    int64_t Step = 0;
    const Expr *Inc =
        For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
        U && IsIV(U->getSubExpr()))
      Step = U->isIncrementOp() ? 1 : -1;
    else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             C && IsIV(C->getLHS()) &&
             (C->getOpcode() == BO_AddAssign || C->getOpcode() == BO_SubAssign))
      Step = intValue(C->getRHS(), Ctx).value_or(0) *
             (C->getOpcode() == BO_SubAssign ? -1 : 1);
    // Counting down as well: for (i = A; i > B; --i) or i >= B, i -= C.
    return stepTrips(*Start, *End, Op, Step);
  }
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop)) {
    // c10::irange(N) / irange(A, B), or a braced list / array of known size.
    const Expr *Init = strip(Range->getRangeInit());
    if (const auto *CE = dyn_cast_or_null<CallExpr>(Init)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName() == "irange") {
        if (CE->getNumArgs() == 1)
          if (auto N = intValue(CE->getArg(0), Ctx, Params, Trips))
            return static_cast<double>(std::max<int64_t>(*N, 0));
        if (CE->getNumArgs() == 2) {
          auto A = intValue(CE->getArg(0), Ctx, Params, Trips),
               B = intValue(CE->getArg(1), Ctx, Params, Trips);
          if (A && B)
            return std::max(static_cast<double>(*B) - static_cast<double>(*A),
                            0.0);
        }
      }
    }
    if (const auto *IL = dyn_cast_or_null<InitListExpr>(Init))
      return static_cast<double>(IL->getNumInits());
    // --trips: the range itself is hinted (`for (auto &b : *loader)` with
    // loader=469).
    if (Trips) {
      const Expr *R = Init;
      if (const auto *U = dyn_cast_or_null<UnaryOperator>(R);
          U && U->getOpcode() == UO_Deref)
        R = strip(U->getSubExpr());
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(R);
          Op && Op->getOperator() == OO_Star && Op->getNumArgs() == 1)
        R = strip(Op->getArg(0)); // *loader through a smart pointer
      const NamedDecl *D = nullptr;
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(R))
        D = DRE->getDecl();
      else if (const auto *ME = dyn_cast_or_null<MemberExpr>(R))
        D = ME->getMemberDecl();
      if (D && D->getIdentifier())
        if (auto It = Trips->find(D->getName().str()); It != Trips->end())
          return static_cast<double>(std::max<int64_t>(It->second, 0));
    }
    if (const auto *AT =
            Ctx.getAsConstantArrayType(Range->getRangeInit()->getType()))
      return static_cast<double>(AT->getSize().getZExtValue());
    if (std::optional<double> N = filledSize(Range, Ctx, Params, Trips))
      return N;
  }
  return std::nullopt;
}

std::optional<OpClass> OpModel::classify(const CallExpr *CE) const {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return std::nullopt;
  std::string Name;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (Op->getOperator() == OO_Equal)
      return std::nullopt; // rebinding a handle, not a kernel
    if (const char *S = getOperatorSpelling(Op->getOperator()))
      Name = std::string("operator") + S;
  } else if (FD->getIdentifier()) {
    Name = FD->getName().str();
  }
  if (auto C = Api.opClass(Name, FD))
    return C;
  // An unclassified library call producing a tensor is one opaque kernel.
  if (Api.isTensorType(CE->getType()) && Api.isLibraryDecl(FD) &&
      !Api.isMetadata(Name) && !isa<CXXConstructorDecl>(FD))
    return OpClass::Library;
  return std::nullopt;
}

std::optional<TensorSize> OpModel::factorySize(const CallExpr *CE) {
  if (CE->getNumArgs() == 0)
    return std::nullopt;
  double Elements = 1;
  bool Found = false;
  // The shape is the first argument: a braced list of constants.
  const Expr *Shape = CE->getArg(0)->IgnoreImplicit();
  llvm::SmallVector<const Expr *, 4> Dims;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *IL = dyn_cast<InitListExpr>(S)) {
      Found = true;
      for (const Expr *E : IL->inits())
        Dims.push_back(E);
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Shape);
  if (!Found) {
    if (auto N = intValue(CE->getArg(0), Ctx)) // arange(n), randn(n)
      Dims.push_back(CE->getArg(0));
    else
      return std::nullopt;
  }
  llvm::SmallVector<int64_t, 4> Values;
  for (const Expr *D : Dims) {
    auto V = intValue(D, Ctx);
    if (!V || *V < 0)
      return std::nullopt;
    Elements *= static_cast<double>(*V);
    Values.push_back(*V);
  }
  double Size = Api.dtypeBytes("default").value_or(4);
  for (const Expr *A : CE->arguments()) {
    std::function<void(const Stmt *)> FindDtype = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
        if (DRE->getDecl()->getIdentifier())
          if (auto B = Api.dtypeBytes(DRE->getDecl()->getName()))
            Size = *B;
      for (const Stmt *C : S->children())
        FindDtype(C);
    };
    FindDtype(A);
  }
  return TensorSize{Elements, Size, std::move(Values)};
}

/// The shape that broadcasting \p A and \p B gives, as elementwise ops
/// have it (dims aligned from the last; a 1 stretches); nullopt when they
/// do not fit or one is unknown (empty).
static std::optional<llvm::SmallVector<int64_t, 4>>
broadcastDims(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B) {
  if (A.empty() || B.empty())
    return std::nullopt;
  size_t N = std::max(A.size(), B.size());
  llvm::SmallVector<int64_t, 4> Out;
  for (size_t I = 0; I < N; ++I) {
    int64_t DA = I + A.size() >= N ? A[I + A.size() - N] : 1;
    int64_t DB = I + B.size() >= N ? B[I + B.size() - N] : 1;
    if (DA != DB && DA != 1 && DB != 1)
      return std::nullopt;
    Out.push_back(DA == 1 ? DB : DA);
  }
  return Out;
}

/// The shape of a matrix product of operands of \p A and \p B dims, as
/// matmul has it: a vector operand is a row (first) or a column (second)
/// that the result drops, batch dims broadcast. Empty when they do not
/// fit.
static std::optional<llvm::SmallVector<int64_t, 4>>
matmulDims(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B) {
  if (A.empty() || B.empty())
    return std::nullopt;
  bool RowA = A.size() == 1, ColB = B.size() == 1;
  int64_t K = A.back();
  int64_t KB = ColB ? B[0] : B[B.size() - 2];
  if (K != KB)
    return std::nullopt;
  llvm::ArrayRef<int64_t> BatchA = A.drop_back(RowA ? 1 : 2),
                          BatchB = B.drop_back(ColB ? 1 : 2);
  llvm::SmallVector<int64_t, 4> Out;
  if (!BatchA.empty() && !BatchB.empty()) {
    auto Batch = broadcastDims(BatchA, BatchB);
    if (!Batch)
      return std::nullopt;
    Out = std::move(*Batch);
  } else {
    Out.assign(BatchA.empty() ? BatchB.begin() : BatchA.begin(),
               BatchA.empty() ? BatchB.end() : BatchA.end());
  }
  if (!RowA)
    Out.push_back(A[A.size() - 2]);
  if (!ColB)
    Out.push_back(B.back());
  return Out;
}

static double product(llvm::ArrayRef<int64_t> Dims) {
  double P = 1;
  for (int64_t D : Dims)
    P *= static_cast<double>(D);
  return P;
}

/// The operands of a call: the object and then the arguments that are
/// tensors.
static llvm::SmallVector<const Expr *, 2>
tensorOperands(const CallExpr *CE, const Expr *Obj, const ApiModel &Api) {
  llvm::SmallVector<const Expr *, 2> Ops;
  if (Obj)
    Ops.push_back(Obj);
  for (const Expr *A : CE->arguments())
    if (A && Api.isTensorType(A->getType()))
      Ops.push_back(A);
  return Ops;
}

std::optional<TensorSize> OpModel::matmulSize(const CallExpr *CE,
                                              const Expr *Obj, unsigned Depth) {
  llvm::SmallVector<const Expr *, 2> Ops = tensorOperands(CE, Obj, Api);
  if (Ops.size() != 2)
    return std::nullopt;
  std::optional<TensorSize> A = sizeOf(Ops[0], Depth + 1),
                            B = sizeOf(Ops[1], Depth + 1);
  if (!A || !B)
    return std::nullopt;
  auto Dims = matmulDims(A->Dims, B->Dims);
  if (!Dims)
    return std::nullopt;
  return TensorSize{product(*Dims), A->ElementBytes, std::move(*Dims)};
}

std::optional<TensorSize>
OpModel::transposeSize(const CallExpr *CE, const Expr *Obj, unsigned Depth) {
  const Expr *Of = Obj;
  unsigned First = 0;
  if (!Of && CE->getNumArgs() > 0) { // transpose(x, 0, 1)
    Of = CE->getArg(0);
    First = 1;
  }
  if (!Of)
    return std::nullopt;
  std::optional<TensorSize> S = sizeOf(Of, Depth + 1);
  if (!S || S->Dims.empty())
    return S;
  int64_t Rank = static_cast<int64_t>(S->Dims.size());
  if (CE->getNumArgs() == First) { // t(): a matrix's two dims
    if (Rank == 2)
      std::swap(S->Dims[0], S->Dims[1]);
    return S;
  }
  if (CE->getNumArgs() != First + 2)
    return TensorSize{S->Elements, S->ElementBytes, {}};
  std::optional<int64_t> D0 = intValue(CE->getArg(First), Ctx),
                         D1 = intValue(CE->getArg(First + 1), Ctx);
  auto Norm = [&](std::optional<int64_t> &D) {
    if (D && *D < 0)
      *D += Rank;
    return D && *D >= 0 && *D < Rank;
  };
  if (!Norm(D0) || !Norm(D1))
    return TensorSize{S->Elements, S->ElementBytes, {}};
  std::swap(S->Dims[*D0], S->Dims[*D1]);
  return S;
}

std::optional<TensorSize> OpModel::parameterSize(const ParmVarDecl *P,
                                                 unsigned Depth) {
  if (!ArgumentsOf)
    return std::nullopt;
  if (auto [It, New] = ParamSizes.try_emplace(P); !New)
    return It->second;
  std::optional<std::vector<const Expr *>> Args = ArgumentsOf(P);
  if (!Args || Args->empty())
    return std::nullopt;
  std::optional<TensorSize> Size;
  for (const Expr *A : *Args) {
    std::optional<TensorSize> S = sizeOf(A, Depth + 1);
    if (!S || (Size && (S->Elements != Size->Elements ||
                        S->ElementBytes != Size->ElementBytes)))
      return std::nullopt;
    if (Size && S->Dims != Size->Dims)
      S->Dims.clear(); // the same size, shaped differently
    Size = S;
  }
  ParamSizes[P] = Size;
  return Size;
}

std::optional<TensorSize> OpModel::sizeOf(const Expr *E, unsigned Depth) {
  if (Depth > 16)
    return std::nullopt;
  E = strip(E);
  if (!E)
    return std::nullopt;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    if (D->getIdentifier())
      if (auto It = Hints.find(D->getName().str()); It != Hints.end())
        return It->second;
    if (const auto *PV = dyn_cast<ParmVarDecl>(D))
      return parameterSize(PV, Depth);
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
      return sizeOf(VD->getInit(), Depth + 1);
    return std::nullopt;
  }
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || !CE->getDirectCallee())
    return std::nullopt;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (Api.isFactory(qualifiedName(FD)))
    return factorySize(CE);
  std::optional<OpClass> Class = classify(CE);
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Obj = MC->getImplicitObjectArgument();
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";
  if (Api.isMatmul(Name))
    return matmulSize(CE, Obj, Depth);
  if (Api.isTranspose(Name))
    return transposeSize(CE, Obj, Depth);
  if (Class == OpClass::View && Obj) {
    // A view keeps its operand's elements; its dims are not read.
    std::optional<TensorSize> S = sizeOf(Obj, Depth + 1);
    if (S)
      S->Dims.clear();
    return S;
  }
  if (Class == OpClass::Reduction && Obj && CE->getNumArgs() == 0)
    if (std::optional<double> B = Api.dtypeBytes("default"))
      return TensorSize{1, *B}; // a whole-tensor reduction: a scalar
  if (Class == OpClass::Reduction)
    return std::nullopt;
  if (Class == OpClass::Pointwise) {
    std::optional<TensorSize> Best;
    std::optional<llvm::SmallVector<int64_t, 4>> Shape; // broadcast so far
    bool First = true;
    for (const Expr *X : tensorOperands(CE, Obj, Api)) {
      std::optional<TensorSize> S = sizeOf(X, Depth + 1);
      if (S && (!Best || S->bytes() > Best->bytes()))
        Best = S;
      if (First)
        Shape = S && !S->Dims.empty() ? std::optional(S->Dims) : std::nullopt;
      else if (Shape)
        Shape = S ? broadcastDims(*Shape, S->Dims) : std::nullopt;
      First = false;
    }
    if (Best) {
      // The result has the operands' broadcast shape when all are known.
      Best->Dims.clear();
      if (Shape) {
        Best->Elements = product(*Shape);
        Best->Dims = std::move(*Shape);
      }
    }
    return Best;
  }
  return std::nullopt;
}

void OpModel::inlineCallee(const FunctionDecl *Callee, double Mult,
                           bool PerIter, std::vector<OpEvent> &Out) {
  for (OpEvent E : sequence(Callee)) {
    E.Multiplicity *= Mult;
    E.PerIteration |= PerIter;
    Out.push_back(E);
  }
}

void OpModel::collectCall(const CallExpr *CE, double Mult, bool PerIter,
                          std::vector<OpEvent> &Out) {
  if (Breaks.count(CE)) {
    OpEvent E;
    E.IsBreak = true;
    E.Call = CE;
    E.Multiplicity = Mult;
    E.PerIteration = PerIter;
    Out.push_back(E);
    return;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (Callee && Callee->hasBody(Def) && Def && !Api.isLibraryDecl(Def)) {
    inlineCallee(Def, Mult, PerIter, Out);
    return;
  }
  // A module holder's operator() runs Impl::forward.
  for (const CXXMethodDecl *M : Api.holderForwards(CE))
    if (M->hasBody(Def) && Def && !Api.isLibraryDecl(Def)) {
      inlineCallee(Def, Mult, PerIter, Out);
      return;
    }
  std::optional<OpClass> Class = classify(CE);
  if (!Class || *Class == OpClass::View || *Class == OpClass::Host)
    return;
  OpEvent E;
  E.Class = *Class;
  E.Call = CE;
  if (std::optional<TensorSize> Size = sizeOf(CE)) {
    E.OutBytes = Size->bytes();
    E.QueueBytes = E.OutBytes;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && FD->getIdentifier() && Api.isMatmul(FD->getName())) {
      // A matrix product reads both operands whole.
      const Expr *Obj = nullptr;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        Obj = MC->getImplicitObjectArgument();
      double Read = 0;
      for (const Expr *X : tensorOperands(CE, Obj, Api))
        if (std::optional<double> B = bytesOf(X))
          Read += *B;
      E.QueueBytes = (Read + *E.OutBytes) / 2;
    }
    if (FD && FD->getIdentifier() && Api.isTranscendental(FD->getName()))
      E.TranscendentalElements = Size->Elements;
  }
  E.Multiplicity = Mult;
  E.PerIteration = PerIter;
  Out.push_back(E);
}

void OpModel::collect(const Stmt *S, double Mult, bool PerIter,
                      std::vector<OpEvent> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
      isa<CXXForRangeStmt>(S)) {
    std::optional<double> Trip = constantTripCount(S, Ctx, nullptr, Trips);
    double Inner = Mult * Trip.value_or(1);
    bool InnerPerIter = PerIter || !Trip;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      collect(For->getInit(), Mult, PerIter, Out);
      collect(For->getCond(), Inner, InnerPerIter, Out);
      collect(For->getBody(), Inner, InnerPerIter, Out);
      collect(For->getInc(), Inner, InnerPerIter, Out);
    } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
      collect(Range->getRangeInit(), Mult, PerIter, Out);
      collect(Range->getBody(), Inner, InnerPerIter, Out);
    } else {
      for (const Stmt *C : S->children())
        collect(C, Inner, InnerPerIter, Out);
    }
    return;
  }
  for (const Stmt *C : S->children())
    collect(C, Mult, PerIter, Out);
  if (const auto *CE = dyn_cast<CallExpr>(S))
    collectCall(CE, Mult, PerIter, Out);
}

const std::vector<OpEvent> &OpModel::sequence(const FunctionDecl *FD) {
  if (auto It = Cache.find(FD); It != Cache.end())
    return It->second;
  std::vector<OpEvent> Out;
  if (InProgress.insert(FD).second) { // recursion: an empty summary
    collect(FD->getBody(), 1, false, Out);
    InProgress.erase(FD);
  }
  return Cache[FD] = std::move(Out);
}

} // namespace seam
