//===- ApplyFixes.cpp - `seam check --fix` and `--export-fixes` -----------===//
#include "Driver/ApplyFixes.h"

#include "Basic/InputFile.h"
#include "Driver/Output.h"

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/YAMLTraits.h"
#include <map>
#include <set>

namespace seam {

namespace {

/// Where \p F is, for notes.
std::string where(const Finding &F) {
  return F.Where.File + ":" + std::to_string(F.Where.Line);
}

clang::tooling::Replacements toReplacements(const Fix &X, std::string &Why) {
  clang::tooling::Replacements Out;
  for (const TextEdit &E : X.Edits)
    if (llvm::Error Err = Out.add(
            clang::tooling::Replacement(E.File, E.Offset, E.Length, E.Text))) {
      Why = llvm::toString(std::move(Err));
      return {};
    }
  return Out;
}

} // namespace

FixOutcome applyFixes(llvm::ArrayRef<Finding> Findings,
                      const std::string &FormatStyle) {
  FixOutcome Out;
  // File -> the fixes to apply, in the order of the results; a fix shared
  // by two results at one site (a break and a sync) counts once.
  std::map<std::string, std::vector<const Finding *>> ByFile;
  std::set<std::pair<std::string, std::string>> Seen;
  for (const Finding &F : Findings) {
    if (!F.AutoFix || F.AutoFix->Edits.empty())
      continue;
    std::string Key;
    for (const TextEdit &E : F.AutoFix->Edits)
      Key += E.File + ":" + std::to_string(E.Offset) + ":" +
             std::to_string(E.Length) + ":" + E.Text + "\n";
    if (!Seen.insert({F.AutoFix->Edits.front().File, Key}).second)
      continue;
    ++Out.Offered;
    ByFile[F.AutoFix->Edits.front().File].push_back(&F);
  }
  for (auto &[File, Fixes] : ByFile) {
    auto Buf = readInputFile(File, "a file to fix", MaxDataBytes);
    if (!Buf) {
      Out.Notes.push_back(llvm::toString(Buf.takeError()));
      Out.WriteFailed = true;
      continue;
    }
    llvm::StringRef Code = (*Buf)->getBuffer();
    clang::tooling::Replacements All;
    unsigned Taken = 0;
    for (const Finding *F : Fixes) {
      std::string Why;
      bool Fits = llvm::all_of(F->AutoFix->Edits, [&](const TextEdit &E) {
        return E.File == File && uint64_t(E.Offset) + E.Length <= Code.size();
      });
      if (!Fits) {
        Out.Notes.push_back("the fix for " + where(*F) +
                            " was not applied: the file changed since it "
                            "was analyzed");
        continue;
      }
      clang::tooling::Replacements Mine = toReplacements(*F->AutoFix, Why);
      clang::tooling::Replacements Next = All;
      for (const clang::tooling::Replacement &R : Mine)
        if (llvm::Error Err = Next.add(R)) {
          llvm::consumeError(std::move(Err));
          Why = "it overlaps another fix";
          break;
        }
      if (!Why.empty()) {
        Out.Notes.push_back("the fix for " + where(*F) +
                            " was not applied: " + Why +
                            "; run --fix again once the others are applied");
        continue;
      }
      All = std::move(Next);
      ++Taken;
    }
    if (!Taken)
      continue;
    if (!FormatStyle.empty()) {
      // Only the touched lines, as clang-tidy -fix --format-style does.
      llvm::Expected<clang::format::FormatStyle> Style =
          clang::format::getStyle(FormatStyle, File, "none");
      if (!Style) {
        Out.Notes.push_back("--format-style: " +
                            llvm::toString(Style.takeError()));
      } else if (auto Formatted =
                     clang::format::formatReplacements(Code, All, *Style)) {
        All = std::move(*Formatted);
      } else {
        Out.Notes.push_back("formatting the fixes of '" + File + "' failed: " +
                            llvm::toString(Formatted.takeError()));
      }
    }
    llvm::Expected<std::string> New =
        clang::tooling::applyAllReplacements(Code, All);
    if (!New) {
      Out.Notes.push_back("the fixes for '" + File + "' were not applied: " +
                          llvm::toString(New.takeError()));
      continue;
    }
    if (std::optional<std::string> Err = rewriteFile(File, *New)) {
      Out.Notes.push_back(*Err);
      Out.WriteFailed = true;
      continue;
    }
    Out.Applied += Taken;
    Out.Files.push_back(File);
  }
  return Out;
}

/// The byte offset of \p P in its file (0 when it cannot be read).
static unsigned offsetOf(const SourcePoint &P,
                         std::map<std::string, std::string> &Files) {
  auto [It, New] = Files.try_emplace(P.File);
  if (New)
    if (auto Buf = readInputFile(P.File, "a source file", MaxDataBytes))
      It->second = (*Buf)->getBuffer().str();
    else
      llvm::consumeError(Buf.takeError());
  llvm::StringRef Text = It->second;
  size_t Off = 0;
  for (unsigned L = 1; L < P.Line; ++L) {
    Off = Text.find('\n', Off);
    if (Off == llvm::StringRef::npos)
      return 0;
    ++Off;
  }
  Off += P.Column > 0 ? P.Column - 1 : 0;
  return Off <= Text.size() ? static_cast<unsigned>(Off) : 0;
}

std::string exportFixesYaml(llvm::ArrayRef<Finding> Findings,
                            const std::string &MainFile,
                            const std::string &BuildDirectory) {
  std::map<std::string, std::string> Files;
  clang::tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile;
  for (const Finding &F : Findings) {
    if (F.RuleId == rule_ids::CompileError)
      continue;
    clang::tooling::DiagnosticMessage M;
    M.Message = F.Message;
    M.FilePath = F.Where.File;
    M.FileOffset = offsetOf(F.Where, Files);
    if (F.AutoFix) {
      std::string Why;
      clang::tooling::Replacements R = toReplacements(*F.AutoFix, Why);
      if (Why.empty() && !F.AutoFix->Edits.empty())
        M.Fix.insert({F.AutoFix->Edits.front().File, R});
    }
    clang::tooling::Diagnostic::Level L =
        F.Severity == Level::Error     ? clang::tooling::Diagnostic::Error
        : F.Severity == Level::Warning ? clang::tooling::Diagnostic::Warning
                                       : clang::tooling::Diagnostic::Remark;
    TUD.Diagnostics.emplace_back(
        F.RuleId, M, llvm::SmallVector<clang::tooling::DiagnosticMessage, 1>{},
        L, BuildDirectory);
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  OS.flush();
  return Text;
}

} // namespace seam
