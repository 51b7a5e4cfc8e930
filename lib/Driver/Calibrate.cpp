//===- Calibrate.cpp - `seam calibrate`: a profile for seam::rt's device --===//
#include "Driver/Calibrate.h"
#include "Driver/Output.h"

#include <seam/rt.h>

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <sys/utsname.h>
#include <thread>

namespace seam {

/// The machine the profile was measured on, and how busy it was: the same
/// parameters measured on a loaded 2-core runner and on a quiet workstation
/// differ several-fold, and the reader of the profile must be able to tell.
static nlohmann::json hostDescription(std::vector<std::string> &Warnings) {
  nlohmann::json H = nlohmann::json::object();
  std::ifstream CpuInfo("/proc/cpuinfo");
  for (std::string Line; std::getline(CpuInfo, Line);)
    if (Line.rfind("model name", 0) == 0 &&
        Line.find(':') != std::string::npos) {
      H["cpu"] = Line.substr(Line.find(':') + 2);
      break;
    }
  unsigned Cores = std::thread::hardware_concurrency();
  H["logicalCores"] = Cores;
  struct utsname U;
  if (uname(&U) == 0)
    H["os"] = std::string(U.sysname) + " " + U.release + " " + U.machine;
  double Load[1];
  if (getloadavg(Load, 1) == 1) {
    H["loadAverage1min"] = std::round(Load[0] * 100) / 100;
    if (Cores && Load[0] > 0.5 * Cores)
      Warnings.push_back("the machine was busy while measuring (load average " +
                         std::to_string(Load[0]).substr(0, 4) + " on " +
                         std::to_string(Cores) +
                         " cores): latencies come out higher than on a quiet "
                         "machine");
  }
  return H;
}

/// Three decimals, or four significant digits for a value below 1 (the
/// per-element costs are around 0.001 us).
static double roundForProfile(double V) {
  int Decimals = 3;
  if (V != 0 && std::fabs(V) < 1)
    Decimals = std::max(3, 3 - int(std::floor(std::log10(std::fabs(V)))));
  double Scale = std::pow(10.0, Decimals);
  return std::round(V * Scale) / Scale;
}

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
    Params[M.name] = {{"value", roundForProfile(M.value)},
                      {"source", How + M.how},
                      {"command", Command},
                      {"runs", M.runs},
                      {"spread", std::round(M.spread * 1000) / 1000}};
    // Every parameter moves with the machine's load; say so whenever the
    // runs disagreed too much for the median to mean much.
    if (M.spread > 0.25)
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
                    "interquartile range over the median of the runs; "
                    "'host' is the machine measured and its load then."},
          {"host", hostDescription(Warnings)},
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

  if (std::optional<std::string> E =
          writeOutput(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
            OS << J.dump(2) << "\n";
          })) {
    llvm::errs() << "seam: error: " << *E << "\n";
    return 2;
  }
  return 0;
}

} // namespace seam
