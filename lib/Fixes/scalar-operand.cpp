//===- scalar-operand.cpp - The one-element tensor as the operand itself --===//
//
// Matches a scalar read that is an operand of a tensor op and nothing else:
// `t * x.item<float>()`, `x.item<double>() + t`, `t /= n.item<float>()`,
// `t.mul_(lr.item<double>())`. Rewrites the read to the tensor it reads,
// detached (the scalar carried no gradient), zero-dimensional (shapes do
// not change), on the other operand's device and in the dtype that
// promoting the other operand with a scalar of the read's type gives, so
// the op's result has the same dtype and values as before. The pack says
// which operators and methods take a tensor where they take a scalar, and
// how to spell the operand (fixes.scalarOperand). Docs:
// docs/fixes.md#scalar-operand; tests: test/fixes/scalar-operand.cpp.
//
//===----------------------------------------------------------------------===//
#include "Fixes/FixEngine.h"
#include "Fixes/FixSupport.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <variant>

using namespace clang;

namespace seam {
namespace {

/// The op a scalar read feeds: the tensor it is combined with.
struct Operand {
  const Expr *Value = nullptr; ///< the read, with a `.toFloat()` after it
  const Expr *Other = nullptr; ///< the other operand, a tensor
  std::string Op;              ///< "operator*", "mul_", ... for messages
};

/// A name, a member of one, or `this`'s member: evaluating it again reads
/// the same tensor and does nothing else.
bool plainName(const Expr *E) {
  E = bare(E);
  if (isa<DeclRefExpr, CXXThisExpr>(E))
    return true;
  if (auto *M = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl, VarDecl>(M->getMemberDecl()) &&
           plainName(M->getBase());
  if (auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref && plainName(U->getSubExpr());
  return false;
}

std::variant<Operand, std::string> match(const FixInput &In,
                                         const ScalarOperandFixTemplate &T) {
  ASTContext &Ctx = In.Ctx;
  const TriggerSite &S = In.Site;
  Operand O;
  O.Value = scalarValue(Ctx, S.Call);
  if (!O.Value)
    return std::string();
  // The value as the op takes it: converted to the API's scalar type by a
  // constructor (`const Scalar &`), or as it is.
  const Expr *Taken = O.Value;
  const Stmt *P = parentOf(Ctx, O.Value);
  if (auto *CE = dyn_cast_or_null<CXXConstructExpr>(P);
      CE && CE->getNumArgs() == 1) {
    Taken = CE;
    P = parentOf(Ctx, CE);
  }
  if (auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      OC && OC->getNumArgs() == 2) {
    std::string Spelling = getOperatorSpelling(OC->getOperator());
    bool IsAssign = Spelling.size() == 2;
    unsigned At = bare(OC->getArg(0)) == Taken ? 0 : 1;
    if (bare(OC->getArg(At)) != Taken)
      return std::string();
    if (!llvm::is_contained(T.Operators, Spelling))
      return std::string();
    if (IsAssign && At == 0)
      return std::string();
    O.Other = OC->getArg(1 - At);
    O.Op = "operator" + Spelling;
  } else if (auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(P);
             MC && MC->getNumArgs() >= 1 && bare(MC->getArg(0)) == Taken &&
             MC->getMethodDecl()) {
    std::string Name = MC->getMethodDecl()->getNameAsString();
    if (!llvm::is_contained(T.Methods, Name))
      return std::string();
    O.Other = MC->getImplicitObjectArgument();
    O.Op = Name;
  } else {
    return std::string();
  }
  if (!In.Api.isTensorType(bare(O.Other)->getType().getNonReferenceType()))
    return std::string();
  if (!plainName(O.Other))
    return std::string("the other operand of '" + O.Op +
                       "' is not a plain name: the fix reads its device and "
                       "dtype, which would evaluate it again");
  return O;
}

class ScalarOperand : public FixKind {
public:
  llvm::StringRef name() const override { return "scalar-operand"; }

  FixAnswer propose(const FixInput &In,
                    llvm::function_ref<unsigned(const Stmt *)>) const override {
    FixAnswer Out;
    const TriggerSite &S = In.Site;
    if (S.Match.Rule->What != Trigger::ScalarRead || !S.Match.Object)
      return Out;
    const ScalarOperandFixTemplate *T =
        packTemplate(In.Api.pack().ScalarOperandFixes, In);
    if (!T) {
      // Say why only when the read does feed a tensor op.
      static const ScalarOperandFixTemplate Any{
          "", "", {"+", "-", "*", "/", "+=", "-=", "*=", "/="}, {}};
      if (std::holds_alternative<Operand>(match(In, Any)))
        Out.Reason = "the rule pack '" + S.Match.Rule->Pack +
                     "' does not say how to use a tensor as the operand "
                     "(fixes.scalarOperand)";
      return Out;
    }
    auto M = match(In, *T);
    if (auto *Why = std::get_if<std::string>(&M)) {
      Out.Reason = *Why;
      return Out;
    }
    const Operand &O = std::get<Operand>(M);
    ASTContext &Ctx = In.Ctx;
    auto ValueRange = fileRange(Ctx, O.Value->getSourceRange());
    auto ObjRange = fileRange(Ctx, S.Match.Object->getSourceRange());
    auto OtherRange = fileRange(Ctx, O.Other->getSourceRange());
    if (!ValueRange || !ObjRange || !OtherRange) {
      Out.Reason = "the operand is written inside a macro";
      return Out;
    }
    std::string Other = rangeText(Ctx, *OtherRange);
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(parentOf(Ctx, O.Value)))
      if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee()); ME && ME->isArrow())
        Other = "(*" + Other + ")";
    std::string Type = writtenType(Ctx, O.Value);
    std::string Text =
        instantiate(T->Value, {{"value", objectText(Ctx, S.Call, *ObjRange)},
                               {"other", Other},
                               {"type", Type}});
    Fix F;
    F.Kind = name().str();
    F.Edits.push_back(replaceEdit(Ctx, *ValueRange, Text));
    F.Description = "use the one-element tensor itself as the operand of '" +
                    O.Op + "', zero-dimensional, on the device of '" + Other +
                    "' and in the dtype a " + Type +
                    " scalar gives it, so the result is the same";
    Out.AddedOps = 1; // the conversion (none when device and dtype agree)
    F.Effect = "the op itself is unchanged";
    Out.Rewrite = std::move(F);
    return Out;
  }
};

} // namespace

const FixKind &scalarOperandFix() {
  static const ScalarOperand K;
  return K;
}

} // namespace seam
