//===- Settings.h - seam::rt's SEAM_RT_* variables, read in one place -----===//
//
// Every environment variable the runtime reads (docs/runtime.md), read once
// at first use; the device, the telemetry, the JIT and the in-process
// calibration take their settings from here.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_RT_SETTINGS_H
#define SEAM_RT_SETTINGS_H

#include <chrono>
#include <optional>
#include <string>

namespace seam::rt::detail {

struct Settings {
  /// SEAM_RT_POLL_US: how long the device thread keeps polling its queue
  /// after its last task before it sleeps. Default 10000.
  std::chrono::microseconds WorkerPoll{10000};
  /// SEAM_RT_WAIT=block: the host sleeps while more than the last task is
  /// queued, instead of polling.
  bool BlockingWait = false;
  /// SEAM_RT_THREADS: threads in all, the host's included (as given, for
  /// messages); unset: the default.
  std::optional<std::string> Threads;
  /// SEAM_RT_PIN=0: leave the device threads wherever the OS puts them,
  /// instead of on cores of their own (see pinDeviceThreads in Device.cpp).
  bool PinDevice = true;
  /// SEAM_RT_REPORT, SEAM_RT_TRACE: where the site report and the Chrome
  /// trace go at exit ("" = not written).
  std::string ReportPath, TracePath;
  /// SEAM_RT_CALIBRATE=N: measure the cost model's parameters with N
  /// repetitions before main() (seam validate sets it).
  std::optional<int> CalibrateReps;
  /// SEAM_RT_DUMP_IR=1: print the optimized kernels.
  bool DumpIR = false;
};

/// The settings, read from the environment at the first call.
const Settings &settings();

} // namespace seam::rt::detail

#endif // SEAM_RT_SETTINGS_H
