//===- CalibrateCommand.cpp - seam calibrate: a measured device profile ---===//
#include "Command.h"

#include "Driver/Calibrate.h"

namespace seam {
namespace {

class CalibrateCommand : public Command {
public:
  const char *name() const override { return "calibrate"; }

  CLI::App *define(CLI::App &App, const Invocation &) override {
    CLI::App *Cmd = App.add_subcommand(
        "calibrate", "Measure the cost model's parameters on seam::rt's "
                     "virtual accelerator and write a device profile "
                     "(docs/cost-model.md)");
    Cmd->add_option("-o,--output", Opts.OutputPath,
                    "Write the profile JSON to this file instead of "
                    "stdout");
    Cmd->add_option("--repetitions", Opts.Repetitions,
                    "Timed runs per measurement (median reported). "
                    "Default: 2000")
        ->check(CLI::Range(11, 1000000));
    return Cmd;
  }

  int run(const Invocation &) override { return runCalibrate(Opts); }

private:
  CalibrateOptions Opts;
};

} // namespace

std::unique_ptr<Command> makeCalibrateCommand() {
  return std::make_unique<CalibrateCommand>();
}

} // namespace seam
