//===- FunctionFlow.h - How one function body runs, from Clang's CFG ------===//
//
// Everything later stages need to know about control flow in one function,
// computed once from clang::CFG: which block each expression is in, which
// blocks can run at all, the reverse post-order for forward dataflow, the
// dominator tree, and the natural loops (a loop is a cycle: a back edge to a
// block that dominates its source). `do { } while (0)`, `while (false)` and
// a body that always breaks are therefore not loops, nor is a `for` whose
// trip count is provably 0 or 1 (oneShotTrips). Get one through
// FlowCache, which builds each function's CFG once per translation unit.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FLOW_FUNCTIONFLOW_H
#define SEAM_FLOW_FUNCTIONFLOW_H

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <optional>
#include <vector>

namespace seam {

/// A cycle of the CFG with a single entry block.
struct NaturalLoop {
  const clang::CFGBlock *Header = nullptr;
  llvm::BitVector Blocks; ///< by block ID: the header and what reaches back
  /// The for/while/do/range-for statement it comes from; null for a loop
  /// made with goto.
  const clang::Stmt *Statement = nullptr;
  clang::SourceLocation Keyword; ///< where to point a note at it
  int Parent = -1;               ///< index of the innermost enclosing loop
  /// Integer variables the loop steps (ExecCount.cpp), computed once: every
  /// site of the loop asks.
  mutable std::optional<llvm::DenseSet<const clang::VarDecl *>> Counters;

  bool contains(const clang::CFGBlock *B) const {
    return B && B->getBlockID() < Blocks.size() && Blocks[B->getBlockID()];
  }
};

/// A branch that must go one way for a block to run.
struct Guard {
  const clang::Expr *Condition = nullptr;
  bool WhenTrue = true; ///< the block runs when Condition is true
  bool Switch = false;  ///< one case of a switch on Condition
  const clang::CFGBlock *Branch = nullptr;
};

class FunctionFlow {
public:
  /// Null when Clang cannot build a CFG for \p FD's body.
  static std::unique_ptr<FunctionFlow> build(const clang::FunctionDecl *FD,
                                             clang::ASTContext &Ctx);

  const clang::CFG &cfg() const { return *Graph; }
  const clang::FunctionDecl *function() const { return FD; }
  /// The block that evaluates \p S, or null (not in this body, or only in
  /// an unevaluated context).
  const clang::CFGBlock *blockOf(const clang::Stmt *S) const;
  /// Can run: reached from the entry, or inside a catch handler.
  bool reachable(const clang::CFGBlock *B) const {
    return B && Reachable[B->getBlockID()];
  }
  /// Reachable blocks, entry first, each before its successors except
  /// along back edges.
  const std::vector<const clang::CFGBlock *> &reversePostOrder() const {
    return RPO;
  }
  unsigned rpoIndex(const clang::CFGBlock *B) const {
    return RPOIndex[B->getBlockID()];
  }
  bool dominates(const clang::CFGBlock *A, const clang::CFGBlock *B) const;

  const std::vector<NaturalLoop> &loops() const { return Loops; }
  /// Indices of the loops containing \p B, innermost first.
  std::vector<unsigned> loopsAt(const clang::CFGBlock *B) const;
  /// The loop whose statement is \p S, if \p S forms one.
  const NaturalLoop *loopOf(const clang::Stmt *S) const;
  /// Branches inside loop \p L (or the whole function, when \p L is null)
  /// that decide whether \p B runs, innermost first. The loop's own exit
  /// test is not one.
  std::vector<Guard> guardsOf(const clang::CFGBlock *B,
                              const NaturalLoop *L) const;

private:
  FunctionFlow() = default;
  void computeOrder();
  void computeLoops(clang::ASTContext &Ctx);

  const clang::FunctionDecl *FD = nullptr;
  std::unique_ptr<clang::CFG> Graph;
  std::unique_ptr<clang::CFGDomTree> Dom;
  llvm::DenseMap<const clang::Stmt *, const clang::CFGBlock *> BlockOf;
  llvm::BitVector Reachable; ///< from the entry or a catch handler
  llvm::BitVector FromEntry;
  std::vector<const clang::CFGBlock *> RPO;
  std::vector<unsigned> RPOIndex;
  std::vector<NaturalLoop> Loops;
};

/// How many times a `for` statement runs its body when that is provably 0
/// or 1, whatever its spelling: `for (bool once = true; once; once =
/// false)` (logging macros), `for (int i = 0; i < 1; ++i)`. The loop
/// variable must be declared in the for-init with a constant value, read
/// but never written or bound elsewhere in the loop, and stepped by the
/// increment to a value the condition rejects. nullopt otherwise.
std::optional<unsigned> oneShotTrips(const clang::Stmt *Loop,
                                     clang::ASTContext &Ctx);

/// One FunctionFlow per function of a translation unit, built on demand.
class FlowCache {
public:
  explicit FlowCache(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  /// Null for a function without a body or whose CFG cannot be built.
  const FunctionFlow *get(const clang::FunctionDecl *FD);

private:
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFlow>>
      Flows;
};

} // namespace seam

#endif
