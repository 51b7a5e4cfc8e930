//===- Calibrate.cpp - Measuring the cost model's parameters in-process ---===//
//
// The measurements behind `seam calibrate` and `seam validate`: each runs a
// small pattern on this process's device many times and takes the median.
// The idle after a sync is read from the site report, as the runtime
// measures it for the program.
//
//===----------------------------------------------------------------------===//

#include "seam/rt.h"

#include "Device.h"
#include "Settings.h"
#include "Telemetry.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

namespace seam::rt {
namespace {

namespace rt = seam::rt;
using Clock = std::chrono::steady_clock;

/// Median and spread of repeated timings.
struct Sample {
  double Median = 0;
  /// Interquartile range over the median: how much the runs disagreed.
  double Spread = 0;
  int Runs = 0;
};

Sample summarize(std::vector<double> T) {
  Sample S;
  S.Runs = static_cast<int>(T.size());
  if (T.empty())
    return S;
  std::sort(T.begin(), T.end());
  auto At = [&](double Q) {
    return T[static_cast<size_t>(Q * (T.size() - 1))];
  };
  S.Median = At(0.5);
  S.Spread = S.Median > 0 ? (At(0.75) - At(0.25)) / S.Median : 0;
  return S;
}

/// Timings of \p Body, in microseconds; \p Before runs untimed ahead of
/// each (to put the device in the state measured).
Sample timeMicros(int Reps, const std::function<void()> &Before,
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
  return summarize(std::move(T));
}

/// The device idle the runtime attributes to \p At, in total so far.
double idleAt(const SourceSite &At) {
  for (const SiteStats &S : site_stats())
    if (S.line == At.Line && S.file == At.File)
      return S.device_idle_us;
  return 0;
}

/// The device idle after each sync made at each site by its body, as the
/// runtime's site report measures it (from the device's last task before
/// the sync to its next task), the bodies run in turn: one sync of each
/// per round, so each is measured after the others' work, as a
/// program's syncs follow other work, not after a tight loop of itself
/// (which keeps the host's path to the next launch hotter in its caches
/// than a program does).
/// The device idle after the sync \p Body makes at \p At, once.
double idleOnce(const SourceSite &At, const std::function<void()> &Body) {
  double Before = idleAt(At);
  Body();
  synchronize(); // ends the idle: the body enqueued the next task
  return idleAt(At) - Before;
}

std::vector<Sample> idleMicrosInTurn(
    int Reps,
    const std::vector<std::pair<SourceSite, std::function<void()>>> &Bodies) {
  std::vector<std::vector<double>> T(Bodies.size());
  for (int I = 0; I < Reps; ++I)
    for (size_t B = 0; B < Bodies.size(); ++B)
      T[B].push_back(idleOnce(Bodies[B].first, Bodies[B].second));
  std::vector<Sample> Out;
  for (std::vector<double> &V : T)
    Out.push_back(summarize(std::move(V)));
  return Out;
}

/// The device idle after each sync made at \p At by \p Body, run alone.
Sample idleMicros(int Reps, const SourceSite &At,
                  const std::function<void()> &Body) {
  return idleMicrosInTurn(Reps, {{At, Body}})[0];
}

std::string us(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3f us", V);
  return Buf;
}

} // namespace

std::vector<Measurement> calibrate(int Repetitions) {
  const int N = std::max(Repetitions, 11);
  auto Idle = [] { synchronize(); };
  Tensor One = ones({1}, kAccel);
  Tensor Out;
  auto Op = [&] { Out = One + 1.0; };
  auto Region = compile([](Tensor X) { return X + 1.0; });
  // What the host does after a sync in region code: record the next
  // region's ops, find it in the cache, launch it.
  auto Next = compile([](Tensor X) { return relu((X + 1.0) * 2.0 - 3.0); });
  // The same four ops over four tensors (a training step takes its
  // weights, inputs and targets): what each tensor argument adds.
  auto OverFour = compile([](Tensor A, Tensor B, Tensor C, Tensor D) {
    return relu((A + B) * C - D);
  });
  Tensor InB = ones({1}, kAccel), InC = ones({1}, kAccel),
         InD = ones({1}, kAccel);
  // A short kernel (about 30 us here) before the sync: the host polls
  // while it runs, then resumes when it ends. (After kernels of a
  // millisecond and more, the host resumes measurably slower: see
  // docs/cost-model.md, "What is and is not modelled".)
  const int64_t LongElems = int64_t(1) << 16;
  Tensor Mid = randn({LongElems}, kAccel, 3);
  auto Long = compile([](Tensor X) { return relu(X * 1.5 + 0.25).sum(); });
  // A graph break: the sync, then the host records and launches the
  // region's next piece (four ops).
  const SourceSite BreakSite = SourceSite::current();
  auto Brk = compile([BreakSite](Tensor X) {
    float V = X.sum().item<float>(BreakSite);
    return relu((X + double(V)) * 2.0 - 3.0);
  });
  for (int I = 0; I < 200; ++I) { // warm-up: threads, JIT, caches
    Op();
    Out = Region(One);
    Out = Next(One);
    Out = OverFour(One, InB, InC, InD);
    (void)Long(Mid).item<float>();
    Out = Brk(Mid);
  }
  synchronize();

  Sample SyncIdle = timeMicros(N, Idle, [] { synchronize(); });
  Sample Enqueue = timeMicros(N, Idle, Op);
  Sample Resume = timeMicros(N, Idle, [&] { Out = Next(One); });
  // And per op: a nine-op region over the same tensor.
  auto Wide = compile([](Tensor X) {
    Tensor A = relu(X * 2.0 + 1.0), B = sigmoid(X - 1.0);
    return tanh(A * B + X) / 3.0;
  });
  Out = Wide(One);
  Sample OpAndSync = timeMicros(N, Idle, [&] {
    Op();
    synchronize();
  });
  Sample RegionAndSync = timeMicros(N, Idle, [&] {
    Out = Region(One);
    synchronize();
  });
  const int LongReps = N;
  const SourceSite WakeSite = SourceSite::current();
  auto AfterWaitBody = [&] {
    (void)Long(Mid).item<float>(WakeSite);
    Op();
  };
  const SourceSite CallSite = SourceSite::current();
  auto AfterCallBody = [&] {
    (void)Long(Mid).item<float>(CallSite);
    Out = Next(One);
  };
  const SourceSite CallFourSite = SourceSite::current();
  auto AfterCallFourBody = [&] {
    (void)Long(Mid).item<float>(CallFourSite);
    Out = OverFour(One, InB, InC, InD);
  };
  const SourceSite CallWideSite = SourceSite::current();
  auto AfterCallWideBody = [&] {
    (void)Long(Mid).item<float>(CallWideSite);
    Out = Wide(One);
  };
  auto AfterBreakBody = [&] { Out = Brk(Mid); };

  // Host work after a data-dependent selection: the idle after nonzero()
  // of 64K bools, half of them set, minus the idle after a plain sync, per
  // element. The selection has no branch per element (Ops.cpp), so the
  // cost per element is the same from 8K to 1M elements within 20%.
  const int64_t SelectElems = int64_t(1) << 16;
  Tensor Sel = randn({SelectElems}, kAccel, 5) > 0.0;
  const SourceSite SelectSite = SourceSite::current();
  (void)nonzero(Sel, SelectSite);
  Sample Select = idleMicros(std::max(N / 100, 11), SelectSite, [&] {
    Out = nonzero(Sel, SelectSite);
    Op();
  });

  // The host's own work after a sync, before it enqueues more: a print of
  // the value read, a print of the tensor itself, a loop over host data.
  // Each is the idle after a sync followed by that work and an eager op,
  // minus the idle after the sync and the op alone. What is printed goes
  // to /dev/null: formatted and written like a program's output, never
  // seen.
  std::ofstream Sink("/dev/null");
  int Step = 0;
  const SourceSite PrintSite = SourceSite::current();
  auto AfterPrintBody = [&] {
    float V = Long(Mid).item<float>(PrintSite);
    Sink << "step " << ++Step << " loss " << V << '\n';
    Op();
  };
  // The same print ending in std::endl, to a file: the flush is a write
  // system call. The file is unlinked once open, so nothing is left.
  std::ofstream FlushSink;
  {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Path =
        std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/seam-rt-flush-XXXXXX";
    int Fd = mkstemp(Path.data());
    if (Fd >= 0) {
      FlushSink.open(Path);
      ::unlink(Path.c_str());
      ::close(Fd);
    }
  }
  std::ostream &FlushTo = FlushSink.is_open() ? FlushSink : Sink;
  const SourceSite FlushSite = SourceSite::current();
  auto AfterFlushBody = [&] {
    float V = Long(Mid).item<float>(FlushSite);
    FlushTo << "step " << ++Step << " loss " << V << std::endl;
    Op();
  };
  const SourceSite TensorSite = SourceSite::current();
  auto AfterTensorBody = [&] {
    Sink << "step " << ++Step << " loss "
         << detail::Printed(Long(Mid), TensorSite) << '\n';
    Op();
  };
  // The loop runs over data the device has just copied to the host, as a
  // program's loop over a `.cpu()` copy does: the copy was written on the
  // device's core, and the host reads it from there. Its accumulator lives
  // in memory, as GCC keeps a local of main() that is live across calls
  // that may throw (validate_printed's loop: a load, an add and a store per
  // element, 3-4 ns here); held in a register, the same loop runs about
  // five times faster (0.6-0.7 ns per element), a lower bound for a loop
  // that does any more work per element.
  const int64_t HostElems = int64_t(1) << 14;
  Tensor Copied = randn({HostElems}, kAccel, 9);
  volatile double Kept = 0;
  const SourceSite CopySite = SourceSite::current();
  auto AfterCopyBody = [&] {
    (void)Long(Mid);
    Tensor H = Copied.cpu(CopySite);
    Kept = H.data_ptr<float>()[0];
    Op();
  };
  const SourceSite LoopSite = SourceSite::current();
  auto AfterLoopBody = [&] {
    (void)Long(Mid);
    Tensor H = Copied.cpu(LoopSite);
    const float *P = H.data_ptr<float>();
    volatile double Acc = 0;
    for (int64_t I = 0; I < HostElems; ++I)
      Acc = Acc + P[I];
    Kept = Acc;
    Op();
  };
  (void)Kept;
  std::vector<Sample> InTurn =
      idleMicrosInTurn(LongReps, {{WakeSite, AfterWaitBody},
                                  {CallSite, AfterCallBody},
                                  {BreakSite, AfterBreakBody},
                                  {PrintSite, AfterPrintBody},
                                  {FlushSite, AfterFlushBody},
                                  {TensorSite, AfterTensorBody},
                                  {CopySite, AfterCopyBody},
                                  {LoopSite, AfterLoopBody},
                                  {CallFourSite, AfterCallFourBody},
                                  {CallWideSite, AfterCallWideBody}});
  const Sample &AfterWait = InTurn[0], &AfterCall = InTurn[1],
               &AfterBreak = InTurn[2], &AfterPrint = InTurn[3],
               &AfterFlush = InTurn[4], &AfterTensor = InTurn[5],
               &AfterCopy = InTurn[6], &AfterLoop = InTurn[7],
               &AfterCallFour = InTurn[8], &AfterCallWide = InTurn[9];
  double PrintUs = std::max(0.0, AfterPrint.Median - AfterWait.Median);

  // A sync after a compile: the work it waits for came from a compiled
  // function's first call, which compiled it. The host's next work is the
  // same function's next call, its first from the cache, as a program's
  // loop after a warm-up call makes it, or one eager op (as
  // AfterWaitBody): the first is what the cold host path costs a region
  // call, the second an eager op. (With another function's cached call
  // next, Next(One), the same probe idled 15.5-17.5 us where the same
  // function's next call idled 20.5-21.5 us, 2-core machine, 2026-12-07;
  // the branch and train_loop examples' warm-up syncs measured 1.4-1.55x
  // the term measured with Next.) Each sample compiles a region of its own:
  // four ops chosen by the sample's number, one more per sixteen numbers,
  // so no structure is in the region cache yet, even when a process
  // calibrates again. The same function's second, cached call gives the
  // idle without the compile.
  static std::atomic<int> Fresh{0};
  const int64_t CompileElems = 40961; // a size no other pattern here uses
  Tensor Fed = randn({CompileElems}, kAccel, 11);
  const SourceSite CompiledSites[2] = {
      SourceSite::current(), // one site per line
      SourceSite::current()};
  const SourceSite CachedSites[2] = {SourceSite::current(), // one site per line
                                     SourceSite::current()};
  std::vector<double> AfterCompileT[2], AfterCachedT[2];
  for (int I = 0; I < 18; ++I) {
    int J = Fresh++, Eager = I % 2;
    auto Fn = compile([J](Tensor X) {
      Tensor Y = X;
      for (int B = 0; B < 4 + J / 16; ++B)
        Y = (J >> (B % 4) & 1) ? relu(Y * 1.5) : sigmoid(Y - 0.5);
      return Y.sum();
    });
    for (int Cached = 0; Cached < 2; ++Cached) {
      const SourceSite &At = Cached ? CachedSites[Eager] : CompiledSites[Eager];
      (Cached ? AfterCachedT : AfterCompileT)[Eager].push_back(
          idleOnce(At, [&] {
            (void)Fn(Fed).item<float>(At);
            if (Eager)
              Op();
            else
              Out = Fn(Fed);
          }));
    }
  }
  Sample AfterCompile = summarize(std::move(AfterCompileT[0]));
  Sample AfterCached = summarize(std::move(AfterCachedT[0]));
  Sample AfterCompileEager = summarize(std::move(AfterCompileT[1]));
  Sample AfterCachedEager = summarize(std::move(AfterCachedT[1]));

  // A sync behind several iterations' device work (`if (step % 50 == 0)`):
  // 256 eager ops over 64K floats, as fifty steps of a small training loop
  // enqueue (128 MiB read and written through the caches the host shares with
  // the device, 1-3 ms here), before item(). The host then resumes cold: a
  // plain sync idles a few us longer, and a flushing write costs up to
  // three times host_flush_us, while formatting without a flush costs
  // about what it costs warm (printed.cpp: ~1 us for a '\n' print after 25
  // steps, 10-60 us for one ending in std::endl after 50).
  const int64_t DeepElems = int64_t(1) << 16;
  Tensor Deep = randn({DeepElems}, kAccel, 13);
  auto DeepQueue = [&] {
    for (int K = 0; K < 256; ++K)
      Deep = Deep * 0.999;
  };
  const SourceSite ColdSite = SourceSite::current();
  auto ColdWaitBody = [&] {
    DeepQueue();
    (void)Deep.sum().item<float>(ColdSite);
    Op();
  };
  const SourceSite ColdFlushSite = SourceSite::current();
  auto ColdFlushBody = [&] {
    DeepQueue();
    float V = Deep.sum().item<float>(ColdFlushSite);
    FlushTo << "step " << ++Step << " loss " << V << std::endl;
    Op();
  };
  // The same when the host's next work is a cached compiled call (as
  // AfterCallBody): recording a region's ops, looking it up and launching
  // it is more host code to run cold than one eager op.
  const int64_t LongQueueElems = int64_t(1) << 20;
  Tensor LongDeep = randn({LongQueueElems}, kAccel, 17);
  const SourceSite ColdCallSite = SourceSite::current();
  auto ColdCallBody = [&] {
    for (int K = 0; K < 64; ++K)
      LongDeep = LongDeep * 0.999;
    (void)LongDeep.sum().item<float>(ColdCallSite);
    Out = Next(One);
  };
  std::vector<Sample> Cold =
      idleMicrosInTurn(std::max(N / 100, 15), {{ColdSite, ColdWaitBody},
                                               {ColdFlushSite, ColdFlushBody},
                                               {ColdCallSite, ColdCallBody}});
  const Sample &ColdWait = Cold[0], &ColdFlush = Cold[1], &ColdCall = Cold[2];

  // Bandwidth: one fused pass over 16M floats (read 64 MB, write 64 MB).
  // Filled with a constant: the pass's time does not depend on the values
  // (none is denormal), and drawing 16M normal values costs the process
  // more than half a second.
  const int64_t Elems = int64_t(1) << 24;
  Tensor Big = full({Elems}, 0.5, kAccel);
  auto Chain = compile([](Tensor X) { return X * 2.0 + 1.0; });
  Out = Chain(Big);
  synchronize();
  Sample Pass = timeMicros(std::max(N / 100, 11), Idle, [&] {
    Out = Chain(Big);
    synchronize();
  });
  double GBps = (2.0 * Elems * sizeof(float)) / (Pass.Median * 1e-6) / 1e9;

  // A transcendental op: tanh, sigmoid, exp and gelu, eager, twice each
  // over 64K floats, and the sync, per element. On a device that runs on a
  // CPU core each takes several times its memory traffic (2-4 ns per
  // element here, against 0.25 for a multiply), which a queue of them costs
  // the host waiting.
  const int64_t TransElems = int64_t(1) << 16;
  const int TransOps = 8;
  Tensor TransIn = randn({TransElems}, kAccel, 17);
  auto Transcendental = [&] {
    for (int K = 0; K < TransOps / 4; ++K) {
      Out = tanh(TransIn);
      Out = sigmoid(TransIn);
      Out = exp(TransIn);
      Out = gelu(TransIn);
    }
    synchronize();
  };
  Transcendental();
  Sample Trans = timeMicros(std::max(N / 100, 11), Idle, Transcendental);
  double TransNs = Trans.Median * 1e3 / (double(TransOps) * TransElems);

  double Launch =
      std::max(0.0, OpAndSync.Median - Enqueue.Median - SyncIdle.Median);
  // The device time of the two cold queues by the cost model's formula
  // (queueMicros in lib/Cost/Formulas.h: each op max(launch latency, its
  // result written and read at the bandwidth)): a program's cold sync adds
  // host_cold_sync_us or host_cold_region_us in proportion to its own
  // queue by the same formula, so the formula's error on cache-resident
  // data cancels.
  auto QueueUs = [&](int Ops, int64_t Elems) {
    double Bytes = double(Elems) * sizeof(float);
    return Ops * std::max(Launch, 2 * Bytes / (GBps * 1e3));
  };
  const double ColdQueueUs = QueueUs(256, DeepElems);
  const double ColdRegionQueueUs = QueueUs(64, LongQueueElems);
  double Wake = std::max(0.0, AfterWait.Median - Enqueue.Median - Launch);

  auto M = [](const char *Name, double Value, const Sample &S,
              std::string How) {
    return Measurement{Name, Value, S.Spread, S.Runs, std::move(How)};
  };
  return {
      M("sync_roundtrip_us", Wake, AfterWait,
        "median device idle after item() behind a running kernel, minus an "
        "eager op's enqueue and launch latency: " +
            us(AfterWait.Median) + " in all"),
      M("host_resume_us", std::max(0.0, AfterCall.Median - Wake - Launch),
        AfterCall,
        "median device idle after item() when the host's next work is a "
        "cached four-op compiled call (" +
            us(AfterCall.Median) +
            "), minus sync_roundtrip_us and launch_latency_us (the call's "
            "host time alone: " +
            us(Resume.Median) + ")"),
      M("host_eager_us", std::max(0.0, AfterWait.Median - Wake - Launch),
        AfterWait,
        "median device idle after item() behind a running kernel when the "
        "host's next work is one eager op (" +
            us(AfterWait.Median) +
            "), minus sync_roundtrip_us and launch_latency_us"),
      M("break_resume_us", std::max(0.0, AfterBreak.Median - Wake - Launch),
        AfterBreak,
        "median device idle after a graph break's item() until the region's "
        "next four-op piece starts (" +
            us(AfterBreak.Median) +
            "), minus sync_roundtrip_us and launch_latency_us"),
      M("host_op_us",
        std::max(0.0, (AfterCallWide.Median - AfterCall.Median) / 5),
        AfterCallWide,
        "median device idle after item() when the host's next work is a "
        "cached nine-op compiled call (" +
            us(AfterCallWide.Median) +
            "), minus the same with host_resume_us's four-op call, per op"),
      M("host_input_us",
        std::max(0.0, (AfterCallFour.Median - AfterCall.Median) / 3),
        AfterCallFour,
        "median device idle after item() when the host's next work is the "
        "cached four-op compiled call over four tensors (" +
            us(AfterCallFour.Median) +
            "), minus the same over one (host_resume_us's call), per tensor "
            "argument beyond the first"),
      M("launch_latency_us", Launch, OpAndSync,
        "median enqueue + synchronize of one eager op, minus the enqueue and "
        "an idle synchronize (" +
            us(SyncIdle.Median) + ")"),
      M("region_entry_us",
        std::max(0.0, RegionAndSync.Median - OpAndSync.Median), RegionAndSync,
        "median cached one-op compiled call + synchronize, minus the same op "
        "run eagerly"),
      M("memory_bandwidth_gbps", GBps, Pass,
        "one fused x*2+1 pass over 16M floats, bytes read plus written, "
        "median run"),
      M("host_print_us", PrintUs, AfterPrint,
        "median device idle after item() when the host then prints the "
        "value with a step number (`<< \"step \" << i << \" loss \" << v << "
        "'\\n'`, to /dev/null) before an eager op (" +
            us(AfterPrint.Median) + "), minus the idle without the print"),
      M("host_print_tensor_us",
        std::max(0.0, AfterTensor.Median - AfterWait.Median - PrintUs),
        AfterTensor,
        "median device idle after printing a 0-dim tensor (the print "
        "syncs) before an eager op (" +
            us(AfterTensor.Median) +
            "), minus the idle after item() and host_print_us"),
      M("host_flush_us", std::max(0.0, AfterFlush.Median - AfterPrint.Median),
        AfterFlush,
        "median device idle after item() when the host then prints the "
        "value as host_print_us does but ends the line with std::endl, to a "
        "file (" +
            us(AfterFlush.Median) +
            "), minus the idle with '\\n' to /dev/null: the write system "
            "call"),
      M("host_element_us",
        std::max(0.0, AfterLoop.Median - AfterCopy.Median) / HostElems,
        AfterLoop,
        "median device idle after cpu() of 16K floats when the host then "
        "sums the copy, its accumulator in memory, before an eager op (" +
            us(AfterLoop.Median) + "), minus the idle without the loop (" +
            us(AfterCopy.Median) + "), per element"),
      M("host_after_compile_us",
        std::max(0.0, AfterCompile.Median - AfterCached.Median), AfterCompile,
        "median device idle after item() when the work it waited for was a "
        "compiled function's first call, which compiled it, and the host's "
        "next work is the same function's next call, from the cache (" +
            us(AfterCompile.Median) +
            "), minus the same after the function's second, cached call (" +
            us(AfterCached.Median) + ")"),
      M("host_after_compile_eager_us",
        std::max(0.0, AfterCompileEager.Median - AfterCachedEager.Median),
        AfterCompileEager,
        "the same as host_after_compile_us when the host's next work is one "
        "eager op (" +
            us(AfterCompileEager.Median) + " after the first call, " +
            us(AfterCachedEager.Median) + " after the second)"),
      M("host_cold_sync_us", std::max(0.0, ColdWait.Median - AfterWait.Median),
        ColdWait,
        "median device idle after item() behind 256 eager ops over 64K "
        "floats (128 MiB read and written) before an eager op (" +
            us(ColdWait.Median) +
            "), minus the same behind one running kernel"),
      M("host_cold_region_us",
        std::max(0.0, ColdCall.Median - AfterCall.Median), ColdCall,
        "median device idle after item() behind 64 eager ops over 1M "
        "floats (512 MiB read and written) when the host's next work is a "
        "cached four-op compiled call (" +
            us(ColdCall.Median) +
            "), minus the same behind one running kernel (" +
            us(AfterCall.Median) + ")"),
      M("host_cold_flush_us",
        std::max(0.0, ColdFlush.Median - ColdWait.Median - PrintUs), ColdFlush,
        "median device idle after item() behind the same 256 ops when the "
        "host then prints the value ending in std::endl, to a file (" +
            us(ColdFlush.Median) +
            "), minus the idle without the print and host_print_us"),
      // Worked out, not timed: they vary as the bandwidth pass does.
      M("host_cold_queue_us", ColdQueueUs, Pass,
        "the device time of host_cold_sync_us's queue (256 ops over 64K "
        "floats) by the cost model's queue formula: per op, the larger of "
        "launch_latency_us and its result written and read at "
        "memory_bandwidth_gbps"),
      M("host_cold_region_queue_us", ColdRegionQueueUs, Pass,
        "the same for host_cold_region_us's queue (64 ops over 1M floats)"),
      M("host_select_us_per_element",
        std::max(0.0, Select.Median - AfterWait.Median) / double(SelectElems),
        Select,
        "median device idle after nonzero() of 64K bools, half of them set, "
        "minus the idle after a plain sync, per element of input"),
      M("transcendental_ns_per_element", TransNs, Trans,
        "median time of eight eager ops over 64K floats (tanh, sigmoid, "
        "exp and gelu, twice each) and a synchronize(), per element")};
}

namespace {
// seam validate sets SEAM_RT_CALIBRATE=N: the parameters are measured in
// the program's own process, before main() starts, and the report holds
// them apart from the program's work, which starts from zero.
const bool CalibratedFirst = [] {
  std::optional<int> Reps = detail::settings().CalibrateReps;
  if (!Reps)
    return false;
  try {
    std::vector<Measurement> Cal = calibrate(std::max(11, *Reps));
    synchronize();
    detail::Telemetry::get().startProgram(std::move(Cal));
  } catch (const std::exception &E) {
    std::fprintf(stderr, "seam::rt: SEAM_RT_CALIBRATE: %s\n", E.what());
  }
  return true;
}();
} // namespace

} // namespace seam::rt
