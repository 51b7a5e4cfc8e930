//===- Callables.h - Which functions a stored or passed callable may run --===//
//
// Per-TU flow of callables: lambdas, functions, member functions and
// std::bind results flow into variables, parameters (std::function by value
// or reference, function pointers, template F&&), members and containers
// of them, through initialization, assignment, call arguments, member
// initializers and push_back-style inserts. targetsOf() then answers, for a
// call through such a holder (`fn()`, `on_step(l)`, `cbs[i]()`,
// `(obj.*pm)()`), which function bodies of this TU it may run. RegionModel
// turns each answer into call edges at the invocation, so a lambda handed to
// a helper runs in the helper's loop.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_REGIONS_CALLABLES_H
#define SEAM_REGIONS_CALLABLES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include <vector>

namespace seam {

class ApiModel;

/// Looks through the wrappers a callable travels in: what stripValue()
/// removes (casts, temporaries, std::function's converting constructor),
/// and std::move, std::forward, std::ref and std::cref.
const clang::Expr *peelCallable(const clang::Expr *E);

class CallableFlow {
public:
  /// Scans \p Bodies (user functions of the TU) for callable flows and
  /// closes them to a fixpoint.
  /// With \p Api, what a compile or transform function returns (`auto g =
  /// compile(f)`, held in a std::function) counts as holding its argument.
  CallableFlow(clang::ASTContext &Ctx,
               const std::vector<const clang::FunctionDecl *> &Bodies,
               const ApiModel *Api = nullptr);

  /// The holder a call goes through (a variable, parameter, member or
  /// container of callables), or null for a direct call.
  static const clang::ValueDecl *invokedHolder(const clang::CallExpr *CE);
  /// Whether other translation units may put callables in \p Holder or
  /// call through it: a member, a global, a parameter.
  static bool sharedHolder(const clang::ValueDecl *Holder);
  /// What this TU puts in shared holders: (holder, function) pairs.
  std::vector<std::pair<const clang::ValueDecl *, const clang::FunctionDecl *>>
  sharedStores() const;
  /// Functions the holder may hold; empty when none is known.
  std::vector<const clang::FunctionDecl *>
  targetsOf(const clang::ValueDecl *Holder) const;

private:
  void scan(const clang::FunctionDecl *FD);
  void flowInto(const clang::ValueDecl *To, const clang::Expr *From);
  void bindArgs(const clang::FunctionDecl *Callee,
                llvm::ArrayRef<const clang::Expr *> Args);

  using TargetSet = llvm::SmallSetVector<const clang::FunctionDecl *, 4>;
  llvm::DenseMap<const clang::ValueDecl *, TargetSet> Targets;
  const ApiModel *Api = nullptr;
  /// Holder-to-holder flows (`g = f`, passing a parameter on).
  std::vector<std::pair<const clang::ValueDecl *, const clang::ValueDecl *>>
      Edges;
};

} // namespace seam

#endif
