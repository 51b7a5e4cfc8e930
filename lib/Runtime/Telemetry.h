//===- Telemetry.h - Counters and timeline behind stats() and trace_to() --===//
//
// Everything the runtime reports about itself goes through here, from the
// host thread and the device worker alike, so that counters and the trace
// always agree.
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_TELEMETRY_H
#define SEAM_RT_TELEMETRY_H

#include "seam/rt.h"

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace seam::rt::detail {

using Clock = std::chrono::steady_clock;

enum class Counter {
  Regions,
  GraphBreaks,
  Syncs,
  Kernels,
  FusedKernels,
  Compiles,
  CacheHits
};

class Telemetry {
public:
  static Telemetry &get();

  void count(Counter C, int64_t N = 1);
  /// A task that ran on the device timeline; gaps between tasks are idle.
  void deviceSpan(const std::string &Name, Clock::time_point Begin,
                  Clock::time_point End, int NumOps, bool IsKernel);
  /// Host-side span (compile, region launch, wait). Waits add host_wait_us.
  void hostSpan(const std::string &Name, const char *Category,
                Clock::time_point Begin, Clock::time_point End, bool IsWait);
  Stats snapshot();
  void reset();
  void traceTo(const std::string &Path);
  /// Writes the trace if one is being recorded.
  void flush();

private:
  Telemetry();
  struct Event {
    std::string Name;
    const char *Category;
    int Tid;
    double BeginUs;
    double DurUs;
    int NumOps;
  };
  double sinceOrigin(Clock::time_point T) const;

  std::mutex M;
  Stats S;
  bool HaveLastEnd = false;
  Clock::time_point LastEnd;
  Clock::time_point Origin;
  std::string TracePath;
  std::vector<Event> Events;
};

} // namespace seam::rt::detail

#endif // SEAM_RT_TELEMETRY_H
