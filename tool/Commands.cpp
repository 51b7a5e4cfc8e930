//===- Commands.cpp - The one list of seam's subcommands ------------------===//
#include "Command.h"

#include <iostream>

namespace seam {

std::vector<std::unique_ptr<Command>> makeCommands() {
  std::vector<std::unique_ptr<Command>> Out;
  Out.push_back(makeCheckCommand());
  Out.push_back(makeExplainCommand());
  Out.push_back(makeCalibrateCommand());
  Out.push_back(makeValidateCommand());
  Out.push_back(makeMergeCommand());
  Out.push_back(makePackCommand());
  return Out;
}

int usageError(const std::string &Msg, const std::string &Cmd) {
  std::cerr << "seam: error: " << Msg << " (see 'seam " << Cmd << "--help')\n";
  return 2;
}

} // namespace seam
