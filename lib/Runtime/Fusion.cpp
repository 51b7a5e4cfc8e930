//===- Fusion.cpp - Grouping ops into kernels and planning buffers --------===//

#include "Fusion.h"

#include <algorithm>
#include <functional>
#include <set>

namespace seam::rt::detail {

std::string structuralKey(const Graph &G, const std::vector<int> &LiveOuts) {
  std::string K;
  K.reserve(G.Nodes.size() * 24);
  auto Put = [&](int64_t V) {
    K += std::to_string(V);
    K += ',';
  };
  Put(int(G.Dev));
  for (const Node &N : G.Nodes) {
    K += '|';
    Put(int(N.Kind));
    Put(int(N.Ty));
    Put(int(N.ComputeTy));
    Put(N.Dim);
    Put(N.Dim1);
    Put(N.KeepDim);
    K += 's';
    for (int64_t S : N.Sizes)
      Put(S);
    K += 'a';
    for (int A : N.Args)
      Put(A);
  }
  K += "|live";
  for (int L : LiveOuts)
    Put(L);
  return K;
}

namespace {

/// The steps of one region, planned in passes over its graph.
struct Planner {
  const Graph &G;
  RegionPlan &P;
  size_t NV;
  std::vector<bool> Needed, Live, Uniform;
  std::vector<int> GroupOf, LastUse;

  Planner(const Graph &G, RegionPlan &P)
      : G(G), P(P), NV(G.Nodes.size()), Needed(NV, false), Live(NV, false),
        Uniform(NV, false), GroupOf(NV, -1), LastUse(NV, -1) {}

  void findNeeded(const std::vector<int> &LiveOuts) {
    // Only what the program can still observe is computed.
    for (int L : LiveOuts)
      Needed[L] = Live[L] = true;
    for (size_t I = NV; I-- > 0;)
      if (Needed[I])
        for (int A : G.Nodes[I].Args)
          if (A >= 0)
            Needed[A] = true;
  }

  void findUniform() {
    // One-element pointwise values that only feed larger pointwise ops (say
    // `h.mean() > 0.5` feeding a where) are recomputed in the preamble of
    // each consumer's kernel instead of running as a kernel of their own.
    std::vector<std::vector<int>> Consumers(NV);
    for (size_t I = 0; I < NV; ++I)
      if (Needed[I])
        for (int A : G.Nodes[I].Args)
          if (A >= 0)
            Consumers[A].push_back(static_cast<int>(I));
    for (size_t I = NV; I-- > 0;) {
      const Node &N = G.Nodes[I];
      if (!Needed[I] || Live[I] || !isPointwise(N.Kind) || N.numel() != 1 ||
          Consumers[I].empty())
        continue;
      bool Foldable = true;
      for (int C : Consumers[I])
        if (!isPointwise(G.Nodes[C].Kind) ||
            (G.Nodes[C].numel() == 1 && !Uniform[C]))
          Foldable = false;
      Uniform[I] = Foldable;
    }
  }

  void groupSteps() {
    // Greedy in program order: a pointwise op joins the open group when it
    // has the group's element count; anything else closes it.
    int Open = -1;
    auto Close = [&] { Open = -1; };
    for (size_t I = 0; I < NV; ++I) {
      const Node &N = G.Nodes[I];
      if (!Needed[I] || N.Kind == Op::Input || Uniform[I])
        continue;
      if (isPointwise(N.Kind)) {
        if (Open >= 0 && P.Steps[Open].Group.Numel != N.numel())
          Close();
        if (Open < 0) {
          Step S;
          S.IsFused = true;
          S.Group.Numel = N.numel();
          P.Steps.push_back(std::move(S));
          Open = static_cast<int>(P.Steps.size() - 1);
        }
        P.Steps[Open].Group.Nodes.push_back(static_cast<int>(I));
        GroupOf[I] = Open;
        continue;
      }
      if (isReduction(N.Kind) && N.Dim < 0) {
        int A = N.Args[0];
        int64_t Len = G.Nodes[A].numel();
        if (!(Open >= 0 && GroupOf[A] == Open &&
              P.Steps[Open].Group.Numel == Len)) {
          Close();
          Step S;
          S.IsFused = true;
          S.Group.Numel = Len;
          P.Steps.push_back(std::move(S));
          Open = static_cast<int>(P.Steps.size() - 1);
        }
        P.Steps[Open].Group.Nodes.push_back(static_cast<int>(I));
        P.Steps[Open].Group.EndsInReduction = true;
        GroupOf[I] = Open;
        Close();
        continue;
      }
      Close();
      Step S;
      S.NodeId = static_cast<int>(I);
      S.Name = opName(N.Kind);
      P.Steps.push_back(std::move(S));
      GroupOf[I] = static_cast<int>(P.Steps.size() - 1);
    }
  }

