//===- collected-copies.cpp - Collect device tensors, copy after the loop -===//
//
// Matches `v.push_back(E.cpu())` (also `emplace_back`, `E.to(kCPU)`, any
// host copy a pack names) in a loop, where `v` is a local container of
// tensors declared outside the loop that the loop uses nowhere else, and E
// is a fresh tensor (a call that returns one by value and is not a view), so
// nothing can change it in place before it is copied. Rewrites it to
// collect E itself and to copy every element to the host after the loop,
// as the pack spells it (fixes.collectedCopies). Docs:
// docs/fixes.md#collected-copies; tests: test/fixes/.
//
//===----------------------------------------------------------------------===//
#include "Fixes/FixEngine.h"
#include "Fixes/FixSupport.h"
#include "Fixes/LoopVariable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace seam {
namespace {

/// What the pattern found at one site.
struct Collection {
  const CXXMemberCallExpr *Push = nullptr; ///< v.push_back(E.cpu())
  const DeclRefExpr *List = nullptr;       ///< v
  LoopVariable In;
};

/// The name a fresh tensor E comes from, or "" when E is not a call.
std::string calleeName(const Expr *E) {
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *M = MC->getMethodDecl())
      return M->getNameAsString();
  if (auto *C = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *F = C->getDirectCallee())
      return F->getNameAsString();
  return "";
}

/// Why the tensor \p E might not be the same value after the loop ("" when
/// it is a fresh tensor nothing else refers to).
std::string notFresh(const ApiModel &Api, const Expr *E,
                     const std::string &Text) {
  E = bare(E);
  auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || Call->getType()->isReferenceType() || E->isGLValue())
    return "'" + Text +
           "' is not a new tensor: it may change in place before the loop "
           "ends";
  std::string Name = calleeName(E);
  for (const OpRule &Op : Api.pack().Ops)
    if (Op.Class == OpClass::View && Op.Name == Name)
      return "'" + Text + "' is a view ('" + Name +
             "'): its tensor may change in place before the loop ends";
  return "";
}

std::variant<Collection, std::string> match(const FixInput &In) {
  ASTContext &Ctx = In.Ctx;
  const TriggerSite &S = In.Site;
  if (S.Match.Rule->What != Trigger::HostCopy || !S.Match.Object ||
      !isa<CXXMemberCallExpr>(S.Call))
    return std::string();
  Collection C;
  C.Push = dyn_cast_or_null<CXXMemberCallExpr>(parentOf(Ctx, S.Call));
  if (!C.Push || C.Push->getNumArgs() != 1 ||
      bare(C.Push->getArg(0)) != S.Call || !C.Push->getMethodDecl())
    return std::string();
  std::string Method = C.Push->getMethodDecl()->getNameAsString();
  if (Method != "push_back" && Method != "emplace_back")
    return std::string();
  C.List =
      dyn_cast_or_null<DeclRefExpr>(bare(C.Push->getImplicitObjectArgument()));
  auto *Var = C.List ? dyn_cast<VarDecl>(C.List->getDecl()) : nullptr;
  if (!Var || !In.Api.mentionsTensor(Var->getType()))
    return std::string("the copies are not collected in a local container "
                       "of tensors");
  if (isa<Expr>(parentOf(Ctx, C.Push)))
    return std::string("the value of the push_back is used");
  if (!fileRange(Ctx, S.Match.Object->getSourceRange()))
    return std::string("the list is written inside a macro");
  std::string Why = notFresh(
      In.Api, S.Match.Object,
      rangeText(Ctx, *fileRange(Ctx, S.Match.Object->getSourceRange())));
  if (!Why.empty())
    return Why;
  auto V = loopVariable(Ctx, In.Regions.functions()[S.Node].FD, Var, C.Push,
                        {C.List}, "the list", /*AllowGuard=*/false);
  if (auto *Problem = std::get_if<std::string>(&V))
    return *Problem;
  C.In = std::move(std::get<LoopVariable>(V));
  return C;
}

class CollectedCopies : public FixKind {
public:
  llvm::StringRef name() const override { return "collected-copies"; }

  FixAnswer
  propose(const FixInput &In,
          llvm::function_ref<unsigned(const Stmt *)> SlotOf) const override {
    FixAnswer Out;
    auto M = match(In);
    if (auto *Why = std::get_if<std::string>(&M)) {
      Out.Reason = *Why;
      return Out;
    }
    const Collection &C = std::get<Collection>(M);
    ASTContext &Ctx = In.Ctx;
    const CopyFixTemplate *T = packTemplate(In.Api.pack().CopyFixes, In);
    if (!T) {
      Out.Reason = "the rule pack '" + In.Site.Match.Rule->Pack +
                   "' does not say how to copy a tensor to the host "
                   "(fixes.collectedCopies)";
      return Out;
    }
    auto CallRange = fileRange(Ctx, In.Site.Call->getSourceRange());
    auto ObjRange = fileRange(Ctx, In.Site.Match.Object->getSourceRange());
    if (!CallRange || !ObjRange) {
      Out.Reason = "the list is written inside a macro";
      return Out;
    }
    std::string List = C.In.Var->getName().str();
    std::string Element = freshName(Ctx, C.In, "element", In.Taken);
    const Stmt *Loop = C.In.Loop;
    SourceLocation LoopEnd = endOfStatement(Ctx, Loop);
    std::optional<TextEdit> After = lineInsert(
        Ctx, LoopEnd, SlotOf(Loop), indentOf(Ctx, Loop->getBeginLoc()),
        "for (auto &" + Element + " : " + List + ")\n" +
            indentOf(Ctx, Loop->getBeginLoc()) + "  " + Element + " = " +
            instantiate(T->ToHost, {{"value", Element}}) + ";");
    if (!After) {
      Out.Reason = "two other fixes already add code after the same loop: "
                   "run --fix again once they are applied";
      return Out;
    }
    Fix F;
    F.Kind = name().str();
    F.Edits.push_back(replaceEdit(Ctx, *CallRange, rangeText(Ctx, *ObjRange)));
    F.Edits.push_back(std::move(*After));
    F.Description = "collect the device tensors in '" + List +
                    "' and copy them to the host after the loop (line " +
                    lineOf(Ctx, LoopEnd) +
                    "); until then they stay in device memory";
    F.Effect = "the copies wait once, after the loop";
    Out.Rewrite = std::move(F);
    Out.Anchors.push_back(Loop);
    return Out;
  }
};

} // namespace

const FixKind &collectedCopiesFix() {
  static const CollectedCopies K;
  return K;
}

} // namespace seam
