//===- RegionModel.h - Compiled regions, hot paths and capture spans ------===//
//
// Answers "where does this code run?" for one translation unit: inside which
// compiled region, on which hot path (loop, module forward, region), inside
// which CUDA-graph capture span, and by which chain of calls it got there.
// Build it once per TU after parsing; Hazards then asks contextAt() for each
// site it finds. It knows nothing of residency or of what a site triggers.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_REGIONS_REGIONMODEL_H
#define SEAM_REGIONS_REGIONMODEL_H

#include "ApiModel/ApiModel.h"
#include "Flow/ExecCount.h"
#include "Flow/FunctionFlow.h"
#include "Regions/Callables.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace seam {

struct RegionOptions {
  std::vector<std::string> RegionGlobs; ///< --region, on qualified names
};

/// One call (or lambda definition) from one function to another.
struct CallSite {
  unsigned Callee;
  clang::SourceLocation Loc;
  const clang::Stmt *Site = nullptr; ///< the call, construction or lambda
  bool IsLambdaDefinition = false;
  /// Called through a callable holder (a std::function parameter, a
  /// function pointer, a member callback): the holder's name.
  std::string Through;
  /// The lambda is passed to a loop function (std::for_each, ...), which
  /// runs it once per element; names that function.
  std::string IteratedBy;
};

/// A call the TU cannot follow: to a function it has no body for, to a
/// virtual method (overrides may be defined in other files), or through a
/// callable holder other files may fill (a member, a global, a parameter).
/// The project pass follows it (lib/Project).
struct ExternalCall {
  const clang::FunctionDecl *Callee = nullptr; ///< null: through Holder
  const clang::ValueDecl *Holder = nullptr;
  clang::SourceLocation Loc;
  const clang::Stmt *Site = nullptr;
  bool Virtual = false;
  std::string IteratedBy;
};

/// A loop of a function: a cycle of its CFG (see FunctionFlow).
struct LoopInfo {
  clang::SourceRange Hot; ///< the statement's source range, when it has one
  clang::SourceLocation Keyword;
  const clang::Stmt *S = nullptr; ///< null for a loop made with goto
  const NaturalLoop *Natural = nullptr;
};

/// The body of a loop statement (for, while, do, range-for): what runs
/// per iteration, unlike a for-init or a range-for's range expression.
/// Null for anything else.
const clang::Stmt *loopBody(const clang::Stmt *S);

/// A loop around a site, and how often the site runs per iteration of it.
struct LoopVisit {
  const LoopInfo *Loop = nullptr;
  Frequency Freq;
};

struct CaptureSpan {
  clang::SourceLocation Marker; ///< the capture-begin call's name
  clang::SourceLocation Begin;  ///< the end of the capture-begin call
  clang::SourceLocation End;    ///< the capture-end call, or function end
};

/// How a function is reached from a root: the predecessor on a shortest
/// chain. Pred == -1 marks the root itself.
struct Reach {
  bool Reached = false;
  int Pred = -1;
  int PredCall = -1;
  int Root = -1; ///< for regions: the region's root function
};

struct FunctionNode {
  const clang::FunctionDecl *FD = nullptr;
  std::string Name;
  clang::SourceLocation NameLoc;
  const FunctionFlow *Flow = nullptr;
  std::vector<LoopInfo> Loops;
  std::vector<CaptureSpan> Spans;
  std::vector<CallSite> Calls;
  std::vector<ExternalCall> External;

  bool IsRegionRoot = false;
  std::string RegionWhy; ///< "annotated", "matches --region '...'", ...
  /// The first compile(...) call that made it a region root, if one did.
  clang::SourceLocation CompiledAt;
  bool IsHotRoot = false; ///< a module forward
  Reach RegionReach, HotReach, CaptureReach;
};

/// One step on the path from a root to a site, for notes and codeFlows.
/// Data only: the rules word it (describePathStep in lib/Rules).
struct PathStep {
  enum Kind { RegionRoot, HotRoot, Loop, Capture, Call } What;
  clang::SourceLocation Loc;
  std::string Function; ///< a root's name, or a call's callee
  std::string Caller;   ///< a call's caller
  std::string Why;      ///< a region root: why it is one
  std::string Through;  ///< a call through this callable holder
  bool LambdaDefinition = false;
  std::string IteratedBy; ///< a loop step: the loop function running it
  bool RunsCall = false;  ///< a loop step: the loop runs a call on the path
  Frequency Freq;         ///< a loop step: how often it runs per iteration
};

