//===- Merge.cpp - `seam merge`: join the SARIF of CI shards --------------===//
#include "Driver/Merge.h"
#include "Support/InputFile.h"

#include "Driver/Output.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>
#include <set>

namespace seam {

static int fail(const std::string &Msg) {
  llvm::errs() << "seam: error: " << Msg << "\n";
  return 2;
}

static int merge(const MergeOptions &Opts, std::string &Current);

int runMerge(const MergeOptions &Opts) {
  std::string Current;
  try {
    return merge(Opts, Current);
  } catch (const nlohmann::json::exception &E) {
    // A field of an unexpected type, anywhere in an input.
    return fail("'" + Current +
                "' is not a SARIF 2.1.0 file Seam can "
                "merge: " +
                E.what());
  }
}

static int merge(const MergeOptions &Opts, std::string &Current) {
  if (Opts.Inputs.empty())
    return fail("seam merge needs at least one SARIF file");
  if (!Opts.OutputPath.empty())
    if (std::optional<std::string> Err =
            checkOutputPath(Opts.OutputPath, Opts.Inputs))
      return fail(*Err);
  nlohmann::json Out;
  nlohmann::json Results = nlohmann::json::array();
  nlohmann::json Notifications = nlohmann::json::array();
  nlohmann::json Summary = nlohmann::json::array();
  bool Success = true;
  double Incomplete = 0, Baselined = 0;
  std::set<std::tuple<std::string, std::string, long, long, std::string>> Seen;
  for (const std::string &Path : Opts.Inputs) {
    Current = Path;
    auto Buf = readInputFile(Path, "SARIF to merge", MaxDataBytes);
    if (!Buf)
      return fail(llvm::toString(Buf.takeError()));
    nlohmann::json Doc = nlohmann::json::parse(
        (*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(), nullptr, false);
    if (Doc.is_discarded() || !Doc.is_object() || !Doc.contains("version") ||
        Doc["version"] != "2.1.0" || !Doc.contains("runs") ||
        !Doc["runs"].is_array())
      return fail("'" + Path + "' is not a SARIF 2.1.0 file");
    for (nlohmann::json &Run : Doc["runs"]) {
      if (!Run.is_object() || !Run.contains("tool") ||
          !Run.contains("results") || !Run["results"].is_array())
        return fail("'" + Path + "' has a run without tool or results");
      if (Out.is_null()) {
        Out = Run;
        Out.erase("results");
        Out.erase("invocations");
        Out.erase("properties");
      }
      // Rule indices are re-resolved against the first run's rules.
      const nlohmann::json &Rules =
          Out["tool"]["driver"].value("rules", nlohmann::json::array());
      for (nlohmann::json &Result : Run["results"]) {
        std::string Rule = Result.value("ruleId", "");
        std::string Uri;
        long Line = 0, Col = 0;
        if (Result.contains("locations") && !Result["locations"].empty()) {
          const nlohmann::json &P = Result["locations"][0].value(
              "physicalLocation", nlohmann::json::object());
          if (P.contains("artifactLocation"))
            Uri = P["artifactLocation"].value("uri", "");
          if (P.contains("region")) {
            Line = P["region"].value("startLine", 0L);
            Col = P["region"].value("startColumn", 0L);
          }
        }
        std::string Msg =
            Rule == "clang-diagnostic-error" && Result.contains("message")
                ? Result["message"].value("text", "")
                : "";
        if (!Seen.insert({Rule, Uri, Line, Col, Msg}).second)
          continue;
        Result.erase("ruleIndex");
        for (size_t I = 0; I < Rules.size(); ++I)
          if (Rules[I].value("id", "") == Rule)
            Result["ruleIndex"] = I;
        Results.push_back(Result);
      }
      if (Run.contains("invocations"))
        for (const nlohmann::json &Inv : Run["invocations"]) {
          Success &= Inv.value("executionSuccessful", true);
          if (Inv.contains("toolExecutionNotifications"))
            for (const nlohmann::json &N : Inv["toolExecutionNotifications"])
              Notifications.push_back(N);
        }
      if (Run.contains("properties")) {
        const nlohmann::json &P = Run["properties"];
        Incomplete += P.value("incompleteFunctions", 0.0);
        Baselined += P.value("baselined", 0.0);
        if (P.contains("summary") && P["summary"].is_array())
          for (const nlohmann::json &Row : P["summary"])
            Summary.push_back(Row);
      }
    }
  }
  if (Out.is_null())
    return fail("the SARIF files hold no run");
  // Costliest first, as `seam check` orders them.
  auto Level = [](const nlohmann::json &R) {
    std::string L = R.value("level", "warning");
    return L == "error" ? 2 : L == "warning" ? 1 : 0;
  };
  std::stable_sort(Results.begin(), Results.end(),
                   [&](const nlohmann::json &A, const nlohmann::json &B) {
                     return std::make_pair(-Level(A), -A.value("rank", 0.0)) <
                            std::make_pair(-Level(B), -B.value("rank", 0.0));
                   });
  nlohmann::json Invocation = {{"executionSuccessful", Success}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = Notifications;
  Out["invocations"] = {Invocation};
  Out["results"] = Results;
  Out["properties"] = {{"incompleteFunctions", Incomplete},
                       {"baselined", Baselined}};
  if (!Summary.empty())
    Out["properties"]["summary"] = Summary;
  if (!Opts.SarifCategory.empty()) {
    std::string Id = Opts.SarifCategory;
    if (Id.back() != '/')
      Id += '/';
    Out["automationDetails"] = {{"id", Id}};
  }
  nlohmann::json Doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", {Out}}};
  if (std::optional<std::string> Err =
          writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
            OS << Doc.dump(2, ' ', false,
                           nlohmann::json::error_handler_t::replace)
               << "\n";
          }))
    return fail(*Err);
  return 0;
}

} // namespace seam
