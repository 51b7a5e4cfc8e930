//===- ResidencyWalker.h - Flow-sensitive residency of tensor values ------===//
//
// Walks one function body in program order, keeping for each local tensor
// (and device/options variable) where its value lives: Host, Device or
// Unknown. Branches are walked separately and joined; loops are iterated to
// a fixpoint. At every call it hands the call to a hook together with the
// walker, so the hook can ask eval() about operands at exactly that point.
// Use ResidencyContext once per TU: it caches return summaries of user
// functions and the states in which lambdas are created.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_RESIDENCY_RESIDENCYWALKER_H
#define SEAM_RESIDENCY_RESIDENCYWALKER_H

#include "ApiModel/ApiModel.h"
#include "Residency/Lattice.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <optional>
#include <utility>

namespace seam {

using VarState = llvm::DenseMap<const clang::VarDecl *, AbsValue>;

class ResidencyWalker;

/// Per-TU caches shared by all walkers.
class ResidencyContext {
public:
  ResidencyContext(clang::ASTContext &Ctx, const ApiModel &Api)
      : Ctx(Ctx), Api(Api) {}

  /// Where the value returned by user function \p FD lives when its
  /// parameters are host values (a call joins this with its arguments).
  Residency returnSummary(const clang::FunctionDecl *FD);

  /// Where the arguments passed to a parameter of a user function live,
  /// joined over the TU's call sites. A parameter nobody in the TU passes
  /// anything to has unknown origin.
  std::optional<AbsValue> paramOrigin(const clang::ParmVarDecl *P) const;
  /// Records the arguments of a call to a user function; returns true when
  /// that widened some parameter's origin (the caller iterates to a
  /// fixpoint).
  bool recordCall(const clang::CallExpr *CE, const ResidencyWalker &W);
  bool takeChanged() { return std::exchange(Changed, false); }
  /// First pass: only learn which functions the TU calls, so that their
  /// parameters start at the bottom of the lattice instead of Unknown.
  void setDiscovering(bool D) { Discovering = D; }

  clang::ASTContext &Ctx;
  const ApiModel &Api;
  /// State of the enclosing function where each lambda was created.
  llvm::DenseMap<const clang::CXXRecordDecl *, VarState> LambdaStates;

private:
  void recordArgs(const clang::FunctionDecl *Callee, const clang::CallExpr *CE,
                  unsigned FirstArg, const ResidencyWalker &W);

  llvm::DenseMap<const clang::ParmVarDecl *, AbsValue> ParamIn;
  llvm::DenseSet<const clang::FunctionDecl *> Called;
  bool Changed = false;
  bool Discovering = false;
  llvm::DenseMap<const clang::FunctionDecl *, Residency> Summaries;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

class ResidencyWalker {
public:
  using CallHook =
      std::function<void(const clang::CallExpr *, const ResidencyWalker &)>;

  /// \p ParamsOnHost: summary mode, where parameters count as host values.
  ResidencyWalker(ResidencyContext &RC, bool ParamsOnHost = false)
      : RC(RC), Api(RC.Api), ParamsOnHost(ParamsOnHost) {}

  /// Walks \p FD's body, calling \p Hook at every call expression (calls in
  /// loops may be seen more than once, with growing states).
  void run(const clang::FunctionDecl *FD, CallHook Hook);

  /// Residency (and boolean-ness) of a tensor or device expression now.
  AbsValue eval(const clang::Expr *E) const;
  /// Join of the device-like arguments of a call (None when there are none).
  Residency deviceArgs(const clang::CallExpr *CE) const;
  /// Calls \p Fn on each tensor-valued sub-expression of \p E (through
  /// initializer lists, index wrappers and temporaries).
  void forEachTensor(const clang::Expr *E,
                     llvm::function_ref<void(const clang::Expr *)> Fn) const;
  /// Join of the tensor arguments of a call (object excluded).
  AbsValue tensorArgs(const clang::CallExpr *CE) const;

  Residency returned() const { return Returned; }
  /// Where the tensors in a pair/tuple-valued expression live.
  Residency bundle(const clang::Expr *E) const;

private:
  void walk(const clang::Stmt *S);
  void visitExpr(const clang::Stmt *S);
  void declare(const clang::VarDecl *VD);
  void assign(const clang::Expr *LHS, AbsValue V, bool Compound);
  bool tracked(clang::QualType T) const;
  bool isModuleType(clang::QualType T) const;
  /// std::vector (deque, list, array) of tensors.
  bool isContainer(clang::QualType T) const;
  void trackContainerInsert(const clang::CXXMemberCallExpr *MC);
  void trackOutParams(const clang::CallExpr *CE);
  /// The local module variable \p Obj names (`net`, `net->`), if any.
  const clang::VarDecl *moduleVar(const clang::Expr *Obj) const;
  /// Where a module's parameters live: its variable's state, else Unknown.
  Residency moduleResidency(const clang::Expr *Obj) const;
  void trackModuleMove(const clang::CXXMemberCallExpr *MC);
  VarState joinStates(const VarState &A, const VarState &B) const;
  template <typename Fn> void loop(Fn Body);

  AbsValue evalDecl(const clang::ValueDecl *D) const;
  AbsValue evalMemberCall(const clang::CXXMemberCallExpr *MC) const;
  AbsValue evalOperator(const clang::CXXOperatorCallExpr *Op) const;
  AbsValue evalCall(const clang::CallExpr *CE) const;
  AbsValue evalUserCall(const clang::FunctionDecl *Callee,
                        const clang::CallExpr *CE) const;
  bool mentionsBoolDtype(const clang::CallExpr *CE) const;

  ResidencyContext &RC;
  const ApiModel &Api;
  bool ParamsOnHost;
  const clang::FunctionDecl *Current = nullptr;
  VarState Cur;
  CallHook Hook;
  Residency Returned = Residency::None;
};

} // namespace seam

#endif
