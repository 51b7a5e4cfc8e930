//===- JsonReporter.cpp - Seam's own JSON format (docs/cli.md) ------------===//
#include "Report/JsonUtil.h"
#include "Report/Reporters.h"

namespace seam {

nlohmann::json pointJson(const SourcePoint &P) {
  return {{"file", P.File},
          {"line", P.Line},
          {"column", P.Column},
          {"endLine", P.EndLine},
          {"endColumn", P.EndColumn}};
}

nlohmann::json costJson(const CostEstimate &C) {
  auto Opt = [](const std::optional<double> &V) -> nlohmann::json {
    return V ? nlohmann::json(*V) : nlohmann::json(nullptr);
  };
  return {{"profile", C.Profile},
          {"regionPieces", C.RegionPieces},
          {"opsPerPiece", C.OpsPerPiece},
          {"fusionGroupsCut", C.FusionGroupsCut},
          {"extraLaunches", C.ExtraLaunches},
          {"intermediatesMaterialized", C.IntermediatesMaterialized},
          {"bytesMaterialized", Opt(C.BytesMaterialized)},
          {"idleMicrosPerExecution", C.IdleMicrosPerExecution},
          {"executionsPerIteration", C.ExecutionsPerIteration},
          {"frequency", C.Frequency},
          {"uncountedConditions", C.UncountedConditions},
          {"executions", Opt(C.Executions)},
          {"tripCount", Opt(C.TripCount)},
          {"idleMicrosTotal", Opt(C.IdleMicrosTotal)},
          {"rank", C.Rank}};
}

nlohmann::json summaryJson(const SummaryRow &Row) {
  auto Opt = [](const std::optional<double> &V) -> nlohmann::json {
    return V ? nlohmann::json(*V) : nlohmann::json(nullptr);
  };
  return {{"kind", Row.Kind},
          {"name", Row.Name},
          {"location", pointJson(Row.Where)},
          {"pieces", Row.Pieces},
          {"launchesBefore", Row.LaunchesBefore},
          {"launchesAfter", Row.LaunchesAfter},
          {"syncs", Row.Syncs},
          {"microsPerExecution", Row.MicrosPerExecution},
          {"tripCount", Opt(Row.TripCount)},
          {"microsTotal", Opt(Row.MicrosTotal)},
          {"rank", Row.Rank},
          {"profile", Row.Profile}};
}

nlohmann::json fixJson(const Fix &F) {
  nlohmann::json Edits = nlohmann::json::array();
  for (const TextEdit &E : F.Edits)
    Edits.push_back({{"file", E.File},
                     {"offset", E.Offset},
                     {"length", E.Length},
                     {"line", E.Line},
                     {"column", E.Column},
                     {"endLine", E.EndLine},
                     {"endColumn", E.EndColumn},
                     {"text", E.Text}});
  return {{"kind", F.Kind},
          {"description", F.Description},
          {"effect", F.Effect},
          {"edits", Edits}};
}

Fix fixFromJson(const nlohmann::json &J) {
  Fix F;
  F.Kind = J.at("kind").get<std::string>();
  F.Description = J.at("description").get<std::string>();
  F.Effect = J.at("effect").get<std::string>();
  for (const nlohmann::json &E : J.at("edits")) {
    TextEdit T;
    T.File = E.at("file").get<std::string>();
    T.Offset = jsonInteger<unsigned>(E.at("offset"));
    T.Length = jsonInteger<unsigned>(E.at("length"));
    T.Line = jsonInteger<unsigned>(E.at("line"));
    T.Column = jsonInteger<unsigned>(E.at("column"));
    T.EndLine = jsonInteger<unsigned>(E.at("endLine"));
    T.EndColumn = jsonInteger<unsigned>(E.at("endColumn"));
    T.Text = E.at("text").get<std::string>();
    F.Edits.push_back(std::move(T));
  }
  return F;
}

void writeJson(llvm::raw_ostream &OS, const Report &R) {
  nlohmann::json Results = nlohmann::json::array();
  for (const Finding &F : R.Findings) {
    nlohmann::json Path = nlohmann::json::array();
    for (const PathNote &N : F.Path)
      Path.push_back({{"message", N.Message},
                      {"location", pointJson(N.Where)},
                      {"kind", N.IsCall ? "call" : "context"}});
    Results.push_back(
        {{"ruleId", F.RuleId},
         {"level", levelName(F.Severity)},
         {"message", F.Message},
         {"location", pointJson(F.Where)},
         {"trigger", F.Trigger},
         {"residency", F.Residency},
         {"region", F.Region.empty() ? nlohmann::json(nullptr)
                                     : nlohmann::json(F.Region)},
         {"function", F.Function},
         {"api", F.Api},
         {"hotPath", F.HotReason},
         {"path", Path},
         {"cost", F.Cost ? costJson(*F.Cost) : nlohmann::json(nullptr)},
         {"details", F.Details},
         {"fix", F.AutoFix ? fixJson(*F.AutoFix) : nlohmann::json(nullptr)},
         {"noFix",
          F.AutoFix ? nlohmann::json(nullptr) : nlohmann::json(F.NoFixReason)},
         {"suggestion", F.Suggestion.empty() ? nlohmann::json(nullptr)
                                             : nlohmann::json(F.Suggestion)},
         {"fingerprint", F.Fingerprint}});
  }
  nlohmann::json Errors = nlohmann::json::array();
  for (const InputError &E : R.Errors)
    Errors.push_back({{"input", E.Input}, {"message", E.Message}});
  nlohmann::json Summary = nlohmann::json::array();
  for (const SummaryRow &Row : R.Summary)
    Summary.push_back(summaryJson(Row));
  nlohmann::json Doc = {
      {"format", "seam-results"},
      {"version", 1},
      {"tool", {{"name", "seam"}, {"version", SeamVersion}}},
      {"rulePacks", R.RulePacks},
      {"results", Results},
      {"summary", Summary},
      {"errors", Errors},
      {"incompleteFunctions", R.Incomplete},
      {"baselined", R.Baselined},
      {"cache", {{"hits", R.CacheHits}, {"misses", R.CacheMisses}}},
      {"notes", R.Notes}};
  // Paths and source text need not be UTF-8: invalid bytes become U+FFFD.
  OS << Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
     << "\n";
}

} // namespace seam
