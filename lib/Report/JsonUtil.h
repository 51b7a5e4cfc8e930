//===- JsonUtil.h - JSON pieces shared by the JSON and SARIF reporters ----===//
#ifndef SEAM_REPORT_JSONUTIL_H
#define SEAM_REPORT_JSONUTIL_H

#include "Hazards/Finding.h"
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace seam {
nlohmann::json pointJson(const SourcePoint &P);
nlohmann::json costJson(const CostEstimate &C);
nlohmann::json summaryJson(const SummaryRow &Row);
/// A fix as JSON and SARIF-independent data; fixFromJson throws
/// nlohmann::json::exception on a malformed value (the cache's reader
/// catches it).
nlohmann::json fixJson(const Fix &F);
Fix fixFromJson(const nlohmann::json &J);

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
