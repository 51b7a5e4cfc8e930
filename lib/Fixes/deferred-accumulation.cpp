//===- deferred-accumulation.cpp - Sum on the device, read once after -----===//
//
// Matches `acc += E.item<T>()` (also `acc -= ...`, `acc = acc + ...`, a
// conversion such as `E.item().toFloat()`, and for floating sums a host
// factor: `E.item<float>() * n`) in a loop, where `acc` is a local
// arithmetic variable declared outside the loop that nothing reads while
// the loop runs. Rewrites it to accumulate a detached, zero-dimensional
// tensor (on the value's own device, in the pack's dtype for floating sums
// or integer counts) and to add its host value to `acc` once after the loop.
// The pack gives the spelling (fixes.deferredAccumulation). Docs:
// docs/fixes.md#deferred-accumulation; tests: test/fixes/.
//
//===----------------------------------------------------------------------===//
#include "Fixes/FixEngine.h"
#include "Fixes/FixSupport.h"
#include "Fixes/LoopVariable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include <variant>

using namespace clang;

namespace seam {
namespace {

/// What the pattern found at one site.
struct Accumulation {
  const Expr *Assign = nullptr;          ///< the whole assignment
  const VarDecl *Acc = nullptr;          ///< the host variable
  const DeclRefExpr *AccLhs = nullptr;   ///< `acc` being assigned
  const DeclRefExpr *AccInRhs = nullptr; ///< `acc` in `acc = acc + V`
  const Expr *Value = nullptr;           ///< the scalar read, converted
  const Expr *Added = nullptr; ///< what is added: Value, or Value * host
  std::string ReadOp;          ///< "+=", "-=", "= acc +", "= acc -"
  LoopVariable In;             ///< acc, its loop and its guard
};

bool arithmetic(QualType T) {
  T = T.getCanonicalType();
  return T->isArithmeticType() && !T->isBooleanType() && !T->isEnumeralType() &&
         !T->isAnyComplexType();
}

const DeclRefExpr *varRef(const Expr *E) {
  return dyn_cast_or_null<DeclRefExpr>(bare(E));
}

/// The scalar read with what converts it (`.toFloat()`, a cast) and, for
/// floating values, a host factor or divisor; nullptr when the read feeds
/// anything else.
const Expr *valueOf(ASTContext &Ctx, const Expr *Read, const Expr *&Added,
                    const Stmt *&Parent) {
  const Expr *V = Read;
  const Stmt *P = parentOf(Ctx, V);
  // `E.item().toFloat()`: the member expression, then its call.
  if (auto *ME = dyn_cast_or_null<MemberExpr>(P))
    if (auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(parentOf(Ctx, ME));
        MC && MC->getNumArgs() == 0 && arithmetic(MC->getType())) {
      V = MC;
      P = parentOf(Ctx, MC);
    }
  if (auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(P);
      Cast && arithmetic(Cast->getType())) {
    V = Cast;
    P = parentOf(Ctx, Cast);
  }
  if (!arithmetic(V->getType()))
    return nullptr;
  Added = V;
  if (auto *B = dyn_cast_or_null<BinaryOperator>(P);
      B &&
      (B->getOpcode() == BO_Mul ||
       (B->getOpcode() == BO_Div && bare(B->getLHS()) == V)) &&
      V->getType()->isRealFloatingType()) {
    // The factor stays where it is, evaluated as often as before; it only
    // must not read the sum (UseFinder checks every use of it in the loop).
    const Expr *Host = bare(B->getLHS()) == V ? B->getRHS() : B->getLHS();
    if (arithmetic(Host->getType())) {
      Added = B;
      P = parentOf(Ctx, B);
    }
  }
  Parent = P;
  return V;
}

/// Finds the pattern at \p In's site, or says why it does not hold ("" when
/// the site is not an accumulation at all).
std::variant<Accumulation, std::string> match(const FixInput &In) {
  ASTContext &Ctx = In.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  const TriggerSite &S = In.Site;
  if (S.Match.Rule->What != Trigger::ScalarRead || !S.Match.Object)
    return std::string();
  Accumulation A;
  const Stmt *P = nullptr;
  A.Value = valueOf(Ctx, S.Call, A.Added, P);
  if (!A.Value || !P)
    return std::string();
  // acc += V, acc -= V, acc = acc + V, acc = V + acc, acc = acc - V.
  if (auto *CA = dyn_cast<CompoundAssignOperator>(P);
      CA && bare(CA->getRHS()) == A.Added &&
      (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
    A.Assign = CA;
    A.AccLhs = varRef(CA->getLHS());
    A.ReadOp = CA->getOpcode() == BO_AddAssign ? "+=" : "-=";
  } else if (auto *Sum = dyn_cast<BinaryOperator>(P);
             Sum &&
             (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub)) {
    auto *As = dyn_cast_or_null<BinaryOperator>(parentOf(Ctx, Sum));
    if (!As || As->getOpcode() != BO_Assign || bare(As->getRHS()) != Sum)
      return std::string();
    A.Assign = As;
    A.AccLhs = varRef(As->getLHS());
    const Expr *Other =
        bare(Sum->getLHS()) == A.Added ? Sum->getRHS() : Sum->getLHS();
    if (Sum->getOpcode() == BO_Sub && bare(Sum->getRHS()) != A.Added)
      return std::string();
    A.AccInRhs = varRef(Other);
    if (!A.AccLhs || !A.AccInRhs ||
        A.AccInRhs->getDecl() != A.AccLhs->getDecl())
      return std::string();
    A.ReadOp = Sum->getOpcode() == BO_Add ? "+" : "-";
  } else {
    return std::string();
  }
  if (!A.AccLhs)
    return std::string("the sum is not a local variable");
  A.Acc = dyn_cast<VarDecl>(A.AccLhs->getDecl());
  std::string Name = A.AccLhs->getNameInfo().getAsString();
  if (!A.Acc)
    return "'" + Name +
           "' is not a local variable of this function: other code may read "
           "it while the loop runs";
  if (!arithmetic(A.Acc->getType()))
    return "'" + Name + "' is not an arithmetic variable";
  bool Floating = A.Value->getType()->isRealFloatingType();
  if (Floating != A.Acc->getType()->isRealFloatingType())
    return "'" + Name +
           "' and the value added to it differ in kind "
           "(integer and floating)";
  if (isa<Expr>(parentOf(Ctx, A.Assign)))
    return "the assignment's own value is used";
  // A read or reset of the sum under one guard is allowed: the sum so far
  // is added to acc at the start of that block.
  auto V = loopVariable(Ctx, In.Regions.functions()[S.Node].FD, A.Acc, A.Assign,
                        {A.AccLhs, A.AccInRhs}, "the sum",
                        /*AllowGuard=*/true);
  if (auto *Why = std::get_if<std::string>(&V))
    return *Why;
  A.In = std::move(std::get<LoopVariable>(V));
  // In a template instantiation: the dtype and the read's type must be the
  // same in every instantiation.
  const FunctionDecl *FD = In.Regions.functions()[S.Node].FD;
  if (FD->getTemplateInstantiationPattern() &&
      (valueTypeFromTemplate(A.Value) ||
       (A.Added != A.Value &&
        typeFromTemplate(
            bare(cast<BinaryOperator>(A.Added)->getLHS()) == A.Value
                ? cast<BinaryOperator>(A.Added)->getRHS()->getType()
                : cast<BinaryOperator>(A.Added)->getLHS()->getType()))))
    return "the value added to '" + Name +
           "' has a type that depends on the template's parameters: one "
           "rewrite would have to hold for every instantiation";
  return A;
}

class DeferredAccumulation : public FixKind {
public:
  llvm::StringRef name() const override { return "deferred-accumulation"; }

  FixAnswer
  propose(const FixInput &In,
          llvm::function_ref<unsigned(const Stmt *)> SlotOf) const override {
    FixAnswer Out;
    auto M = match(In);
    if (auto *Why = std::get_if<std::string>(&M)) {
      Out.Reason = *Why;
      return Out;
    }
    const Accumulation &A = std::get<Accumulation>(M);
    ASTContext &Ctx = In.Ctx;
    const SourceManager &SM = Ctx.getSourceManager();
    const AccumulationFixTemplate *T =
        packTemplate(In.Api.pack().AccumulationFixes, In);
    if (!T) {
      Out.Reason = "the rule pack '" + In.Site.Match.Rule->Pack +
                   "' does not say how to write a device sum "
                   "(fixes.deferredAccumulation)";
      return Out;
    }

    const IfStmt *Guard = A.In.Guard;
    const Stmt *Loop = A.In.Loop;
    std::string Acc = A.Acc->getName().str();
    std::string Name = freshName(Ctx, A.In, Acc + "_device", In.Taken);

    bool Floating = A.Value->getType()->isRealFloatingType();
    const std::string &Dtype = Floating ? T->FloatingDtype : T->IntegralDtype;
    auto ObjRange = fileRange(Ctx, In.Site.Match.Object->getSourceRange());
    auto ValueRange = fileRange(Ctx, A.Value->getSourceRange());
    auto AddedRange = fileRange(Ctx, A.Added->getSourceRange());
    auto AssignRange = fileRange(Ctx, A.Assign->getSourceRange());
    if (!ObjRange || !ValueRange || !AddedRange || !AssignRange) {
      Out.Reason = "the sum is written inside a macro";
      return Out;
    }
    std::string Obj = objectText(Ctx, In.Site.Call, *ObjRange);
    std::string Tensor = instantiate(Floating ? T->Value : T->Count,
                                     {{"value", Obj}, {"dtype", Dtype}});
    // What is added, with the scalar read replaced by the tensor.
    std::string Added = rangeText(Ctx, *AddedRange);
    unsigned From = SM.getFileOffset(ValueRange->getBegin()) -
                    SM.getFileOffset(AddedRange->getBegin());
    unsigned Len = SM.getFileOffset(ValueRange->getEnd()) -
                   SM.getFileOffset(ValueRange->getBegin());
    Added.replace(From, Len, Tensor);
    if (A.Added != A.Value) {
      // A host factor of a type the pack's Scalar may not convert from
      // unambiguously (size_t, unsigned) is made a double: the product was
      // floating on the host too.
      auto *B = cast<BinaryOperator>(A.Added);
      const Expr *Host =
          bare(B->getLHS()) == A.Value ? B->getRHS() : B->getLHS();
      QualType HT = bare(Host)->getType().getCanonicalType();
      auto *BT = HT->getAs<BuiltinType>();
      bool Plain = BT && (BT->getKind() == BuiltinType::Double ||
                          BT->getKind() == BuiltinType::Float ||
                          BT->getKind() == BuiltinType::Int ||
                          BT->getKind() == BuiltinType::Long);
      auto HostRange = fileRange(Ctx, Host->getSourceRange());
      if (!Plain && HostRange) {
        unsigned HFrom = SM.getFileOffset(HostRange->getBegin()) -
                         SM.getFileOffset(AddedRange->getBegin());
        unsigned HLen = SM.getFileOffset(HostRange->getEnd()) -
                        SM.getFileOffset(HostRange->getBegin());
        // Edit the original text's positions: the tensor was spliced in
        // before or after the factor.
        if (HFrom > From)
          HFrom += Tensor.size() - Len;
        std::string Factor = Added.substr(HFrom, HLen);
        Added.replace(HFrom, HLen, "static_cast<double>(" + Factor + ")");
      }
    }

    // The type as the user wrote it (`item<int64_t>`), else as Clang
    // prints it.
    std::string Type = writtenType(Ctx, A.Value);
    std::string Read = instantiate(T->Read, {{"value", Name}, {"type", Type}});
    std::string ReadBack =
        A.ReadOp.size() == 2
            ? Acc + " " + A.ReadOp + " " + Read + ";"
            : Acc + " = " + Acc + " " + A.ReadOp + " " + Read + ";";
    Fix F;
    F.Kind = name().str();
    Out.AddedOps = Floating ? 1 : 2; // the sum, and a count's conversion
    F.Effect = "one wait after the loop";
    // A variable summed in two loops gets a device sum for each, both
    // declared after it (one offset each).
    std::optional<TextEdit> Declare =
        declareAfter(Ctx, A.In, SlotOf(A.In.Decl),
                     "auto " + Name + " = " +
                         instantiate(T->Init, {{"dtype", Dtype}}) + ";");
    if (!Declare) {
      Out.Reason = "two other fixes already declare after '" + Acc +
                   "': run --fix again once their fixes are applied";
      return Out;
    }
    F.Edits.push_back(std::move(*Declare));
    Out.Anchors.push_back(A.In.Decl);
    Out.Names.push_back(Name);
    F.Edits.push_back(
        replaceEdit(Ctx, *AssignRange, Name + " = " + Name + " + " + Added));
    // Where the sum is read back: after the loop, and at the start of the
    // guarded block that reads acc; a second sum anchored at the same place
    // inserts at the start of the next line (one offset each).
    SourceLocation LoopEnd = endOfStatement(Ctx, Loop);
    std::optional<TextEdit> After =
        lineInsert(Ctx, LoopEnd, SlotOf(Loop),
                   indentOf(Ctx, Loop->getBeginLoc()), ReadBack);
    if (!After) {
      Out.Reason = "two other sums are read back after the same loop: run "
                   "--fix again once their fixes are applied";
      return Out;
    }
    if (Guard) {
      auto *Then = cast<CompoundStmt>(Guard->getThen());
      std::string Indent =
          Then->body_empty()
              ? indentOf(Ctx, Guard->getBeginLoc()) + "  "
              : indentOf(Ctx, (*Then->body_begin())->getBeginLoc());
      std::optional<TextEdit> Merge = lineInsert(
          Ctx, Then->getLBracLoc().getLocWithOffset(1), SlotOf(Guard), Indent,
          ReadBack + " " + Name + " = " +
              instantiate(T->Init, {{"dtype", Dtype}}) + ";");
      if (!Merge) {
        Out.Reason = "other sums are already added at the start of the "
                     "guarded block: run --fix again once their fixes are "
                     "applied";
        return Out;
      }
      F.Edits.push_back(std::move(*Merge));
      Out.Anchors.push_back(Guard);
    }
    F.Edits.push_back(std::move(*After));
    Out.Anchors.push_back(Loop);
    llvm::sort(F.Edits, [](const TextEdit &X, const TextEdit &Y) {
      return X.Offset < Y.Offset;
    });
    F.Description = "accumulate '" + Acc + "' on the device in '" + Name +
                    "' and read it once after the loop (line " +
                    lineOf(Ctx, LoopEnd) + ")";
    if (Floating)
      F.Description += "; the sum is taken in " + Dtype +
                       ", equal up to floating-point summation order";
    if (Guard)
      F.Description += "; the guarded block at line " +
                       lineOf(Ctx, Guard->getBeginLoc()) +
                       " adds the sum so far first, and waits only there";
    Out.Rewrite = std::move(F);
    return Out;
  }
};

} // namespace

const FixKind &deferredAccumulationFix() {
  static const DeferredAccumulation K;
  return K;
}

} // namespace seam
