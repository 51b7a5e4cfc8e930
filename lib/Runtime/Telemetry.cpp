//===- Telemetry.cpp - Counters, device timeline and Chrome trace output --===//

#include "Telemetry.h"
#include "Settings.h"

#include "Device.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>

namespace seam::rt::detail {

namespace {
constexpr int HostTid = 1;
constexpr int DeviceTid = 2;
// A runaway loop must not eat the host's memory through the trace.
constexpr size_t MaxEvents = 2'000'000;
// Per site; the median of the first million syncs is the median.
constexpr size_t MaxIdleSamples = 1'000'000;
} // namespace

namespace {
void writeJsonString(std::ostream &OS, const std::string &S) {
  OS << '"';
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\' << C;
    else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
      OS << Buf;
    } else {
      OS << C;
    }
  }
  OS << '"';
}
} // namespace

Telemetry &Telemetry::get() {
  // Leaked on purpose: device tasks may still report during static
  // destruction.
  static Telemetry *T = new Telemetry();
  return *T;
}

Telemetry::Telemetry() : Origin(Clock::now()) {
  // A program that never uses the device still gets its report and trace.
  const char *Report = settings().ReportPath.c_str();
  const char *Trace = settings().TracePath.c_str();
  if (Trace && *Trace)
    TracePath = Trace;
  if ((Report && *Report) || (Trace && *Trace))
    std::atexit(finishRun);
}

double Telemetry::sinceOrigin(Clock::time_point T) const {
  return std::chrono::duration<double, std::micro>(T - Origin).count();
}

namespace {
thread_local SiteRecord *CurrentSite = nullptr;

void bump(Stats &S, Counter C, int64_t N) {
  switch (C) {
  case Counter::Regions:
    S.regions += N;
    break;
  case Counter::GraphBreaks:
    S.graph_breaks += N;
    break;
  case Counter::Syncs:
    S.syncs += N;
    break;
  case Counter::Kernels:
    S.kernels += N;
    break;
  case Counter::FusedKernels:
    S.fused_kernels += N;
    break;
  case Counter::Compiles:
    S.compiles += N;
    break;
  case Counter::CacheHits:
    S.cache_hits += N;
    break;
  }
}

double micros(Clock::duration D) {
  return std::chrono::duration<double, std::micro>(D).count();
}
} // namespace

SiteScope::SiteScope(SourceSite At, const char *Api)
    : Outermost(CurrentSite == nullptr) {
  if (!Outermost)
    return;
  CurrentSite = Telemetry::get().enter(At, Api);
}

SiteScope::~SiteScope() {
  if (Outermost)
    CurrentSite = nullptr;
}

SiteRecord *SiteScope::current() { return CurrentSite; }

SiteRecord *Telemetry::enter(SourceSite At, const char *Api) {
  std::lock_guard<std::mutex> L(M);
  SiteRecord &R = Sites[{At.File, At.Line, Api}];
  if (R.Row.api.empty()) {
    R.Row.file = At.File ? At.File : "";
    R.Row.line = At.Line;
    R.Row.api = Api;
  }
  ++R.Row.executions;
  return &R;
}

void Telemetry::countPiece(SiteRecord *Cut, SiteRecord *Region,
                           SiteRecord *Previous, bool WasCompiled) {
  std::lock_guard<std::mutex> L(M);
  if (Cut)
    ++Cut->Row.pieces;
  if (Region)
    ++Region->Row.region_pieces;
  if (!WasCompiled)
    return;
  SiteRecord *Owner = Cut ? Cut : Region;
  if (!Owner)
    return;
  ++Owner->Row.compiles;
  if (!Compiled.insert({Region, Previous, Cut}).second)
    ++Owner->Row.recompiles;
}

void Telemetry::count(Counter C, int64_t N) {
  std::lock_guard<std::mutex> L(M);
  bump(S, C, N);
  bump(Run, C, N);
  if (C == Counter::GraphBreaks && CurrentSite)
    CurrentSite->Row.graph_breaks += N;
}

