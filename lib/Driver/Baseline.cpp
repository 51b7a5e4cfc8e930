//===- Baseline.cpp - Fingerprints and baselines --------------------------===//
#include "Driver/Baseline.h"
#include "Basic/InputFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>
#include <tuple>

namespace seam {

std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root) {
  if (!Root.empty() && Path.starts_with(Root) && Path.size() > Root.size() &&
      (Path[Root.size()] == '/' || Root.ends_with("/")))
    return Path.drop_front(Root.size()).ltrim('/').str();
  return Path.str();
}

static std::string squeeze(llvm::StringRef Line) {
  std::string Out;
  for (char C : Line)
    if (C != ' ' && C != '\t' && C != '\r')
      Out += C;
  return Out;
}

void assignFingerprints(std::vector<Finding> &Findings, llvm::StringRef Root) {
  std::map<std::string, unsigned> Seen;
  for (Finding &F : Findings) {
    std::string Key = F.RuleId + '\0' + relativeToRoot(F.Where.File, Root) +
                      '\0' + F.Function + '\0' + squeeze(F.Where.LineText);
    unsigned Occurrence = Seen[Key]++;
    Key += '\0' + std::to_string(Occurrence);
    char Buf[17];
    std::snprintf(Buf, sizeof(Buf), "%016llx",
                  static_cast<unsigned long long>(llvm::xxh3_64bits(Key)));
    F.Fingerprint = Buf;
  }
}

/// A real calendar date written YYYY-MM-DD (2027-02-30 is not one).
static bool validDate(llvm::StringRef D) {
  if (D.size() != 10 || D[4] != '-' || D[7] != '-')
    return false;
  for (size_t I : {0, 1, 2, 3, 5, 6, 8, 9})
    if (D[I] < '0' || D[I] > '9')
      return false;
  unsigned Y = 0, M = 0, Day = 0;
  D.substr(0, 4).getAsInteger(10, Y);
  D.substr(5, 2).getAsInteger(10, M);
  D.substr(8, 2).getAsInteger(10, Day);
  if (Y == 0 || M < 1 || M > 12 || Day < 1)
    return false;
  static const unsigned Days[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  bool Leap = (Y % 4 == 0 && Y % 100 != 0) || Y % 400 == 0;
  return Day <= Days[M - 1] + (M == 2 && Leap ? 1 : 0);
}

llvm::Expected<Baseline> Baseline::load(llvm::StringRef Path) {
  auto Err = [&](const std::string &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid baseline '%s': %s",
                                   Path.str().c_str(), Why.c_str());
  };
  auto Buf = readInputFile(Path, "");
  if (!Buf)
    return Err(llvm::toString(Buf.takeError()));
  nlohmann::json J = nlohmann::json::parse(
      (*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(), nullptr, false);
  if (J.is_discarded() || !J.is_object() || !J.contains("results") ||
      !J["results"].is_array())
    return Err("expected a JSON object with a \"results\" list (written by "
               "--write-baseline)");
  // Written by another format or fingerprint scheme, its fingerprints
  // would match nothing (or the wrong results): refused, not guessed at.
  if (J.contains("version") && J["version"] != 1)
    return Err("format version " + J["version"].dump() +
               " (this Seam reads version 1)");
  if (J.contains("fingerprint") && J["fingerprint"] != "seam/v1")
    return Err("fingerprint scheme " + J["fingerprint"].dump() +
               " (this Seam's is \"seam/v1\")");
  Baseline B;
  B.Path = Path.str();
  size_t Index = 0;
  for (const nlohmann::json &E : J["results"]) {
    std::string Where = "entry " + std::to_string(Index++);
    if (!E.is_object() || !E.contains("fingerprint") ||
        !E["fingerprint"].is_string())
      return Err(Where + " has no \"fingerprint\"");
    BaselineEntry Out;
    auto Str = [&](const char *Key, std::string &Into) {
      if (E.contains(Key) && E[Key].is_string())
        Into = E[Key].get<std::string>();
    };
    Out.Fingerprint = E["fingerprint"].get<std::string>();
    Str("rule", Out.Rule);
    Str("file", Out.File);
    Str("function", Out.Function);
    Str("message", Out.Message);
    Str("reason", Out.Reason);
    if (E.contains("expires") && !E["expires"].is_string())
      return Err(Where + " has \"expires\": " + E["expires"].dump() +
                 " (expected a date as a string, \"YYYY-MM-DD\")");
    if (E.contains("expires") && E["expires"].get<std::string>().empty())
      return Err(Where + " has an empty \"expires\" (expected YYYY-MM-DD, "
                         "or no \"expires\")");
    Str("expires", Out.Expires);
    if (E.contains("line") && E["line"].is_number_unsigned())
      Out.Line = E["line"].get<unsigned>();
    if (!Out.Expires.empty() && !validDate(Out.Expires))
      return Err(Where + " has \"expires\": \"" + Out.Expires +
                 "\" (expected YYYY-MM-DD)");
    B.Entries[Out.Fingerprint] = std::move(Out);
  }
  return B;
}

unsigned Baseline::filter(std::vector<Finding> &Findings,
                          llvm::StringRef Today) {
  unsigned Dropped = 0;
  std::vector<Finding> Kept;
  for (Finding &F : Findings) {
    auto It = Entries.find(F.Fingerprint);
    if (It == Entries.end() || F.RuleId == rule_ids::CompileError) {
      Kept.push_back(std::move(F));
      continue;
    }
    bool First = Used.insert(F.Fingerprint).second;
    if (!It->second.Expires.empty() && It->second.Expires < Today) {
      if (First)
        Expired.push_back(It->second);
      Kept.push_back(std::move(F));
      continue;
    }
    ++Dropped;
  }
  Findings = std::move(Kept);
  return Dropped;
}

std::vector<BaselineEntry>
Baseline::stale(const std::set<std::string> &AnalyzedRelFiles) const {
  std::vector<BaselineEntry> Out;
  for (auto &[FP, E] : Entries)
    if (!Used.count(FP) && AnalyzedRelFiles.count(E.File))
      Out.push_back(E);
  std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
    return std::tie(A.File, A.Line, A.Rule) < std::tie(B.File, B.Line, B.Rule);
  });
  return Out;
}

