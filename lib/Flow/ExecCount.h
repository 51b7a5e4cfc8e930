//===- ExecCount.h - How often a statement runs per loop iteration --------===//
//
// From the branches that decide whether a block runs (FunctionFlow::guardsOf)
// this estimates how many times it runs per iteration of its loop, or per
// call of its function: `i % N == 0` and its variants give 1/N, a test of
// the loop counter against one value (`i == 0`, `i == n - 1`) gives once per
// loop, and any other condition counts as always true and is listed as
// uncounted so the report can say so. The cost model multiplies by it.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FLOW_EXECCOUNT_H
#define SEAM_FLOW_EXECCOUNT_H

#include "Flow/FunctionFlow.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace seam {

struct Frequency {
  /// Expected executions per iteration (or per call), 0 < x <= 1.
  double PerIteration = 1;
  /// Runs at most once per run of the loop, whatever its trip count.
  bool OncePerLoop = false;
  /// Set when a single `% N` test decides it: every Nth iteration.
  unsigned EveryNth = 0;
  /// With EveryNth, counted by walking a counted loop's counter: the
  /// iteration (0 for the loop's first) it first runs on; -1 when unknown.
  int64_t FirstRun = -1;
  /// Conditions Seam could not count, taken as always true.
  std::vector<const clang::Expr *> Uncounted;
  /// What makes it run once per loop (`i == 0`, a `break` after it).
  std::string OnceWhy;

  bool everyTime() const {
    return !OncePerLoop && PerIteration >= 1 && EveryNth == 0;
  }
  /// Combines a nested frequency (both apply).
  void multiply(const Frequency &O);
  /// "every iteration", "every 100th iteration", "once per loop", ...;
  /// \p Unit is "iteration" or "call".
  std::string phrase(llvm::StringRef Unit = "iteration") const;
};

/// Integer values known at one call of a function: its parameters (the
/// constant arguments of that call), and the locals it never changes after
/// initializing them (`int steps = 30;`), whole or by field (`Config cfg;`
/// with `int epochs = 3;` in the struct).
struct ParamValues {
  llvm::DenseMap<const clang::VarDecl *, int64_t> Vars;
  llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::FieldDecl *>,
                 int64_t>
      Fields;
};

/// The locals of \p FD (integers and structs) that nothing changes after
/// their declaration: no assignment, increment, non-const reference,
/// pointer or non-const method reaches them (Clang's ExprMutationAnalyzer).
std::vector<const clang::VarDecl *>
unchangedLocals(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);

/// Binds in \p Values each of \p Locals whose initializer is a constant, or
/// arithmetic over the values already bound: an integer to its value, a
/// struct's integer fields to their initializers (an aggregate's braces, or
/// the member initializers a defaulted constructor leaves).
void bindLocals(llvm::ArrayRef<const clang::VarDecl *> Locals,
                clang::ASTContext &Ctx, ParamValues &Values);

/// \p E's value when it is an integer constant expression or integer
/// arithmetic (`+ - * / %`, comparisons, logic) over constants and the
/// parameters in \p Params: `steps - 1` with `steps` bound to 30 is 29.
std::optional<int64_t> integerValue(const clang::Expr *E,
                                    clang::ASTContext &Ctx,
                                    const ParamValues *Params);

/// How often \p B runs per iteration of \p L (per call of the function
/// when \p L is null). With \p Params, a parameter bound there counts as
/// its value in the loop's bounds and in the guards.
Frequency frequencyOf(const FunctionFlow &F, const clang::CFGBlock *B,
                      const NaturalLoop *L, clang::ASTContext &Ctx,
                      const ParamValues *Params = nullptr);

} // namespace seam

#endif
