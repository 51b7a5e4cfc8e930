//===- Validate.cpp - `seam validate`: estimates against seam::rt ---------===//
#include "Driver/Validate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <map>

namespace seam {
namespace {

/// The last "key=value ..." line holding "regions=" in \p Output.
std::map<std::string, double> parseStats(llvm::StringRef Output) {
  std::map<std::string, double> Stats;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Output.split(Lines, '\n');
  for (auto It = Lines.rbegin(); It != Lines.rend(); ++It) {
    if (!It->contains("regions="))
      continue;
    llvm::SmallVector<llvm::StringRef, 16> Fields;
    It->split(Fields, ' ', -1, false);
    for (llvm::StringRef F : Fields) {
      auto [K, V] = F.split('=');
      double D;
      if (!V.empty() && !V.trim().getAsDouble(D))
        Stats[K.trim().str()] = D;
    }
    break;
  }
  return Stats;
}

std::string num(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.2f", V);
  return Buf;
}

std::string pad(std::string S, size_t W) {
  if (S.size() < W)
    S.append(W - S.size(), ' ');
  return S;
}

} // namespace

int runValidate(const ValidateOptions &Opts) {
  auto Fail = [](const std::string &Msg) {
    llvm::errs() << "seam: error: " << Msg << "\n";
    return 2;
  };
  if (Opts.Calls == 0)
    return Fail("--calls must be at least 1");
  auto Exe = llvm::sys::findProgramByName(Opts.Program);
  if (!Exe || !llvm::sys::fs::can_execute(*Exe))
    return Fail("cannot run '" + Opts.Program + "': not found");

  Report R;
  bool InputError = false;
  if (int Code = analyze(Opts.Check, R, InputError))
    return Code;
  if (InputError)
    return Fail("the source could not be analyzed (see above)");

  // Predicted per compiled call: the program's regions and the syncs on
  // its hot paths, each taken to run once per call.
  unsigned Pieces = 0, Breaks = 0, Syncs = 0;
  double Idle = 0;
  std::string Profile;
  for (const SummaryRow &Row : R.Summary)
    if (Row.Kind == "region") {
      Pieces += Row.Pieces;
      Breaks += Row.Pieces - 1;
    }
  for (const Finding &F : R.Findings) {
    if (!F.Cost)
      continue;
    Profile = F.Cost->Profile;
    if (F.RuleId == "seam-graph-break")
      Idle += F.Cost->IdleMicrosPerExecution;
    if (F.RuleId == "seam-host-sync" || F.RuleId == "seam-capture-sync") {
      ++Syncs;
      Idle += F.Cost->IdleMicrosPerExecution;
    }
  }
  if (Pieces == 0)
    Pieces = 1; // one compiled region, never cut

  llvm::SmallString<128> OutPath;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("seam-validate", "txt", OutPath))
    return Fail("cannot create a temporary file: " + EC.message());
  llvm::FileRemover Remove(OutPath);
  std::optional<llvm::StringRef> Redirects[] = {
      std::nullopt, llvm::StringRef(OutPath), std::nullopt};
  std::string ErrMsg;
  int Status = llvm::sys::ExecuteAndWait(*Exe, {*Exe}, std::nullopt, Redirects,
                                         0, 0, &ErrMsg);
  if (Status != 0)
    return Fail("'" + Opts.Program + "' failed (exit " +
                std::to_string(Status) + ")" +
                (ErrMsg.empty() ? "" : ": " + ErrMsg));
  auto Buf = llvm::MemoryBuffer::getFile(OutPath);
  if (!Buf)
    return Fail("cannot read the output of '" + Opts.Program + "'");
  std::map<std::string, double> Stats = parseStats((*Buf)->getBuffer());
  for (const char *Key : {"regions", "graph_breaks", "syncs", "device_idle_us"})
    if (!Stats.count(Key))
      return Fail("'" + Opts.Program +
                  "' printed no seam::rt stats line (print "
                  "seam::rt::stats() last; missing '" +
                  std::string(Key) + "')");

  double N = Opts.Calls;
  llvm::outs() << "validate: " << Opts.Check.Files.front() << " against '"
               << Opts.Program << "', " << Opts.Calls
               << " compiled calls (profile " << Profile << ")\n";
  llvm::outs() << "  " << pad("per compiled call", 26) << pad("predicted", 12)
               << "measured\n";
  auto Row = [&](const char *What, const std::string &P, double M,
                 const char *Unit) {
    llvm::outs() << "  " << pad(What, 26) << pad(P + Unit, 12) << num(M / N)
                 << Unit << "\n";
  };
  Row("graph breaks", std::to_string(Breaks), Stats["graph_breaks"], "");
  Row("regions executed", std::to_string(Pieces), Stats["regions"], "");
  Row("host syncs", std::to_string(Syncs), Stats["syncs"], "");
  Row("device idle", num(Idle), Stats["device_idle_us"], " us");
  return 0;
}

} // namespace seam
