//===- Calibrate.h - `seam calibrate`: a profile for seam::rt's device ----===//
//
// Measures the cost model's parameters on seam::rt's virtual accelerator,
// on this machine, and writes them as a device profile whose every number
// names the measurement that made it. Use it to produce
// rules/profiles/seamrt-local.json, against which `seam check` estimates for
// seam::rt code can be compared with what the runtime's stats() report.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_CALIBRATE_H
#define SEAM_DRIVER_CALIBRATE_H

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace seam::rt {
struct Measurement;
}

namespace seam {

struct CalibrateOptions {
  std::string OutputPath; ///< "" = stdout
  int Repetitions = 2000;
};

/// The profile made of seam::rt::calibrate()'s measurements, every
/// parameter with its median, spread, runs and \p Command; \p Warnings
/// gets a line per latency whose runs disagreed too much.
nlohmann::json profileFrom(const std::vector<seam::rt::Measurement> &Ms,
                           const std::string &Command,
                           std::vector<std::string> &Warnings);

/// Runs the measurements; returns the process exit code (0 or 2).
int runCalibrate(const CalibrateOptions &Opts);

} // namespace seam

#endif
