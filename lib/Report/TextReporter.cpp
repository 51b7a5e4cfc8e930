//===- TextReporter.cpp - clang-style diagnostics
//--------------------------===//
#include "Report/Reporters.h"

#include <cstdio>

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
  OS << P.File;
  if (P.Line > 0) // a driver error has no line
    OS << ":" << P.Line << ":" << P.Column;
  OS << ": ";
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
  for (const Finding &F : R.Findings)
    writeTextFinding(OS, F, Color);
}

void writeTextFinding(llvm::raw_ostream &OS, const Finding &F, bool Color) {
  {
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

namespace seam {

static std::string pad(std::string S, size_t Width) {
  if (S.size() < Width)
    S.append(Width - S.size(), ' ');
  return S + " ";
}

void writeSummary(llvm::raw_ostream &OS, const Report &R) {
  if (R.Summary.empty()) {
    OS << "summary: no compiled region or hot loop has results\n";
    return;
  }
  OS << "summary (profile " << R.Summary.front().Profile
     << "), most expensive first:\n";
  OS << "  " << pad("rank", 4) << pad("kind", 6) << pad("name", 32)
     << pad("pieces", 6) << pad("launches", 9) << pad("syncs", 5)
     << pad("cost/exec", 10) << pad("trips", 7) << "total\n";
  for (const SummaryRow &Row : R.Summary) {
    std::string Launches = std::to_string(Row.LaunchesBefore) + " -> " +
                           std::to_string(Row.LaunchesAfter);
    std::string Name = Row.Name;
    if (Name.size() > 32)
      Name = Name.substr(0, 29) + "...";
    bool Region = Row.Kind == "region";
    OS << "  " << pad(std::to_string(Row.Rank), 4) << pad(Row.Kind, 6)
       << pad(Name, 32) << pad(Region ? std::to_string(Row.Pieces) : "-", 6)
       << pad(Region ? Launches : "-", 9) << pad(std::to_string(Row.Syncs), 5)
       << pad(formatMicros(Row.MicrosPerExecution), 10)
       << pad(Row.TripCount ? formatCount(*Row.TripCount) : "?", 7)
       << (Row.MicrosTotal ? formatMicros(*Row.MicrosTotal) : "-") << "\n";
    OS << "       at " << Row.Where.File << ":" << Row.Where.Line << ":"
       << Row.Where.Column << "\n";
  }
}

} // namespace seam