void Telemetry::deviceSpan(const std::string &Name, Clock::time_point Begin,
                           Clock::time_point End, int NumOps, bool IsKernel) {
  std::lock_guard<std::mutex> L(M);
  S.device_busy_us += micros(End - Begin);
  Run.device_busy_us += micros(End - Begin);
  if (HaveLastEnd && Begin > LastEnd)
    S.device_idle_us += micros(Begin - LastEnd);
  if (RunHaveLastEnd && Begin > RunLastEnd)
    Run.device_idle_us += micros(Begin - RunLastEnd);
  // The first task after a sync ends the idle the sync caused.
  if (IdlePending) {
    double Idle = Begin > IdleFrom ? micros(Begin - IdleFrom) : 0;
    if (IdleSite) {
      IdleSite->Row.device_idle_us += Idle;
      ++IdleSite->Row.idle_samples;
      if (IdleSite->IdleSamples.size() < MaxIdleSamples)
        IdleSite->IdleSamples.push_back(static_cast<float>(Idle));
    } else
      UnattributedSyncIdleUs += Idle;
    IdlePending = false;
  }
  HaveLastEnd = RunHaveLastEnd = true;
  LastEnd = RunLastEnd = End;
  if (!TracePath.empty() && Events.size() < MaxEvents)
    Events.push_back(
        {Name, IsKernel ? "kernel" : "copy", DeviceTid, sinceOrigin(Begin),
         std::chrono::duration<double, std::micro>(End - Begin).count(),
         NumOps});
}

void Telemetry::hostSpan(const std::string &Name, const char *Category,
                         Clock::time_point Begin, Clock::time_point End,
                         bool IsWait) {
  double Dur = std::chrono::duration<double, std::micro>(End - Begin).count();
  std::lock_guard<std::mutex> L(M);
  if (IsWait) {
    S.host_wait_us += Dur;
    Run.host_wait_us += Dur;
  }
  if (!TracePath.empty() && Events.size() < MaxEvents)
    Events.push_back({Name, Category, HostTid, sinceOrigin(Begin), Dur, 0});
}

void Telemetry::siteSync(Clock::time_point Begin, Clock::time_point End) {
  std::lock_guard<std::mutex> L(M);
  SiteRecord *R = CurrentSite;
  if (R) {
    ++R->Row.syncs;
    R->Row.host_wait_us += micros(End - Begin);
  }
  // The device has drained: it has idled since its last task ended (or
  // since now, if it never ran one) and idles until its next task starts.
  IdleSite = R;
  IdlePending = true;
  IdleFrom = RunHaveLastEnd && RunLastEnd < End ? RunLastEnd : End;
}

Stats Telemetry::snapshot() {
  std::lock_guard<std::mutex> L(M);
  return S;
}

void Telemetry::reset() {
  std::lock_guard<std::mutex> L(M);
  S = Stats();
  HaveLastEnd = false;
}

void Telemetry::traceTo(const std::string &Path) {
  // Fail now, where the caller can handle it, not at exit.
  if (!Path.empty() && !std::ofstream(Path, std::ios::app))
    throw Error("trace_to: cannot write '" + Path + "'");
  flush();
  std::lock_guard<std::mutex> L(M);
  TracePath = Path;
  Events.clear();
}

