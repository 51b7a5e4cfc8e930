//===- Calibrate.cpp - `seam calibrate`: a profile for seam::rt's device --===//
#include "Driver/Calibrate.h"
#include "Driver/Output.h"

#include <seam/rt.h>

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <ctime>

namespace seam {

nlohmann::json profileFrom(const std::vector<seam::rt::Measurement> &Ms,
                           const std::string &Command,
                           std::vector<std::string> &Warnings) {
  char Date[32];
  std::time_t Now = std::time(nullptr);
  std::strftime(Date, sizeof(Date), "%Y-%m-%d", std::gmtime(&Now));
  std::string How = std::string("measured by `") + Command + "` on " + Date +
                    " (seam::rt virtual accelerator on this machine's CPU): ";
  nlohmann::json Params = nlohmann::json::object();
  for (const seam::rt::Measurement &M : Ms) {
    Params[M.name] = {{"value", std::round(M.value * 1000) / 1000},
                      {"source", How + M.how},
                      {"command", Command},
                      {"runs", M.runs},
                      {"spread", std::round(M.spread * 1000) / 1000}};
    // Latencies of a few microseconds move with the machine's load; say so
    // when the runs disagreed too much for the median to mean much.
    bool Latency =
        M.name != "memory_bandwidth_gbps" && M.name != "host_select_us_per_mib";
    if (Latency && M.spread > 0.5)
      Warnings.push_back(M.name + " varied by " +
                         std::to_string(int(M.spread * 100)) +
                         "% between runs (interquartile range over median): "
                         "the machine was too noisy for a reliable profile; "
                         "measure again on a quiet machine");
  }
  return {{"name", "seamrt-local"},
          {"device", "seam::rt virtual accelerator (device worker threads on "
                     "the host CPU)"},
          {"notes", "Regenerate with: seam calibrate -o "
                    "rules/profiles/seamrt-local.json. 'spread' is the "
                    "interquartile range over the median of the runs."},
          {"parameters", Params}};
}

int runCalibrate(const CalibrateOptions &Opts) {
  std::vector<std::string> Warnings;
  std::string Command = "seam calibrate";
  if (Opts.Repetitions != CalibrateOptions().Repetitions)
    Command += " --repetitions " + std::to_string(Opts.Repetitions);
  nlohmann::json J =
      profileFrom(seam::rt::calibrate(Opts.Repetitions), Command, Warnings);
  for (const std::string &W : Warnings)
    llvm::errs() << "seam: warning: " << W << "\n";

  if (std::optional<std::string> E = writeOutput(
          Opts.OutputPath,
          [&](llvm::raw_ostream &OS) { OS << J.dump(2) << "\n"; })) {
    llvm::errs() << "seam: error: " << *E << "\n";
    return 2;
  }
  return 0;
}

} // namespace seam
