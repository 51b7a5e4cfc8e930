//===- FixSupport.cpp - Source text and edits for the fix kinds -----------===//
#include "Fixes/FixSupport.h"

#include "Basic/SourcePoint.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace seam {

std::optional<CharSourceRange> fileRange(ASTContext &Ctx, SourceRange R) {
  if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return std::nullopt;
  CharSourceRange C =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R),
                               Ctx.getSourceManager(), Ctx.getLangOpts());
  if (C.isInvalid())
    return std::nullopt;
  return C;
}

std::string rangeText(ASTContext &Ctx, CharSourceRange R) {
  return Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

static TextEdit edit(ASTContext &Ctx, SourceLocation B, SourceLocation E,
                     std::string Text) {
  const SourceManager &SM = Ctx.getSourceManager();
  TextEdit T;
  if (auto FE = SM.getFileEntryRefForID(SM.getFileID(B)))
    T.File = absolutePath(SM, *FE);
  T.Offset = SM.getFileOffset(B);
  T.Length = SM.getFileOffset(E) - T.Offset;
  T.Text = std::move(Text);
  T.Line = SM.getSpellingLineNumber(B);
  T.Column = SM.getSpellingColumnNumber(B);
  T.EndLine = SM.getSpellingLineNumber(E);
  T.EndColumn = SM.getSpellingColumnNumber(E);
  return T;
}

TextEdit replaceEdit(ASTContext &Ctx, CharSourceRange R, std::string Text) {
  return edit(Ctx, R.getBegin(), R.getEnd(), std::move(Text));
}

TextEdit insertEdit(ASTContext &Ctx, SourceLocation Loc, std::string Text) {
  return edit(Ctx, Loc, Loc, std::move(Text));
}

static StringRef lineBefore(ASTContext &Ctx, SourceLocation Loc) {
  const SourceManager &SM = Ctx.getSourceManager();
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(SM.getFileID(Loc), &Invalid);
  if (Invalid)
    return "";
  unsigned Off = SM.getFileOffset(Loc);
  size_t NL = Buf.rfind('\n', Off); // the last one before Off
  return Buf.slice(NL == StringRef::npos ? 0 : NL + 1, Off);
}

std::string indentOf(ASTContext &Ctx, SourceLocation Loc) {
  StringRef Before = lineBefore(Ctx, Loc);
  return Before.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

bool startsLine(ASTContext &Ctx, SourceLocation Loc) {
  return lineBefore(Ctx, Loc).trim(" \t").empty();
}

SourceLocation endOfStatement(ASTContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SourceLocation End = Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, LO);
  if (End.isInvalid())
    return End;
  // A body that is an expression statement, or a do-while, ends at ';',
  // which the AST's range leaves out.
  std::optional<Token> Next = Lexer::findNextToken(S->getEndLoc(), SM, LO);
  if (Next && Next->is(tok::semi) && !isa<CompoundStmt>(S))
    return Next->getEndLoc();
  return End;
}

const Expr *bare(const Expr *E) {
  while (E) {
    const Expr *Before = E;
    E = E->IgnoreParenImpCasts();
    if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    if (auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    if (auto *F = dyn_cast<FullExpr>(E))
      E = F->getSubExpr();
    if (E == Before)
      break;
  }
  return E;
}

const Stmt *parentOf(ASTContext &Ctx, const Stmt *S) {
  while (S) {
    auto Parents = Ctx.getParents(*S);
    if (Parents.empty())
      return nullptr;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
            CXXBindTemporaryExpr, ExprWithCleanups>(P)) {
      S = P;
      continue;
    }
    return P;
  }
  return nullptr;
}

static std::string typeText(ASTContext &Ctx, QualType T) {
  T = T.getUnqualifiedType();
  if (auto *S = T->getAs<SubstTemplateTypeParmType>())
    T = S->getReplacementType().getUnqualifiedType();
  PrintingPolicy PP = Ctx.getPrintingPolicy();
  PP.SuppressTagKeyword = true;
  return T.getAsString(PP);
}

std::string writtenType(ASTContext &Ctx, const Expr *Value) {
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(Value))
    if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee());
        ME && ME->getNumTemplateArgs() == 1)
      if (auto R = fileRange(Ctx, ME->getTemplateArgs()[0].getSourceRange()))
        return rangeText(Ctx, *R);
  return typeText(Ctx, Value->getType());
}

const Expr *scalarValue(ASTContext &Ctx, const Expr *Read) {
  const Expr *V = Read;
  if (auto *ME = dyn_cast_or_null<MemberExpr>(parentOf(Ctx, V)))
    if (auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(parentOf(Ctx, ME));
        MC && MC->getNumArgs() == 0 && MC->getType()->isArithmeticType())
      V = MC;
  QualType T = V->getType().getCanonicalType();
  if (!T->isArithmeticType() || T->isEnumeralType() || T->isAnyComplexType())
    return nullptr;
  return V;
}

std::string objectText(ASTContext &Ctx, const Expr *Call, CharSourceRange Obj) {
  std::string Text = rangeText(Ctx, Obj);
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee()); ME && ME->isArrow())
      return "(*" + Text + ")";
  return Text;
}

bool typeFromTemplate(QualType T) {
  while (!T.isNull()) {
    const Type *Ty = T.getTypePtr();
    if (isa<SubstTemplateTypeParmType, TemplateTypeParmType, AutoType,
            DecltypeType, DeducedTemplateSpecializationType>(Ty))
      return true;
    QualType Next = Ty->getLocallyUnqualifiedSingleStepDesugaredType();
    if (Next.getTypePtr() == Ty)
      return false;
    T = Next;
  }
  return false;
}

bool valueTypeFromTemplate(const Expr *Value) {
  if (auto *Cast = dyn_cast<ExplicitCastExpr>(Value))
    return typeFromTemplate(Cast->getTypeAsWritten()) ||
           valueTypeFromTemplate(bare(Cast->getSubExpr()));
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(Value))
    if (auto *ME = dyn_cast<MemberExpr>(MC->getCallee())) {
      // `item<T>()`: the type as written, not the member template's own
      // parameter that its return type is substituted from.
      if (ME->hasExplicitTemplateArgs()) {
        for (const TemplateArgumentLoc &A : ME->template_arguments())
          if (A.getArgument().getKind() == TemplateArgument::Type &&
              typeFromTemplate(A.getTypeSourceInfo()->getType()))
            return true;
        return false;
      }
      if (const CXXMethodDecl *M = MC->getMethodDecl())
        return typeFromTemplate(M->getReturnType());
    }
  return typeFromTemplate(Value->getType());
}

std::string instantiate(
    std::string T,
    std::initializer_list<std::pair<const char *, std::string>> Values) {
  // Longest names first would matter for "$v" and "$value"; the names used
  // ($value, $dtype, $type) are not prefixes of one another.
  for (const auto &[Name, Value] : Values) {
    std::string Key = std::string("$") + Name;
    for (size_t At = T.find(Key); At != std::string::npos;
         At = T.find(Key, At + Value.size()))
      T.replace(At, Key.size(), Value);
  }
  return T;
}

} // namespace seam
