//===- JsonReporter.cpp - Seam's own JSON format (docs/cli.md) ------------===//
#include "Basic/FindingJson.h"
#include "Report/Reporters.h"

namespace seam {

void writeJson(llvm::raw_ostream &OS, const Report &R) {
  nlohmann::json Results = nlohmann::json::array();
  for (const Finding &F : R.Findings)
    Results.push_back(toJson(F));
  nlohmann::json Errors = nlohmann::json::array();
  for (const InputError &E : R.Errors)
    Errors.push_back({{"input", E.Input}, {"message", E.Message}});
  nlohmann::json Summary = nlohmann::json::array();
  for (const SummaryRow &Row : R.Summary)
    Summary.push_back(toJson(Row));
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
