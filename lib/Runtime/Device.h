//===- Device.h - The virtual accelerator: a worker draining a FIFO stream ===//
//
// Use this to put work on the accelerator. The host only enqueues; the one
// worker thread runs tasks in order. synchronize() is the only way for the
// host to wait, so every wait is counted and timed in one place.
//
//===----------------------------------------------------------------------===//

#ifndef SEAM_RT_DEVICE_H
#define SEAM_RT_DEVICE_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace seam::rt::detail {

/// Runs once at exit (whichever of the stream and the telemetry registered
/// it): stops the device, writes the trace and SEAM_RT_REPORT's report.
void finishRun();

class DeviceStream {
public:
  static DeviceStream &get();

  /// Queues Fn. Kernels (as opposed to copies) are counted in stats();
  /// NumOps > 1 marks a fused kernel.
  void enqueue(std::string Name, bool IsKernel, int NumOps,
               std::function<void()> Fn);
  /// Blocks the host until every queued task has run; counted as a sync.
  /// Rethrows the first failure of a device task.
  void synchronize(bool CountAsSync = true);
  /// Drains and stops the worker; later tasks run inline on the host.
  void shutdown();

  /// Runs Fn(Begin, End) over [0, N) on the worker and its helpers. Call
  /// only from device tasks.
  void parallelFor(int64_t N, int64_t Grain,
                   const std::function<void(int64_t, int64_t)> &Fn);
  /// How many parts parallelFor splits N elements into; part P covers
  /// [N * P / Parts, N * (P + 1) / Parts).
  unsigned partsFor(int64_t N, int64_t Grain) const;

private:
  DeviceStream();
  struct Task {
    std::string Name;
    bool IsKernel = false;
    int NumOps = 1;
    std::function<void()> Fn;
  };
  void workerLoop();
  void helperLoop(unsigned Index);
  void runTask(Task &T);
  /// Host: destroys the tasks the device has run (see Retired).
  void reclaim();

  std::mutex M;
  std::condition_variable WorkCV;
  std::condition_variable DoneCV;
  /// Tasks [QueueHead, end) are waiting. A vector whose storage stays (not
  /// a deque): the host allocates, and the worker would free a deque's
  /// blocks (see Retired).
  std::vector<Task> Queue;
  size_t QueueHead = 0;
  /// Tasks the device has run, for the host to destroy. What a task's
  /// closure holds (tensors, buffers, the closure itself) the host
  /// allocated; freed on the device, it lands in glibc's bins behind the
  /// host's back, and the host's next allocation after a sync then sorts
  /// every chunk freed during the wait, each a cache miss on the other
  /// core: one eager op's enqueue after waiting behind 1024 kernels took
  /// ~9 us instead of ~1.5 us. The host destroys them while it waits and
  /// after each enqueue, when the device has work.
  std::mutex RM;
  std::vector<Task> Retired;
  std::mutex ReclaimM; ///< held by the host thread that reclaims
  std::vector<Task> Dead;
  bool Stopped = false;
  bool WorkerSleeping = false;
  /// Host threads blocked in synchronize(); a count, not a flag: with two
  /// host threads, one waking must not hide the other from the worker.
  unsigned HostWaiting = 0;
  std::exception_ptr Failure;
  uint64_t Submitted = 0; // Host-only.
  std::atomic<uint64_t> Done{0};
  std::atomic<uint64_t> Pushed{0};
  std::thread Worker;

  // Helpers split large kernels; they wait on a generation counter.
  std::mutex HM;
  std::condition_variable HelperCV;
  std::condition_variable HelperDoneCV;
  uint64_t Generation = 0;
  unsigned HelpersBusy = 0;
  const std::function<void(int64_t, int64_t)> *Job = nullptr;
  int64_t JobN = 0;
  unsigned JobParts = 1;
  std::vector<std::thread> Helpers;
};

} // namespace seam::rt::detail

#endif // SEAM_RT_DEVICE_H