void Telemetry::flush() {
  std::lock_guard<std::mutex> L(M);
  if (TracePath.empty())
    return;
  std::ofstream OS(TracePath);
  if (!OS)
    throw Error("trace_to: cannot write '" + TracePath + "'");
  OS << std::fixed << std::setprecision(3);
  OS << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  OS << "{\"ph\":\"M\",\"pid\":1,\"tid\":" << HostTid
     << ",\"name\":\"thread_name\",\"args\":{\"name\":\"host\"}},\n";
  OS << "{\"ph\":\"M\",\"pid\":1,\"tid\":" << DeviceTid
     << ",\"name\":\"thread_name\",\"args\":{\"name\":\"accel stream\"}}";
  for (const Event &E : Events) {
    // Sync names hold the program's file names.
    OS << ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":" << E.Tid << ",\"name\":";
    writeJsonString(OS, E.Name);
    OS << ",\"cat\":\"" << E.Category << "\",\"ts\":" << E.BeginUs
       << ",\"dur\":" << E.DurUs;
    if (E.NumOps > 0)
      OS << ",\"args\":{\"ops\":" << E.NumOps << "}";
    OS << "}";
  }
  OS << "\n]}\n";
  OS.close(); // what a full disk refuses shows only here
  if (!OS)
    throw Error("trace_to: cannot write '" + TracePath + "'");
}

std::vector<SiteStats> Telemetry::sites() {
  std::lock_guard<std::mutex> L(M);
  // The same line reached from two translation units has two records.
  std::map<std::tuple<std::string, unsigned, std::string>,
           std::pair<SiteStats, std::vector<float>>>
      Rows;
  for (const auto &[Key, R] : Sites) {
    const SiteStats &In = R.Row;
    if (!In.syncs && !In.graph_breaks && !In.pieces && !In.region_pieces &&
        !In.compiles)
      continue;
    auto &[Row, Samples] = Rows[{In.file, In.line, In.api}];
    if (Row.api.empty()) {
      Row = In;
    } else {
      Row.executions += In.executions;
      Row.syncs += In.syncs;
      Row.graph_breaks += In.graph_breaks;
      Row.pieces += In.pieces;
      Row.region_pieces += In.region_pieces;
      Row.compiles += In.compiles;
      Row.recompiles += In.recompiles;
      Row.host_wait_us += In.host_wait_us;
      Row.device_idle_us += In.device_idle_us;
      Row.idle_samples += In.idle_samples;
    }
    Samples.insert(Samples.end(), R.IdleSamples.begin(), R.IdleSamples.end());
  }
  std::vector<SiteStats> Out;
  for (auto &[Key, Row] : Rows) {
    auto &[S, Samples] = Row;
    if (!Samples.empty()) {
      auto Mid = Samples.begin() + Samples.size() / 2;
      std::nth_element(Samples.begin(), Mid, Samples.end());
      double Median = *Mid;
      if (Samples.size() % 2 == 0)
        Median = (Median + *std::max_element(Samples.begin(), Mid)) / 2;
      S.device_idle_median_us = Median;
    }
    Out.push_back(std::move(S));
  }
  return Out;
}

void Telemetry::startProgram(std::vector<Measurement> Cal) {
  std::lock_guard<std::mutex> L(M);
  Calibration = std::move(Cal);
  S = Stats();
  Run = Stats();
  HaveLastEnd = RunHaveLastEnd = false;
  Sites.clear();
  Compiled.clear();
  IdleSite = nullptr;
  IdlePending = false;
  UnattributedSyncIdleUs = 0;
  Events.clear();
}

