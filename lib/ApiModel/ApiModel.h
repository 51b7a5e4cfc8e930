//===- ApiModel.h - Questions about AST nodes, answered by rule packs -----===//
//
// The only place where analysis code meets tensor-API facts: every stage
// asks the ApiModel ("is this a tensor?", "does this call synchronize?")
// instead of comparing names itself. An ApiIndex is built once per set of
// merged packs and shared; an ApiModel over it is made per translation
// unit and caches per-declaration answers for that AST.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_APIMODEL_APIMODEL_H
#define SEAM_APIMODEL_APIMODEL_H

#include "ApiModel/RulePack.h"
#include "Basic/Residency.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/GlobPattern.h"
#include <memory>
#include <optional>

namespace seam {

/// A call that matched a trigger rule, before its condition is checked.
struct TriggerMatch {
  const TriggerRule *Rule = nullptr;
  const clang::Expr *Object = nullptr; ///< object of a member call
  std::string Spelling;                ///< "'.item()'", "'<<'", ...
  clang::SourceLocation Loc;           ///< member name, operator or callee
};

enum class CaptureEdge { None, Begin, End };

/// The rule packs' facts, prepared once for lookup: immutable once built,
/// shared by every thread and translation unit of a run.
class ApiIndex {
public:
  explicit ApiIndex(RulePack Pack);
  const RulePack &pack() const { return Pack; }

private:
  friend class ApiModel;
  RulePack Pack;
  llvm::StringSet<> Tensor, DeviceLike, HostRecord, Module, Holder, LibNs;
  llvm::StringSet<> Factory, LikeFactory, ToHost, ToDevice, Move, BoolProd,
      BoolDtype, Meta, Annot, Compile, HotMethod, LoopFn, DeviceFactory,
      Transform, Invoke;
  llvm::StringMap<const PlacementDefault *> DefaultCalls, DefaultScopes;
  /// Tensor types of each distinct rule scope, and each rule's scope (-1:
  /// every pack's tensors).
  std::vector<llvm::StringSet<>> ScopeSets;
  std::vector<int> RuleScope;
  std::vector<const TriggerRule *> ConversionRules;
  bool HasEffects = false; ///< some rule materialises (most packs: none)
  llvm::StringMap<Residency> DeviceNames;
  /// Each op name's rules, in pack order.
  llvm::StringMap<llvm::SmallVector<OpRule, 1>> Ops;
  llvm::StringSet<> TranscendentalOps;
  llvm::StringSet<> MatmulOps;
  llvm::StringSet<> TransposeOps;
  llvm::StringMap<double> Dtypes;
  llvm::StringMap<std::vector<const TriggerRule *>> MethodRules, FunctionRules,
      OperatorRules, ConstructorRules;
};

/// The questions about one translation unit's AST, answered from an
/// ApiIndex. It caches answers per declaration, so it is made for one AST
/// and used by one thread (a later AST may reuse a freed declaration's
/// address): make one per translation unit.
class ApiModel {
public:
  explicit ApiModel(std::shared_ptr<const ApiIndex> Index);
  /// With an index of its own (one-off questions, tests).
  explicit ApiModel(RulePack Pack);
  ApiModel(const ApiModel &) = delete;
  ApiModel &operator=(const ApiModel &) = delete;

  const RulePack &pack() const { return Ix.Pack; }

  bool isTensorType(clang::QualType T) const;
  bool isDeviceLikeType(clang::QualType T) const;
  bool isHostRecordType(clang::QualType T) const;
  /// True for containers and views of tensors (vector, ArrayRef, ...).
  bool mentionsTensor(clang::QualType T) const;
  bool isModuleClass(const clang::CXXRecordDecl *RD) const;
  /// For a module holder type `Holder<T>`, returns T's definition.
  const clang::CXXRecordDecl *moduleHolderTarget(clang::QualType T) const;
  /// `net(x)` on a module holder runs Impl::forward: the forward methods a
  /// call through a holder's operator() reaches (none for other calls).
  /// The one place that knows "holder -> forward".
  llvm::SmallVector<const clang::CXXMethodDecl *, 2>
  holderForwards(const clang::CallExpr *CE) const;

  /// Declarations of the tensor library itself, the standard library and
  /// system headers: their bodies are not the user's code.
  bool isLibraryDecl(const clang::Decl *D) const;

  bool isFactory(llvm::StringRef QualName) const;
  bool isLikeFactory(llvm::StringRef QualName) const;
  bool isToHostMethod(llvm::StringRef Name) const;
  bool isToDeviceMethod(llvm::StringRef Name) const;
  bool isMoveMethod(llvm::StringRef Name) const;
  bool isBoolProducer(llvm::StringRef Name) const;
  bool isBoolDtypeName(llvm::StringRef Name) const;
  bool isMetadata(llvm::StringRef Name) const;
  /// Host or Device for a named device constant (kCPU, kCUDA) or a device
  /// string ("cpu", "cuda:0"); nullopt when the name is not a device.
  std::optional<Residency> deviceName(llvm::StringRef Name) const;
  std::optional<Residency> deviceString(llvm::StringRef S) const;

  bool isRegionAnnotated(const clang::FunctionDecl *FD) const;
  bool isCompileFunction(const clang::FunctionDecl *FD) const;
  /// `forward` (or another hot method) of a module class.
  bool isHotMethod(const clang::FunctionDecl *FD) const;
  CaptureEdge captureMarker(const clang::CallExpr *CE) const;
  /// A function that runs its callable argument once per element.
  bool isLoopFunction(const clang::FunctionDecl *FD) const;

