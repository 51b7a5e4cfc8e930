//===- ExplainCommand.cpp - seam explain: one rule, from its docs ---------===//
#include "Command.h"

#include "Report/Reporters.h"

#include <iostream>

namespace seam {
namespace {

std::string knownRules() {
  std::string Out;
  for (const RuleInfo &R : ruleCatalog())
    Out += (Out.empty() ? "" : ", ") + R.Id;
  return Out;
}

class ExplainCommand : public Command {
public:
  const char *name() const override { return "explain"; }

  CLI::App *define(CLI::App &App, const Invocation &) override {
    CLI::App *Cmd = App.add_subcommand(
        "explain", "Describe a rule: what it finds, why it costs, how to fix");
    Cmd->add_option("rule", RuleId, "Rule id, e.g. seam-host-sync")->required();
    return Cmd;
  }

  int run(const Invocation &) override {
    const RuleInfo *R = findRule(RuleId);
    if (!R)
      return usageError("unknown rule '" + RuleId +
                            "' (known: " + knownRules() + ")",
                        "explain ");
    // The rule's docs page is its description (docs/rules/<id>.md).
    std::cout << R->Id << " (default: " << levelName(R->DefaultLevel) << ")\n\n"
              << R->ShortDescription << "\n\n"
              << ruleDocText(R->Id) << "\n";
    std::cout << "\nDocs: docs/rules/" << R->Id << ".md (" << ruleDocUri(R->Id)
              << ")\n";
    return 0;
  }

private:
  std::string RuleId;
};

} // namespace

std::unique_ptr<Command> makeExplainCommand() {
  return std::make_unique<ExplainCommand>();
}

} // namespace seam
