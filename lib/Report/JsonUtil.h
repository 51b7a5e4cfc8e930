//===- JsonUtil.h - JSON pieces shared by the JSON and SARIF reporters ----===//
#ifndef SEAM_REPORT_JSONUTIL_H
#define SEAM_REPORT_JSONUTIL_H

#include "Hazards/Finding.h"
#include <nlohmann/json.hpp>

namespace seam {
nlohmann::json pointJson(const SourcePoint &P);
nlohmann::json costJson(const CostEstimate &C);
nlohmann::json summaryJson(const SummaryRow &Row);
/// A fix as JSON and SARIF-independent data; fixFromJson throws
/// nlohmann::json::exception on a malformed value (the cache's reader
/// catches it).
nlohmann::json fixJson(const Fix &F);
Fix fixFromJson(const nlohmann::json &J);
} // namespace seam

#endif
