//===- OpModel.h - The op sequence of a compiled region -------------------===//
//
// Collects, in program order, the tensor ops a compiled region launches and
// the graph breaks among them, with calls to helpers in the same TU inlined
// from per-function summaries (each function is summarized once). Each op
// is classified by the rule pack (pointwise, reduction, library, view, ...)
// and, where shapes are known from literal factory shapes or --shape hints,
// carries the bytes of its result. The cost model turns this into pieces,
// fusion groups and launches.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COST_OPMODEL_H
#define SEAM_COST_OPMODEL_H

#include "ApiModel/ApiModel.h"
#include "Flow/ExecCount.h" // ParamValues

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct OpEvent {
  bool IsBreak = false;
  OpClass Class = OpClass::Pointwise;
  const clang::CallExpr *Call = nullptr;
  std::optional<double> OutBytes; ///< result size, when known
  /// Half the bytes the op reads and writes, when known: its result's size
  /// for an op that reads as much as it writes (pointwise), more for a
  /// matrix product, which reads both operands whole. queueMicros costs
  /// the op by it.
  std::optional<double> QueueBytes;
  /// For a transcendental op (ApiModel::isTranscendental) of known size,
  /// its result's elements; else 0.
  double TranscendentalElements = 0;
  /// Product of the constant trip counts of the loops around the event,
  /// inside the region; PerIteration when one of them has no constant bound.
  double Multiplicity = 1;
  bool PerIteration = false;
};

/// A tensor's size as far as the source shows it.
struct TensorSize {
  double Elements = 0;
  double ElementBytes = 0;
  /// The dims, outermost first, when the source shows them all (a literal
  /// factory shape, a --shape hint, and what matmul and transpose make of
  /// them); empty otherwise.
  llvm::SmallVector<int64_t, 4> Dims;
  double bytes() const { return Elements * ElementBytes; }
};

/// --shape hints: variable name -> its size.
using ShapeHints = std::map<std::string, TensorSize>;

/// Parses "name=4x1024[:f16]" into \p Hints; returns an error message.
std::optional<std::string>
parseShapeHint(llvm::StringRef Text, const ApiModel &Api, ShapeHints &Hints);

/// --trips hints: the name of a variable, parameter or member that a loop
/// bound reads (`i < num_steps`, `i < cfg.epochs`) -> its value.
using TripHints = std::map<std::string, int64_t>;

/// Parses "num_steps=1000" into \p Hints; returns an error message.
std::optional<std::string> parseTripHint(llvm::StringRef Text,
                                         TripHints &Hints);

/// Trip count of a loop with constant bounds (`for (int i = 0; i < 100;
/// ++i)`, `c10::irange(8)`, counting down too); nullopt otherwise. With
/// \p Params, a bound that is one of those parameters counts as its value;
/// with \p Trips, one that names a hinted variable or member.
std::optional<double> constantTripCount(const clang::Stmt *Loop,
                                        clang::ASTContext &Ctx,
                                        const ParamValues *Params = nullptr,
                                        const TripHints *Trips = nullptr);

class OpModel {
public:
  OpModel(clang::ASTContext &Ctx, const ApiModel &Api,
          llvm::DenseSet<const clang::CallExpr *> Breaks,
          const ShapeHints &Hints, const TripHints *Trips = nullptr)
      : Ctx(Ctx), Api(Api), Breaks(std::move(Breaks)), Hints(Hints),
        Trips(Trips) {}

  /// The ops and breaks of \p FD with its helpers inlined.
  const std::vector<OpEvent> &sequence(const clang::FunctionDecl *FD);

  /// The ops and breaks \p S launches, helpers inlined (not a lambda's).
  std::vector<OpEvent> opsIn(const clang::Stmt *S) {
    std::vector<OpEvent> Out;
    collect(S, 1, false, Out);
    return Out;
  }

  /// Size of the tensor \p E evaluates to, when known. A pointwise op has
  /// the size of its largest input (a comparison's bool result counts its
  /// input's element size).
  std::optional<TensorSize> sizeOf(const clang::Expr *E, unsigned Depth = 0);
  /// The arguments each call of a parameter's function passes for it
  /// (nullopt when some call cannot be read): a parameter then has their
  /// size when they all agree.
  using ArgumentsFn =
      std::function<std::optional<std::vector<const clang::Expr *>>(
          const clang::ParmVarDecl *)>;
  void setArgumentsOf(ArgumentsFn F) { ArgumentsOf = std::move(F); }

  /// sizeOf's bytes.
  std::optional<double> bytesOf(const clang::Expr *E) {
    if (std::optional<TensorSize> S = sizeOf(E))
      return S->bytes();
    return std::nullopt;
  }

private:
  void collect(const clang::Stmt *S, double Mult, bool PerIter,
               std::vector<OpEvent> &Out);
  void collectCall(const clang::CallExpr *CE, double Mult, bool PerIter,
                   std::vector<OpEvent> &Out);
  void inlineCallee(const clang::FunctionDecl *Callee, double Mult,
                    bool PerIter, std::vector<OpEvent> &Out);
  std::optional<OpClass> classify(const clang::CallExpr *CE) const;
  std::optional<TensorSize> factorySize(const clang::CallExpr *CE);
  std::optional<TensorSize> matmulSize(const clang::CallExpr *CE,
                                       const clang::Expr *Obj, unsigned Depth);
  std::optional<TensorSize> transposeSize(const clang::CallExpr *CE,
                                          const clang::Expr *Obj,
                                          unsigned Depth);
  std::optional<TensorSize> parameterSize(const clang::ParmVarDecl *P,
                                          unsigned Depth);

  clang::ASTContext &Ctx;
  const ApiModel &Api;
  llvm::DenseSet<const clang::CallExpr *> Breaks;
  const ShapeHints &Hints;
  const TripHints *Trips;
  ArgumentsFn ArgumentsOf;
  /// Each parameter's size, once worked out (nullopt while it is: a
  /// recursive call adds nothing).
  llvm::DenseMap<const clang::ParmVarDecl *, std::optional<TensorSize>>
      ParamSizes;
  std::map<const clang::FunctionDecl *, std::vector<OpEvent>> Cache;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

} // namespace seam

#endif