  /// What step \p S loads (directly or, for uniform values, through its
  /// preamble, returned in \p Preamble).
  std::vector<int> reads(int S, std::vector<int> *Preamble) {
    const Step &St = P.Steps[S];
    std::vector<int> Ext;
    std::set<int> Pre;
    std::function<void(int)> Visit = [&](int A) {
      if (A < 0)
        return;
      if (Uniform[A]) {
        if (Pre.insert(A).second)
          for (int B : G.Nodes[A].Args)
            Visit(B);
        return;
      }
      if (GroupOf[A] != S && std::find(Ext.begin(), Ext.end(), A) == Ext.end())
        Ext.push_back(A);
    };
    for (int Id : St.IsFused ? St.Group.Nodes : std::vector<int>{St.NodeId})
      for (int A : G.Nodes[Id].Args)
        Visit(A);
    if (Preamble)
      Preamble->assign(Pre.begin(), Pre.end()); // Ids are in program order.
    return Ext;
  }

  void wireGroups() {
    for (size_t S = 0; S < P.Steps.size(); ++S)
      for (int A : reads(static_cast<int>(S), nullptr))
        LastUse[A] = std::max(LastUse[A], int(S));
    for (size_t S = 0; S < P.Steps.size(); ++S) {
      Step &St = P.Steps[S];
      if (!St.IsFused)
        continue;
      FusedGroup &Grp = St.Group;
      Grp.Inputs = reads(static_cast<int>(S), &Grp.Preamble);
      for (int Id : Grp.Nodes)
        if (Live[Id] || LastUse[Id] > int(S))
          Grp.Outputs.push_back(Id);
      int Ops = static_cast<int>(Grp.Nodes.size() + Grp.Preamble.size());
      St.Name = Ops > 1 ? "fused" + std::to_string(Ops)
                        : opName(G.Nodes[Grp.Nodes[0]].Kind);
    }
  }

  void assignSlots() {
    // Values handed between steps but dropped by the program live in
    // temporary slots; a slot is reused once its value's last reader ran.
    std::vector<int> FreeSlots;
    for (size_t S = 0; S < P.Steps.size(); ++S) {
      const Step &St = P.Steps[S];
      std::vector<int> Outs =
          St.IsFused ? St.Group.Outputs : std::vector<int>{St.NodeId};
      for (int V : Outs) {
        if (Live[V])
          continue;
        size_t Bytes = G.Nodes[V].numel() * dtypeSize(G.Nodes[V].Ty);
        auto Best = FreeSlots.end();
        for (auto It = FreeSlots.begin(); It != FreeSlots.end(); ++It)
          if (P.SlotBytes[*It] >= Bytes &&
              (Best == FreeSlots.end() ||
               P.SlotBytes[*It] < P.SlotBytes[*Best]))
            Best = It;
        if (Best != FreeSlots.end()) {
          P.TempSlot[V] = *Best;
          FreeSlots.erase(Best);
        } else {
          P.TempSlot[V] = static_cast<int>(P.SlotBytes.size());
          P.SlotBytes.push_back(Bytes);
        }
      }
      // A temporary read last by this step frees its slot for later steps;
      // this step's own outputs are read later, so they never collide.
      for (size_t V = 0; V < NV; ++V)
        if (P.TempSlot[V] >= 0 && LastUse[V] == int(S))
          FreeSlots.push_back(P.TempSlot[V]);
    }
  }
};

} // namespace

RegionPlan planRegion(const Graph &G, const std::vector<int> &LiveOuts) {
  RegionPlan P;
  P.LiveOuts = LiveOuts;
  P.TempSlot.assign(G.Nodes.size(), -1);
  P.ScalarOffset.resize(G.Nodes.size());
  for (size_t I = 0; I < G.Nodes.size(); ++I) {
    P.ScalarOffset[I] = static_cast<int>(P.NumScalars);
    P.NumScalars += G.Nodes[I].Scalars.size();
  }
  Planner Plan(G, P);
  Plan.findNeeded(LiveOuts);
  Plan.findUniform();
  Plan.groupSteps();
  Plan.wireGroups();
  Plan.assignSlots();
  return P;
}

} // namespace seam::rt::detail
