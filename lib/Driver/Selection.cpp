//===- Selection.cpp - Which files to analyze, and which results to keep --===//
#include "Driver/Selection.h"

#include "Report/Reporters.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <nlohmann/json.hpp>
#include <set>

namespace seam {

llvm::Expected<Shard> parseShard(llvm::StringRef Text) {
  auto [I, N] = Text.split('/');
  Shard S;
  if (I.getAsInteger(10, S.Index) || N.getAsInteger(10, S.Count) ||
      S.Count == 0 || S.Count > 10000 || S.Index == 0 || S.Index > S.Count)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid --shard '%s' (expected I/N with 1 <= I <= N, e.g. 2/4)",
        Text.str().c_str());
  return S;
}

bool inShard(llvm::StringRef RelPath, const Shard &S) {
  return llvm::xxh3_64bits(RelPath) % S.Count == S.Index - 1;
}

static std::string normalized(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::vector<std::string>
selectFiles(const clang::tooling::CompilationDatabase *DB,
            const std::vector<std::string> &Positional,
            std::vector<std::string> &Errors) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  // One file once, however it is named: two spellings, or a symlink to it.
  auto Add = [&](const std::string &File) {
    llvm::SmallString<256> Real;
    std::string Key = llvm::sys::fs::real_path(File, Real) ? normalized(File)
                                                           : std::string(Real);
    if (Seen.insert(Key).second)
      Out.push_back(File);
  };
  std::vector<std::string> All;
  if (DB) {
    All = DB->getAllFiles();
    std::sort(All.begin(), All.end());
  }
  if (Positional.empty()) {
    for (const std::string &F : All)
      Add(F);
    return Out;
  }
  for (const std::string &P : Positional) {
    if (!DB || llvm::sys::fs::exists(P)) {
      Add(P); // missing files are reported by the frontend, one line each
      continue;
    }
    llvm::Regex Re(P);
    std::string Err;
    if (!Re.isValid(Err)) {
      Errors.push_back("no such file: '" + P + "' (nor a valid regex: " + Err +
                       ")");
      continue;
    }
    bool Any = false;
    for (const std::string &F : All)
      if (Re.match(F)) {
        Add(F);
        Any = true;
      }
    if (!Any)
      Errors.push_back("no such file: '" + P +
                       "', and no file of the compile database matches it");
  }
  // Files in one order whatever order they were named in (as the database's
  // are): the output does not depend on the command line's order.
  std::stable_sort(Out.begin(), Out.end(),
                   [](const std::string &A, const std::string &B) {
                     return normalized(A) < normalized(B);
                   });
  return Out;
}

llvm::Expected<LineFilter> LineFilter::parse(llvm::StringRef Json) {
  LineFilter LF;
  auto Bad = [&](const std::string &Why) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid --line-filter: %s (expected JSON as clang-tidy's: "
        "[{\"name\":\"file.cpp\",\"lines\":[[1,3],[5,7]]}])",
        Why.c_str());
  };
  nlohmann::json J = nlohmann::json::parse(Json.begin(), Json.end(), nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded())
    return Bad("not JSON");
  if (!J.is_array())
    return Bad("not a list");
  for (const nlohmann::json &E : J) {
    if (!E.is_object() || !E.contains("name") || !E["name"].is_string())
      return Bad("every entry needs a \"name\"");
    Entry Out;
    Out.Name = E["name"].get<std::string>();
    if (E.contains("lines")) {
      if (!E["lines"].is_array())
        return Bad("\"lines\" must be a list of [first, last] pairs");
      for (const nlohmann::json &R : E["lines"]) {
        if (!R.is_array() || R.size() != 2 || !R[0].is_number_unsigned() ||
            !R[1].is_number_unsigned())
          return Bad("\"lines\" must be a list of [first, last] pairs");
        Out.Lines.push_back({R[0].get<unsigned>(), R[1].get<unsigned>()});
      }
    }
    LF.Entries.push_back(std::move(Out));
  }
  return LF;
}

bool LineFilter::passes(llvm::StringRef File, unsigned Line) const {
  if (Entries.empty())
    return true;
  for (const Entry &E : Entries) {
    // As clang-tidy: the entry's name is matched as a suffix of the path.
    if (!File.ends_with(E.Name))
      continue;
    if (E.Lines.empty())
      return true;
    for (auto [First, Last] : E.Lines)
      if (First <= Line && Line <= Last)
        return true;
  }
  return false;
}

bool ResultFilter::apply(Finding &F) const {
  if (F.RuleId == rule_ids::CompileError || F.RuleId == rule_ids::Nolint)
    return true;
  if (!Checks.contains(F.RuleId))
    return false;
  if (F.Where.File != MainFile) {
    if (HeaderFilter && !HeaderFilter->match(F.Where.File))
      return false;
    if (ExcludeHeaderFilter && ExcludeHeaderFilter->match(F.Where.File))
      return false;
  }
  if (Lines && !Lines->passes(F.Where.File, F.Where.Line))
    return false;
  if (F.Severity == Level::Warning && WarningsAsErrors.contains(F.RuleId)) {
    F.Severity = Level::Error;
    F.PromotedToError = true;
  }
  return true;
}

std::vector<std::string> enabledChecks(const GlobList &Checks) {
  std::vector<std::string> Out;
  for (const RuleInfo &R : ruleCatalog())
    if (R.Selectable && Checks.contains(R.Id))
      Out.push_back(R.Id);
  return Out;
}

} // namespace seam
