//===- JsonUtil.h - JSON pieces shared by the JSON and SARIF reporters ----===//
#ifndef SEAM_REPORT_JSONUTIL_H
#define SEAM_REPORT_JSONUTIL_H

#include "Hazards/Finding.h"
#include <nlohmann/json.hpp>

namespace seam {
nlohmann::json pointJson(const SourcePoint &P);
nlohmann::json costJson(const CostEstimate &C);
nlohmann::json summaryJson(const SummaryRow &Row);
} // namespace seam

#endif
