//===- RuleDocs.cpp - The rules' docs pages, embedded for SARIF help
//-------===//
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

std::string ruleDocUri(llvm::StringRef Id) {
  // SEAM_DOCS_URL (a CMake cache variable) points at a published copy of
  // docs/; without it, the installed one.
  std::string Base = SEAM_DOCS_URL;
  if (Base.empty())
    Base = std::string("file://") + SEAM_DOCS_DIR;
  if (Id.empty())
    return Base + "/README.md";
  return Base + "/rules/" + Id.str() + ".md";
}

} // namespace seam
