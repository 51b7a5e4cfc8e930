//===- PackCommand.cpp - seam pack check: a rule pack, validated ----------===//
#include "Command.h"

#include "Driver/CheckCommand.h"
#include "Driver/PackCheck.h"

namespace seam {
namespace {

class PackCommand : public Command {
public:
  const char *name() const override { return "pack"; }
  std::string usageName() const override { return "pack check "; }

  CLI::App *define(CLI::App &App, const Invocation &Inv) override {
    Opts.Frontend.HasExtraArgs = Inv.SawDashDash;
    Opts.Frontend.ExtraArgs = Inv.Extra;
    CLI::App *Pack =
        App.add_subcommand("pack", "Work with rule packs (docs/rule-packs.md)");
    Pack->require_subcommand(1);
    Check = Pack->add_subcommand(
        "check", "Validate a rule pack; with --against, list the entries that "
                 "never matched anything in the given code");
    Check->add_option("pack", Opts.Pack, "The pack (JSON) to check")
        ->required();
    Check->add_option(
        "--against", Opts.Against,
        "Source files to match the pack against (compile flags after '--', "
        "or -p); repeatable");
    Check->add_option("-p,--build-path", Opts.Frontend.BuildDir,
                      "Build directory with compile_commands.json");
    Check->add_flag("--strict", Strict, "Exit 1 when an entry never matched");
    Check->add_flag("--no-default-rules", NoDefaults,
                    "Do not load the default packs beside it (their tensor "
                    "types then do not count as 'tensor')");
    Check->add_option("--format", Format, "text (default) or json")
        ->check(CLI::IsMember({"text", "json"}));
    Check->add_option("--rules-dir", Opts.RulesDir,
                      "Where the default packs live");
    return Check;
  }

  int run(const Invocation &Inv) override {
    Opts.DefaultRules = !NoDefaults;
    Opts.Json = Format == "json";
    if (Opts.RulesDir.empty())
      Opts.RulesDir = findRulesDir(installedRulesDir(Inv.Argv0));
    if (!Opts.Against.empty() && Opts.Frontend.BuildDir.empty() &&
        !Inv.SawDashDash)
      return usageError("--against needs compile flags after '--' or a "
                        "build directory with -p",
                        "pack check ");
    return runPackCheck(Opts, Strict);
  }

private:
  PackCheckOptions Opts;
  CLI::App *Check = nullptr;
  bool Strict = false, NoDefaults = false;
  std::string Format = "text";
};

} // namespace

std::unique_ptr<Command> makePackCommand() {
  return std::make_unique<PackCommand>();
}

} // namespace seam
