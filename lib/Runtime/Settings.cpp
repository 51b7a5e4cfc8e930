//===- Settings.cpp - seam::rt's SEAM_RT_* variables, read in one place ---===//
#include "Settings.h"

#include <cstdlib>

namespace seam::rt::detail {

namespace {

/// The variable's value, or null when it is unset.
const char *env(const char *Name) { return std::getenv(Name); }

Settings read() {
  Settings S;
  if (const char *V = env("SEAM_RT_POLL_US"))
    S.WorkerPoll = std::chrono::microseconds(std::atoi(V));
  if (const char *V = env("SEAM_RT_WAIT"))
    S.BlockingWait = std::string(V) == "block";
  if (const char *V = env("SEAM_RT_THREADS"))
    S.Threads = V;
  if (const char *V = env("SEAM_RT_PIN"))
    S.PinDevice = std::string(V) != "0";
  if (const char *V = env("SEAM_RT_REPORT"))
    S.ReportPath = V;
  if (const char *V = env("SEAM_RT_TRACE"))
    S.TracePath = V;
  if (const char *V = env("SEAM_RT_CALIBRATE"); V && *V)
    S.CalibrateReps = std::atoi(V);
  if (const char *V = env("SEAM_RT_DUMP_IR"))
    S.DumpIR = *V == '1';
  return S;
}

} // namespace

const Settings &settings() {
  // Never destroyed: the exit hook (finishRun) reads it after static
  // destruction may have begun.
  static const Settings *S = new Settings(read());
  return *S;
}

} // namespace seam::rt::detail
