//===- TextReporter.cpp - clang-style diagnostics
//--------------------------===//
#include "Report/Reporters.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnostic.h"
#include <cstdio>
#include <map>

namespace seam {

namespace {

/// Results printed by clang's own TextDiagnostic, so that carets, ranges,
/// tabs, UTF-8, line numbers and colour look exactly as clang prints them.
/// The files are read again here: a Finding holds no AST.
class ClangPrinter {
public:
  ClangPrinter(llvm::raw_ostream &OS, bool Color)
      : OS(OS), Opts(new clang::DiagnosticOptions),
        Files(clang::FileSystemOptions()),
        Diags(new clang::DiagnosticIDs, Opts.get(),
              new clang::IgnoringDiagConsumer),
        SM(Diags, Files), Printer(OS, LangOpts, Opts.get()) {
    Opts->ShowColors = Color;
  }

  void print(const Finding &F) {
    std::string Message = F.Message;
    if (F.Cost && !F.Cost->Summary.empty())
      Message += "; " + F.Cost->Summary;
    Message += " [" + F.RuleId + "]";
    emit(F.Where, level(F.Severity), Message);
    // The details are notes at the same position, without repeating the
    // source line.
    Opts->ShowCarets = false;
    for (const std::string &D : F.Details)
      emit(F.Where, clang::DiagnosticsEngine::Note, D);
    if (!F.AutoFix && !F.NoFixReason.empty()) {
      std::string Why = "no automatic fix: " + F.NoFixReason;
      if (!F.Suggestion.empty())
        Why += "; suggestion: " + F.Suggestion;
      emit(F.Where, clang::DiagnosticsEngine::Note, Why);
    }
    Opts->ShowCarets = true;
    for (const PathNote &N : F.Path)
      if (N.Where.valid())
        emit(N.Where, clang::DiagnosticsEngine::Note, N.Message);
    if (F.AutoFix)
      printFix(F);
  }

  /// The fix as clang shows fix-its: a note with the replacement under the
  /// line, and each edit in clang's parseable form
  /// (fix-it:"file":{line:col-line:col}:"text").
  void printFix(const Finding &F) {
    const Fix &X = *F.AutoFix;
    std::string Message = "fix (" + X.Kind + "): " + X.Description;
    if (!X.Effect.empty())
      Message += "; " + X.Effect;
    clang::SourceLocation Loc;
    if (clang::FileID FID = file(F.Where.File); FID.isValid())
      Loc =
          SM.translateLineCol(FID, F.Where.Line, std::max(F.Where.Column, 1u));
    // Under the line, the edits on that line, as clang shows fix-its.
    std::vector<clang::FixItHint> Hints;
    for (const TextEdit &E : X.Edits) {
      clang::FileID FID = file(E.File);
      // An edit that no longer fits the file (changed since) is not shown.
      if (Loc.isInvalid() || FID.isInvalid() || E.Line != F.Where.Line ||
          E.File != F.Where.File ||
          uint64_t(E.Offset) + E.Length > SM.getBufferData(FID).size())
        continue;
      clang::SourceLocation B = SM.getComposedLoc(FID, E.Offset);
      Hints.push_back(clang::FixItHint::CreateReplacement(
          clang::CharSourceRange::getCharRange(B, B.getLocWithOffset(E.Length)),
          E.Text));
    }
    if (Loc.isInvalid())
      fallback(F.Where, clang::DiagnosticsEngine::Note, Message);
    else
      Printer.emitDiagnostic(clang::FullSourceLoc(Loc, SM),
                             clang::DiagnosticsEngine::Note, Message, {},
                             Hints);
    // Every edit in clang's -fdiagnostics-parseable-fixits form.
    for (const TextEdit &E : X.Edits) {
      OS << "fix-it:\"";
      OS.write_escaped(E.File);
      OS << "\":{" << E.Line << ":" << E.Column << "-" << E.EndLine << ":"
         << E.EndColumn << "}:\"";
      OS.write_escaped(E.Text);
      OS << "\"\n";
    }
  }

private:
  static clang::DiagnosticsEngine::Level level(Level L) {
    return L == Level::Error     ? clang::DiagnosticsEngine::Error
           : L == Level::Warning ? clang::DiagnosticsEngine::Warning
                                 : clang::DiagnosticsEngine::Note;
  }

  void emit(const SourcePoint &P, clang::DiagnosticsEngine::Level L,
            const std::string &Message) {
    clang::SourceLocation Loc, End;
    if (P.Line > 0)
      if (clang::FileID FID = file(P.File); FID.isValid()) {
        Loc = SM.translateLineCol(FID, P.Line, std::max(P.Column, 1u));
        if (P.EndLine == P.Line && P.EndColumn > P.Column)
          End = SM.translateLineCol(FID, P.EndLine, P.EndColumn);
      }
    if (Loc.isInvalid()) {
      // A file that cannot be read back, or a compiler error with no line.
      fallback(P, L, Message);
      return;
    }
    llvm::SmallVector<clang::CharSourceRange, 1> Ranges;
    if (End.isValid())
      Ranges.push_back(clang::CharSourceRange::getCharRange(Loc, End));
    Printer.emitDiagnostic(clang::FullSourceLoc(Loc, SM), L, Message, Ranges,
                           {});
  }

  clang::FileID file(const std::string &Path) {
    auto [It, New] = FileIDs.try_emplace(Path);
    if (New)
      if (auto FE = Files.getOptionalFileRef(Path))
        It->second = SM.getOrCreateFileID(*FE, clang::SrcMgr::C_User);
    return It->second;
  }

  void fallback(const SourcePoint &P, clang::DiagnosticsEngine::Level L,
                const std::string &Message) {
    if (Opts->ShowColors)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    OS << P.File;
    if (P.Line > 0)
      OS << ":" << P.Line << ":" << P.Column;
    OS << ": ";
    clang::TextDiagnostic::printDiagnosticLevel(OS, L, Opts->ShowColors);
    clang::TextDiagnostic::printDiagnosticMessage(
        OS, /*IsSupplemental=*/L == clang::DiagnosticsEngine::Note, Message,
        /*CurrentColumn=*/0, /*Columns=*/0, Opts->ShowColors);
    OS << "\n";
  }

  llvm::raw_ostream &OS;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Opts;
  clang::FileManager Files;
  clang::DiagnosticsEngine Diags;
  clang::SourceManager SM;
  clang::LangOptions LangOpts;
  clang::TextDiagnostic Printer;
  std::map<std::string, clang::FileID> FileIDs;
};

} // namespace

struct TextPrinter::Impl {
  Impl(llvm::raw_ostream &OS, bool Color) : P(OS, Color) {}
  ClangPrinter P;
};

TextPrinter::TextPrinter(llvm::raw_ostream &OS, bool Color)
    : P(std::make_unique<Impl>(OS, Color)) {}
TextPrinter::~TextPrinter() = default;
void TextPrinter::print(const Finding &F) { P->P.print(F); }

void writeText(llvm::raw_ostream &OS, const Report &R, bool Color) {
  TextPrinter Printer(OS, Color);
  for (const Finding &F : R.Findings)
    Printer.print(F);
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