/// Where a site runs.
struct SiteContext {
  std::optional<std::string> Region; ///< compiled region's name
  std::vector<PathStep> RegionPath;
  bool Hot = false;
  std::vector<PathStep> HotPath;
  bool Capture = false;
  std::vector<PathStep> CapturePath;
  /// Number of calls on the chosen path (for codeFlows).
  unsigned RegionCalls = 0, HotCalls = 0, CaptureCalls = 0;
  /// Loops enclosing the site inside its own function, innermost first.
  std::vector<LoopVisit> LocalLoops;
  /// Loops around the calls on the path to the site's function.
  std::vector<LoopVisit> SeedLoops;
  /// How often the site runs per call of its function (guards outside any
  /// local loop).
  Frequency PerCall;
  /// The compiled region's root function, when Region is set.
  const clang::FunctionDecl *RegionRoot = nullptr;
};

class RegionModel {
public:
  RegionModel(clang::ASTContext &Ctx, const ApiModel &Api,
              const RegionOptions &Opts, FlowCache &Flows);
  ~RegionModel();

  const std::vector<FunctionNode> &functions() const { return Nodes; }
  FlowCache &flows() const { return Flows; }
  std::optional<unsigned> nodeFor(const clang::FunctionDecl *FD) const;

  /// Context of \p Site (at \p Loc), an expression inside function \p Node.
  SiteContext contextAt(unsigned Node, const clang::Stmt *Site,
                        clang::SourceLocation Loc) const;
  /// Loops around \p Site in function \p Node, innermost first, with how
  /// often it runs per iteration of each (counting the parameters in
  /// \p Params as their values there).
  std::vector<LoopVisit> loopsAt(unsigned Node, const clang::Stmt *Site,
                                 clang::SourceLocation Loc,
                                 const ParamValues *Params = nullptr) const;
  /// Whether loopsAt() would find any loop (cheaper: no guards counted).
  bool inAnyLoop(unsigned Node, const clang::Stmt *Site,
                 clang::SourceLocation Loc) const;
  /// Whether a loop of function \p Node runs \p Site more than once per
  /// call: a loop that runs it at most once does not make it hot.
  bool runsRepeatedly(unsigned Node, const clang::Stmt *Site,
                      clang::SourceLocation Loc) const;
  /// The innermost loop of function \p Node that repeats \p Site, if any.
  std::optional<LoopVisit> repeatingLoop(unsigned Node, const clang::Stmt *Site,
                                         clang::SourceLocation Loc) const;
  /// How function \p Node is hot in this TU (empty when it is not).
  std::vector<PathStep> hotPathOf(unsigned Node) const;
  /// The callables the TU stores in holders other TUs may call through.
  const CallableFlow &callables() const { return *Callables; }

private:
  void collect();
  void scanBody(unsigned Node);
  void findRoots(const RegionOptions &Opts);
  void propagate();
  unsigned addNode(const clang::FunctionDecl *FD);
  std::string displayName(const clang::FunctionDecl *FD) const;
  bool contains(clang::SourceRange R, clang::SourceLocation L) const;

  const CaptureSpan *captureAt(unsigned Node, clang::SourceLocation L) const;
  std::vector<PathStep>
  pathTo(unsigned Node, Reach FunctionNode::*Which, PathStep::Kind RootKind,
         unsigned &Calls, std::vector<LoopVisit> *SeedLoops = nullptr) const;

  clang::ASTContext &Ctx;
  const ApiModel &Api;
  FlowCache &Flows;
  std::unique_ptr<CallableFlow> Callables;
  std::vector<FunctionNode> Nodes;
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> Index;
  /// Definitions in this TU overriding each virtual method (canonical).
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<unsigned>> Overriders;
  /// Arguments of compile(...) calls; resolved to region roots.
  std::vector<std::pair<const clang::Expr *, clang::SourceLocation>>
      CompiledTargets;
};

} // namespace seam

#endif
