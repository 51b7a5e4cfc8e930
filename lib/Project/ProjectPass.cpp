//===- ProjectPass.cpp - Hot paths across translation units ---------------===//
#include "Project/ProjectPass.h"

#include "Cost/Formulas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

namespace seam {
namespace {

constexpr llvm::StringLiteral HolderPrefix = "holder:";

/// A call of the project graph: the summary's call and who makes it.
struct Edge {
  unsigned Caller;
  const SummaryCall *Call;
};

/// How a function became hot: the root itself (Pred < 0), or the edge from
/// its predecessor on a shortest chain.
struct Reach {
  bool Reached = false;
  int Pred = -1;
  int EdgeIdx = -1;  ///< into Node::Out of Pred
  bool Seed = false; ///< the edge repeats: its loop starts the path
};

struct Node {
  std::string Usr;
  const SummaryFunction *First = nullptr; ///< name, place, hot path
  bool Hot = false;                       ///< in some TU of its own
  std::vector<const SummaryCall *> Out;
  std::vector<Edge> In;
  Reach R;
  std::vector<std::pair<size_t, const ConditionalFinding *>> Conditional;
};

class ProjectGraph {
public:
  explicit ProjectGraph(llvm::ArrayRef<const TUSummary *> TUs);
  void propagate();
  std::vector<ProjectFinding> findings() const;

private:
  unsigned nodeOf(const std::string &Usr);
  std::vector<unsigned> targets(const SummaryCall &C) const;
  std::vector<PathNote> pathTo(unsigned N, std::string &Reason,
                               const SummaryCall *&SeedCall,
                               std::vector<unsigned> &Chain,
                               std::optional<Reach> Into) const;
  std::optional<Reach> deviceCaller(unsigned N, int Param) const;
  std::optional<Reach> hotCallInto(unsigned N, int Param, bool Seen) const;
  std::optional<Finding> report(unsigned N, const ConditionalFinding &C) const;

  std::vector<Node> Nodes;
  std::map<std::string, unsigned> Index;
  std::set<std::string> Defined;
  /// Virtual method -> the functions overriding it.
  std::map<std::string, std::vector<unsigned>> Overriders;
  /// Holder -> the functions stored in it.
  std::map<std::string, std::vector<unsigned>> Stored;
};

unsigned ProjectGraph::nodeOf(const std::string &Usr) {
  auto [It, New] = Index.try_emplace(Usr, Nodes.size());
  if (New) {
    Nodes.emplace_back();
    Nodes.back().Usr = Usr;
  }
  return It->second;
}

ProjectGraph::ProjectGraph(llvm::ArrayRef<const TUSummary *> TUs) {
  // The graph is built in the order of the TUs' files, whatever the order
  // they come in: one run and the merge of its shards choose the same
  // paths.
  std::vector<size_t> Order;
  for (size_t I = 0; I < TUs.size(); ++I)
    if (TUs[I])
      Order.push_back(I);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return TUs[A]->File < TUs[B]->File;
  });
  // A function defined in a header is in every TU including it: its calls
  // are joined (once each), and it is hot if it is hot in any of them.
  std::set<std::tuple<unsigned, std::string, std::string, unsigned, unsigned>>
      SeenCalls;
  for (size_t I : Order) {
    const TUSummary *S = TUs[I];
    for (const SummaryFunction &F : S->Functions) {
      unsigned N = nodeOf(F.Usr);
      Defined.insert(F.Usr);
      if (!Nodes[N].First || (F.Hot && !Nodes[N].Hot))
        Nodes[N].First = &F;
      Nodes[N].Hot |= F.Hot;
      for (const std::string &O : F.Overrides) {
        std::vector<unsigned> &V = Overriders[O];
        if (llvm::find(V, N) == V.end())
          V.push_back(N);
      }
      for (const SummaryCall &C : F.Calls)
        if (SeenCalls
                .insert(
                    {N, C.Callee, C.Where.File, C.Where.Line, C.Where.Column})
                .second)
          Nodes[N].Out.push_back(&C);
    }
  }
  for (size_t I : Order) {
    for (const SummaryStore &St : TUs[I]->Stores) {
      if (!Defined.count(St.Function))
        continue;
      std::vector<unsigned> &V = Stored[St.Holder];
      unsigned N = Index.at(St.Function);
      if (llvm::find(V, N) == V.end())
        V.push_back(N);
    }
  }
  for (size_t I : Order)
    for (const ConditionalFinding &C : TUs[I]->Conditional)
      if (auto It = Index.find(C.Function); It != Index.end())
        Nodes[It->second].Conditional.push_back({I, &C});
  for (unsigned N = 0; N < Nodes.size(); ++N)
    for (const SummaryCall *C : Nodes[N].Out)
      for (unsigned T : targets(*C))
        Nodes[T].In.push_back({N, C});
}

