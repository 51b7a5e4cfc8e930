//===- Version.cpp - Seam's version, as reports and --version say it ----===//
#include "Report/Reporters.h"

namespace seam {

const char *const SeamVersion = "0.1.0";

} // namespace seam
