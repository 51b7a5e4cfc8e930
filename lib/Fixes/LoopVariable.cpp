//===- LoopVariable.cpp - A local variable a loop updates in one place ----===//
#include "Fixes/LoopVariable.h"

#include "Fixes/FixSupport.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace seam {

std::string lineOf(ASTContext &Ctx, SourceLocation L) {
  return std::to_string(Ctx.getSourceManager().getSpellingLineNumber(L));
}

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S);
}

bool contains(const SourceManager &SM, SourceRange R, SourceLocation L) {
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

/// Every other use of the variable: where it is inside the loop, and no
/// pointer, reference or lambda capture made before the loop.
class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  UseFinder(ASTContext &Ctx, const VarDecl *Var, const Stmt *Loop,
            llvm::ArrayRef<const DeclRefExpr *> Own, llvm::StringRef What)
      : Ctx(Ctx), Var(Var), Loop(Loop), Own(Own), What(What) {}

  std::string Problem;
  llvm::StringSet<> Names;
  /// Uses inside the loop, and the words for the first.
  std::vector<const DeclRefExpr *> InLoop;
  std::string FirstInLoop;

  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier())
      Names.insert(D->getName());
    return true;
  }

  bool VisitGotoStmt(GotoStmt *G) {
    if (Problem.empty() && inLoop(G->getBeginLoc()))
      Problem = "a goto at line " + lineOf(Ctx, G->getBeginLoc()) +
                " could leave the loop without " + What.str() +
                " being read after it";
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (DR->getDecl()->getIdentifier())
      Names.insert(DR->getDecl()->getName());
    if (DR->getDecl() != Var || llvm::is_contained(Own, DR) || !Problem.empty())
      return true;
    std::string Name = Var->getName().str();
    SourceLocation L = DR->getLocation();
    const SourceManager &SM = Ctx.getSourceManager();
    if (inLoop(L)) {
      if (DR->refersToEnclosingVariableOrCapture())
        Problem = "'" + Name + "' is captured by a lambda inside the loop " +
                  "at line " + lineOf(Ctx, L);
      else if (InLoop.empty())
        FirstInLoop = "'" + Name + "' is " +
                      (written(DR) ? "written" : "read") +
                      " inside the loop at line " + lineOf(Ctx, L);
      InLoop.push_back(DR);
      return true;
    }
    if (!SM.isBeforeInTranslationUnit(L, Loop->getBeginLoc()))
      return true; // after the loop: sees what the fix reads back
    if (DR->refersToEnclosingVariableOrCapture())
      Problem = "'" + Name + "' is captured by a lambda at line " +
                lineOf(Ctx, L) + ", which the loop may call";
    else if (!read(DR) && !written(DR))
      Problem = "'" + Name + "' is bound to a reference or pointer at line " +
                lineOf(Ctx, L) + ", which the loop may use";
    return true;
  }

private:
  bool inLoop(SourceLocation L) const {
    return contains(Ctx.getSourceManager(), Loop->getSourceRange(), L);
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
  const VarDecl *Var;
  const Stmt *Loop;
  llvm::ArrayRef<const DeclRefExpr *> Own;
  llvm::StringRef What;
};

