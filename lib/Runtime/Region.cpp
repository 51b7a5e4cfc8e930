//===- Region.cpp - Running a cut region: cache, buffers, launches --------===//

#include "Device.h"
#include "Fusion.h"
#include "Telemetry.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace seam::rt::detail {

#include <mutex>

namespace {

/// Whether G's plan and kernels depend on its sizes only through which
/// values have one element and which have equal element counts: pointwise
/// ops and whole-tensor sum, max and min (a mean divides by its count in
/// the kernel; library ops are shaped).
bool sizeAgnostic(const Graph &G) {
  for (const Node &N : G.Nodes) {
    if (N.Kind == Op::Input || isPointwise(N.Kind))
      continue;
    if ((N.Kind == Op::Sum || N.Kind == Op::Max || N.Kind == Op::Min) &&
        N.Dim < 0)
      continue;
    return false;
  }
  return true;
}

/// The structural key with every size replaced by what the plan depends on
/// (one element or not, and which values have equal element counts).
std::string symbolicKey(const Graph &G, const std::vector<int> &LiveOuts) {
  Graph S(G.Dev);
  S.Nodes = G.Nodes;
  std::unordered_map<int64_t, int64_t> Classes;
  for (Node &N : S.Nodes) {
    int64_t Numel = N.numel();
    int64_t Class =
        Numel == 1
            ? 1
            : -(Classes.emplace(Numel, int64_t(Classes.size())).first->second +
                2);
    N.Sizes = {Class};
  }
  return structuralKey(S, LiveOuts);
}

class RegionCache {
public:
  static RegionCache &get() {
    static RegionCache *C = new RegionCache();
    return *C;
  }
  /// The compiled plan for G; compiles on a miss.
  std::shared_ptr<const RegionPlan>
  lookup(const Graph &G, const std::vector<int> &LiveOuts, bool &Compiled) {
    std::string Key = structuralKey(G, LiveOuts);
    // Host threads may compile at once; a plan is compiled once.
    std::lock_guard<std::mutex> Lock(M);
    auto It = Plans.find(Key);
    if (It != Plans.end()) {
      Telemetry::get().count(Counter::CacheHits);
      return It->second;
    }
    // Automatic dynamic shapes, as in Dynamo: once a region's sizes have
    // changed, its next plan is kept for any sizes, and later sizes reuse
    // its kernels with a plan (buffers, element counts) made for them.
    std::string SymKey;
    bool Dynamic = false;
    if (sizeAgnostic(G)) {
      SymKey = symbolicKey(G, LiveOuts);
      if (auto D = Symbolic.find(SymKey); D != Symbolic.end()) {
        auto Plan = std::make_shared<RegionPlan>(planRegion(G, LiveOuts));
        if (reuseKernels(*D->second, *Plan)) {
          Telemetry::get().count(Counter::CacheHits);
          return Plan;
        }
      }
      Dynamic = !SeenSizes.insert(SymKey).second;
    }
    auto Begin = Clock::now();
    Compiled = true;
    auto Plan = std::make_shared<RegionPlan>(planRegion(G, LiveOuts));
    Plan->Key = Key;
    compileKernels(G, *Plan);
    Telemetry::get().count(Counter::Compiles);
    Telemetry::get().hostSpan("compile region", "compile", Begin, Clock::now(),
                              /*IsWait=*/false);
    if (Dynamic)
      Symbolic.emplace(SymKey, Plan);
    Plans.emplace(std::move(Key), Plan);
    return Plan;
  }

private:
  /// Gives \p Fresh the kernels of \p Compiled, a plan of the same symbolic
  /// key; false when their steps differ (then it is compiled).
  static bool reuseKernels(const RegionPlan &Compiled, RegionPlan &Fresh) {
    if (Compiled.Steps.size() != Fresh.Steps.size())
      return false;
    for (size_t I = 0; I < Fresh.Steps.size(); ++I) {
      const Step &C = Compiled.Steps[I];
      Step &F = Fresh.Steps[I];
      if (C.IsFused != F.IsFused || C.NodeId != F.NodeId ||
          C.Group.Nodes != F.Group.Nodes || C.Group.Inputs != F.Group.Inputs ||
          C.Group.Outputs != F.Group.Outputs ||
          C.Group.Preamble != F.Group.Preamble)
        return false;
    }
    for (size_t I = 0; I < Fresh.Steps.size(); ++I) {
      Fresh.Steps[I].Fn = Compiled.Steps[I].Fn;
      Fresh.Steps[I].Name = Compiled.Steps[I].Name;
    }
    Fresh.Key = Compiled.Key;
    return true;
  }

