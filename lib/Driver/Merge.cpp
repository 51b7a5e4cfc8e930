//===- Merge.cpp - `seam merge`: join the SARIF of CI shards --------------===//
#include "Driver/Merge.h"
#include "Basic/InputFile.h"

#include "Basic/FindingJson.h"
#include "Driver/Baseline.h"
#include "Driver/Output.h"
#include "Project/ProjectPass.h"
#include "Report/Reporters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace seam {

namespace {

using nlohmann::json;

/// The runs of several SARIF files joined into one, result by result.
class Merger {
public:
  /// Adds the runs of the file at \p Path; returns why it cannot.
  std::optional<std::string> addFile(const std::string &Path);
  /// The joined SARIF document; errorExit()s (returns nullopt) when the
  /// files held no run.
  std::optional<json> document(const MergeOptions &Opts);
  /// Reads the --summaries-out file at \p Path; returns why it cannot.
  std::optional<std::string> addSummaries(const std::string &Path);
  /// The project pass over every summary read, its results added.
  std::optional<std::string> crossFiles();

private:
  std::optional<std::string> addResult(const std::string &Where, json Result);
  std::optional<std::string> addRun(const std::string &Path, json &Run);
  std::optional<std::string> addResults(const std::string &Path, json &Run);
  std::optional<std::string> addProperties(const std::string &Path,
                                           const json &P);
  void sortAndCap();

