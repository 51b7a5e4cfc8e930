//===- Device.cpp - Device worker, FIFO stream and host synchronization ---===//

#include "Device.h"
#include "Settings.h"

#include "Internal.h"
#include "Telemetry.h"
#include <cstdio>

#include <cstdlib>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SEAM_CPU_RELAX() _mm_pause()
#else
#define SEAM_CPU_RELAX() std::this_thread::yield()
#endif

namespace seam::rt::detail {

namespace {
// Like a GPU polling its doorbell, the worker keeps polling its queue for a
// while after the last task (spinning, then yielding), so a host that
// enqueues again soon, or waits on item(), needs no futex wake-up. After
// WorkerPoll it sleeps and stops using the CPU.
constexpr auto WorkerSpin = std::chrono::microseconds(50);
std::chrono::microseconds workerPoll() { return settings().WorkerPoll; }
// Like CUDA's default synchronization, the host polls while it waits: a
// short pure spin, then yielding, so that on a busy machine the threads it
// waits for can run. Waking from a sleep costs tens of microseconds on a
// loaded machine, and varies, and would make the idle after every sync
// mostly the OS's wake-up latency. SEAM_RT_WAIT=block sleeps instead while
// more than the last task is queued, and polls only for that one.
// While the device threads have cores of their own (pinDeviceThreads), the
// host spins for up to HostSpinPinned: yielding is a system call each
// round, and a host that had yielded saw the device finish 1-2 us later
// than one that spun, so the idle after a sync grew with how long the
// kernel it waited for ran (an item() every step over 64K floats, its sum
// 40 us: 4.6 us idle against 2.6 us over 4K floats; spinning, 3.5 and 3.2
// us; 2-core machine, 2026-12-06). Past it, or sharing cores with the
// device, the host yields after HostSpin, so that the threads it waits for
// can run.
constexpr auto HostSpin = std::chrono::microseconds(10);
constexpr auto HostSpinPinned = std::chrono::microseconds(5000);
constexpr auto HostPoll = std::chrono::microseconds(200);
bool blockingWait() { return settings().BlockingWait; }

unsigned helperCount() {
  if (const std::optional<std::string> &Given = settings().Threads) {
    const char *Env = Given->c_str();
    // A bound the machine can start: 100000 threads would abort the
    // program when the system refuses them.
    constexpr int MaxThreads = 256;
    int N = std::atoi(Env);
    if (N > MaxThreads) {
      std::fprintf(stderr,
                   "seam::rt: SEAM_RT_THREADS=%s is more than %d; using %d\n",
                   Env, MaxThreads, MaxThreads);
      N = MaxThreads;
    }
    return N > 1 ? static_cast<unsigned>(N - 1) : 0;
  }
  // One core stays with the host thread, as a GPU leaves the host its
  // CPU: a device thread sharing the host's core would make every wait's
  // wake-up, and so the idle after each sync, depend on the OS scheduler.
  unsigned HW = std::thread::hardware_concurrency();
  return HW > 2 ? std::min(HW - 2, 7u) : 0;
}

/// The cores the host threads keep to once the device has cores of its
/// own (see pinDeviceThreads); unset while nothing is pinned.
#ifdef __linux__
std::atomic<bool> HostCpusSet{false};
cpu_set_t HostCpus;
#endif

/// Puts the device threads on cores of their own, the last ones the
/// process may use, the worker on the very last, and keeps every host
/// thread that enqueues or waits on the others (keepHostOffDevice): a GPU
/// is a processor apart, and a device thread the OS lets share the host's
/// core turns every sync into a wait for the scheduler. On a 2-core
/// machine, about one run in three left the worker on the host's core for
/// the whole run, and the device idle after each sync was then ~80 us
/// instead of ~6 us (the two threads taking turns at yielding); pinning
/// only the worker still left the host beside it in one run in six.
/// Nothing is pinned when the process may not use more cores than the
/// device has threads (the host would have none left), or with
/// SEAM_RT_PIN=0.
void pinDeviceThreads(std::thread &Worker, std::vector<std::thread> &Helpers) {
#ifdef __linux__
  if (!settings().PinDevice)
    return;
  cpu_set_t Allowed;
  CPU_ZERO(&Allowed);
  if (sched_getaffinity(0, sizeof(Allowed), &Allowed) != 0)
    return;
  std::vector<int> Cpus;
  for (int C = 0; C < CPU_SETSIZE; ++C)
    if (CPU_ISSET(C, &Allowed))
      Cpus.push_back(C);
  size_t Device = Helpers.size() + 1;
  if (Cpus.size() <= Device)
    return;
  auto Pin = [&](std::thread &T, int Cpu) {
    cpu_set_t One;
    CPU_ZERO(&One);
    CPU_SET(Cpu, &One);
    CPU_CLR(Cpu, &Allowed);
    pthread_setaffinity_np(T.native_handle(), sizeof(One), &One);
  };
  Pin(Worker, Cpus.back());
  for (size_t I = 0; I < Helpers.size(); ++I)
    Pin(Helpers[I], Cpus[Cpus.size() - 2 - I]);
  HostCpus = Allowed;
  HostCpusSet.store(true, std::memory_order_release);
#else
  (void)Worker;
  (void)Helpers;
#endif
}

/// The device threads run on cores of their own (pinDeviceThreads).
bool deviceHasOwnCores() {
#ifdef __linux__
  return HostCpusSet.load(std::memory_order_acquire);
#else
  return false;
#endif
}

/// Moves the calling host thread off the device's cores, once per thread.
void keepHostOffDevice() {
#ifdef __linux__
  thread_local bool Placed = false;
  if (Placed || !HostCpusSet.load(std::memory_order_acquire))
    return;
  Placed = true;
  pthread_setaffinity_np(pthread_self(), sizeof(HostCpus), &HostCpus);
#endif
}
} // namespace

namespace {
std::atomic<DeviceStream *> Started{nullptr};
std::atomic<bool> Finished{false};
} // namespace

void finishRun() {
  if (Finished.exchange(true))
    return;
  const char *Path = settings().ReportPath.c_str();
  // Stop the device first, so that every task it ran is in the trace and
  // the report.
  if (DeviceStream *S = Started.load())
    S->shutdown();
  // An exception here would terminate the program at exit; say why. A
  // trace or report that could not be written (a full disk) is lost, so
  // the program then exits with EX_IOERR (74) rather than 0: whoever asked
  // for it (seam validate) must not take its absence for success.
  bool Lost = false;
  try {
    Telemetry::get().flush();
  } catch (const std::exception &E) {
    std::fprintf(stderr, "seam::rt: %s\n", E.what());
    Lost = true;
  }
  if (Path && *Path) {
    try {
      Telemetry::get().writeReport(Path);
    } catch (const std::exception &E) {
      std::fprintf(stderr, "seam::rt: %s (SEAM_RT_REPORT)\n", E.what());
      Lost = true;
    }
  }
  if (Lost) {
    std::fflush(nullptr);
    std::_Exit(74);
  }
}

DeviceStream &DeviceStream::get() {
  // Leaked on purpose; the atexit hook stops the threads, and buffers freed
  // during static destruction never need the stream.
  static DeviceStream *S = [] {
    auto *Stream = new DeviceStream();
    Started.store(Stream);
    std::atexit(finishRun);
    return Stream;
  }();
  return *S;
}

DeviceStream::DeviceStream() {
  Worker = std::thread([this] { workerLoop(); });
  unsigned N = helperCount();
  for (unsigned I = 0; I < N; ++I)
    Helpers.emplace_back([this, I] { helperLoop(I); });
  pinDeviceThreads(Worker, Helpers);
}

void DeviceStream::enqueue(std::string Name, bool IsKernel, int NumOps,
                           std::function<void()> Fn) {
  keepHostOffDevice();
  if (IsKernel) {
    Telemetry::get().count(Counter::Kernels);
    if (NumOps > 1)
      Telemetry::get().count(Counter::FusedKernels);
  }
  Task T{std::move(Name), IsKernel, NumOps, std::move(Fn)};
  std::unique_lock<std::mutex> L(M);
  if (Stopped) {
    L.unlock();
    runTask(T);
    return;
  }
  Queue.push_back(std::move(T));
  ++Submitted;
  Pushed.store(Submitted, std::memory_order_release);
  if (WorkerSleeping)
    WorkCV.notify_one();
  L.unlock();
  // The device has work now: free what it has run meanwhile.
  reclaim();
}

namespace {
/// Set while this thread destroys retired tasks: a destructor that
/// enqueued would otherwise come back into reclaim().
thread_local bool Reclaiming = false;
} // namespace

void DeviceStream::reclaim() {
  // One host thread at a time; Dead's storage and Retired's go back and
  // forth, so that neither side allocates once both have grown.
  if (Reclaiming)
    return;
  std::unique_lock<std::mutex> Own(ReclaimM, std::try_to_lock);
  if (!Own)
    return;
  {
    std::lock_guard<std::mutex> L(RM);
    if (Retired.empty())
      return;
    std::swap(Dead, Retired);
  }
  Reclaiming = true;
  Dead.clear();
  Reclaiming = false;
}

void DeviceStream::runTask(Task &T) {
  auto Begin = Clock::now();
  try {
    T.Fn();
  } catch (...) {
    std::lock_guard<std::mutex> L(M);
    if (!Failure)
      Failure = std::current_exception();
  }
  auto End = Clock::now();
  Telemetry::get().deviceSpan(T.Name, Begin, End, T.NumOps, T.IsKernel);
}

namespace {
thread_local bool OnWorker = false;
} // namespace

namespace {
// Below this many elements a split costs more than it saves.
constexpr int64_t Grain = 1 << 16;
} // namespace

void parallelRange(int64_t N, const std::function<void(int64_t, int64_t)> &Fn) {
  if (OnWorker)
    DeviceStream::get().parallelFor(N, Grain, Fn);
  else
    Fn(0, N);
}

unsigned parallelParts(int64_t N) {
  return OnWorker ? DeviceStream::get().partsFor(N, Grain) : 1;
}

void DeviceStream::workerLoop() {
  OnWorker = true;
  const auto Poll = workerPoll();
  uint64_t Ran = 0;
  for (;;) {
    if (Pushed.load(std::memory_order_acquire) == Ran) {
      auto Start = Clock::now();
      auto SpinUntil = Start + WorkerSpin, PollUntil = Start + Poll;
      for (;;) {
        if (Pushed.load(std::memory_order_acquire) != Ran)
          break;
        auto Now = Clock::now();
        if (Now >= PollUntil)
          break;
        if (Now < SpinUntil)
          SEAM_CPU_RELAX();
        else
          std::this_thread::yield();
      }
    }
    Task T;
    {
      std::unique_lock<std::mutex> L(M);
      WorkerSleeping = true;
      WorkCV.wait(L, [&] { return QueueHead < Queue.size() || Stopped; });
      WorkerSleeping = false;
      if (QueueHead == Queue.size())
        return;
      T = std::move(Queue[QueueHead++]);
      if (QueueHead == Queue.size()) {
        Queue.clear();
        QueueHead = 0;
      } else if (QueueHead >= 1024 && QueueHead * 2 >= Queue.size()) {
        Queue.erase(Queue.begin(), Queue.begin() + QueueHead);
        QueueHead = 0;
      }
    }
    runTask(T);
    {
      std::lock_guard<std::mutex> L(RM);
      Retired.push_back(std::move(T));
    }
    ++Ran;
    Done.store(Ran, std::memory_order_release);
    std::lock_guard<std::mutex> L(M);
    if (HostWaiting)
      DoneCV.notify_all();
  }
}

void DeviceStream::synchronize(bool CountAsSync) {
  keepHostOffDevice();
  if (CountAsSync)
    Telemetry::get().count(Counter::Syncs);
  uint64_t Target;
  {
    std::lock_guard<std::mutex> L(M);
    Target = Submitted;
  }
  auto Begin = Clock::now();
  auto Finished = [&] {
    return Done.load(std::memory_order_acquire) >= Target;
  };
  if (!Finished()) {
    static const bool Block = blockingWait();
    if (Block && Target - Done.load(std::memory_order_acquire) > 1) {
      reclaim();
      std::unique_lock<std::mutex> L(M);
      ++HostWaiting;
      DoneCV.wait(L, [&] {
        return Done.load(std::memory_order_acquire) + 1 >= Target || Stopped;
      });
      --HostWaiting;
    }
    auto Start = Clock::now();
    const auto SpinUntil =
        Start + (deviceHasOwnCores() ? HostSpinPinned : HostSpin);
    for (auto Now = Start; !Finished() && (!Block || Now < Start + HostPoll);
         Now = Clock::now()) {
      if (Now < SpinUntil) {
        SEAM_CPU_RELAX();
      } else {
        reclaim();
        std::this_thread::yield();
      }
    }
    if (!Finished()) {
      std::unique_lock<std::mutex> L(M);
      ++HostWaiting;
      DoneCV.wait(L, [&] { return Finished() || Stopped; });
      --HostWaiting;
    }
  }
  auto End = Clock::now();
  if (CountAsSync) {
    // Named after the line that waited, for the trace and --timeline.
    std::string Name = "sync";
    if (const SiteRecord *At = SiteScope::current()) {
      std::string File = At->Row.file;
      size_t Slash = File.find_last_of('/');
      Name += ": " + At->Row.api + " at " +
              (Slash == std::string::npos ? File : File.substr(Slash + 1)) +
              ":" + std::to_string(At->Row.line);
    }
    Telemetry::get().hostSpan(Name, "sync", Begin, End, /*IsWait=*/true);
    Telemetry::get().siteSync(Begin, End);
  }
  std::exception_ptr F;
  {
    std::lock_guard<std::mutex> L(M);
    std::swap(F, Failure);
  }
  if (F)
    std::rethrow_exception(F);
}

void DeviceStream::shutdown() {
  {
    std::lock_guard<std::mutex> L(M);
    if (Stopped)
      return;
    Stopped = true;
    WorkCV.notify_all();
  }
  // The worker drains the queue before it sees Stopped with nothing left.
  Worker.join();
  reclaim();
  {
    std::lock_guard<std::mutex> L(HM);
    Job = nullptr;
    ++Generation;
    HelperCV.notify_all();
  }
  for (std::thread &H : Helpers)
    H.join();
  Helpers.clear();
}

void DeviceStream::helperLoop(unsigned Index) {
  uint64_t Seen = 0;
  for (;;) {
    std::unique_lock<std::mutex> L(HM);
    HelperCV.wait(L, [&] { return Generation != Seen; });
    Seen = Generation;
    const auto *Fn = Job;
    if (!Fn)
      return;
    int64_t N = JobN;
    unsigned Parts = JobParts;
    L.unlock();
    unsigned Part = Index + 1;
    if (Part < Parts)
      (*Fn)(N *Part / Parts, N * (Part + 1) / Parts);
    L.lock();
    if (--HelpersBusy == 0)
      HelperDoneCV.notify_one();
  }
}

unsigned DeviceStream::partsFor(int64_t N, int64_t Grain) const {
  int64_t P =
      std::min<int64_t>(Helpers.size() + 1, N / std::max<int64_t>(Grain, 1));
  return static_cast<unsigned>(std::max<int64_t>(P, 1));
}

void DeviceStream::parallelFor(
    int64_t N, int64_t Grain, const std::function<void(int64_t, int64_t)> &Fn) {
  unsigned Parts = partsFor(N, Grain);
  if (Parts <= 1) {
    Fn(0, N);
    return;
  }
  {
    std::lock_guard<std::mutex> L(HM);
    Job = &Fn;
    JobN = N;
    JobParts = Parts;
    HelpersBusy = static_cast<unsigned>(Helpers.size());
    ++Generation;
    HelperCV.notify_all();
  }
  Fn(0, N / Parts);
  std::unique_lock<std::mutex> L(HM);
  HelperDoneCV.wait(L, [&] { return HelpersBusy == 0; });
}

} // namespace seam::rt::detail

namespace seam::rt {
void synchronize(SourceSite At) {
  detail::SiteScope Site(At, "synchronize");
  detail::DeviceStream::get().synchronize();
}
} // namespace seam::rt