/// The `if` inside the loop whose braced then-branch holds every one of
/// \p Uses and not \p Update; null when there is none.
const IfStmt *guardOf(ASTContext &Ctx, const Stmt *Loop, const Stmt *Update,
                      llvm::ArrayRef<const DeclRefExpr *> Uses) {
  const SourceManager &SM = Ctx.getSourceManager();
  const IfStmt *Guard = nullptr;
  for (const Stmt *Up = Uses.front(); Up && Up != Loop;) {
    auto Ps = Ctx.getParents(*Up);
    Up = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    if (auto *If = dyn_cast_or_null<IfStmt>(Up);
        If &&
        contains(SM, If->getThen()->getSourceRange(),
                 Uses.front()->getLocation()) &&
        !contains(SM, If->getSourceRange(), Update->getBeginLoc()))
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

} // namespace

std::variant<LoopVariable, std::string>
loopVariable(ASTContext &Ctx, const FunctionDecl *FD, const VarDecl *Var,
             const Stmt *Update, llvm::ArrayRef<const DeclRefExpr *> Own,
             llvm::StringRef What, bool AllowGuard) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Name = Var->getName().str();
  if (!Var->isLocalVarDecl() || !Var->hasLocalStorage() ||
      Var->getType()->isReferenceType())
    return "'" + Name +
           "' is not a local variable of this function: other code may read "
           "it while the loop runs";
  if (!FD || FD->isDependentContext())
    return What.str() + " is in a template: one rewrite would have to hold "
                        "for every instantiation";
  // In an instantiation the rewrite is made from the template's own text,
  // so it holds for every instantiation when nothing it depends on is
  // spelled with a template parameter.
  if (FD->getTemplateInstantiationPattern() && typeFromTemplate(Var->getType()))
    return "'" + Name +
           "' has a type that depends on the template's parameters: one "
           "rewrite would have to hold for every instantiation";
  if (Var->getDeclContext() != FD)
    return "'" + Name + "' is declared outside this function's body";

  LoopVariable V;
  V.Var = Var;
  // The outermost loop around the update that does not hold the variable.
  for (const Stmt *Up = parentOf(Ctx, Update); Up; Up = parentOf(Ctx, Up)) {
    if (isa<LambdaExpr>(Up) || Up == FD->getBody() ||
        contains(SM, Up->getSourceRange(), Var->getLocation()))
      break;
    if (isa<CXXTryStmt>(Up))
      return "the loop is inside a try block: a handler could see '" + Name +
             "' before the read after the loop";
    if (isLoop(Up))
      V.Loop = Up;
  }
  if (!V.Loop)
    return "'" + Name + "' is not updated in a loop of this function";
  if (!isa_and_nonnull<CompoundStmt>(parentOf(Ctx, V.Loop)) ||
      !startsLine(Ctx, V.Loop->getBeginLoc()))
    return std::string("the loop does not start its own line in a block");
  for (const auto &Parent : Ctx.getParents(*Var))
    V.Decl = Parent.get<DeclStmt>();
  if (!V.Decl || !V.Decl->isSingleDecl() ||
      !isa_and_nonnull<CompoundStmt>(parentOf(Ctx, V.Decl)))
    return "'" + Name + "' is not declared by a statement of its own";
  if (!fileRange(Ctx, Update->getSourceRange()) ||
      !fileRange(Ctx, V.Loop->getSourceRange()) ||
      !fileRange(Ctx, V.Decl->getSourceRange()) ||
      SM.getFileID(SM.getFileLoc(V.Loop->getBeginLoc())) !=
          SM.getFileID(SM.getFileLoc(V.Decl->getBeginLoc())))
    return What.str() + " is written inside a macro";

  UseFinder Uses(Ctx, Var, V.Loop, Own, What);
  Uses.TraverseDecl(const_cast<FunctionDecl *>(FD));
  if (!Uses.Problem.empty())
    return Uses.Problem;
  if (!Uses.InLoop.empty()) {
    V.Guard = AllowGuard ? guardOf(Ctx, V.Loop, Update, Uses.InLoop) : nullptr;
    if (!V.Guard)
      return Uses.FirstInLoop +
             (AllowGuard ? ", outside one guarded block" : "");
  }
  V.Names = std::move(Uses.Names);
  return V;
}

std::string freshName(ASTContext &Ctx, const LoopVariable &V,
                      const std::string &Base, const llvm::StringSet<> &Taken) {
  std::string Name = Base;
  for (unsigned N = 2;
       V.Names.contains(Name) || Taken.contains(Name) ||
       !Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)).empty();
       ++N)
    Name = Base + std::to_string(N);
  return Name;
}

std::optional<TextEdit> declareAfter(ASTContext &Ctx, const LoopVariable &V,
                                     unsigned Slot, const std::string &Line) {
  return lineInsert(Ctx, endOfStatement(Ctx, V.Decl), Slot,
                    indentOf(Ctx, V.Decl->getBeginLoc()), Line);
}

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

} // namespace seam
