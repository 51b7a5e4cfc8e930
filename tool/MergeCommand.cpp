//===- MergeCommand.cpp - seam merge: the SARIF of shards, joined ---------===//
#include "Command.h"

#include "Driver/Merge.h"

namespace seam {
namespace {

class MergeCommand : public Command {
public:
  const char *name() const override { return "merge"; }

  CLI::App *define(CLI::App &App, const Invocation &) override {
    CLI::App *Cmd = App.add_subcommand(
        "merge", "Join the SARIF files of 'seam check --shard' runs into one, "
                 "dropping results that several shards found in a header");
    Cmd->add_option("files", Opts.Inputs, "SARIF files to join")->required();
    Cmd->add_option("-o,--output", Opts.OutputPath,
                    "Write the joined SARIF here instead of stdout");
    Cmd->add_option("--summaries", Opts.Summaries,
                    "The shards' 'seam check --summaries-out' files: run the "
                    "project pass over all of them and add the results hot "
                    "only through a call from another file "
                    "(docs/whole-project.md)");
    Cmd->add_option("--sarif-category", Opts.SarifCategory,
                    "Set run.automationDetails.id of the joined run");
    return Cmd;
  }

  int run(const Invocation &) override { return runMerge(Opts); }

private:
  MergeOptions Opts;
};

} // namespace

std::unique_ptr<Command> makeMergeCommand() {
  return std::make_unique<MergeCommand>();
}

} // namespace seam
