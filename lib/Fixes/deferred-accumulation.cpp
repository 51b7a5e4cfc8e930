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

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
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
  const Stmt *Loop = nullptr;  ///< the outermost loop inside acc's scope
  const DeclStmt *AccDecl = nullptr;
};

bool isLoop(const Stmt *S) {
  return isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S);
}

bool contains(const SourceManager &SM, SourceRange R, SourceLocation L) {
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

bool arithmetic(QualType T) {
  T = T.getCanonicalType();
  return T->isArithmeticType() && !T->isBooleanType() && !T->isEnumeralType() &&
         !T->isAnyComplexType();
}

const DeclRefExpr *varRef(const Expr *E) {
  return dyn_cast_or_null<DeclRefExpr>(bare(E));
}

std::string line(ASTContext &Ctx, SourceLocation L) {
  return std::to_string(Ctx.getSourceManager().getSpellingLineNumber(L));
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
  if (!A.Acc || !A.Acc->isLocalVarDecl() || !A.Acc->hasLocalStorage() ||
      A.Acc->getType()->isReferenceType())
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

  const FunctionDecl *FD = In.Regions.functions()[S.Node].FD;
  if (!FD || FD->getTemplateInstantiationPattern() || FD->isDependentContext())
    return std::string("the sum is in a template: one rewrite would have to "
                       "hold for every instantiation");
  if (A.Acc->getDeclContext() != FD)
    return "'" + Name + "' is declared outside this function's body";

  // The outermost loop around the assignment that does not hold acc.
  SourceLocation AccLoc = A.Acc->getLocation();
  const Stmt *Inner = A.Assign;
  for (const Stmt *Up = parentOf(Ctx, Inner); Up; Up = parentOf(Ctx, Up)) {
    if (isa<LambdaExpr>(Up) || Up == FD->getBody())
      break;
    if (contains(SM, Up->getSourceRange(), AccLoc))
      break;
    if (isa<CXXTryStmt>(Up))
      return std::string("the loop is inside a try block: a handler could "
                         "read the sum before it is added");
    if (isLoop(Up))
      A.Loop = Up;
  }
  if (!A.Loop)
    return "'" + Name + "' is not added to in a loop of this function";
  if (!isa_and_nonnull<CompoundStmt>(parentOf(Ctx, A.Loop)) ||
      !startsLine(Ctx, A.Loop->getBeginLoc()))
    return std::string("the loop does not start its own line in a block");
  for (const auto &Parent : Ctx.getParents(*A.Acc))
    A.AccDecl = Parent.get<DeclStmt>();
  if (!A.AccDecl || !A.AccDecl->isSingleDecl() ||
      !isa_and_nonnull<CompoundStmt>(parentOf(Ctx, A.AccDecl)))
    return "'" + Name + "' is not declared by a statement of its own";
  if (!fileRange(Ctx, A.Assign->getSourceRange()) ||
      !fileRange(Ctx, A.Loop->getSourceRange()) ||
      !fileRange(Ctx, A.AccDecl->getSourceRange()) ||
      SM.getFileID(SM.getFileLoc(A.Loop->getBeginLoc())) !=
          SM.getFileID(SM.getFileLoc(A.AccDecl->getBeginLoc())))
    return std::string("the sum is written inside a macro");
  return A;
}

/// Every other use of acc: none inside the loop, and no pointer, reference
/// or lambda capture made before it that the loop could use.
class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  UseFinder(ASTContext &Ctx, const Accumulation &A) : Ctx(Ctx), A(A) {}

  std::string Problem;
  llvm::StringSet<> Names; ///< every name declared or used in the function
  /// Uses of acc inside the loop, and the words for the first.
  std::vector<const DeclRefExpr *> InLoop;
  std::string FirstInLoop;

  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier())
      Names.insert(D->getName());
    return true;
  }

  bool VisitGotoStmt(GotoStmt *G) {
    if (Problem.empty() && inLoop(G->getBeginLoc()))
      Problem = "a goto at line " + line(Ctx, G->getBeginLoc()) +
                " could leave the loop without the sum being added";
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (DR->getDecl()->getIdentifier())
      Names.insert(DR->getDecl()->getName());
    if (DR->getDecl() != A.Acc || DR == A.AccLhs || DR == A.AccInRhs ||
        !Problem.empty())
      return true;
    std::string Name = A.Acc->getName().str();
    SourceLocation L = DR->getLocation();
    const SourceManager &SM = Ctx.getSourceManager();
    if (inLoop(L)) {
      // A use under a guard may see the sum if the sum is added there
      // first (guardOf); any other use inside the loop withholds the fix.
      if (DR->refersToEnclosingVariableOrCapture())
        Problem = "'" + Name + "' is captured by a lambda inside the loop " +
                  "at line " + line(Ctx, L);
      else if (InLoop.empty())
        FirstInLoop = "'" + Name + "' is " +
                      (written(DR) ? "written" : "read") +
                      " inside the loop at line " + line(Ctx, L);
      InLoop.push_back(DR);
      return true;
    }
    if (!SM.isBeforeInTranslationUnit(L, A.Loop->getBeginLoc()))
      return true; // after the loop: sees the sum, added by then
    if (DR->refersToEnclosingVariableOrCapture())
      Problem = "'" + Name + "' is captured by a lambda at line " +
                line(Ctx, L) + ", which the loop may call";
    else if (!read(DR) && !written(DR))
      Problem = "'" + Name + "' is bound to a reference or pointer at line " +
                line(Ctx, L) + ", which the loop may use";
    return true;
  }

