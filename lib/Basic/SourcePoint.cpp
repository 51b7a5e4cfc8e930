//===- SourcePoint.cpp - Clang locations to plain file/line/column --------===//
#include "Basic/SourcePoint.h"

#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace seam {

static llvm::StringRef lineAt(const SourceManager &SM, SourceLocation F) {
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(SM.getFileID(F), &Invalid);
  if (Invalid)
    return "";
  unsigned Off = SM.getFileOffset(F);
  size_t Begin = Off - (SM.getSpellingColumnNumber(F) - 1);
  size_t End = Buf.find('\n', Off);
  return Buf.slice(Begin, End == llvm::StringRef::npos ? Buf.size() : End)
      .rtrim('\r');
}

std::string absolutePath(const SourceManager &SM, FileEntryRef FE) {
  // Relative names are relative to the compile command's directory, which is
  // the file manager's working directory, not the process's: several
  // translation units are parsed at once, each in its own directory.
  llvm::SmallString<256> Path(FE.getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

SourcePoint makePoint(const SourceManager &SM, const LangOptions &LO,
                      SourceLocation Loc, SourceLocation End) {
  SourcePoint P;
  if (Loc.isInvalid())
    return P;
  SourceLocation F = SM.getFileLoc(Loc);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(F));
  if (!FE)
    return P;
  P.File = absolutePath(SM, *FE);
  P.Line = SM.getSpellingLineNumber(F);
  P.Column = SM.getSpellingColumnNumber(F);
  // At most 4 KiB of the line (kept at a UTF-8 boundary): every result and
  // note on a generated or minified line carries it, and N results on a
  // line that grows with N would cost N^2 bytes in reports and the cache.
  llvm::StringRef Line = lineAt(SM, F);
  constexpr size_t MaxLineText = 4096;
  if (Line.size() > MaxLineText) {
    size_t Cut = MaxLineText;
    while (Cut > 0 && (static_cast<unsigned char>(Line[Cut]) & 0xC0) == 0x80)
      --Cut;
    Line = Line.take_front(Cut);
  }
  P.LineText = Line.str();
  unsigned TokLen = Lexer::MeasureTokenLength(F, SM, LO);
  P.EndLine = P.Line;
  P.EndColumn = P.Column + std::max(TokLen, 1u);
  if (End.isValid()) {
    SourceLocation E = SM.getFileLoc(End);
    if (SM.getFileID(E) == SM.getFileID(F) &&
        SM.getSpellingLineNumber(E) == P.Line &&
        !SM.isBeforeInTranslationUnit(E, F))
      P.EndColumn = SM.getSpellingColumnNumber(E) +
                    std::max(Lexer::MeasureTokenLength(E, SM, LO), 1u);
  }
  return P;
}

std::string exprText(const SourceManager &SM, const LangOptions &LO,
                     const Expr *E) {
  if (!E)
    return "";
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  R = Lexer::makeFileCharRange(R, SM, LO);
  std::string Text;
  if (R.isValid())
    Text = Lexer::getSourceText(R, SM, LO).str();
  if (Text.empty() || Text.find('\n') != std::string::npos) {
    // Multi-line or macro-made: fall back to something short but true.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return DRE->getDecl()->getNameAsString();
    return Text.empty() ? "tensor" : Text.substr(0, Text.find('\n')) + "...";
  }
  if (Text.size() > 40)
    Text = Text.substr(0, 37) + "...";
  return Text;
}

} // namespace seam
