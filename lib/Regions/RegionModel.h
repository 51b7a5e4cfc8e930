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

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
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
  bool IsLambdaDefinition = false;
  /// The lambda is passed to a loop function (std::for_each, ...), which
  /// runs it once per element; names that function.
  std::string IteratedBy;
};

struct LoopInfo {
  clang::SourceRange Hot; ///< the part that runs every iteration
  clang::SourceLocation Keyword;
  const clang::Stmt *S = nullptr;
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
  std::vector<LoopInfo> Loops;
  std::vector<CaptureSpan> Spans;
  std::vector<CallSite> Calls;

  bool IsRegionRoot = false;
  std::string RegionWhy;  ///< "annotated", "matches --region '...'", ...
  bool IsHotRoot = false; ///< a module forward
  Reach RegionReach, HotReach, CaptureReach;
};

/// One step on the path from a root to a site, for notes and codeFlows.
struct PathStep {
  enum Kind { RegionRoot, HotRoot, Loop, Capture, Call } What;
  clang::SourceLocation Loc;
  std::string Message;
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
  std::vector<const LoopInfo *> LocalLoops;
  /// Loops around the calls on the path to the site's function.
  std::vector<const LoopInfo *> SeedLoops;
  /// The compiled region's root function, when Region is set.
  const clang::FunctionDecl *RegionRoot = nullptr;
};

class RegionModel {
public:
  RegionModel(clang::ASTContext &Ctx, const ApiModel &Api,
              const RegionOptions &Opts);

  const std::vector<FunctionNode> &functions() const { return Nodes; }
  std::optional<unsigned> nodeFor(const clang::FunctionDecl *FD) const;

  /// Context of \p Loc, a location inside function \p Node.
  SiteContext contextAt(unsigned Node, clang::SourceLocation Loc) const;

private:
  void collect();
  void scanBody(unsigned Node);
  void findRoots(const RegionOptions &Opts);
  void propagate();
  unsigned addNode(const clang::FunctionDecl *FD);
  std::string displayName(const clang::FunctionDecl *FD) const;
  bool contains(clang::SourceRange R, clang::SourceLocation L) const;
  const LoopInfo *innermostLoop(unsigned Node, clang::SourceLocation L) const;
  const CaptureSpan *captureAt(unsigned Node, clang::SourceLocation L) const;
  std::vector<PathStep>
  pathTo(unsigned Node, Reach FunctionNode::*Which, PathStep::Kind RootKind,
         unsigned &Calls,
         std::vector<const LoopInfo *> *SeedLoops = nullptr) const;

  clang::ASTContext &Ctx;
  const ApiModel &Api;
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
