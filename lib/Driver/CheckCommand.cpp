//===- CheckCommand.cpp - The `seam check` pipeline -----------------------===//
//
// analyze() runs a check as named phases over one CheckRun (CheckRun.h:
// configure, plan jobs, look up the cache, plan preambles, schedule, finish),
// so that output does not depend on -j. runCheck() adds what the command
// does around it: --list-checks and --dump-config, outputs checked before
// parsing, and the report, fixes and baseline written after.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckCommand.h"
#include "Driver/ApplyFixes.h"
#include "Driver/CheckRun.h"
#include "Driver/Output.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {

std::string projectRoot(const std::string &SarifRoot) {
  llvm::SmallString<256> Dir;
  if (!SarifRoot.empty()) {
    Dir = SarifRoot;
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    return std::string(Dir);
  }
  if (llvm::sys::fs::current_path(Dir))
    return "";
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Git(D);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return D.str();
  }
  return std::string(Dir);
}

int analyze(const CheckOptions &Opts, Report &R, bool &InputError,
            const std::function<bool(const RunInputs &)> &BeforeParse,
            const std::function<void(llvm::ArrayRef<Finding>)> &OnFile,
            RunInputs *Inputs) {
  InputError = false;
  RunInputs Own;
  CheckRun Run(Opts, R, InputError, Inputs ? *Inputs : Own, OnFile);
  if (!Run.configure())
    return 2;
  Run.planJobs();
  if (BeforeParse && !BeforeParse(Run.In))
    return 2;
  Run.lookUpCache();
  Run.planPreambles();
  Run.schedule();
  Run.crossFiles();
  Run.finish();
  return 0;
}

namespace {

/// --list-checks and --dump-config: the configuration of the first file.
int listChecksOrDumpConfig(const CheckOptions &Opts) {
  ConfigFinder Configs(Opts.ConfigFile);
  std::string For =
      Opts.Files.empty() ? "seam-dump-config.cpp" : Opts.Files.front();
  llvm::Expected<FileConfig> C = Configs.forFile(For);
  if (!C) {
    errorExit("invalid configuration: " + llvm::toString(C.takeError()));
    return 2;
  }
  FileConfig Effective = effectiveConfig(*C, Opts);
  if (Opts.ListChecks) {
    llvm::outs() << "Enabled checks:\n";
    for (const std::string &Id : enabledChecks(GlobList(*Effective.Checks)))
      llvm::outs() << "    " << Id << "\n";
    llvm::outs() << "\n";
    return 0;
  }
  if (!Effective.HeaderFilterRegex)
    Effective.HeaderFilterRegex = ".*";
  dumpConfig(llvm::outs(), Effective);
  return 0;
}

/// Whether every file the run writes is safe to write: checked before the
/// (slow) parsing, so that a bad -o fails fast, and again once the headers
/// the parses read are known. No output may replace an input; a baseline
/// may be refreshed in place (--baseline X --write-baseline X): it is read
/// in full before it is replaced.
bool outputsAreSafe(const CheckOptions &Opts,
                    llvm::ArrayRef<std::string> Known) {
  auto Refresh = [&](const std::string &In) {
    return !Opts.WriteBaselinePath.empty() && In == Opts.BaselinePath &&
           llvm::sys::fs::equivalent(Opts.WriteBaselinePath, In);
  };
  for (const std::string *Out : {&Opts.OutputPath, &Opts.WriteBaselinePath,
                                 &Opts.ExportFixesPath, &Opts.SummariesOut})
    if (!Out->empty()) {
      std::vector<std::string> Inputs;
      for (const std::string &In : Known)
        if (!(Out == &Opts.WriteBaselinePath && Refresh(In)))
          Inputs.push_back(In);
      if (std::optional<std::string> Err = checkOutputPath(*Out, Inputs)) {
        errorExit(*Err);
        return false;
      }
    }
  if (!Opts.OutputPath.empty() && !Opts.WriteBaselinePath.empty() &&
      llvm::sys::fs::equivalent(Opts.OutputPath, Opts.WriteBaselinePath)) {
    errorExit("-o and --write-baseline name the same file ('" +
              Opts.OutputPath + "')");
    return false;
  }
  return true;
}

/// Writes \p Path through writeOutput(); false (reported) when it failed.
bool write(const std::string &Path,
           const std::function<void(llvm::raw_ostream &)> &Body) {
  if (std::optional<std::string> Err = writeOutput(Path, Body)) {
    errorExit(*Err);
    return false;
  }
  return true;
}

/// The report, in the format asked for (text already streamed is not
/// written again; the --summary table follows it).
bool writeReport(const CheckOptions &Opts, const Report &R, bool Streamed,
                 bool Color) {
  if (Streamed && !Opts.Summary)
    return true;
  return write(Opts.OutputPath, [&](llvm::raw_ostream &OS) {
    switch (Opts.Format) {
    case OutputFormat::Text:
      if (!Streamed)
        writeText(OS, R, Color);
      if (Opts.Summary)
        writeSummary(OS, R);
      break;
    case OutputFormat::Json:
      writeJson(OS, R);
      break;
    case OutputFormat::Sarif:
      writeSarif(OS, R);
      break;
    }
  });
}

/// --export-fixes: the fixes as clang-tidy's YAML.
bool exportFixes(const CheckOptions &Opts, const Report &R) {
  llvm::SmallString<256> Main, Here;
  if (!Opts.Files.empty()) {
    Main = Opts.Files.front();
    llvm::sys::fs::make_absolute(Main);
  }
  llvm::sys::fs::current_path(Here);
  std::string Yaml =
      exportFixesYaml(R.Findings, std::string(Main), std::string(Here));
  return write(Opts.ExportFixesPath,
               [&](llvm::raw_ostream &OS) { OS << Yaml; });
}

/// --fix: the fixes applied in place.
bool fixInPlace(const CheckOptions &Opts, const Report &R) {
  FixOutcome Done = applyFixes(R.Findings, Opts.FormatStyle);
  for (const std::string &N : Done.Notes)
    llvm::errs() << "seam: note: " << N << "\n";
  if (!Opts.Quiet)
    llvm::errs() << "seam: applied " << Done.Applied << " of " << Done.Offered
                 << " fix" << (Done.Offered == 1 ? "" : "es") << " to "
                 << Done.Files.size() << " file"
                 << (Done.Files.size() == 1 ? "" : "s") << "\n";
  return !Done.WriteFailed;
}

/// --write-baseline. Reasons and dates carry over from the baseline in use,
/// else from the file being replaced. Results the baseline in use accepted
/// are kept; a run over part of the project (named files, a shard) keeps
/// the entries of the files it did not analyze, with their reasons.
bool writeBaseline(const CheckOptions &Opts, Report &R,
                   const RunInputs &Inputs) {
  std::optional<Baseline> Previous;
  for (const std::string &P : {Opts.BaselinePath, Opts.WriteBaselinePath}) {
    if (Previous || P.empty() || !llvm::sys::fs::exists(P))
      continue;
    if (llvm::Expected<Baseline> B = Baseline::load(P))
      Previous = std::move(*B);
    else
      llvm::consumeError(B.takeError());
  }
  sortAndDedupe(R.Unfiltered);
  size_t Written = 0;
  std::string Text =
      baselineText(R.Unfiltered, R.SourceRoot, Previous ? &*Previous : nullptr,
                   Inputs.Partial ? &Inputs.AnalyzedFiles : nullptr, &Written);
  if (!write(Opts.WriteBaselinePath,
             [&](llvm::raw_ostream &OS) { OS << Text; }))
    return false;
  if (!Opts.Quiet)
    llvm::errs() << "seam: wrote " << Written << " result"
                 << (Written == 1 ? "" : "s") << " to baseline '"
                 << Opts.WriteBaselinePath << "'\n";
  return true;
}

} // namespace