std::vector<unsigned> ProjectGraph::targets(const SummaryCall &C) const {
  std::vector<unsigned> Out;
  llvm::StringRef Callee = C.Callee;
  if (Callee.consume_front(HolderPrefix)) {
    if (auto It = Stored.find(Callee.str()); It != Stored.end())
      Out = It->second;
    return Out;
  }
  if (Defined.count(C.Callee))
    Out.push_back(Index.at(C.Callee));
  if (C.Virtual)
    if (auto It = Overriders.find(C.Callee); It != Overriders.end())
      for (unsigned O : It->second)
        if (llvm::find(Out, O) == Out.end())
          Out.push_back(O);
  return Out;
}

void ProjectGraph::propagate() {
  // As the TU's own propagation (RegionModel): the hot functions are roots,
  // calls that repeat seed their callees, then breadth first.
  std::deque<unsigned> Queue;
  for (unsigned N = 0; N < Nodes.size(); ++N)
    if (Nodes[N].Hot && Nodes[N].First) {
      Nodes[N].R = {true, -1, -1, false};
      Queue.push_back(N);
    }
  for (unsigned N = 0; N < Nodes.size(); ++N)
    for (unsigned E = 0; E < Nodes[N].Out.size(); ++E)
      if (Nodes[N].Out[E]->Repeats)
        for (unsigned T : targets(*Nodes[N].Out[E]))
          if (!Nodes[T].R.Reached) {
            Nodes[T].R = {true, static_cast<int>(N), static_cast<int>(E), true};
            Queue.push_back(T);
          }
  while (!Queue.empty()) {
    unsigned N = Queue.front();
    Queue.pop_front();
    for (unsigned E = 0; E < Nodes[N].Out.size(); ++E)
      for (unsigned T : targets(*Nodes[N].Out[E]))
        if (!Nodes[T].R.Reached) {
          Nodes[T].R = {true, static_cast<int>(N), static_cast<int>(E), false};
          Queue.push_back(T);
        }
  }
}

std::string fileLine(const SourcePoint &P) {
  return llvm::sys::path::filename(P.File).str() + ":" + std::to_string(P.Line);
}

std::vector<PathNote> ProjectGraph::pathTo(unsigned N, std::string &Reason,
                                           const SummaryCall *&SeedCall,
                                           std::vector<unsigned> &Chain,
                                           std::optional<Reach> Into) const {
  std::vector<PathNote> Rev;
  SeedCall = nullptr;
  unsigned Cur = N;
  for (size_t Guard = 0; Guard <= Nodes.size(); ++Guard) {
    Chain.push_back(Cur);
    const Reach &R = Cur == N && Into ? *Into : Nodes[Cur].R;
    if (R.Pred < 0) {
      const SummaryFunction &Root = *Nodes[Cur].First;
      Reason = Root.HotReason.empty() ? "call" : Root.HotReason;
      Rev.insert(Rev.end(), Root.HotPath.rbegin(), Root.HotPath.rend());
      break;
    }
    const Node &Caller = Nodes[R.Pred];
    const SummaryCall &C = *Caller.Out[R.EdgeIdx];
    std::string Callee =
        Nodes[Cur].First ? Nodes[Cur].First->Name : C.CalleeName;
    std::string Text =
        C.LambdaDefinition
            ? "lambda defined here, in '" + Caller.First->Name + "'"
            : "'" + Callee + "' called here" +
                  (C.Through.empty() ? std::string()
                                     : " through '" + C.Through + "'") +
                  ", from '" + Caller.First->Name + "'";
    Rev.push_back({Text, C.Where, true});
    if (R.Seed) {
      SeedCall = &C;
      Reason = "loop";
      Rev.push_back(C.Loop);
      Chain.push_back(R.Pred);
      break;
    }
    Cur = R.Pred;
  }
  std::reverse(Rev.begin(), Rev.end());
  std::reverse(Chain.begin(), Chain.end());
  return Rev;
}

/// Whether call \p C passes a device tensor as parameter \p P: one seen to
/// be on the device (\p Seen), or one that may be (not a host tensor).
bool passes(const SummaryCall &C, int P, bool Seen) {
  bool Known = static_cast<size_t>(P) < C.Args.size();
  if (Seen)
    return Known && C.Args[P] == "device";
  return !Known || C.Args[P] != "host";
}

/// A call into \p N on a hot path that may pass a device tensor as
/// parameter \p Param: from a hot caller, or in a loop; none when every
/// such call passes a host tensor.
std::optional<Reach> ProjectGraph::deviceCaller(unsigned N, int Param) const {
  // A call seen to pass a device tensor first, else one that may.
  for (bool Seen : {true, false}) {
    const Reach &R = Nodes[N].R;
    if (R.Pred >= 0 && passes(*Nodes[R.Pred].Out[R.EdgeIdx], Param, Seen))
      return R;
    if (std::optional<Reach> In = hotCallInto(N, Param, Seen))
      return In;
  }
  return std::nullopt;
}

