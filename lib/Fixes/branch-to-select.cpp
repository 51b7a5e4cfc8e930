//===- branch-to-select.cpp - A branch on a tensor value as a select ------===//
//
// Matches `if (c.item<bool>()) y = A; else y = B;` and
// `if (x.item<float>() > t) y = A; else y = B;` where y is a local tensor
// and A and B are side-effect-free tensor expressions that provably have
// the same shape and dtype: both built from the same one tensor, by the
// pack's side-effect-free element-wise ops, with scalars of the same kind.
// Rewrites the statement to `y = where(cond, A, B)`: the condition stays on
// the device as a zero-dimensional boolean tensor, converted as the C++
// comparison converts the value. Both branches then run. The pack spells
// the condition, the conversion and the select (fixes.branchToSelect).
// Docs: docs/fixes.md#branch-to-select; tests: test/fixes/branch-to-select.cpp.
//
//===----------------------------------------------------------------------===//
#include "Fixes/FixEngine.h"
#include "Fixes/FixSupport.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include <set>
#include <variant>

using namespace clang;

namespace seam {
namespace {

/// What decides an expression's shape and dtype: its tensors, its ops and
/// the widest kind of scalar in it (0 none, 1 bool, 2 integer, 3 floating).
struct Signature {
  std::set<const ValueDecl *> Tensors;
  std::set<std::string> Ops;
  int ScalarKind = 0;
  unsigned OpCount = 0;
  bool TemplateTypes = false; ///< a scalar spelled with a template parameter
  bool operator==(const Signature &O) const {
    return Tensors == O.Tensors && Ops == O.Ops && ScalarKind == O.ScalarKind;
  }
};

int scalarKind(QualType T) {
  T = T.getCanonicalType();
  if (T->isBooleanType())
    return 1;
  if (T->isIntegralOrEnumerationType())
    return 2;
  return 3;
}

/// The name of the op a call makes ("operator*", "relu"), or "".
std::string opName(const CallExpr *C) {
  if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C))
    return std::string("operator") + getOperatorSpelling(OC->getOperator());
  if (const FunctionDecl *F = C->getDirectCallee())
    return F->getNameAsString();
  return "";
}

class Walker {
public:
  Walker(ASTContext &Ctx, const ApiModel &Api,
         const std::vector<std::string> &Ops)
      : Ctx(Ctx), Api(Api), Ops(Ops) {}

  /// Fills \p Sig; returns the first part that is not a side-effect-free
  /// element-wise expression, or nullptr.
  const Expr *walk(const Expr *E, Signature &Sig) {
    E = bare(E);
    if (auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // A copy of a tensor, or a scalar converted to the API's scalar type.
      if (CE->getNumArgs() != 1)
        return E;
      return walk(CE->getArg(0), Sig);
    }
    if (auto *IC = dyn_cast<ImplicitCastExpr>(E))
      return walk(IC->getSubExpr(), Sig);
    QualType T = E->getType().getNonReferenceType();
    if (Api.isTensorType(T)) {
      if (auto *DR = dyn_cast<DeclRefExpr>(E)) {
        if (!isa<VarDecl>(DR->getDecl()))
          return E;
        Sig.Tensors.insert(DR->getDecl());
        return nullptr;
      }
      auto *C = dyn_cast<CallExpr>(E);
      if (!C)
        return E;
      std::string Name = opName(C);
      if (Name.empty() || !llvm::is_contained(Ops, Name))
        return E;
      Sig.Ops.insert(Name);
      ++Sig.OpCount;
      if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
        if (const Expr *Bad = walk(MC->getImplicitObjectArgument(), Sig))
          return Bad;
      for (const Expr *A : C->arguments())
        if (!isa<CXXDefaultArgExpr>(A))
          if (const Expr *Bad = walk(A, Sig))
            return Bad;
      return nullptr;
    }
    if (T->isArithmeticType() && !T->isAnyComplexType() &&
        !E->HasSideEffects(Ctx)) {
      Sig.ScalarKind = std::max(Sig.ScalarKind, scalarKind(T));
      Sig.TemplateTypes |= typeFromTemplate(E->getType());
      return nullptr;
    }
    return E;
  }

private:
  ASTContext &Ctx;
  const ApiModel &Api;
  const std::vector<std::string> &Ops;
};

/// `y = E;` alone (or in braces): the assignment, else nullptr.
const CXXOperatorCallExpr *soleAssignment(const Stmt *S) {
  if (auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      return nullptr;
    S = CS->body_front();
  }
  auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  auto *OC = dyn_cast<CXXOperatorCallExpr>(bare(E));
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return nullptr;
  return OC;
}

