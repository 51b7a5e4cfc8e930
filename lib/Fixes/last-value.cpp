//===- last-value.cpp - Keep the last value on the device, read it after --===//
//
// Matches `last = E.item<T>()` in a loop, where `last` is a local arithmetic
// variable declared outside the loop that nothing reads while the loop runs
// (only the last iteration's value is ever seen). Rewrites it to keep E in a
// tensor variable declared next to `last` (detached, a copy of its own, so
// an in-place change of E later in the iteration cannot reach it) and to
// read it once after the loop, when some iteration assigned it: a loop that
// ran zero times leaves `last` as it was. The pack gives the spelling
// (fixes.lastValue). Docs: docs/fixes.md#last-value; tests: test/fixes/.
//
//===----------------------------------------------------------------------===//
#include "Fixes/FixEngine.h"
#include "Fixes/FixSupport.h"
#include "Fixes/LoopVariable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include <variant>

using namespace clang;

namespace seam {
namespace {

/// What the pattern found at one site.
struct LastValue {
  const BinaryOperator *Assign = nullptr; ///< last = E.item<T>()
  const Expr *Read = nullptr;  ///< the read, with `.toFloat()` after it
  const Expr *Value = nullptr; ///< Read, or an explicit cast of it
  LoopVariable In;
};

std::variant<LastValue, std::string> match(const FixInput &In) {
  ASTContext &Ctx = In.Ctx;
  const TriggerSite &S = In.Site;
  LastValue L;
  L.Read = L.Value = scalarValue(Ctx, S.Call);
  if (!L.Read)
    return std::string();
  const Stmt *P = parentOf(Ctx, L.Value);
  // An explicit conversion of the value is part of what is assigned.
  if (auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(P);
      Cast && Cast->getType()->isArithmeticType()) {
    L.Value = Cast;
    P = parentOf(Ctx, Cast);
  }
  L.Assign = dyn_cast_or_null<BinaryOperator>(P);
  if (!L.Assign || L.Assign->getOpcode() != BO_Assign ||
      bare(L.Assign->getRHS()) != L.Value)
    return std::string();
  auto *Lhs = dyn_cast<DeclRefExpr>(bare(L.Assign->getLHS()));
  auto *Var = Lhs ? dyn_cast<VarDecl>(Lhs->getDecl()) : nullptr;
  if (!Var)
    return std::string("the value is not kept in a local variable");
  QualType T = Var->getType().getCanonicalType();
  if (!T->isArithmeticType() || T->isEnumeralType())
    return "'" + Var->getNameAsString() + "' is not an arithmetic variable";
  if (isa<Expr>(parentOf(Ctx, L.Assign)))
    return std::string("the assignment's own value is used");
  auto V = loopVariable(Ctx, In.Regions.functions()[S.Node].FD, Var, L.Assign,
                        {Lhs}, "the value", /*AllowGuard=*/false);
  if (auto *Why = std::get_if<std::string>(&V))
    return *Why;
  L.In = std::move(std::get<LoopVariable>(V));
  if (In.Regions.functions()[S.Node].FD->getTemplateInstantiationPattern() &&
      valueTypeFromTemplate(L.Value))
    return "the value has a type that depends on the template's parameters: "
           "one rewrite would have to hold for every instantiation";
  return L;
}

class LastValueFix : public FixKind {
public:
  llvm::StringRef name() const override { return "last-value"; }

  FixAnswer
  propose(const FixInput &In,
          llvm::function_ref<unsigned(const Stmt *)> SlotOf) const override {
    FixAnswer Out;
    const TriggerSite &S = In.Site;
    if (S.Match.Rule->What != Trigger::ScalarRead || !S.Match.Object)
      return Out;
    auto M = match(In);
    if (auto *Why = std::get_if<std::string>(&M)) {
      Out.Reason = *Why;
      return Out;
    }
    const LastValue &L = std::get<LastValue>(M);
    const LastValueFixTemplate *T =
        packTemplate(In.Api.pack().LastValueFixes, In);
    if (!T) {
      Out.Reason = "the rule pack '" + S.Match.Rule->Pack +
                   "' does not say how to keep a tensor past the loop "
                   "(fixes.lastValue)";
      return Out;
    }
    ASTContext &Ctx = In.Ctx;
    auto AssignRange = fileRange(Ctx, L.Assign->getSourceRange());
    auto ObjRange = fileRange(Ctx, S.Match.Object->getSourceRange());
    if (!AssignRange || !ObjRange) {
      Out.Reason = "the assignment is written inside a macro";
      return Out;
    }
    std::string Var = L.In.Var->getNameAsString();
    std::string Name = freshName(Ctx, L.In, Var + "_device", In.Taken);
    std::string Type = writtenType(Ctx, L.Read);
    const Stmt *Loop = L.In.Loop;
    std::string Indent = indentOf(Ctx, Loop->getBeginLoc());
    // The value read back, converted as the original converted it
    // (`last = static_cast<int>(E.item<float>())`).
    auto ValueRange = fileRange(Ctx, L.Value->getSourceRange());
    auto ReadRange = fileRange(Ctx, L.Read->getSourceRange());
    if (!ValueRange || !ReadRange) {
      Out.Reason = "the assignment is written inside a macro";
      return Out;
    }
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Value = rangeText(Ctx, *ValueRange);
    unsigned From = SM.getFileOffset(ReadRange->getBegin()) -
                    SM.getFileOffset(ValueRange->getBegin());
    unsigned Len = SM.getFileOffset(ReadRange->getEnd()) -
                   SM.getFileOffset(ReadRange->getBegin());
    Value.replace(From, Len,
                  instantiate(T->Read, {{"value", Name}, {"type", Type}}));
    std::string ReadBack = Var + " = " + Value + ";";
    std::optional<TextEdit> After =
        lineInsert(Ctx, endOfStatement(Ctx, Loop), SlotOf(Loop), Indent,
                   "if (" + instantiate(T->Defined, {{"value", Name}}) + ")\n" +
                       Indent + "  " + ReadBack);
    if (!After) {
      Out.Reason = "two other fixes already add code after the same loop: "
                   "run --fix again once they are applied";
      return Out;
    }
    Fix F;
    F.Kind = name().str();
    std::optional<TextEdit> Declare = declareAfter(
        Ctx, L.In, SlotOf(L.In.Decl), T->Holder + " " + Name + ";");
    if (!Declare) {
      Out.Reason = "two other fixes already declare after '" + Var +
                   "': run --fix again once they are applied";
      return Out;
    }
    F.Edits.push_back(std::move(*Declare));
    Out.Anchors.push_back(L.In.Decl);
    Out.Names.push_back(Name);
    F.Edits.push_back(replaceEdit(
        Ctx, *AssignRange,
        Name + " = " +
            instantiate(T->Keep,
                        {{"value", objectText(Ctx, S.Call, *ObjRange)}})));
    F.Edits.push_back(std::move(*After));
    Out.Anchors.push_back(Loop);
    F.Description = "keep the last value of '" + Var + "' on the device in '" +
                    Name + "' and read it once after the loop (line " +
                    lineOf(Ctx, endOfStatement(Ctx, Loop)) + ")";
    Out.AddedOps = 1; // the copy
    F.Effect = "one wait after the loop";
    Out.Rewrite = std::move(F);
    return Out;
  }
};

} // namespace

const FixKind &lastValueFix() {
  static const LastValueFix K;
  return K;
}

} // namespace seam
