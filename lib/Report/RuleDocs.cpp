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
