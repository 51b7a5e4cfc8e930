//===- Calibrate.cpp - `seam calibrate`: a profile for seam::rt's device --===//
#include "Driver/Calibrate.h"

#include <seam/rt.h>

#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <vector>

namespace seam {
namespace {

using Clock = std::chrono::steady_clock;

/// Median of \p Reps timings of \p Body, in microseconds; \p Before runs
/// untimed ahead of each (to put the device in the state measured).
double medianMicros(int Reps, const std::function<void()> &Before,
                    const std::function<void()> &Body) {
  std::vector<double> T;
  T.reserve(Reps);
  for (int I = 0; I < Reps; ++I) {
    Before();
    auto A = Clock::now();
    Body();
    auto B = Clock::now();
    T.push_back(std::chrono::duration<double, std::micro>(B - A).count());
  }
  std::nth_element(T.begin(), T.begin() + T.size() / 2, T.end());
  return T[T.size() / 2];
}

} // namespace

int runCalibrate(const CalibrateOptions &Opts) {
  namespace rt = seam::rt;
  const int N = std::max(Opts.Repetitions, 11);
  auto Idle = [] { rt::synchronize(); };
  rt::Tensor One = rt::ones({1}, rt::kAccel);
  rt::Tensor Out;
  auto Op = [&] { Out = One + 1.0; };
  auto Region = rt::compile([](rt::Tensor X) { return X + 1.0; });
  // What the host does after a sync in region code: record the next
  // region's ops, find it in the cache, launch it.
  auto Next =
      rt::compile([](rt::Tensor X) { return rt::relu((X + 1.0) * 2.0 - 3.0); });
  for (int I = 0; I < 200; ++I) { // warm-up: threads, JIT, caches
    Op();
    Out = Region(One);
    Out = Next(One);
    (void)Out.item<float>();
  }
  rt::synchronize();

  double SyncIdle = medianMicros(N, Idle, [] { rt::synchronize(); });
  double Roundtrip = medianMicros(N, Idle, [&] { (void)One.item<float>(); });
  double Enqueue = medianMicros(N, Idle, Op);
  double Resume = medianMicros(N, Idle, [&] { Out = Next(One); });
  double OpAndSync = medianMicros(N, Idle, [&] {
    Op();
    rt::synchronize();
  });
  double RegionAndSync = medianMicros(N, Idle, [&] {
    Out = Region(One);
    rt::synchronize();
  });

  // Bandwidth: one fused pass over 16M floats (read 64 MB, write 64 MB).
  const int64_t Elems = int64_t(1) << 24;
  rt::Tensor Big = rt::randn({Elems}, rt::kAccel, 7);
  auto Chain = rt::compile([](rt::Tensor X) { return X * 2.0 + 1.0; });
  Out = Chain(Big);
  rt::synchronize();
  double Pass = medianMicros(std::max(N / 100, 11), Idle, [&] {
    Out = Chain(Big);
    rt::synchronize();
  });
  double GBps = (2.0 * Elems * sizeof(float)) / (Pass * 1e-6) / 1e9;

  char Date[32];
  std::time_t Now = std::time(nullptr);
  std::strftime(Date, sizeof(Date), "%Y-%m-%d", std::gmtime(&Now));
  std::string How = std::string("measured by `seam calibrate` on ") + Date +
                    " (seam::rt virtual accelerator on this machine's CPU; "
                    "median of " +
                    std::to_string(N) + " runs): ";
  nlohmann::json J = {
      {"name", "seamrt-local"},
      {"device", "seam::rt virtual accelerator (device worker threads on "
                 "the host CPU)"},
      {"notes", "Regenerate with: seam calibrate -o "
                "rules/profiles/seamrt-local.json"},
      {"parameters",
       {{"sync_roundtrip_us",
         {{"value", Roundtrip},
          {"source", How + "item() of a ready one-element tensor on an idle "
                           "device"}}},
        {"host_resume_us",
         {{"value", Resume},
          {"source", How +
                         "host time to record, look up and launch a "
                         "cached four-op compiled region (one eager "
                         "op's enqueue: " +
                         std::to_string(Enqueue) + " us)"}}},
        {"launch_latency_us",
         {{"value", std::max(0.0, OpAndSync - Enqueue - SyncIdle)},
          {"source", How +
                         "enqueue + synchronize of one eager op, minus "
                         "the enqueue and an idle synchronize (" +
                         std::to_string(SyncIdle) + " us)"}}},
        {"region_entry_us",
         {{"value", std::max(0.0, RegionAndSync - OpAndSync)},
          {"source", How + "a cached one-op compiled call + synchronize, "
                           "minus the same op run eagerly"}}},
        {"memory_bandwidth_gbps",
         {{"value", GBps},
          {"source", How + "one fused x*2+1 pass over 16M floats, bytes "
                           "read plus written"}}}}}};

  std::error_code EC;
  std::unique_ptr<llvm::raw_fd_ostream> File;
  if (!Opts.OutputPath.empty()) {
    File = std::make_unique<llvm::raw_fd_ostream>(Opts.OutputPath, EC);
    if (EC) {
      llvm::errs() << "seam: error: cannot write output file '"
                   << Opts.OutputPath << "': " << EC.message() << "\n";
      return 2;
    }
  }
  llvm::raw_ostream &OS = File ? *File : llvm::outs();
  OS << J.dump(2) << "\n";
  return 0;
}

} // namespace seam