const VarDecl *assignedLocal(const CXXOperatorCallExpr *OC) {
  auto *DR = dyn_cast<DeclRefExpr>(bare(OC->getArg(0)));
  auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
      V->getType()->isReferenceType())
    return nullptr;
  return V;
}

/// What the pattern found at one site.
struct Select {
  const IfStmt *If = nullptr;
  const Expr *Value = nullptr; ///< the read, converted
  const Expr *Test = nullptr;  ///< the whole condition
  const VarDecl *Target = nullptr;
  const Expr *Then = nullptr, *Else = nullptr;
  const ValueDecl *Tensor = nullptr; ///< the one tensor of both
  unsigned ExtraOps = 0;             ///< ops of the smaller branch
};

std::variant<Select, std::string> match(const FixInput &In,
                                        const SelectFixTemplate &T) {
  ASTContext &Ctx = In.Ctx;
  const TriggerSite &S = In.Site;
  Select M;
  M.Value = scalarValue(Ctx, S.Call);
  if (!M.Value)
    return std::string();
  const Stmt *P = parentOf(Ctx, M.Value);
  M.Test = M.Value;
  if (auto *B = dyn_cast_or_null<BinaryOperator>(P); B && B->isComparisonOp()) {
    const Expr *Other =
        bare(B->getLHS()) == M.Value ? B->getRHS() : B->getLHS();
    if (Other->HasSideEffects(Ctx) || !Other->getType()->isArithmeticType() ||
        In.Api.isTensorType(Other->getType()))
      return std::string();
    M.Test = B;
    P = parentOf(Ctx, B);
  }
  M.If = dyn_cast_or_null<IfStmt>(P);
  if (!M.If || bare(M.If->getCond()) != M.Test)
    return std::string();
  if (M.If->getInit() || M.If->getConditionVariable() || M.If->isConsteval() ||
      M.If->isConstexpr())
    return std::string("the `if` declares a variable");
  auto *A = soleAssignment(M.If->getThen());
  auto *B = soleAssignment(M.If->getElse());
  if (!A)
    return std::string("the branch does more than assign one tensor");
  M.Target = assignedLocal(A);
  if (!M.Target || !In.Api.isTensorType(M.Target->getType()))
    return std::string("the branch does not assign a local tensor");
  std::string Name = M.Target->getNameAsString();
  if (!B)
    return M.If->getElse()
               ? "the else branch does more than assign '" + Name + "'"
               : "there is no else branch: '" + Name +
                     "' keeps its value there, and Seam cannot show that the "
                     "then branch keeps its dtype";
  if (assignedLocal(B) != M.Target)
    return "the branches assign different variables";
  M.Then = A->getArg(1);
  M.Else = B->getArg(1);
  Walker W(Ctx, In.Api, T.Ops);
  Signature SA, SB;
  for (auto [E, Sig] : {std::pair{M.Then, &SA}, std::pair{M.Else, &SB}})
    if (const Expr *Bad = W.walk(E, *Sig)) {
      auto R = fileRange(Ctx, Bad->getSourceRange());
      return "'" + (R ? rangeText(Ctx, *R) : std::string("a part")) +
             "' is not a side-effect-free element-wise op of the rule pack: "
             "both branches would run";
    }
  if (SA.Tensors.size() != 1 || !(SA == SB))
    return std::string("Seam cannot show that both branches give the same "
                       "shape and dtype (they must use the same one tensor, "
                       "the same ops and the same kind of scalars)");
  if (In.Regions.functions()[S.Node].FD->getTemplateInstantiationPattern() &&
      (SA.TemplateTypes || SB.TemplateTypes || valueTypeFromTemplate(M.Value) ||
       (M.Test != M.Value &&
        typeFromTemplate(cast<BinaryOperator>(M.Test)->getLHS()->getType()))))
    return std::string("a type in the branch depends on the template's "
                       "parameters: one rewrite would have to hold for every "
                       "instantiation");
  M.Tensor = *SA.Tensors.begin();
  M.ExtraOps = std::min(SA.OpCount, SB.OpCount);
  return M;
}

/// The pack's dtype for the C++ type \p T, or "".
std::string dtypeFor(ASTContext &Ctx, const SelectFixTemplate &T, QualType Q) {
  std::string Name = Q.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
  for (const auto &[Type, Dtype] : T.Dtypes)
    if (Type == Name)
      return Dtype;
  return "";
}

class BranchToSelect : public FixKind {
public:
  llvm::StringRef name() const override { return "branch-to-select"; }