  json Out;
  json Results = json::array();
  json Notifications = json::array();
  json Summary = json::array();
  bool Success = true;
  int64_t Incomplete = 0, Baselined = 0;
  /// What makes two results one: rule, file, line, column (and message,
  /// for compiler errors).
  using Key = std::tuple<std::string, std::string, long, long, std::string>;
  static Key keyOf(const json &Result);
  std::set<Key> Seen;
  std::vector<TUSummary> Summaries;
  std::string Root; ///< the source root the summaries were written under
};

/// The JSON document in the input file \p Path (\p What names it in an
/// error), discarded when it does not parse; or why it cannot be read.
static llvm::Expected<json> readJson(const std::string &Path,
                                     const char *What) {
  auto Buf = readInputFile(Path, What, MaxDataBytes);
  if (!Buf)
    return Buf.takeError();
  return json::parse((*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(),
                     nullptr, false);
}

std::optional<std::string> Merger::addSummaries(const std::string &Path) {
  llvm::Expected<json> Read = readJson(Path, "summaries to merge");
  if (!Read)
    return llvm::toString(Read.takeError());
  json &Doc = *Read;
  if (Doc.is_discarded() || !Doc.is_object() ||
      Doc.value("seamSummaries", 0) != 1 || !Doc.contains("files") ||
      !Doc["files"].is_array())
    return "'" + Path +
           "' is not a summaries file of seam check "
           "--summaries-out (version 1)";
  try {
    std::string R = Doc.value("root", "");
    if (Root.empty())
      Root = R;
    for (const json &F : Doc["files"])
      Summaries.push_back(tuSummaryFromJson(F));
  } catch (const json::exception &E) {
    return "'" + Path + "' holds a malformed summary: " + E.what();
  }
  return std::nullopt;
}

std::optional<std::string> Merger::crossFiles() {
  if (Summaries.empty())
    return std::nullopt;
  if (Out.is_null())
    return std::nullopt; // document() reports it
  std::vector<const TUSummary *> All;
  for (const TUSummary &S : Summaries)
    All.push_back(&S);
  std::vector<Finding> Found;
  for (ProjectFinding &P : runProjectPass(All))
    Found.push_back(std::move(P.F));
  assignFingerprints(Found, Root);
  // A shard's own project pass saw only its files: where it found the same
  // result, the whole project's (its path may differ) replaces it.
  std::vector<json> Whole;
  std::set<Key> Replaced;
  for (const Finding &F : Found) {
    Whole.push_back(sarifResult(F, Root));
    Replaced.insert(keyOf(Whole.back()));
  }
  Results.erase(std::remove_if(Results.begin(), Results.end(),
                               [&](const json &R) {
                                 return Replaced.count(keyOf(R)) > 0;
                               }),
                Results.end());
  for (const Key &K : Replaced)
    Seen.erase(K);
  for (json &R : Whole)
    if (std::optional<std::string> Err =
            addResult("the project pass's result ", std::move(R)))
      return Err;
  return std::nullopt;
}

std::optional<std::string> Merger::addFile(const std::string &Path) {
  llvm::Expected<json> Read = readJson(Path, "SARIF to merge");
  if (!Read)
    return llvm::toString(Read.takeError());
  json &Doc = *Read;
  if (Doc.is_discarded() || !Doc.is_object() || !Doc.contains("version") ||
      Doc["version"] != "2.1.0" || !Doc.contains("runs") ||
      !Doc["runs"].is_array())
    return "'" + Path + "' is not a SARIF 2.1.0 file";
  for (json &Run : Doc["runs"])
    if (std::optional<std::string> Err = addRun(Path, Run))
      return Err;
  return std::nullopt;
}

std::optional<std::string> Merger::addRun(const std::string &Path, json &Run) {
  if (!Run.is_object() || !Run.contains("tool") || !Run.contains("results") ||
      !Run["results"].is_array())
    return "'" + Path + "' has a run without tool or results";
  // Only Seam's runs: another tool's rules, URI bases and properties would
  // make the merged run wrong (results without their rule, URIs relative to
  // a base the run does not define).
  const json &Tool = Run["tool"];
  if (!Tool.is_object() || !Tool.contains("driver") ||
      !Tool["driver"].is_object() || Tool["driver"].value("name", "") != "seam")
    return "'" + Path + "' is not Seam's SARIF (its tool is '" +
           (Tool.is_object() && Tool.contains("driver") &&
                    Tool["driver"].is_object()
                ? Tool["driver"].value("name", "?")
                : std::string("?")) +
           "'); seam merge joins the runs of seam check --shard";
  if (Out.is_null()) {
    Out = Run;
    Out.erase("results");
    Out.erase("invocations");
    Out.erase("properties");
  }
  if (std::optional<std::string> Err = addResults(Path, Run))
    return Err;
  if (Run.contains("invocations"))
    for (const json &Inv : Run["invocations"]) {
      Success &= Inv.value("executionSuccessful", true);
      if (Inv.contains("toolExecutionNotifications"))
        for (const json &N : Inv["toolExecutionNotifications"])
          Notifications.push_back(N);
    }
  if (Run.contains("properties"))
    return addProperties(Path, Run["properties"]);
  return std::nullopt;
}

std::optional<std::string> Merger::addResults(const std::string &Path,
                                              json &Run) {
  // Rule indices are re-resolved against the first run's rules.
  size_t Index = 0;
  for (json &Result : Run["results"]) {
    // What the SARIF schema and code scanning require of a result.
    std::string Where =
        "'" + Path + "': result " + std::to_string(Index++) + " ";
    if (!Result.is_object() || !Result.contains("message") ||
        !Result["message"].is_object() || !Result["message"].contains("text") ||
        !Result["message"]["text"].is_string())
      return Where + "has no message text";
    if (!Result.contains("ruleId") || !Result["ruleId"].is_string())
      return Where + "has no ruleId";
    if (Result.contains("locations") &&
        (!Result["locations"].is_array() ||
         !llvm::all_of(Result["locations"],
                       [](const json &L) { return L.is_object(); })))
      return Where + "has malformed locations";
    if (std::optional<std::string> Err = addResult(Where, std::move(Result)))
      return Err;
  }
  return std::nullopt;
}

Merger::Key Merger::keyOf(const json &Result) {
  std::string Rule = Result.value("ruleId", "");
  std::string Uri;
  long Line = 0, Col = 0;
  if (Result.contains("locations") && !Result["locations"].empty()) {
    const json &P =
        Result["locations"][0].value("physicalLocation", json::object());
    if (P.contains("artifactLocation"))
      Uri = P["artifactLocation"].value("uri", "");
    if (P.contains("region")) {
      Line = P["region"].value("startLine", 0L);
      Col = P["region"].value("startColumn", 0L);
    }
  }
  std::string Msg = Rule == rule_ids::CompileError && Result.contains("message")
                        ? Result["message"].value("text", "")
                        : "";
  return {Rule, Uri, Line, Col, Msg};
}

std::optional<std::string> Merger::addResult(const std::string &Where,
                                             json Result) {
  const json &Rules = Out["tool"]["driver"].value("rules", json::array());
  std::string Rule = Result.value("ruleId", "");
  if (!Seen.insert(keyOf(Result)).second)
    return std::nullopt;
  Result.erase("ruleIndex");
  for (size_t I = 0; I < Rules.size(); ++I)
    if (Rules[I].value("id", "") == Rule)
      Result["ruleIndex"] = I;
  if (!Result.contains("ruleIndex"))
    return Where + "names rule '" + Rule +
           "', which the first run does not define";
  Results.push_back(Result);
  return std::nullopt;
}

std::optional<std::string> Merger::addProperties(const std::string &Path,
                                                 const json &P) {
  for (const char *Key : {"incompleteFunctions", "baselined"})
    if (P.contains(Key) && !P[Key].is_number_integer())
      return "'" + Path +
             "' is not a SARIF file Seam can merge: " + "run.properties." +
             Key + " is not an integer";
  auto Count = [&](const char *Key) -> int64_t {
    return P.contains(Key) ? P[Key].get<int64_t>() : 0;
  };
  Incomplete += Count("incompleteFunctions");
  Baselined += Count("baselined");
  // A row two shards both give (a region in a shared header, the same file
  // merged twice) is kept once.
  if (P.contains("summary") && P["summary"].is_array())
    for (const json &Row : P["summary"])
      if (std::find(Summary.begin(), Summary.end(), Row) == Summary.end())
        Summary.push_back(Row);
  return std::nullopt;
}

/// Costliest first, as `seam check` orders them; ties by position and rule,
/// as its results are sorted before that: the same order whichever shards
/// came first, and the same as one unsharded run. GitHub keeps 5,000
/// results a run: the lowest-ranked go, as in check.
void Merger::sortAndCap() {
  auto Key = [](const json &R) {
    std::string L = R.value("level", "warning");
    int Level = L == "error" ? 2 : L == "warning" ? 1 : 0;
    double Rank = R.contains("rank") && R["rank"].is_number()
                      ? R["rank"].get<double>()
                      : 0.0;
    std::string Uri;
    int64_t Line = 0, Col = 0;
    if (R.contains("locations") && !R["locations"].empty()) {
      const json &P =
          R["locations"][0].value("physicalLocation", json::object());
      if (P.contains("artifactLocation") && P["artifactLocation"].is_object())
        Uri = P["artifactLocation"].value("uri", "");
      if (P.contains("region") && P["region"].is_object()) {
        Line = P["region"].value("startLine", int64_t(0));
        Col = P["region"].value("startColumn", int64_t(0));
      }
    }
    return std::make_tuple(-Level, -Rank, Uri, Line, Col, R.value("ruleId", ""),
                           R["message"].value("text", ""));
  };
  std::stable_sort(
      Results.begin(), Results.end(),
      [&](const json &A, const json &B) { return Key(A) < Key(B); });
  if (Results.size() > MaxSarifResults) {
    size_t Cut = Results.size() - MaxSarifResults;
    Results.erase(Results.begin() + MaxSarifResults, Results.end());
    llvm::erase_if(Notifications, [](const json &N) {
      return N.is_object() && N.contains("descriptor") &&
             N["descriptor"].value("id", "") == "seam-results-cut";
    });
    Notifications.push_back({{"level", "warning"},
                             {"message", {{"text", sarifCutMessage(Cut)}}},
                             {"descriptor", {{"id", "seam-results-cut"}}}});
  }
}

std::optional<json> Merger::document(const MergeOptions &Opts) {
  if (Out.is_null()) {
    errorExit("the SARIF files hold no run");
    return std::nullopt;
  }
  sortAndCap();
  json Invocation = {{"executionSuccessful", Success}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = Notifications;
  // json::array: a braced single json is a copy for Clang, an array for GCC.
  Out["invocations"] = json::array({Invocation});
  Out["results"] = Results;
  Out["properties"] = {{"incompleteFunctions", Incomplete},
                       {"baselined", Baselined}};
  // Costliest first, then by name and place: the same whichever shard
  // came first.
  std::stable_sort(Summary.begin(), Summary.end(),
                   [](const json &A, const json &B) {
                     return std::make_pair(-A.value("rank", 0.0), A.dump()) <
                            std::make_pair(-B.value("rank", 0.0), B.dump());
                   });
  if (!Summary.empty())
    Out["properties"]["summary"] = Summary;
  if (!Opts.SarifCategory.empty()) {
    std::string Id = Opts.SarifCategory;
    if (Id.back() != '/')
      Id += '/';
    Out["automationDetails"] = {{"id", Id}};
  }
  return json{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({Out})}};
}

int merge(const MergeOptions &Opts, std::string &Current) {
  if (Opts.Inputs.empty())
    return errorExit("seam merge needs at least one SARIF file");
  if (!Opts.OutputPath.empty())
    if (std::optional<std::string> Err =
            checkOutputPath(Opts.OutputPath, Opts.Inputs))
      return errorExit(*Err);
  Merger M;
  for (const std::string &Path : Opts.Inputs) {
    Current = Path;
    if (std::optional<std::string> Err = M.addFile(Path))
      return errorExit(*Err);
  }
  for (const std::string &Path : Opts.Summaries)
    if (std::optional<std::string> Err = M.addSummaries(Path))
      return errorExit(*Err);
  if (std::optional<std::string> Err = M.crossFiles())
    return errorExit(*Err);
  std::optional<json> Doc = M.document(Opts);
  if (!Doc)
    return 2;
  if (std::optional<std::string> Err =
          writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
            OS << Doc->dump(2, ' ', false, json::error_handler_t::replace)
               << "\n";
          }))
    return errorExit(*Err);
  return 0;
}

} // namespace

int runMerge(const MergeOptions &Opts) {
  std::string Current;
  try {
    return merge(Opts, Current);
  } catch (const nlohmann::json::exception &E) {
    // A field of an unexpected type, anywhere in an input.
    return errorExit("'" + Current +
                     "' is not a SARIF 2.1.0 file Seam can "
                     "merge: " +
                     E.what());
  }
}

} // namespace seam