int runCheck(const CheckOptions &Opts) {
  if (Opts.ListChecks || Opts.DumpConfig)
    return listChecksOrDumpConfig(Opts);
  if (Opts.Files.empty() && Opts.Frontend.BuildDir.empty()) {
    errorExit("no input files: name the files to analyze, or give -p with a "
              "compile database to analyze all of its files (see 'seam check "
              "--help')");
    return 2;
  }

  Report R;
  R.Category = Opts.SarifCategory;
  bool InputError = false;
  bool Color = Opts.Color == CheckOptions::ColorMode::Always ||
               (Opts.Color == CheckOptions::ColorMode::Auto &&
                Opts.OutputPath.empty() && llvm::outs().has_colors());
  // Text to standard output is printed file by file as each is done.
  bool Stream = Opts.Format == OutputFormat::Text && Opts.OutputPath.empty();
  std::function<void(llvm::ArrayRef<Finding>)> OnFile;
  std::optional<TextPrinter> Printer;
  if (Stream) {
    Printer.emplace(llvm::outs(), Color);
    OnFile = [&](llvm::ArrayRef<Finding> Batch) {
      for (const Finding &F : Batch)
        Printer->print(F);
      llvm::outs().flush();
    };
  }
  RunInputs Inputs;
  int Code = analyze(
      Opts, R, InputError,
      [&](const RunInputs &In) { return outputsAreSafe(Opts, In.Declared); },
      OnFile, &Inputs);
  if (Stream && llvm::outs().has_error()) {
    std::error_code EC = llvm::outs().error();
    llvm::outs().clear_error();
    errorExit("cannot write to standard output: " + EC.message());
    return 2;
  }
  if (Code)
    return Code;
  // The headers the parses read are known only now; nothing was written.
  if (!outputsAreSafe(Opts, std::vector<std::string>(Inputs.Read.begin(),
                                                     Inputs.Read.end())))
    return 2;
  for (const std::string &N : R.Notes)
    llvm::errs() << "seam: note: " << N << "\n";
  if (!writeReport(Opts, R, Stream, Color) ||
      (!Opts.ExportFixesPath.empty() && !exportFixes(Opts, R)) ||
      (Opts.Fix && !fixInPlace(Opts, R)))
    return 2;
  if (!Opts.WriteBaselinePath.empty()) {
    if (!writeBaseline(Opts, R, Inputs))
      return 2;
    return InputError ? 2 : 0; // what a baseline records is accepted
  }
  if (InputError)
    return 2;
  for (const Finding &F : R.Findings)
    if (F.PromotedToError || (Opts.FailOn && F.Severity >= *Opts.FailOn))
      return 1;
  return 0;
}

} // namespace seam
