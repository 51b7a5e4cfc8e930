//===- TextReporter.cpp - clang-style diagnostics --------------------------===//
#include "Report/Reporters.h"

namespace seam {

static void caret(llvm::raw_ostream &OS, const SourcePoint &P, bool Color) {
  if (P.LineText.empty() || P.Column == 0)
    return;
  OS << P.LineText << "\n";
  std::string Pad;
  for (unsigned I = 0; I + 1 < P.Column && I < P.LineText.size(); ++I)
    Pad += P.LineText[I] == '\t' ? '\t' : ' ';
  unsigned Width = P.EndColumn > P.Column ? P.EndColumn - P.Column : 1;
  if (Color)
    OS.changeColor(llvm::raw_ostream::GREEN, true);
  OS << Pad << "^" << std::string(Width > 1 ? Width - 1 : 0, '~');
  if (Color)
    OS.resetColor();
  OS << "\n";
}

static void header(llvm::raw_ostream &OS, const SourcePoint &P, Level L,
                   bool Color) {
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  OS << P.File << ":" << P.Line << ":" << P.Column << ": ";
  if (Color)
    OS.changeColor(L == Level::Error     ? llvm::raw_ostream::RED
                   : L == Level::Warning ? llvm::raw_ostream::MAGENTA
                                         : llvm::raw_ostream::BLACK,
                   true);
  OS << levelName(L) << ": ";
  if (Color)
    OS.resetColor();
}

void writeText(llvm::raw_ostream &OS, const Report &R, bool Color) {
  for (const Finding &F : R.Findings) {
    header(OS, F.Where, F.Severity, Color);
    if (Color)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    OS << F.Message;
    if (F.Cost && !F.Cost->Summary.empty())
      OS << "; " << F.Cost->Summary;
    OS << " [" << F.RuleId << "]";
    if (Color)
      OS.resetColor();
    OS << "\n";
    caret(OS, F.Where, Color);
    for (const PathNote &N : F.Path) {
      if (!N.Where.valid())
        continue;
      header(OS, N.Where, Level::Note, Color);
      OS << N.Message << "\n";
      caret(OS, N.Where, Color);
    }
  }
}

} // namespace seam