const BaselineEntry *Baseline::find(const std::string &Fingerprint) const {
  auto It = Entries.find(Fingerprint);
  return It == Entries.end() ? nullptr : &It->second;
}

std::string baselineText(const std::vector<Finding> &Findings,
                         llvm::StringRef Root, const Baseline *Previous,
                         const std::set<std::string> *Analyzed,
                         size_t *Written) {
  nlohmann::json Results = nlohmann::json::array();
  for (const Finding &F : Findings) {
    if (F.RuleId == rule_ids::CompileError)
      continue; // a compile error is never accepted
    nlohmann::json E = {{"fingerprint", F.Fingerprint},
                        {"rule", F.RuleId},
                        {"file", relativeToRoot(F.Where.File, Root)},
                        {"line", F.Where.Line},
                        {"function", F.Function},
                        {"message", F.Message}};
    if (const BaselineEntry *Old =
            Previous ? Previous->find(F.Fingerprint) : nullptr) {
      if (!Old->Reason.empty())
        E["reason"] = Old->Reason;
      if (!Old->Expires.empty())
        E["expires"] = Old->Expires;
    }
    Results.push_back(E);
  }
  if (Previous && Analyzed) {
    std::set<std::string> Recorded;
    for (const Finding &F : Findings)
      Recorded.insert(F.Fingerprint);
    bool Kept = false;
    for (const auto &[FP, Old] : Previous->entries()) {
      if (Analyzed->count(Old.File) || Recorded.count(FP))
        continue;
      nlohmann::json E = {{"fingerprint", Old.Fingerprint},
                          {"rule", Old.Rule},
                          {"file", Old.File},
                          {"line", Old.Line},
                          {"function", Old.Function},
                          {"message", Old.Message}};
      if (!Old.Reason.empty())
        E["reason"] = Old.Reason;
      if (!Old.Expires.empty())
        E["expires"] = Old.Expires;
      Results.push_back(std::move(E));
      Kept = true;
    }
    // One order whichever run wrote it: by file, then line.
    if (Kept)
      std::stable_sort(Results.begin(), Results.end(),
                       [](const nlohmann::json &A, const nlohmann::json &B) {
                         return std::make_tuple(A["file"].get<std::string>(),
                                                A["line"].get<unsigned>(),
                                                A["rule"].get<std::string>()) <
                                std::make_tuple(B["file"].get<std::string>(),
                                                B["line"].get<unsigned>(),
                                                B["rule"].get<std::string>());
                       });
  }
  if (Written)
    *Written = Results.size();
  nlohmann::json Doc = {{"version", 1},
                        {"tool", "seam"},
                        {"fingerprint", "seam/v1"},
                        {"results", Results}};
  return Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

std::string today() {
  if (auto Env = llvm::sys::Process::GetEnv("SEAM_TODAY"); Env && !Env->empty())
    return *Env;
  std::time_t T = std::time(nullptr);
  std::tm UTC;
  gmtime_r(&T, &UTC);
  char Buf[16];
  std::strftime(Buf, sizeof(Buf), "%Y-%m-%d", &UTC);
  return Buf;
}

} // namespace seam
