//===- FindingJson.h - The one JSON encoding of Seam's results ------------===//
//
// Findings, summary rows and their parts as JSON, in the key names
// docs/cli.md documents for `--format json`. The reporters (JSON, SARIF
// properties) write the documented subset (JsonDetail::Report); the result
// cache writes every field (JsonDetail::Full) and reads it back with
// findingFromJson() and friends, so a cached result is the result.
//
// The readers throw nlohmann::json::exception on a malformed value (the
// cache's reader catches it and treats the entry as missing).
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_FINDINGJSON_H
#define SEAM_BASIC_FINDINGJSON_H

#include "Basic/Finding.h"
#include "Basic/ProjectSummary.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace seam {

/// Report: the fields `--format json` documents. Full: every field, for a
/// reader that must get the same Finding back (the cache).
enum class JsonDetail { Report, Full };

nlohmann::json toJson(const SourcePoint &P, JsonDetail D = JsonDetail::Report);
nlohmann::json toJson(const PathNote &N, JsonDetail D = JsonDetail::Report);
nlohmann::json toJson(const CostEstimate &C, JsonDetail D = JsonDetail::Report);
nlohmann::json toJson(const Fix &F);
nlohmann::json toJson(const Finding &F, JsonDetail D = JsonDetail::Report);
nlohmann::json toJson(const SummaryRow &Row, JsonDetail D = JsonDetail::Report);

/// The readers take what toJson(..., JsonDetail::Full) wrote.
SourcePoint pointFromJson(const nlohmann::json &J);
Fix fixFromJson(const nlohmann::json &J);
Finding findingFromJson(const nlohmann::json &J);
SummaryRow summaryRowFromJson(const nlohmann::json &J);

/// A TU's summary for the project pass, every field (the cache and
/// `--summaries-out`, docs/whole-project.md).
nlohmann::json toJson(const TUSummary &S);
TUSummary tuSummaryFromJson(const nlohmann::json &J);

/// J as the integer type T. Unlike json::get<T>, a float (whose conversion
/// is undefined when out of T's range) or a value T cannot hold throws
/// nlohmann::json::type_error or out_of_range instead of wrapping, so a
/// reader of a file Seam wrote can refuse a damaged one.
template <typename T> T jsonInteger(const nlohmann::json &J) {
  using Limits = std::numeric_limits<T>;
  if (!J.is_number_integer())
    throw nlohmann::json::type_error::create(
        302, std::string("expected an integer, got ") + J.type_name(), &J);
  const auto Max = static_cast<unsigned long long>(Limits::max());
  bool Fits;
  if (J.is_number_unsigned())
    Fits = J.get<unsigned long long>() <= Max;
  else if (long long V = J.get<long long>(); V < 0)
    Fits = Limits::is_signed && V >= static_cast<long long>(Limits::min());
  else
    Fits = static_cast<unsigned long long>(V) <= Max;
  if (!Fits)
    throw nlohmann::json::out_of_range::create(
        406, "integer " + J.dump() + " out of range", &J);
  return J.is_number_unsigned() ? static_cast<T>(J.get<unsigned long long>())
                                : static_cast<T>(J.get<long long>());
}

} // namespace seam

#endif