  /// Matches \p CE against the trigger rules that report, in pack order:
  /// name, class, overload and operand types (the rules' `when` conditions
  /// are left to the caller, which knows residency and dtypes).
  llvm::SmallVector<TriggerMatch, 2>
  matchTriggers(const clang::CallExpr *CE) const;
  /// The same for a construction (`thrust::host_vector<float> h = d;`):
  /// the `constructor` rules of its class, by overload.
  llvm::SmallVector<TriggerMatch, 2>
  matchTriggers(const clang::CXXConstructExpr *CE) const;
  /// The first of matchTriggers(), if any.
  std::optional<TriggerMatch> matchTrigger(const clang::CallExpr *CE) const;
  /// What a call's rules say it materialises: its tensor arguments, or
  /// every value made before it (Effect::None when no rule says).
  Effect materialises(const clang::CallExpr *CE) const;
  /// Every rule \p CE matches by name and overload, reporting or not (for
  /// `seam pack check`).
  void
  forEachMatchedRule(const clang::CallExpr *CE,
                     llvm::function_ref<void(const TriggerRule &)> Fn) const;

  /// Factories whose tensors live on the device unless given the host.
  bool isDeviceFactory(llvm::StringRef QualName) const;
  /// Where a constructor of a tensor type puts its tensor, if a rule says.
  std::optional<Residency> constructed(const clang::CXXConstructExpr *CE) const;
  /// The same for \p Ctor called with \p Args (an element built in place:
  /// `v.emplace_back(args...)`).
  std::optional<Residency>
  constructed(const clang::CXXConstructorDecl *Ctor,
              llvm::ArrayRef<const clang::Expr *> Args) const;
  /// A set-default call (`set_default_device(d)`): the argument naming the
  /// device.
  const clang::Expr *placementDefault(const clang::CallExpr *CE) const;
  /// A scope object (`StreamContext ctx(s)`): the argument naming the
  /// device.
  const clang::Expr *placementScope(const clang::VarDecl *VD) const;
  /// A function returning a callable that runs its callable argument.
  bool isTransform(const clang::FunctionDecl *FD) const;
  /// A function that calls its callable argument once, at the call.
  bool isInvokeFunction(const clang::FunctionDecl *FD) const;

  /// A tensor type \p Rule covers: its own pack's, or every pack's.
  bool ownTensor(clang::QualType T, const TriggerRule *Rule) const;

  /// True when \p T matches a type pattern of \p Rule (docs/rule-packs.md):
  /// "*", "tensor", "scalar", "integer", "floating", "bool", "device",
  /// "void" or a glob over qualified names, typedef names included.
  bool matchesPattern(clang::QualType T, llvm::StringRef Pattern,
                      const TriggerRule *Rule) const;

  /// The class the packs give op \p Name; where they disagree, that of
  /// the pack whose libraryNamespaces hold \p Callee, else the last
  /// pack's.
  std::optional<OpClass> opClass(llvm::StringRef Name,
                                 const clang::Decl *Callee = nullptr) const;
  /// A pack lists \p Name under `ops.transcendental`.
  bool isTranscendental(llvm::StringRef Name) const;
  /// A pack lists \p Name under `ops.matmul`.
  bool isMatmul(llvm::StringRef Name) const;
  /// A pack lists \p Name under `ops.transpose`.
  bool isTranspose(llvm::StringRef Name) const;
  /// Element size of a dtype named in code or in a --shape hint.
  std::optional<double> dtypeBytes(llvm::StringRef Name) const;

private:
  bool overloadMatches(const clang::FunctionDecl *FD, const clang::CallExpr *CE,
                       const OverloadFilter &O, const TriggerRule *Rule) const;
  bool overloadMatches(const clang::FunctionDecl *FD,
                       llvm::ArrayRef<const clang::Expr *> Args,
                       const OverloadFilter &O, const TriggerRule *Rule) const;
  void
  candidates(const clang::CallExpr *CE, bool ReportingOnly,
             llvm::function_ref<void(const TriggerRule &, const TriggerMatch &)>
                 Fn) const;
  bool recordMatches(
      const clang::CXXRecordDecl *RD, const llvm::StringSet<> &Names,
      llvm::DenseMap<const clang::CXXRecordDecl *, bool> &Cache) const;
  bool
  typeMatches(clang::QualType T, const llvm::StringSet<> &Names,
              llvm::DenseMap<const clang::CXXRecordDecl *, bool> &Cache) const;

  std::shared_ptr<const ApiIndex> Index;
  const ApiIndex &Ix;
  // Per declaration of this AST.
  mutable std::vector<llvm::DenseMap<const clang::CXXRecordDecl *, bool>>
      ScopeCaches;
  mutable llvm::StringMap<std::optional<llvm::GlobPattern>> Globs;
  mutable llvm::DenseMap<const clang::CXXRecordDecl *, bool> TensorCache,
      DeviceCache, HostCache, ModuleCache, HolderCache;
};

/// Qualified name of a declaration, without inline or anonymous namespaces.
std::string qualifiedName(const clang::NamedDecl *D);

/// \p E without what does not change its value: parentheses, implicit and
/// functional/static casts, temporaries, cleanups, default arguments, and
/// (with \p Copies) copy and move constructions and std::move and
/// std::forward.
const clang::Expr *stripValue(const clang::Expr *E, bool Copies = false);

} // namespace seam

#endif
