//===- Fusion.h - Region plans: fused groups, library steps, buffers ------===//
//
// Turns a recorded graph into the steps that run it: maximal pointwise
// chains (plus a trailing whole-tensor reduction) become one kernel each,
// everything else is a library step, and values crossing steps get planned,
// reused buffers. A plan depends only on the graph's structure, so it is
// cached under structuralKey().
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_FUSION_H
#define SEAM_RT_FUSION_H

#include "Lazy.h"

#include <cstdint>
#include <string>
#include <vector>

namespace seam::rt::detail {

/// Signature of every generated kernel: buffers (inputs, then outputs), the
/// region's scalars, and the element range to process.
using KernelFn = void (*)(void **Bufs, const double *Scalars, int64_t Begin,
                          int64_t End);

struct FusedGroup {
  /// Node ids in order; a whole-tensor reduction can only come last.
  std::vector<int> Nodes;
  /// One-element values computed once, before the loop, from broadcast
  /// inputs and scalars.
  std::vector<int> Preamble;
  /// Values read from buffers; those with one element are broadcast.
  std::vector<int> Inputs;
  /// Values written to buffers (needed by later steps or by the program).
  std::vector<int> Outputs;
  int64_t Numel = 0;
  bool EndsInReduction = false;
};

struct Step {
  bool IsFused = false;
  FusedGroup Group;
  /// For a library step: the node it runs.
  int NodeId = -1;
  KernelFn Fn = nullptr;
  std::string Name;
};

struct RegionPlan {
  std::vector<Step> Steps;
  std::vector<int> LiveOuts;
  /// Per value: the temporary slot holding it, or -1.
  std::vector<int> TempSlot;
  std::vector<size_t> SlotBytes;
  /// Per node: where its scalars start in the region's scalar array.
  std::vector<int> ScalarOffset;
  size_t NumScalars = 0;
  std::string Key;
};

/// Everything that decides the plan and the generated code: ops, shapes,
/// dtypes, wiring and which values the program still holds; not scalar
/// values, which are kernel arguments.
std::string structuralKey(const Graph &G, const std::vector<int> &LiveOuts);

RegionPlan planRegion(const Graph &G, const std::vector<int> &LiveOuts);

/// JIT-compiles every fused group of Plan (one LLVM module per region) and
/// fills Step::Fn. Throws Error if LLVM fails.
void compileKernels(const Graph &G, RegionPlan &Plan);

} // namespace seam::rt::detail

#endif // SEAM_RT_FUSION_H
