//===- SarifReporter.cpp - SARIF 2.1.0 for code review and CI -------------===//
#include "Report/JsonUtil.h"
#include "Report/Reporters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace seam {
namespace {

/// Percent-encodes a path for a URI (RFC 3986 unreserved characters and
/// '/' pass through).
std::string uriEscape(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

nlohmann::json artifact(const std::string &File, const std::string &Base) {
  llvm::StringRef F(File);
  if (!Base.empty() && F.starts_with(Base) && F.size() > Base.size() &&
      F[Base.size()] == '/')
    return {{"uri", uriEscape(F.drop_front(Base.size() + 1))},
            {"uriBaseId", "%SRCROOT%"}};
  return {{"uri", "file://" + uriEscape(F)}};
}

nlohmann::json physical(const SourcePoint &P, const std::string &Base) {
  nlohmann::json Region = {{"startLine", P.Line}, {"startColumn", P.Column}};
  if (P.EndLine >= P.Line && P.EndColumn > 0) {
    Region["endLine"] = P.EndLine;
    Region["endColumn"] = P.EndColumn;
  }
  if (!P.LineText.empty())
    Region["snippet"] = {{"text", P.LineText}};
  return {{"artifactLocation", artifact(P.File, Base)}, {"region", Region}};
}

const char *sarifLevel(Level L) {
  return L == Level::Error ? "error" : L == Level::Warning ? "warning" : "note";
}

} // namespace

void writeSarif(llvm::raw_ostream &OS, const Report &R) {
  const std::string &Base = R.WorkDir;
  nlohmann::json Rules = nlohmann::json::array();
  for (const RuleInfo &Rule : ruleCatalog())
    Rules.push_back(
        {{"id", Rule.Id},
         {"name", Rule.Name},
         {"shortDescription", {{"text", Rule.ShortDescription}}},
         {"fullDescription", {{"text", Rule.FullDescription}}},
         {"help", {{"text", Rule.Help}}},
         {"defaultConfiguration", {{"level", sarifLevel(Rule.DefaultLevel)}}},
         {"properties", {{"tags", {"performance"}}}}});

  nlohmann::json Results = nlohmann::json::array();
  for (const Finding &F : R.Findings) {
    int RuleIndex = 0;
    for (size_t I = 0; I < ruleCatalog().size(); ++I)
      if (ruleCatalog()[I].Id == F.RuleId)
        RuleIndex = static_cast<int>(I);
    nlohmann::json Result = {
        {"ruleId", F.RuleId},
        {"ruleIndex", RuleIndex},
        {"level", sarifLevel(F.Severity)},
        {"message",
         {{"text", F.Message + (F.Cost && !F.Cost->Summary.empty()
                                    ? "; " + F.Cost->Summary
                                    : std::string())}}},
        {"locations",
         {{{"physicalLocation", physical(F.Where, Base)},
           {"logicalLocations",
            {{{"fullyQualifiedName", F.Function}, {"kind", "function"}}}}}}}};
    nlohmann::json Related = nlohmann::json::array();
    bool HasCall = false;
    for (size_t I = 0; I < F.Path.size(); ++I) {
      if (!F.Path[I].Where.valid())
        continue;
      HasCall |= F.Path[I].IsCall;
      Related.push_back(
          {{"id", static_cast<int>(I)},
           {"message", {{"text", F.Path[I].Message}}},
           {"physicalLocation", physical(F.Path[I].Where, Base)}});
    }
    if (!Related.empty())
      Result["relatedLocations"] = Related;
    if (HasCall) {
      nlohmann::json Steps = nlohmann::json::array();
      for (const PathNote &N : F.Path)
        if (N.Where.valid())
          Steps.push_back({{"location",
                            {{"physicalLocation", physical(N.Where, Base)},
                             {"message", {{"text", N.Message}}}}}});
      Steps.push_back({{"location",
                        {{"physicalLocation", physical(F.Where, Base)},
                         {"message", {{"text", F.Message}}}}}});
      Result["codeFlows"] = {{{"threadFlows", {{{"locations", Steps}}}}}};
    }
    nlohmann::json Props = {{"trigger", F.Trigger},
                            {"residency", F.Residency},
                            {"function", F.Function},
                            {"hotPath", F.HotReason}};
    if (!F.Region.empty())
      Props["region"] = F.Region;
    if (F.Cost)
      Props["cost"] = costJson(*F.Cost);
    Result["properties"] = Props;
    if (F.Cost)
      Result["rank"] = F.Cost->Rank;
    Results.push_back(Result);
  }

  nlohmann::json Notifications = nlohmann::json::array();
  for (const InputError &E : R.Errors)
    Notifications.push_back({{"level", "error"},
                             {"message", {{"text", E.Message}}},
                             {"descriptor", {{"id", "seam-input-error"}}}});
  nlohmann::json Invocation = {{"executionSuccessful", R.Errors.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = Notifications;

  nlohmann::json Run = {{"tool",
                         {{"driver",
                           {{"name", "seam"},
                            {"version", SeamVersion},
                            {"semanticVersion", SeamVersion},
                            {"rules", Rules}}}}},
                        {"invocations", {Invocation}},
                        {"columnKind", "unicodeCodePoints"},
                        {"results", Results}};
  if (!R.Summary.empty()) {
    nlohmann::json Summary = nlohmann::json::array();
    for (const SummaryRow &Row : R.Summary)
      Summary.push_back(summaryJson(Row));
    Run["properties"] = {{"summary", Summary}};
  }
  Run["properties"]["incompleteFunctions"] = R.Incomplete;
  if (!Base.empty())
    Run["originalUriBaseIds"] = {
        {"%SRCROOT%", {{"uri", "file://" + uriEscape(Base) + "/"}}}};
  nlohmann::json Doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", {Run}}};
  // Paths and source text need not be UTF-8: invalid bytes become U+FFFD.
  OS << Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
     << "\n";
}

} // namespace seam
