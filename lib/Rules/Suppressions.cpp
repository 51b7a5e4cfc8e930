//===- Suppressions.cpp - NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/NOLINTEND ---===//
#include "Rules/Suppressions.h"

#include "Basic/SourcePoint.h"

namespace seam {

/// The check list after a directive: "(a, b*)" names those, no parentheses
/// means every check.
static std::string checkList(llvm::StringRef After) {
  size_t Close = After.find(')');
  if (!After.starts_with("(") || Close == llvm::StringRef::npos)
    return "*"; // as clang-tidy, an unclosed list counts as none given
  return After.substr(1, Close - 1).str();
}

NolintDirectives NolintDirectives::parse(llvm::StringRef Text) {
  NolintDirectives D;
  struct Open {
    unsigned Line, Column;
    std::string Checks;
  };
  std::vector<Open> Stack;
  unsigned LineNo = 0;
  while (!Text.empty()) {
    ++LineNo;
    size_t NL = Text.find('\n');
    llvm::StringRef Line = Text.take_front(NL);
    Text = NL == llvm::StringRef::npos ? "" : Text.drop_front(NL + 1);
    for (size_t Pos = Line.find("NOLINT"); Pos != llvm::StringRef::npos;
         Pos = Line.find("NOLINT", Pos + 6)) {
      llvm::StringRef After = Line.substr(Pos + 6);
      unsigned Column = static_cast<unsigned>(Pos) + 1;
      if (After.consume_front("NEXTLINE")) {
        D.Lines.push_back({LineNo, true, GlobList(checkList(After))});
      } else if (After.consume_front("BEGIN")) {
        Stack.push_back({LineNo, Column, checkList(After)});
      } else if (After.consume_front("END")) {
        std::string Checks = checkList(After);
        // The END closes the innermost BEGIN with the same list.
        auto It =
            std::find_if(Stack.rbegin(), Stack.rend(),
                         [&](const Open &O) { return O.Checks == Checks; });
        if (It == Stack.rend()) {
          D.Problems.push_back({LineNo, Column, false});
          continue;
        }
        D.Blocks.push_back({It->Line, LineNo, GlobList(Checks)});
        Stack.erase(std::next(It).base());
      } else {
        D.Lines.push_back({LineNo, false, GlobList(checkList(After))});
      }
    }
  }
  for (const Open &O : Stack)
    D.Problems.push_back({O.Line, O.Column, true});
  return D;
}

bool NolintDirectives::suppresses(unsigned LineNo,
                                  llvm::StringRef Check) const {
  for (const Line &L : Lines)
    if (L.LineNo + (L.NextLine ? 1 : 0) == LineNo && L.Checks.contains(Check))
      return true;
  for (const Block &B : Blocks)
    if (B.Begin <= LineNo && LineNo <= B.End && B.Checks.contains(Check))
      return true;
  return false;
}

const NolintDirectives &Suppressions::directives(clang::FileID F) {
  auto &Slot = ByFile[F];
  if (!Slot) {
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(F, &Invalid);
    Slot = std::make_unique<NolintDirectives>(
        Invalid ? NolintDirectives() : NolintDirectives::parse(Buf));
  }
  return *Slot;
}

bool Suppressions::suppressed(clang::SourceLocation Loc,
                              llvm::StringRef Check) {
  clang::SourceLocation F = SM.getFileLoc(Loc);
  if (F.isInvalid())
    return false;
  return directives(SM.getFileID(F))
      .suppresses(SM.getSpellingLineNumber(F), Check);
}

std::vector<Finding> Suppressions::problems() {
  directives(SM.getMainFileID());
  std::vector<Finding> Out;
  for (auto &[FID, D] : ByFile) {
    if (D->Problems.empty())
      continue;
    clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
    if (!FE)
      continue;
    std::string Path = absolutePath(SM, *FE);
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
    for (const NolintDirectives::Unmatched &U : D->Problems) {
      Finding F;
      F.RuleId = "seam-nolint";
      F.Severity = Level::Error;
      F.Message = U.IsBegin ? "unmatched 'NOLINTBEGIN' comment without a "
                              "subsequent 'NOLINTEND' comment"
                            : "unmatched 'NOLINTEND' comment without a "
                              "previous 'NOLINTBEGIN' comment";
      F.Trigger = "suppression";
      F.Where.File = Path;
      F.Where.Line = U.Line;
      F.Where.Column = U.Column;
      F.Where.EndLine = U.Line;
      F.Where.EndColumn = U.Column + (U.IsBegin ? 11 : 9);
      if (!Invalid) {
        llvm::StringRef Rest = Buf;
        for (unsigned L = 1; L < U.Line && !Rest.empty(); ++L)
          Rest =
              Rest.drop_front(std::min(Rest.find('\n'), Rest.size() - 1) + 1);
        F.Where.LineText = Rest.take_front(Rest.find('\n')).rtrim('\r').str();
      }
      Out.push_back(std::move(F));
    }
  }
  return Out;
}

} // namespace seam