  FixAnswer propose(const FixInput &In,
                    llvm::function_ref<unsigned(const Stmt *)>) const override {
    FixAnswer Out;
    const TriggerSite &S = In.Site;
    if (S.Match.Rule->What != Trigger::ScalarRead || !S.Match.Object)
      return Out;
    const SelectFixTemplate *T = packTemplate(In.Api.pack().SelectFixes, In);
    if (!T) {
      if (auto *If = dyn_cast_or_null<IfStmt>(parentOf(In.Ctx, S.Call)))
        if (If->getElse())
          Out.Reason = "the rule pack '" + S.Match.Rule->Pack +
                       "' does not say how to select on the device "
                       "(fixes.branchToSelect)";
      return Out;
    }
    auto Found = match(In, *T);
    if (auto *Why = std::get_if<std::string>(&Found)) {
      Out.Reason = *Why;
      return Out;
    }
    const Select &M = std::get<Select>(Found);
    ASTContext &Ctx = In.Ctx;
    const SourceManager &SM = Ctx.getSourceManager();
    auto IfRange = fileRange(Ctx, M.If->getSourceRange());
    auto TestRange = fileRange(Ctx, M.Test->getSourceRange());
    auto ValueRange = fileRange(Ctx, M.Value->getSourceRange());
    auto ObjRange = fileRange(Ctx, S.Match.Object->getSourceRange());
    auto ThenRange = fileRange(Ctx, M.Then->getSourceRange());
    auto ElseRange = fileRange(Ctx, M.Else->getSourceRange());
    if (!IfRange || !TestRange || !ValueRange || !ObjRange || !ThenRange ||
        !ElseRange) {
      Out.Reason = "the branch is written inside a macro";
      return Out;
    }
    // The value as the C++ code converts it: to the read's type, then to
    // the comparison's common type (the type of the comparison's operand
    // after its implicit conversion), or to bool when it is the condition.
    QualType ReadType = M.Value->getType();
    QualType TestType = Ctx.BoolTy;
    if (auto *B = dyn_cast<BinaryOperator>(M.Test))
      TestType = bare(B->getLHS()) == M.Value ? B->getLHS()->getType()
                                              : B->getRHS()->getType();
    std::string ReadDtype = dtypeFor(Ctx, *T, ReadType);
    std::string TestDtype = dtypeFor(Ctx, *T, TestType);
    if (ReadDtype.empty() || TestDtype.empty()) {
      Out.Reason = "the rule pack '" + T->Pack + "' names no dtype for '" +
                   (ReadDtype.empty() ? ReadType : TestType)
                       .getCanonicalType()
                       .getAsString(Ctx.getPrintingPolicy()) +
                   "' (fixes.branchToSelect.dtypes)";
      return Out;
    }
    std::string Cond = instantiate(
        T->Condition, {{"value", objectText(Ctx, S.Call, *ObjRange)},
                       {"other", M.Tensor->getNameAsString()},
                       {"dtype", ReadDtype}});
    if (ReadType.getCanonicalType() != TestType.getCanonicalType())
      Cond = instantiate(T->Convert, {{"value", Cond}, {"dtype", TestDtype}});
    // The comparison as written, with the read replaced.
    std::string Test = rangeText(Ctx, *TestRange);
    unsigned From = SM.getFileOffset(ValueRange->getBegin()) -
                    SM.getFileOffset(TestRange->getBegin());
    unsigned Len = SM.getFileOffset(ValueRange->getEnd()) -
                   SM.getFileOffset(ValueRange->getBegin());
    Test.replace(From, Len, Cond);
    std::string Target = M.Target->getNameAsString();
    std::string Text =
        Target + " = " +
        instantiate(T->Select, {{"condition", Test},
                                {"then", rangeText(Ctx, *ThenRange)},
                                {"else", rangeText(Ctx, *ElseRange)}}) +
        ";";
    SourceLocation End = endOfStatement(Ctx, M.If);
    Fix F;
    F.Kind = name().str();
    F.Edits.push_back(replaceEdit(
        Ctx, CharSourceRange::getCharRange(IfRange->getBegin(), End), Text));
    F.Description = "select '" + Target +
                    "' on the device instead of branching on the host; both "
                    "branches now run";
    // The select, the ops of the arm not taken (the cheaper one, at
    // least), and the condition's conversions.
    Out.AddedOps = 1 + M.ExtraOps + 1 +
                   (ReadType.getCanonicalType() != TestType.getCanonicalType());
    F.Effect = "both arms run: the select, the ops of the arm not taken and "
               "the condition's conversions are the ops counted";
    Out.Rewrite = std::move(F);
    return Out;
  }
};

} // namespace

const FixKind &branchToSelectFix() {
  static const BranchToSelect K;
  return K;
}

} // namespace seam