std::optional<Reach> ProjectGraph::hotCallInto(unsigned N, int Param,
                                               bool Seen) const {
  for (const Edge &E : Nodes[N].In) {
    if (!passes(*E.Call, Param, Seen))
      continue;
    const Node &Caller = Nodes[E.Caller];
    bool Seed = !Caller.R.Reached;
    if (Seed && !E.Call->Repeats)
      continue;
    int Idx =
        static_cast<int>(llvm::find(Caller.Out, E.Call) - Caller.Out.begin());
    return Reach{true, static_cast<int>(E.Caller), Idx, Seed};
  }
  return std::nullopt;
}

std::optional<Finding> ProjectGraph::report(unsigned N,
                                            const ConditionalFinding &C) const {
  std::optional<Reach> Into;
  if (C.ParamIndex >= 0) {
    // Whether it syncs depends on the caller: a path on which it may.
    Into = deviceCaller(N, C.ParamIndex);
    if (!Into)
      return std::nullopt; // every hot call passes a host tensor
  }
  std::string Reason;
  const SummaryCall *Seed = nullptr;
  std::vector<unsigned> Chain;
  Finding F = C.F;
  std::vector<PathNote> Path = pathTo(N, Reason, Seed, Chain, Into);
  // Where the path crosses from one file into another.
  std::string Through;
  for (size_t I = 1; I < Chain.size(); ++I) {
    const Node &From = Nodes[Chain[I - 1]];
    const Node &To = Nodes[Chain[I]];
    if (From.First && To.First &&
        From.First->Where.File != To.First->Where.File)
      Through +=
          (Through.empty() ? "" : ", ") +
          ("'" + To.First->Name + "' (" + fileLine(To.First->Where) + ")");
  }
  const Node &Start = Nodes[Chain.front()];
  std::string From =
      Seed ? "every iteration of the loop at " + fileLine(Seed->Loop.Where)
           : "'" + Start.First->Name + "' (" + fileLine(Start.First->Where) +
                 "), hot there";
  F.Details.insert(F.Details.begin(),
                   "hot only through another file: reached from " + From +
                       (Through.empty() ? "" : " through " + Through) +
                       "; the analysis of " +
                       llvm::sys::path::filename(F.Where.File).str() +
                       " alone sees no hot path to it");
  Path.insert(Path.end(), F.Path.begin(), F.Path.end());
  F.Path = std::move(Path);
  F.HotReason = Reason;
  if (F.Cost && Seed) {
    CostEstimate &E = *F.Cost;
    double PerCall = E.ExecutionsPerIteration; // per call of its function
    E.ExecutionsPerIteration *= Seed->PerIteration;
    if (!Seed->Frequency.empty())
      E.Frequency = Seed->Frequency;
    if (size_t At = E.Summary.find(" per call"); At != std::string::npos)
      E.Summary.replace(At, 9, " per iteration");
    // The caller's counts: the trip counts of the loops around its call.
    if (Seed->Calls) {
      E.TripCount = Seed->Iterations;
      E.Executions = *Seed->Calls * PerCall;
      E.IdleMicrosTotal = E.IdleMicrosPerExecution * *E.Executions;
      if (E.TripCount) {
        E.Detail = "~" + formatMicros(*E.IdleMicrosTotal) +
                   " device idle per " + formatCount(*E.TripCount) +
                   " iterations of the loop";
        F.Details.push_back(E.Detail);
      }
    }
    E.Rank = rankFromMicros(rankBasisMicros(E.IdleMicrosTotal,
                                            E.IdleMicrosPerExecution, true,
                                            E.ExecutionsPerIteration));
  }
  return F;
}

std::vector<ProjectFinding> ProjectGraph::findings() const {
  std::vector<ProjectFinding> Out;
  // A function defined in a header has its conditional findings in every
  // TU that includes it: one each.
  std::set<std::tuple<std::string, std::string, unsigned, unsigned>> Seen;
  for (unsigned N = 0; N < Nodes.size(); ++N) {
    // Hot in its own TU: reported there.
    if (!Nodes[N].R.Reached || Nodes[N].Hot || !Nodes[N].First)
      continue;
    for (const auto &[From, C] : Nodes[N].Conditional)
      if (!Seen.insert({C->F.RuleId, C->F.Where.File, C->F.Where.Line,
                        C->F.Where.Column})
               .second)
        continue;
      else if (std::optional<Finding> F = report(N, *C))
        Out.push_back({From, std::move(*F)});
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const ProjectFinding &A, const ProjectFinding &B) {
                     return A.From < B.From;
                   });
  return Out;
}

} // namespace

std::vector<ProjectFinding>
runProjectPass(llvm::ArrayRef<const TUSummary *> TUs) {
  ProjectGraph G(TUs);
  G.propagate();
  return G.findings();
}

} // namespace seam