  std::mutex M;
  std::unordered_map<std::string, std::shared_ptr<const RegionPlan>> Plans;
  /// Plans compiled after their sizes changed, by symbolic key; and the
  /// symbolic keys compiled once.
  std::unordered_map<std::string, std::shared_ptr<const RegionPlan>> Symbolic;
  std::unordered_set<std::string> SeenSizes;
};

/// What a fused kernel's trailing reduction needs for a split run.
struct ReductionInfo {
  Op Kind;
  DType Ty;
  /// Index of the reduction's output in the kernel's buffer list.
  size_t Slot;
};

template <typename T>
void combinePartials(const ReductionInfo &R, const std::vector<T> &Parts,
                     void *Out) {
  T Acc = Parts[0];
  for (size_t I = 1; I < Parts.size(); ++I) {
    if (R.Kind == Op::Max)
      Acc = Parts[I] > Acc ? Parts[I] : Acc;
    else if (R.Kind == Op::Min)
      Acc = Parts[I] < Acc ? Parts[I] : Acc;
    else
      Acc += Parts[I]; // Mean kernels already divide by the full count.
  }
  *static_cast<T *>(Out) = Acc;
}

/// Runs a fused kernel ending in a reduction, each part of a split run
/// writing its own partial result, which are then combined.
template <typename T>
void runSplitReduction(KernelFn Fn, std::vector<void *> Ptrs,
                       const double *Scalars, int64_t Numel, unsigned Parts,
                       const ReductionInfo &R) {
  std::vector<T> Partials(Parts);
  void *Out = Ptrs[R.Slot];
  parallelRange(Numel, [&](int64_t B, int64_t E) {
    // parallelRange's part P starts at floor(Numel * P / Parts).
    int64_t P = (B * int64_t(Parts) + Numel - 1) / Numel;
    std::vector<void *> Mine = Ptrs;
    Mine[R.Slot] = &Partials[P];
    Fn(Mine.data(), Scalars, B, E);
  });
  combinePartials(R, Partials, Out);
}

/// Runs one fused kernel over its element range, split across the device's
/// threads when it is large enough.
void runFused(KernelFn Fn, const std::vector<BufferPtr> &Bufs,
              const std::vector<double> &Scalars, int64_t Numel,
              const ReductionInfo *Red) {
  std::vector<void *> Ptrs;
  Ptrs.reserve(Bufs.size());
  for (const BufferPtr &B : Bufs)
    Ptrs.push_back(B->Data);
  if (!Red) {
    parallelRange(Numel, [&](int64_t B, int64_t E) {
      Fn(Ptrs.data(), Scalars.data(), B, E);
    });
    return;
  }
  unsigned Parts = parallelParts(Numel);
  if (Parts <= 1) {
    Fn(Ptrs.data(), Scalars.data(), 0, Numel);
    return;
  }
  switch (Red->Ty) {
  case kFloat:
    return runSplitReduction<float>(Fn, Ptrs, Scalars.data(), Numel, Parts,
                                    *Red);
  case kLong:
    return runSplitReduction<int64_t>(Fn, Ptrs, Scalars.data(), Numel, Parts,
                                      *Red);
  case kBool:
    return runSplitReduction<uint8_t>(Fn, Ptrs, Scalars.data(), Numel, Parts,
                                      *Red);
  }
}

} // namespace

