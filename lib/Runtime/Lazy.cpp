//===- Lazy.cpp - The op recorder behind compile() ------------------------===//

#include "Lazy.h"
#include "Telemetry.h"

namespace seam::rt::detail {

Recorder &Recorder::get() {
  // One recorder per host thread: compile() on two threads records two
  // regions, never one interleaved graph.
  static thread_local Recorder R;
  return R;
}

void Recorder::begin(SourceSite At) {
  if (Depth++ == 0) {
    Region = Telemetry::get().enter(At, "compile");
    LastCut = nullptr;
  }
}

void Recorder::end() {
  if (Depth == 1) {
    // Cut while still active so tensors recorded so far can resolve; a
    // failure here must not leave the recorder stuck in compiled mode.
    try {
      cut(/*IsBreak=*/false);
    } catch (...) {
      Depth = 0;
      throw;
    }
  }
  --Depth;
}

int Recorder::inputId(Graph &G, const TensorImpl &Impl) {
  std::vector<int> &Known = G.InputNodes[Impl.Buf.get()];
  for (int I : Known)
    if (G.Nodes[I].Sizes == Impl.Sizes)
      return I;
  Known.push_back(static_cast<int>(G.Nodes.size()));
  Node N;
  N.Kind = Op::Input;
  N.Ty = N.ComputeTy = Impl.Ty;
  N.Sizes = Impl.Sizes;
  N.Dim = static_cast<int64_t>(G.Inputs.size());
  G.Inputs.push_back(Impl.Buf);
  G.Nodes.push_back(std::move(N));
  G.Owners.emplace_back();
  return static_cast<int>(G.Nodes.size() - 1);
}

Tensor Recorder::record(Node N, const std::vector<const Tensor *> &Ts) {
  Device Dev = Ts.front()->device();
  std::shared_ptr<Graph> &G = Current[Dev == kCPU ? 0 : 1];
  if (!G)
    G = std::make_shared<Graph>(Dev);
  for (int &A : N.Args) {
    if (A < 0)
      continue;
    const TensorImpl &In = *Ts[A]->impl();
    if (In.isLazy()) {
      if (In.G != G)
        fail("internal: tensor from a finished region is still pending");
      A = In.Id;
    } else {
      A = inputId(*G, In);
    }
  }
  auto Out = std::make_shared<TensorImpl>();
  Out->Sizes = N.Sizes;
  Out->Ty = N.Ty;
  Out->Dev = Dev;
  Out->G = G;
  Out->Id = static_cast<int>(G->Nodes.size());
  G->Nodes.push_back(std::move(N));
  G->Owners.push_back(Out);
  return Tensor(Out);
}

void Recorder::cut(bool IsBreak) {
  if (IsBreak)
    Telemetry::get().count(Counter::GraphBreaks);
  // The line asking for a host value; at the end of a call, its compile().
  SiteRecord *Cut = SiteScope::current();
  if (!Cut && active())
    Cut = Region;
  for (std::shared_ptr<Graph> &G : Current) {
    if (!G)
      continue;
    std::shared_ptr<Graph> Pending = std::move(G);
    G = nullptr;
    bool Compiled = false;
    if (executeRegion(*Pending, Compiled))
      Telemetry::get().countPiece(Cut, active() ? Region : nullptr, LastCut,
                                  Compiled);
  }
  if (active())
    LastCut = Cut;
}

} // namespace seam::rt::detail

namespace seam::rt::detail {
void beginCompiled(SourceSite At) { Recorder::get().begin(At); }
void endCompiled(bool Unwinding) {
  if (!Unwinding) {
    Recorder::get().end();
    return;
  }
  // fn is already throwing; a second exception would terminate.
  try {
    Recorder::get().end();
  } catch (...) {
  }
}
} // namespace seam::rt::detail
