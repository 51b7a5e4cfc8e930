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
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
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

/// What the runtime measured at one line of the program (one API called
/// there): a row of the site report (SiteStats in rt.h, whose median is
/// filled in from the samples when the report is taken).
struct SiteRecord {
  SiteStats Row;
  /// The idle of each sync, for the median (capped, see Telemetry.cpp).
  std::vector<float> IdleSamples;
};

/// Makes \p At the line that the syncs, cuts and compiles of the runtime
/// call it guards are attributed to, and counts one execution of it. Only
/// the outermost scope of a host thread counts, so runtime functions built
/// on others (cpu() on to()) report the program's line once.
class SiteScope {
public:
  SiteScope(SourceSite At, const char *Api);
  ~SiteScope();
  SiteScope(const SiteScope &) = delete;
  SiteScope &operator=(const SiteScope &) = delete;
  /// The line being attributed on this thread, or null.
  static SiteRecord *current();

private:
  bool Outermost;
};

class Telemetry {
public:
  static Telemetry &get();

  /// The record of (At, Api), stable for the life of the process, with one
  /// more execution counted (one lock per runtime call).
  SiteRecord *enter(SourceSite At, const char *Api);
  /// A piece launched at a cut made at \p Cut (the line asking for a host
  /// value, or the compile() line at the end of a call) while \p Region's
  /// call was running; \p Previous is the call's previous cut (null at
  /// its start). \p Compiled: the piece had to be compiled.
  void countPiece(SiteRecord *Cut, SiteRecord *Region, SiteRecord *Previous,
                  bool Compiled);
  void count(Counter C, int64_t N = 1);
  /// A task that ran on the device timeline; gaps between tasks are idle.
  void deviceSpan(const std::string &Name, Clock::time_point Begin,
                  Clock::time_point End, int NumOps, bool IsKernel);
  /// Host-side span (compile, region launch, wait). Waits add host_wait_us.
  void hostSpan(const std::string &Name, const char *Category,
                Clock::time_point Begin, Clock::time_point End, bool IsWait);
  /// A completed sync of the device by this thread's current site: its wait,
  /// and the start of the device idle it causes, which ends when the device
  /// starts its next task.
  void siteSync(Clock::time_point Begin, Clock::time_point End);
  Stats snapshot();
  void reset();
  void traceTo(const std::string &Path);
  /// Writes the trace if one is being recorded.
  void flush();
  /// Writes the site report of the whole run so far (or as frozen).
  void writeReport(const std::string &Path);
  /// Forgets everything measured so far (a calibration before main()) and
  /// keeps \p Cal for the report.
  void startProgram(std::vector<Measurement> Cal);
  std::vector<SiteStats> sites();

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
  /// The whole run's counters: reset_stats() does not touch them.
  Stats Run;
  bool RunHaveLastEnd = false;
  Clock::time_point RunLastEnd;
  std::map<std::tuple<const char *, unsigned, const char *>, SiteRecord> Sites;
  /// Pieces compiled once, by (region, previous cut, cut): compiling one
  /// again is a recompile (its shapes or structure changed).
  std::set<std::tuple<SiteRecord *, SiteRecord *, SiteRecord *>> Compiled;
  /// The sync whose device idle is still running, and since when.
  SiteRecord *IdleSite = nullptr;
  bool IdlePending = false;
  Clock::time_point IdleFrom;
  double UnattributedSyncIdleUs = 0;
  std::vector<Measurement> Calibration;
  bool HaveLastEnd = false;
  Clock::time_point LastEnd;
  Clock::time_point Origin;
  std::string TracePath;
  std::vector<Event> Events;
};

} // namespace seam::rt::detail

#endif // SEAM_RT_TELEMETRY_H
