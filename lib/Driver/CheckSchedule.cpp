//===- CheckSchedule.cpp - seam check: cache lookups, parsing, scheduling -===//
//
// The third and fifth phases (CheckRun.h). Cache lookups come first: what
// they answer is not parsed at all. Then preambles are built and files
// parsed and analyzed on one llvm::ThreadPool, each file queued as soon as
// its preamble is built; each TU has its own AST and its own ApiModel.
// Whoever finishes hands on every result that is now next in file order.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckRun.h"

#include "ApiModel/ApiModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {

void CheckRun::lookUpCache() {
  Hits.assign(Jobs.size(), std::nullopt);
  for (size_t I = 0; I < Jobs.size(); ++I)
    if (!Jobs[I].Error && Cache && !Jobs[I].CacheKey.empty()) {
      std::string Note;
      Hits[I] = Cache->lookup(Jobs[I].CacheKey, Note);
      if (!Note.empty())
        llvm::errs() << "seam: note: " << Note << "\n";
    }
  Threads = Opts.Jobs ? Opts.Jobs
                      : llvm::hardware_concurrency().compute_thread_count();
  Threads = std::max(1u, std::min<unsigned>(Threads, Jobs.size()));
}

void CheckRun::runAll(size_t N, const std::function<void(size_t)> &Fn) {
  if (Threads <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I)
      Fn(I);
    return;
  }
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (size_t I = 0; I < N; ++I)
    Pool.async([&Fn, I] { Fn(I); });
  Pool.wait();
}

/// Parses and analyzes job \p I into \p O (with its preamble, else without
/// one when clang refused it), stores the result in the cache, and adds the
/// files the parse read to \p Read.
void CheckRun::parseJob(size_t I, Outcome &O, std::vector<std::string> &Read) {
  Job &J = Jobs[I];
  ApiModel Api(J.Index); // per translation unit: its caches are per AST
  std::vector<std::pair<std::string, std::string>> Deps;
  std::vector<PreambleInput> Inputs;
  bool Analyzed = false;
  // Its preamble, else the one that was to be built on (it holds the system
  // headers the file reaches first).
  int PI = PreambleOf[I];
  if (PI >= 0 && !Preambles[PI].Ok)
    PI = Preambles[PI].Base >= 0 && Preambles[Preambles[PI].Base].Ok
             ? Preambles[PI].Base
             : -1;
  const Preamble *P = PI >= 0 ? &Preambles[PI] : nullptr;
  auto Parse = [&](const std::string &Pch) {
    O.Analysis = TUAnalysis();
    Analyzed = false;
    return parseFile(
        J.Commands, Opts.Frontend, J.File,
        [&](clang::ASTContext &Ctx) {
          O.Analysis = analyzeTranslationUnit(Ctx, Api, J.Analysis, J.Cost);
          Deps = ResultCache::dependencies(Ctx.getSourceManager());
          // The project's files are Deps, by content.
          if (Cache)
            Inputs = ResultCache::inputs(Ctx.getSourceManager(),
                                         /*SystemOnly=*/true);
          Analyzed = true;
        },
        Pch);
  };
  O.Parse = Parse(P ? P->Pch : "");
  // A file whose preamble clang refused (changed since it was built, not
  // loadable, or a base it was chained on replaced or evicted by a
  // concurrent run) is parsed without it. Errors of the file's own are the
  // same either way: they are not parsed twice.
  bool Refused = P && !O.Parse.Ok &&
                 (O.Parse.CompileErrors.empty() || O.Parse.PreambleRefused ||
                  llvm::any_of(O.Parse.CompileErrors, [&](const Finding &E) {
                    return E.Where.File == P->Header;
                  }));
  if (Refused) {
    // A cached one clang cannot load is dropped, not tried again.
    if (P->Reused) {
      std::lock_guard<std::mutex> G(Lock);
      if (Cache->dropPreamble(P->Key))
        llvm::errs() << "seam: note: the cached preamble '" << P->Pch
                     << "' could not be loaded; it is built again on the "
                        "next run\n";
    }
    O.Parse = Parse("");
    P = nullptr;
  }
  if (P) {
    Used[I] = PI;
    Inputs.insert(Inputs.end(), P->Inputs.begin(), P->Inputs.end());
    Deps.insert(Deps.end(), P->Deps.begin(), P->Deps.end());
    std::sort(Deps.begin(), Deps.end());
    Deps.erase(std::unique(Deps.begin(), Deps.end()), Deps.end());
  }
  for (const auto &D : Deps)
    Read.push_back(D.first);
  // A TU with compile errors is stored too (its errors are results, and
  // come from the files it read), unless an input was missing: one that
  // appears later would not invalidate the entry.
  bool Missing =
      O.Parse.MissingInput || (!O.Parse.Ok && O.Parse.CompileErrors.empty());
  if (Cache && !J.CacheKey.empty() && Analyzed && !Missing)
    if (std::optional<std::string> Err =
            Cache->store(J.CacheKey, {O.Parse, O.Analysis, Deps, Inputs}))
      warnOnce(CacheWarning, *Err);
}