void Telemetry::writeReport(const std::string &Path) {
  std::ofstream OS(Path);
  if (!OS)
    throw Error("write_report: cannot write '" + Path + "'");
  std::vector<SiteStats> Rows = sites();
  std::lock_guard<std::mutex> L(M);
  double SiteIdle = 0;
  for (const SiteStats &R : Rows)
    SiteIdle += R.device_idle_us;
  OS << std::fixed << std::setprecision(3);
  OS << "{\n  \"format\": \"seam-rt-report\",\n  \"version\": 1,\n";
  OS << "  \"totals\": {\"regions\": " << Run.regions
     << ", \"graph_breaks\": " << Run.graph_breaks
     << ", \"syncs\": " << Run.syncs << ", \"kernels\": " << Run.kernels
     << ", \"fused_kernels\": " << Run.fused_kernels
     << ", \"compiles\": " << Run.compiles
     << ", \"cache_hits\": " << Run.cache_hits
     << ", \"device_busy_us\": " << Run.device_busy_us
     << ", \"device_idle_us\": " << Run.device_idle_us
     << ", \"host_wait_us\": " << Run.host_wait_us
     << ", \"idle_after_syncs_us\": " << SiteIdle + UnattributedSyncIdleUs
     << ", \"idle_elsewhere_us\": "
     << std::max(0.0, Run.device_idle_us - SiteIdle - UnattributedSyncIdleUs)
     << "},\n  \"sites\": [";
  bool First = true;
  for (const SiteStats &R : Rows) {
    OS << (First ? "\n" : ",\n") << "    {\"file\": ";
    First = false;
    writeJsonString(OS, R.file);
    OS << ", \"line\": " << R.line << ", \"api\": ";
    writeJsonString(OS, R.api);
    OS << ", \"executions\": " << R.executions << ", \"syncs\": " << R.syncs
       << ", \"graph_breaks\": " << R.graph_breaks
       << ", \"pieces\": " << R.pieces
       << ", \"region_pieces\": " << R.region_pieces
       << ", \"compiles\": " << R.compiles
       << ", \"recompiles\": " << R.recompiles
       << ", \"host_wait_us\": " << R.host_wait_us
       << ", \"device_idle_us\": " << R.device_idle_us
       << ", \"idle_samples\": " << R.idle_samples
       << ", \"device_idle_median_us\": " << R.device_idle_median_us << "}";
  }
  OS << (First ? "]" : "\n  ]");
  if (!Calibration.empty()) {
    OS << ",\n  \"calibration\": {";
    for (size_t I = 0; I < Calibration.size(); ++I) {
      const Measurement &C = Calibration[I];
      OS << (I ? ",\n    " : "\n    ");
      writeJsonString(OS, C.name);
      // Six significant digits, not the sites' three decimals: a per-element
      // cost such as host_select_us_per_element (~0.0007 us) would round to
      // 0.001, half as much again, and every prediction built on it with it.
      OS << std::defaultfloat << std::setprecision(6)
         << ": {\"value\": " << C.value << ", \"spread\": " << C.spread
         << std::fixed << std::setprecision(3) << ", \"runs\": " << C.runs
         << ", \"how\": ";
      writeJsonString(OS, C.how);
      OS << "}";
    }
    OS << "\n  }";
  }
  OS << "\n}\n";
  OS.close(); // what a full disk refuses shows only here
  if (!OS)
    throw Error("write_report: cannot write '" + Path + "'");
}

} // namespace seam::rt::detail

namespace seam::rt {

void write_report(const std::string &Path) {
  detail::Telemetry::get().writeReport(Path);
}

std::vector<SiteStats> site_stats() { return detail::Telemetry::get().sites(); }

Stats stats() { return detail::Telemetry::get().snapshot(); }

void reset_stats() { detail::Telemetry::get().reset(); }

void trace_to(const std::string &Path) {
  // No drain here: the host blocks only at syncs. Tasks still queued are
  // recorded in the next trace (or dropped after trace_to("")).
  detail::Telemetry::get().traceTo(Path);
}

std::ostream &operator<<(std::ostream &OS, const Stats &S) {
  std::ios::fmtflags Flags = OS.flags();
  std::streamsize Precision = OS.precision();
  OS << "regions=" << S.regions << " graph_breaks=" << S.graph_breaks
     << " syncs=" << S.syncs << " kernels=" << S.kernels
     << " fused_kernels=" << S.fused_kernels << " compiles=" << S.compiles
     << " cache_hits=" << S.cache_hits << std::fixed << std::setprecision(1)
     << " device_busy_us=" << S.device_busy_us
     << " device_idle_us=" << S.device_idle_us
     << " host_wait_us=" << S.host_wait_us;
  OS.flags(Flags);
  OS.precision(Precision);
  return OS;
}

} // namespace seam::rt
