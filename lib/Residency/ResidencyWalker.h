//===- ResidencyWalker.h - Flow-sensitive residency of tensor values ------===//
//
// Residency is a forward dataflow analysis over each function's clang::CFG:
// for each local tensor (and device/options variable, module, container)
// where its value lives, Host, Device or Unknown, joined where paths meet
// and iterated around loops to a fixpoint. Three parts:
//   FlowAnalysis.cpp  the worklist over CFG blocks (run, solve);
//   Transfer.cpp      the transfer table, one small handler per element kind;
//   Eval.cpp          eval(): where an expression's value lives now;
//   Summaries.cpp     ResidencyContext: per-TU return summaries, parameter
//                     origins from call sites, and the TU-wide fixpoint.
// After convergence run() hands every call to a hook together with the
// walker, so the hook can ask eval() about operands at exactly that point.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_RESIDENCY_RESIDENCYWALKER_H
#define SEAM_RESIDENCY_RESIDENCYWALKER_H

#include "ApiModel/ApiModel.h"
#include "Basic/Residency.h"
#include "Flow/FunctionFlow.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <optional>
#include <utility>

namespace seam {

/// Variables, and names bound by structured bindings (which can be made
/// ready or assigned one by one), to what they hold.
using VarState = llvm::DenseMap<const clang::ValueDecl *, AbsValue>;

class ResidencyWalker;

/// A module: a class the pack names as one, by value, reference or
/// std::shared_ptr/std::unique_ptr (what a module variable or parameter
/// holds).
bool isModuleTyped(const ApiModel &Api, clang::QualType T);

/// Per-TU caches shared by all walkers.
class ResidencyContext {
public:
  ResidencyContext(clang::ASTContext &Ctx, const ApiModel &Api,
                   FlowCache &Flows)
      : Ctx(Ctx), Api(Api), Flows(Flows) {}

  /// Runs every function of \p Bodies until parameter origins and lambda
  /// states stop changing, so that later run()s see converged facts.
  void solve(llvm::ArrayRef<const clang::FunctionDecl *> Bodies);
  /// Functions whose analysis stopped at the iteration limit.
  const std::vector<const clang::FunctionDecl *> &limitHits() const {
    return LimitHits;
  }
  void noteLimit(const clang::FunctionDecl *FD);

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
  void markChanged() { Changed = true; }
  /// First pass: only learn which functions the TU calls, so that their
  /// parameters start at the bottom of the lattice instead of Unknown.
  void setDiscovering(bool D) { Discovering = D; }

  clang::ASTContext &Ctx;
  const ApiModel &Api;
  FlowCache &Flows;
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
  std::vector<const clang::FunctionDecl *> LimitHits;
};

class ResidencyWalker {
public:
  /// Called with each call, and each construction, with the state before
  /// it.
  using CallHook =
      std::function<void(const clang::Expr *, const ResidencyWalker &)>;

  /// \p ParamsOnHost: summary mode, where parameters count as host values.
  ResidencyWalker(ResidencyContext &RC, bool ParamsOnHost = false)
      : RC(RC), Api(RC.Api), ParamsOnHost(ParamsOnHost) {}

  /// Analyses \p FD's body to a fixpoint, then calls \p Hook at every
  /// reachable call expression with the converged state there.
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
  const ApiModel &api() const { return Api; }
  /// Where the tensors in a pair/tuple-valued expression live.
  Residency bundle(const clang::Expr *E) const;

private:
  // FlowAnalysis.cpp
  bool solve(const FunctionFlow &F, std::vector<std::optional<VarState>> &In);
  void transferBlock(const clang::CFGBlock &B);
  // Transfer.cpp: the table and its handlers.
  struct TransferRule {
    bool (*Matches)(const clang::Stmt *);
    void (ResidencyWalker::*Apply)(const clang::Stmt *);
  };
  static llvm::ArrayRef<TransferRule> transferTable();
  void transfer(const clang::Stmt *S);
  void onLambda(const clang::Stmt *S);
  void onDecl(const clang::Stmt *S);
  void onReturn(const clang::Stmt *S);
  void onCall(const clang::Stmt *S);
  void onConstruct(const clang::Stmt *S);
  void onAssign(const clang::Stmt *S);
  void assignFrom(const clang::Expr *LHS, const clang::Expr *RHS,
                  bool Compound);
  void declareLoopVariable(const clang::VarDecl *LV);
  /// std::tie(...) or std::forward_as_tuple(...).
  bool isTie(const clang::Expr *E) const;
  void assignTied(const clang::Expr *Tie, AbsValue V);
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

  AbsValue evalDecl(const clang::ValueDecl *D) const;
  AbsValue evalMemberCall(const clang::CXXMemberCallExpr *MC) const;
  AbsValue evalOperator(const clang::CXXOperatorCallExpr *Op) const;
  AbsValue evalCall(const clang::CallExpr *CE) const;
  /// A tensor made by \p Ctor from \p Args, when its arguments or a pack
  /// rule say where it lives.
  std::optional<AbsValue>
  constructedTensor(const clang::CXXConstructorDecl *Ctor,
                    llvm::ArrayRef<const clang::Expr *> Args) const;
  AbsValue evalUserCall(const clang::FunctionDecl *Callee,
                        const clang::CallExpr *CE) const;
  bool mentionsBoolDtype(const clang::CallExpr *CE) const;
  /// Where a factory called at \p CE puts its tensor when given no device:
  /// the innermost placement scope or set-default call before it
  /// (docs/rule-packs.md#placement-defaults), else \p Otherwise.
  Residency factoryDefault(const clang::CallExpr *CE,
                           Residency Otherwise) const;
  void markReady(const clang::CallExpr *CE);

  ResidencyContext &RC;
  const ApiModel &Api;
  bool ParamsOnHost;
  const clang::FunctionDecl *Current = nullptr;
  VarState Cur;
  CallHook Hook;
  /// The last pass over converged states: sites and returns are read.
  bool Collecting = false;
  Residency Returned = Residency::None;
  /// Placement defaults in Current's body: from where, to where, and the
  /// expression naming the device; found on first use.
  struct Placement {
    clang::SourceLocation Begin, End;
    const clang::Expr *Device;
  };
  mutable std::optional<std::vector<Placement>> Placements;
  /// Range-for loop variable -> its range expression.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> RangeOf;
};

} // namespace seam

#endif
