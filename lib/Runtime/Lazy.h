//===- Lazy.h - Recording ops inside compile() and cutting regions --------===//
//
// While a compiled call runs, ops append Nodes to a Graph instead of
// running. A cut (a host-value request, or the end of the call) hands the
// graph to the region compiler and fills the buffers of every recorded
// tensor the program still holds.
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_LAZY_H
#define SEAM_RT_LAZY_H

#include "Internal.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace seam::rt::detail {

struct SiteRecord;

struct Graph {
  explicit Graph(Device Dev) : Dev(Dev) {}
  Device Dev;
  std::vector<Node> Nodes;
  /// The tensor each value belongs to; expired once the program drops it,
  /// which is what lets intermediates stay in registers.
  std::vector<std::weak_ptr<TensorImpl>> Owners;
  /// Buffers of materialized tensors read by the region; an Input node's
  /// Dim indexes this.
  std::vector<BufferPtr> Inputs;
  /// Input nodes by buffer, so a tensor read many times is loaded once.
  std::unordered_map<const Buffer *, std::vector<int>> InputNodes;
};

class Recorder {
public:
  static Recorder &get();

  bool active() const { return Depth > 0; }
  /// Starts a compiled call made from the compile() at \p At (nested calls
  /// belong to the outermost).
  void begin(SourceSite At);
  void end();

  /// Appends N (whose Args index Ts) to the graph of its device and returns
  /// the pending result.
  Tensor record(Node N, const std::vector<const Tensor *> &Ts);

  /// Runs every pending graph. IsBreak counts a graph break.
  void cut(bool IsBreak);

private:
  int inputId(Graph &G, const TensorImpl &Impl);

  int Depth = 0;
  std::shared_ptr<Graph> Current[2];
  /// The report's records of the running call's compile() line and of its
  /// last cut.
  SiteRecord *Region = nullptr;
  SiteRecord *LastCut = nullptr;
};

/// Compiles (or finds in the cache) and launches G's region; defined in
/// Region.cpp. Returns whether it launched anything (a graph whose values
/// the program dropped launches nothing); sets \p Compiled on a cache miss.
bool executeRegion(Graph &G, bool &Compiled);

} // namespace seam::rt::detail

#endif // SEAM_RT_LAZY_H
