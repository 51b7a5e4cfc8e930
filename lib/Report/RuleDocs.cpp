//===- RuleDocs.cpp - The rules' docs pages: the one source of their prose ===//
//
// docs/rules/<id>.md, embedded at build time: SARIF's help.markdown, its
// fullDescription (what the rule finds) and help.text (how to fix), and the
// text of `seam explain`. C++ keeps only a rule's one-line summary.
//
//===----------------------------------------------------------------------===//
#include "Report/Reporters.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <string>

#ifndef SEAM_DOCS_DIR
#error "SEAM_DOCS_DIR must name the installed docs directory"
#endif

namespace seam {

namespace {
struct RuleDoc {
  const char *Id;
  const char *Markdown;
};
// Generated from docs/rules/*.md by lib/CMakeLists.txt.
const RuleDoc Docs[] = {
#include "RuleDocs.inc"
};
} // namespace

llvm::StringRef ruleDocMarkdown(llvm::StringRef Id) {
  for (const RuleDoc &D : Docs)
    if (Id == D.Id)
      return D.Markdown;
  return "";
}

namespace {

/// The page's lines from \p From (a line index) up to the next "## "
/// heading, with code fences dropped and bold markers removed.
std::string plainLines(llvm::ArrayRef<llvm::StringRef> Lines, size_t From) {
  std::string Out;
  for (size_t I = From; I < Lines.size() && !Lines[I].starts_with("## "); ++I) {
    if (Lines[I].starts_with("```"))
      continue;
    std::string L = Lines[I].str();
    for (size_t At; (At = L.find("**")) != std::string::npos;)
      L.erase(At, 2);
    Out += L + "\n";
  }
  return llvm::StringRef(Out).trim().str();
}

std::vector<llvm::StringRef> pageLines(llvm::StringRef Id) {
  llvm::SmallVector<llvm::StringRef> Lines;
  ruleDocMarkdown(Id).split(Lines, '\n');
  return std::vector<llvm::StringRef>(Lines.begin(), Lines.end());
}

/// The first paragraph of \p Text.
std::string firstParagraph(llvm::StringRef Text) {
  return Text.split("\n\n").first.trim().str();
}

} // namespace

std::string ruleDocSection(llvm::StringRef Id, llvm::StringRef Heading) {
  std::vector<llvm::StringRef> Lines = pageLines(Id);
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].starts_with("## ") && Lines[I].drop_front(3).trim() == Heading)
      return plainLines(Lines, I + 1);
  return "";
}

std::string ruleDocSummary(llvm::StringRef Id) {
  if (std::string What = ruleDocSection(Id, "What it finds"); !What.empty())
    return firstParagraph(What);
  // A page without that section: its first paragraph after the severity.
  std::vector<llvm::StringRef> Lines = pageLines(Id);
  if (Lines.empty())
    return "";
  std::string Text = plainLines(Lines, 1);
  std::pair<llvm::StringRef, llvm::StringRef> Split =
      llvm::StringRef(Text).split("\n\n");
  return firstParagraph(Split.first.starts_with("Default") ? Split.second
                                                           : Split.first);
}

std::string ruleDocText(llvm::StringRef Id) {
  std::vector<llvm::StringRef> Lines = pageLines(Id);
  // The title line is the rule id, said already; each "## X" becomes "X:".
  size_t I = 1;
  std::string Out = plainLines(Lines, I);
  for (; I < Lines.size(); ++I)
    if (Lines[I].starts_with("## "))
      Out += "\n\n" + Lines[I].drop_front(3).trim().str() + ":\n" +
             plainLines(Lines, I + 1);
  return llvm::StringRef(Out).trim().str();
}

std::string ruleDocUri(llvm::StringRef Id) {
  // Where docs/ is published: $SEAM_DOCS_URL when set, else the CMake
  // cache variable SEAM_DOCS_URL (by default the repository's own docs/
  // when it was built from a GitHub clone), else the installed copy.
  std::string Base = SEAM_DOCS_URL;
  if (const char *Env = std::getenv("SEAM_DOCS_URL"); Env && *Env)
    Base = Env;
  if (Base.empty())
    Base = std::string("file://") + SEAM_DOCS_DIR;
  while (llvm::StringRef(Base).ends_with("/"))
    Base.pop_back();
  if (Id.empty())
    return Base + "/getting-started.md";
  return Base + "/rules/" + Id.str() + ".md";
}

bool isWebUri(llvm::StringRef Uri) {
  return Uri.starts_with("https://") || Uri.starts_with("http://");
}

} // namespace seam