private:
  bool inLoop(SourceLocation L) const {
    return contains(Ctx.getSourceManager(), A.Loop->getSourceRange(), L);
  }
  const Stmt *directParent(const Stmt *S) const {
    auto Ps = Ctx.getParents(*S);
    return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  }
  bool read(const DeclRefExpr *DR) const {
    auto *C = dyn_cast_or_null<ImplicitCastExpr>(directParent(DR));
    return C && C->getCastKind() == CK_LValueToRValue;
  }
  bool written(const DeclRefExpr *DR) const {
    const Stmt *P = directParent(DR);
    if (auto *B = dyn_cast_or_null<BinaryOperator>(P))
      return B->isAssignmentOp() && B->getLHS() == DR;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(P))
      return U->isIncrementDecrementOp();
    return false;
  }

  ASTContext &Ctx;
  const Accumulation &A;
};

/// The `if` inside the loop whose braced then-branch holds every use of acc
/// in the loop (and not the accumulation): the sum is added to acc at the
/// start of that branch, so what it reads is what it read before. Null when
/// there is none.
const IfStmt *guardOf(ASTContext &Ctx, const Accumulation &A,
                      llvm::ArrayRef<const DeclRefExpr *> Uses) {
  const SourceManager &SM = Ctx.getSourceManager();
  const IfStmt *Guard = nullptr;
  for (const Stmt *Up = Uses.front(); Up && Up != A.Loop;) {
    auto Ps = Ctx.getParents(*Up);
    Up = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    if (auto *If = dyn_cast_or_null<IfStmt>(Up);
        If &&
        contains(SM, If->getThen()->getSourceRange(),
                 Uses.front()->getLocation()) &&
        !contains(SM, If->getSourceRange(), A.Assign->getBeginLoc()))
      Guard = If; // the outermost one wins
  }
  if (!Guard || !isa<CompoundStmt>(Guard->getThen()) ||
      Guard->getBeginLoc().isMacroID())
    return nullptr;
  for (const DeclRefExpr *U : Uses)
    if (!contains(SM, Guard->getThen()->getSourceRange(), U->getLocation()))
      return nullptr;
  return Guard;
}

/// Where the \p Slot-th rewrite anchored at the same place inserts its
/// line: right after \p After (slot 0), or at the start of the next line
/// when \p After ends its line (slot 1); text for either.
std::optional<TextEdit> lineInsert(ASTContext &Ctx, SourceLocation After,
                                   unsigned Slot, const std::string &Indent,
                                   const std::string &Line) {
  if (Slot == 0)
    return insertEdit(Ctx, After, "\n" + Indent + Line);
  if (Slot > 1)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(SM.getFileID(After), &Invalid);
  unsigned Off = SM.getFileOffset(After);
  size_t NL = Invalid ? StringRef::npos : Buf.find('\n', Off);
  if (NL == StringRef::npos || !Buf.slice(Off, NL).trim(" \t\r").empty())
    return std::nullopt;
  return insertEdit(Ctx, After.getLocWithOffset(NL + 1 - Off),
                    Indent + Line + "\n");
}

