//===- FlowAnalysis.cpp - Residency as forward dataflow over Clang's CFG --===//
//
// A worklist over the blocks of one function's CFG, in reverse post-order,
// with the map lattice VarState (variable -> AbsValue) joined at merges.
// Paths that return, throw, break or continue end where the CFG says; loop
// back edges iterate until nothing changes. Hooks run only in a last pass
// over the converged states.
//
//===----------------------------------------------------------------------===//
#include "Residency/ResidencyWalker.h"

#include "clang/AST/StmtCXX.h"
#include <set>

using namespace clang;

namespace seam {

VarState ResidencyWalker::joinStates(const VarState &A,
                                     const VarState &B) const {
  VarState Out = A;
  for (const auto &[VD, V] : B) {
    auto [It, New] = Out.try_emplace(VD, V);
    if (!New)
      It->second = It->second.joined(V);
  }
  return Out;
}

static bool sameState(const VarState &A, const VarState &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[VD, V] : A) {
    auto It = B.find(VD);
    if (It == B.end() || It->second != V)
      return false;
  }
  return true;
}

void ResidencyWalker::transferBlock(const CFGBlock &B) {
  for (const CFGElement &E : B)
    if (auto S = E.getAs<CFGStmt>())
      transfer(S->getStmt());
}

bool ResidencyWalker::solve(const FunctionFlow &F,
                            std::vector<std::optional<VarState>> &In) {
  // Each variable's value can only climb a lattice four high, so the
  // bound is generous; hitting it is reported, never silent.
  const size_t Limit = 64 * F.reversePostOrder().size() + 4096;
  std::set<unsigned> Work; // by reverse post-order index
  for (const CFGBlock *B : F.reversePostOrder())
    if (In[B->getBlockID()])
      Work.insert(F.rpoIndex(B));
  size_t Visits = 0;
  while (!Work.empty()) {
    if (++Visits > Limit)
      return false;
    const CFGBlock *B = F.reversePostOrder()[*Work.begin()];
    Work.erase(Work.begin());
    Cur = *In[B->getBlockID()];
    transferBlock(*B);
    for (const CFGBlock *S : B->succs()) {
      if (!S || !F.reachable(S))
        continue;
      std::optional<VarState> &Dest = In[S->getBlockID()];
      if (!Dest) {
        Dest = Cur;
      } else {
        VarState J = joinStates(*Dest, Cur);
        if (sameState(J, *Dest))
          continue;
        Dest = std::move(J);
      }
      Work.insert(F.rpoIndex(S));
    }
  }
  return true;
}

void ResidencyWalker::run(const FunctionDecl *FD, CallHook H) {
  Current = FD;
  Placements.reset();
  Hook = nullptr;
  Collecting = false;
  Cur.clear();
  Returned = Residency::None;
  const FunctionFlow *F = RC.Flows.get(FD);
  if (!F)
    return;
  VarState Entry;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      if (auto It = RC.LambdaStates.find(MD->getParent());
          It != RC.LambdaStates.end())
        Entry = It->second;
  RangeOf.clear();
  for (const CFGBlock *B : F->reversePostOrder())
    if (const auto *Range =
            dyn_cast_or_null<CXXForRangeStmt>(B->getTerminatorStmt()))
      if (const VarDecl *LV = Range->getLoopVariable())
        RangeOf[LV] = Range->getRangeInit();

  std::vector<std::optional<VarState>> In(F->cfg().getNumBlockIDs());
  In[F->cfg().getEntry().getBlockID()] = Entry;
  bool Converged = solve(*F, In);
  // Without exception edges in the CFG a handler is reached from nowhere:
  // it may run after any point of the try block, so it starts from all of
  // them joined.
  if (Converged) {
    VarState Any = Entry;
    for (const CFGBlock *B : F->reversePostOrder())
      if (In[B->getBlockID()])
        Any = joinStates(Any, *In[B->getBlockID()]);
    bool Seeded = false;
    for (const CFGBlock *B : F->cfg())
      if (B && isa_and_nonnull<CXXCatchStmt>(B->getLabel()) &&
          !In[B->getBlockID()]) {
        In[B->getBlockID()] = Any;
        Seeded = true;
      }
    if (Seeded)
      Converged = solve(*F, In);
  }
  if (!Converged)
    RC.noteLimit(FD);
  // Sites and the return summary read converged states only.
  Hook = std::move(H);
  Collecting = true;
  for (const CFGBlock *B : F->reversePostOrder())
    if (In[B->getBlockID()]) {
      Cur = *In[B->getBlockID()];
      transferBlock(*B);
    }
  Collecting = false;
  Hook = nullptr;
}

} // namespace seam