/// "[3/40] src/train.cpp 2.1s (shared preamble 1 of 2)"; under Lock.
void CheckRun::reportProgress(size_t I) {
  if (!Progress || Jobs[I].Error)
    return;
  char Secs[32];
  std::snprintf(Secs, sizeof(Secs), "%.1fs", Outcomes[I].Parse.Seconds);
  llvm::errs() << "[" << Finished << "/" << Jobs.size() << "] "
               << relativeToRoot(absolute(Jobs[I].File), R.SourceRoot) << " "
               << (Outcomes[I].Cached ? std::string("cached") : Secs);
  if (Used[I] >= 0)
    llvm::errs() << " (shared preamble " << (Used[I] + 1) << " of "
                 << Preambles.size()
                 << (Preambles[Used[I]].Reused ? ", reused" : "") << ")";
  llvm::errs() << "\n";
}

void CheckRun::runJob(size_t I) {
  Outcome O;
  std::vector<std::string> Read; // for RunInputs::Read
  if (Hits[I]) {
    for (const auto &D : Hits[I]->Deps)
      Read.push_back(D.first);
    O.Parse = std::move(Hits[I]->Parse);
    O.Analysis = std::move(Hits[I]->Analysis);
    O.Cached = true;
  }
  if (!Jobs[I].Error && !O.Cached)
    parseJob(I, O, Read);
  std::lock_guard<std::mutex> G(Lock);
  In.Read.insert(Read.begin(), Read.end());
  Outcomes[I] = std::move(O);
  Outcomes[I].Done = true;
  ++Finished;
  reportProgress(I);
  while (NextToEmit < Outcomes.size() && Outcomes[NextToEmit].Done)
    emit(NextToEmit++);
}

void CheckRun::schedule() {
  Outcomes.assign(Jobs.size(), Outcome());
  Used.assign(Jobs.size(), -1);
  Progress = Opts.Progress.value_or(!Opts.Quiet && llvm::errs().is_displayed());
  // Each file is parsed as soon as its preamble is built: the files of a
  // small preamble, and those without one, do not wait for the largest.
  if (Threads <= 1 || Jobs.size() <= 1) {
    for (bool Chained : {false, true})
      for (size_t I = 0; I < Preambles.size(); ++I)
        if ((Preambles[I].Base >= 0) == Chained)
          buildPreamble(I);
    for (size_t I = 0; I < Jobs.size(); ++I)
      runJob(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
    std::function<void(size_t)> Build = [&](size_t I) {
      buildPreamble(I);
      for (size_t G : Preambles[I].Chained)
        Pool.async([&, G] { Build(G); });
      for (size_t M : Preambles[I].Members)
        Pool.async([&, M] { runJob(M); });
    };
    for (size_t I = 0; I < Preambles.size(); ++I)
      if (Preambles[I].Base < 0)
        Pool.async([&, I] { Build(I); });
    for (size_t I = 0; I < Jobs.size(); ++I)
      if (PreambleOf[I] < 0)
        Pool.async([&, I] { runJob(I); });
    Pool.wait();
  }
  for (const Preamble &P : Preambles)
    for (const std::string &F : P.Temporary)
      llvm::sys::fs::remove(F);
  if (!PreambleDir.empty())
    llvm::sys::fs::remove(PreambleDir);
}

} // namespace seam