std::string typeText(ASTContext &Ctx, QualType T) {
  T = T.getUnqualifiedType();
  if (auto *S = T->getAs<SubstTemplateTypeParmType>())
    T = S->getReplacementType().getUnqualifiedType();
  PrintingPolicy PP = Ctx.getPrintingPolicy();
  PP.SuppressTagKeyword = true;
  return T.getAsString(PP);
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
    const FunctionDecl *FD = In.Regions.functions()[In.Site.Node].FD;
    UseFinder Uses(Ctx, A);
    Uses.TraverseDecl(const_cast<FunctionDecl *>(FD));
    if (!Uses.Problem.empty()) {
      Out.Reason = Uses.Problem;
      return Out;
    }
    const AccumulationFixTemplate *T = nullptr;
    for (const AccumulationFixTemplate &C : In.Api.pack().AccumulationFixes)
      if (C.Pack == In.Site.Match.Rule->Pack)
        T = &C;
    if (!T) {
      Out.Reason = "the rule pack '" + In.Site.Match.Rule->Pack +
                   "' does not say how to write a device sum "
                   "(fixes.deferredAccumulation)";
      return Out;
    }

    // A use of acc inside the loop is allowed under one guard, where the
    // sum is added first.
    const IfStmt *Guard = nullptr;
    if (!Uses.InLoop.empty()) {
      Guard = guardOf(Ctx, A, Uses.InLoop);
      if (!Guard) {
        Out.Reason = Uses.FirstInLoop + ", outside one guarded block";
        return Out;
      }
    }
    std::string Acc = A.Acc->getName().str();
    std::string Name = Acc + "_device";
    for (unsigned N = 2;
         Uses.Names.contains(Name) ||
         !Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)).empty();
         ++N)
      Name = Acc + "_device" + std::to_string(N);

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
    std::string Obj = rangeText(Ctx, *ObjRange);
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(In.Site.Call))
      if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee()); ME && ME->isArrow())
        Obj = "(*" + Obj + ")";
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
    std::string Type = typeText(Ctx, A.Value->getType());
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(A.Value))
      if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee());
          ME && ME->getNumTemplateArgs() == 1)
        if (auto R = fileRange(Ctx, ME->getTemplateArgs()[0].getSourceRange()))
          Type = rangeText(Ctx, *R);
    std::string Read = instantiate(T->Read, {{"value", Name}, {"type", Type}});
    std::string ReadBack =
        A.ReadOp.size() == 2
            ? Acc + " " + A.ReadOp + " " + Read + ";"
            : Acc + " = " + Acc + " " + A.ReadOp + " " + Read + ";";
    Fix F;
    F.Kind = name().str();
    F.Edits.push_back(insertEdit(
        Ctx, endOfStatement(Ctx, A.AccDecl),
        "\n" + indentOf(Ctx, A.AccDecl->getBeginLoc()) + "auto " + Name +
            " = " + instantiate(T->Init, {{"dtype", Dtype}}) + ";"));
    F.Edits.push_back(
        replaceEdit(Ctx, *AssignRange, Name + " = " + Name + " + " + Added));
    // Where the sum is read back: after the loop, and at the start of the
    // guarded block that reads acc; a second sum anchored at the same place
    // inserts at the start of the next line (one offset each).
    SourceLocation LoopEnd = endOfStatement(Ctx, A.Loop);
    std::optional<TextEdit> After =
        lineInsert(Ctx, LoopEnd, SlotOf(A.Loop),
                   indentOf(Ctx, A.Loop->getBeginLoc()), ReadBack);
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
    Out.Anchors.push_back(A.Loop);
    llvm::sort(F.Edits, [](const TextEdit &X, const TextEdit &Y) {
      return X.Offset < Y.Offset;
    });
    F.Description = "accumulate '" + Acc + "' on the device in '" + Name +
                    "' and read it once after the loop (line " +
                    line(Ctx, LoopEnd) + ")";
    if (Floating)
      F.Description += "; the sum is taken in " + Dtype +
                       ", equal up to floating-point summation order";
    if (Guard)
      F.Description += "; the guarded block at line " +
                       line(Ctx, Guard->getBeginLoc()) +
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