bool executeRegion(Graph &G, bool &Compiled) {
  auto Begin = Clock::now();
  std::vector<int> LiveOuts;
  std::vector<std::shared_ptr<TensorImpl>> Owners(G.Nodes.size());
  for (size_t I = 0; I < G.Nodes.size(); ++I) {
    if (G.Nodes[I].Kind == Op::Input)
      continue;
    Owners[I] = G.Owners[I].lock();
    if (Owners[I])
      LiveOuts.push_back(static_cast<int>(I));
  }
  if (LiveOuts.empty())
    return false;
  std::shared_ptr<const RegionPlan> Plan =
      RegionCache::get().lookup(G, LiveOuts, Compiled);
  Telemetry::get().count(Counter::Regions);

  Device Dev = G.Dev;
  std::vector<BufferPtr> Vals(G.Nodes.size());
  for (size_t I = 0; I < G.Nodes.size(); ++I)
    if (G.Nodes[I].Kind == Op::Input)
      Vals[I] = G.Inputs[G.Nodes[I].Dim];
  for (int L : LiveOuts) {
    const Node &N = G.Nodes[L];
    Vals[L] = std::make_shared<Buffer>(N.numel() * dtypeSize(N.Ty), Dev);
  }
  std::vector<BufferPtr> Slots;
  for (size_t Bytes : Plan->SlotBytes)
    Slots.push_back(std::make_shared<Buffer>(Bytes, Dev));
  for (size_t I = 0; I < G.Nodes.size(); ++I)
    if (Plan->TempSlot[I] >= 0)
      Vals[I] = Slots[Plan->TempSlot[I]];

  auto Scalars = std::make_shared<std::vector<double>>();
  Scalars->reserve(Plan->NumScalars);
  for (const Node &N : G.Nodes)
    Scalars->insert(Scalars->end(), N.Scalars.begin(), N.Scalars.end());

  for (const Step &S : Plan->Steps) {
    std::function<void()> Work;
    int NumOps = 1;
    if (S.IsFused) {
      const FusedGroup &Grp = S.Group;
      std::vector<BufferPtr> Bufs;
      for (int V : Grp.Inputs)
        Bufs.push_back(Vals[V]);
      for (int V : Grp.Outputs)
        Bufs.push_back(Vals[V]);
      NumOps = static_cast<int>(Grp.Nodes.size() + Grp.Preamble.size());
      std::optional<ReductionInfo> Red;
      if (Grp.EndsInReduction) {
        int R = Grp.Nodes.back();
        size_t Pos = std::find(Grp.Outputs.begin(), Grp.Outputs.end(), R) -
                     Grp.Outputs.begin();
        Red = ReductionInfo{G.Nodes[R].Kind, G.Nodes[R].Ty,
                            Grp.Inputs.size() + Pos};
      }
      Work = [Fn = S.Fn, Bufs = std::move(Bufs), Scalars, Numel = Grp.Numel,
              Red] {
        runFused(Fn, Bufs, *Scalars, Numel, Red ? &*Red : nullptr);
      };
    } else {
      // Library ops reuse the reference kernels with their args renumbered.
      Node N = G.Nodes[S.NodeId];
      std::vector<ArgView> Views;
      std::vector<BufferPtr> Keep;
      for (int &A : N.Args) {
        if (A < 0)
          continue;
        Views.push_back({Vals[A].get(), G.Nodes[A].Ty, G.Nodes[A].Sizes});
        Keep.push_back(Vals[A]);
        A = static_cast<int>(Views.size() - 1);
      }
      Work = [N = std::move(N), Views = std::move(Views),
              Keep = std::move(Keep),
              Dst = Vals[S.NodeId]] { runReference(N, Views, *Dst); };
    }
    if (Dev == kCPU)
      Work();
    else
      DeviceStream::get().enqueue(S.Name, /*IsKernel=*/true, NumOps,
                                  std::move(Work));
  }

  for (int L : LiveOuts) {
    Owners[L]->Buf = Vals[L];
    Owners[L]->G = nullptr;
    Owners[L]->Id = -1;
  }
  Telemetry::get().hostSpan("region", "region", Begin, Clock::now(),
                            /*IsWait=*/false);
  return true;
}

} // namespace seam::rt::detail
