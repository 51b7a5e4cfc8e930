//===- Fusion.h - Fusion groups of a region's op sequence -----------------===//
//
// The grouping rule the cost model assumes a region compiler applies:
// maximal chains of pointwise ops form one kernel, a reduction may close
// such a chain, and library ops (matmul, conv, ...) and data-dependent ops
// are kernels of their own. Views and metadata are free.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_FUSION_H
#define SEAM_COST_FUSION_H

#include "ApiModel/RulePack.h"
#include <vector>

namespace seam {

/// Group index of each op (ops of class View get -1); groups are numbered
/// from 0 in order. \p Count receives the number of groups (= launches).
std::vector<int> fusionGroups(const std::vector<OpClass> &Ops, unsigned &Count);

} // namespace seam

#endif
