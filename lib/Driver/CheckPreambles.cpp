//===- CheckPreambles.cpp - seam check: shared preambles, planned and built
//===//
//
// The fourth phase (CheckRun.h). Files left to parse that begin with the
// same includes and share flags share one precompiled preamble; the others,
// one of the system headers they all reach first (SharedPreamble.h).
// buildPreamble() runs on the thread pool, from schedule().
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckRun.h"
#include "Driver/SharedPreamble.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace seam {

namespace {

/// Files that share flags, with the system headers each reaches first.
struct FlagsGroup {
  std::vector<size_t> Jobs;
  std::vector<std::vector<std::string>> Leading;
  std::vector<std::string> Union; // in the order first reached
  std::map<std::string, uint64_t> Bytes;
  std::string MeasureHeader;
};

std::string includeLines(const std::vector<std::string> &Headers) {
  std::string Text;
  for (const std::string &H : Headers)
    Text += "#include " + H + "\n";
  return Text;
}

/// Writes \p Text to \p Path; false when it could not (a full temporary
/// directory: no preamble then).
bool writeHeader(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    return false;
  }
  return true;
}

} // namespace

// Files whose results are cached take part in the plan, so that the files
// left to parse get the preambles of earlier runs; a preamble that only one
// of those would use is reused from the cache, never built. A preamble of
// files that begin alike is built on the preamble of the system headers
// they reach first, when there is one (a chained PCH): editing the project
// headers it holds rebuilds only that part. With a cache, a file alone in
// its flags (one file named, as pre-commit and CMAKE_CXX_CLANG_TIDY run
// Seam) gets a preamble of the system headers it reaches first: built once,
// it is reused by the next run that parses the file.
void CheckRun::addPreamble(const std::string &Text,
                           const std::vector<size_t> &All, bool Stage1,
                           bool Alone) {
  std::vector<size_t> Members;
  std::vector<size_t> Chained;
  for (size_t M : All) {
    if (!Stage1 && Stage1Of[M] >= 0) {
      if (!llvm::is_contained(Chained, size_t(Stage1Of[M])))
        Chained.push_back(Stage1Of[M]);
      continue;
    }
    if (!Hits[M])
      Members.push_back(M);
  }
  size_t Users = Members.size();
  for (size_t G : Chained)
    Users += Preambles[G].Members.size();
  if (Users == 0 || (Users < 2 && !Cache))
    return;
  if (PreambleDir.empty() &&
      llvm::sys::fs::createUniqueDirectory("seam-preamble", PreambleDir))
    return;
  Preamble P;
  P.Members = Members;
  P.MayBuild = Users >= 2 || Alone;
  P.Chained = Chained;
  P.CommandJob =
      Members.empty() ? Preambles[Chained.front()].CommandJob : Members[0];
  std::string Base = std::string(PreambleDir) + "/preamble-" +
                     std::to_string(Preambles.size());
  P.Header = Base + ".h";
  P.Pch = Base + ".pch";
  P.Temporary = {P.Header, P.Pch};
  if (!writeHeader(P.Header, Text))
    return;
  int Index = static_cast<int>(Preambles.size());
  for (size_t G : Chained)
    Preambles[G].Base = Index;
  for (size_t M : Members)
    PreambleOf[M] = Index;
  if (Stage1)
    for (size_t M : All)
      Stage1Of[M] = Index;
  Preambles.push_back(std::move(P));
}

/// The files not in a preamble of files that begin alike, by flags, with the
/// system headers each reaches first; what each header brings (measured
/// once per group) decides which are worth sharing.
void CheckRun::planSystemPreambleGroups(const std::vector<size_t> &Candidates) {
  std::map<std::string, FlagsGroup> ByFlags;
  for (size_t I : Candidates) {
    const clang::tooling::CompileCommand &C = Jobs[I].Commands.front();
    std::vector<std::string> Lead =
        leadingSystemHeaders(absolute(Jobs[I].File), includeDirs(C));
    if (Lead.empty())
      continue;
    FlagsGroup &G = ByFlags[preambleFlags(C)];
    for (const std::string &H : Lead)
      if (!llvm::is_contained(G.Union, H))
        G.Union.push_back(H);
    G.Jobs.push_back(I);
    G.Leading.push_back(std::move(Lead));
  }
  std::vector<FlagsGroup *> ToMeasure;
  for (auto &[Flags, G] : ByFlags) {
    if (G.Jobs.size() == 1 && Cache && !Hits[G.Jobs.front()]) {
      addPreamble(includeLines(G.Leading.front()), G.Jobs, false,
                  /*Alone=*/true);
      continue;
    }
    if (G.Jobs.size() < 2 ||
        llvm::all_of(G.Jobs, [&](size_t I) { return Hits[I].has_value(); }))
      continue;
    if (PreambleDir.empty() &&
        llvm::sys::fs::createUniqueDirectory("seam-preamble", PreambleDir))
      break;
    G.MeasureHeader = std::string(PreambleDir) + "/measure-" +
                      std::to_string(ToMeasure.size()) + ".h";
    if (writeHeader(G.MeasureHeader, includeLines(G.Union)))
      ToMeasure.push_back(&G);
  }
  runAll(ToMeasure.size(), [&](size_t I) {
    FlagsGroup &G = *ToMeasure[I];
    if (std::optional<std::vector<uint64_t>> B =
            measureIncludes(Jobs[G.Jobs.front()].Commands.front(),
                            Opts.Frontend, G.MeasureHeader))
      for (size_t L = 0; L < G.Union.size() && L < B->size(); ++L)
        G.Bytes[G.Union[L]] = (*B)[L];
  });
  for (FlagsGroup *G : ToMeasure) {
    llvm::sys::fs::remove(G->MeasureHeader);
    for (const SystemPreamble &SP : planSystemPreambles(G->Leading, G->Bytes)) {
      std::vector<size_t> Members;
      for (size_t M : SP.Members)
        Members.push_back(G->Jobs[M]);
      addPreamble(includeLines(SP.Headers), Members, false);
    }
  }
}

void CheckRun::planPreambles() {
  PreambleOf.assign(Jobs.size(), -1);
  Stage1Of.assign(Jobs.size(), -1);
  bool AnyToParse = false;
  for (size_t I = 0; I < Jobs.size(); ++I)
    AnyToParse |= !Jobs[I].Error && !Hits[I];
  // Something included before every file: no preamble may go first.
  bool ForcedForAll = llvm::any_of(
      extraArgs(Opts.Frontend),
      [](const std::vector<std::string> *A) { return hasForcedIncludes(*A); });
  if (!Opts.SharePreambles || !AnyToParse || ForcedForAll)
    return;
  std::map<std::string, std::vector<size_t>> Groups;
  std::vector<size_t> Candidates;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    const Job &J = Jobs[I];
    if (J.Error || J.Commands.empty() ||
        hasForcedIncludes(J.Commands.front().CommandLine))
      continue;
    Candidates.push_back(I);
    auto Buf = llvm::MemoryBuffer::getFile(J.File, /*IsText=*/true);
    if (!Buf)
      continue;
    std::string Lead = leadingIncludes(
        (*Buf)->getBuffer(), llvm::sys::path::parent_path(J.Filter.MainFile));
    if (!Lead.empty())
      Groups[Lead + '\0' + preambleFlags(J.Commands.front())].push_back(I);
  }
  for (auto &[Key, Members] : Groups)
    if (Members.size() >= 2)
      addPreamble(Key.substr(0, Key.find('\0')), Members, true);
  planSystemPreambleGroups(Candidates);
}

void CheckRun::warnOnce(std::string &Slot, std::string Msg) {
  std::lock_guard<std::mutex> G(Lock);
  if (Slot.empty())
    Slot = std::move(Msg);
}

namespace {

/// Clang cannot recover from a full disk while it writes a PCH (LLVM ends
/// the process): a preamble is built only where there is room. Returns the
/// warning when there is not.
std::optional<std::string> lackOfSpace(const std::string &Pch) {
  llvm::SmallString<256> Dir(Pch);
  llvm::sys::path::remove_filename(Dir);
  llvm::ErrorOr<llvm::sys::fs::space_info> Space =
      llvm::sys::fs::disk_space(Dir);
  constexpr uint64_t MinFree = 256ull << 20;
  if (Space && Space->available < MinFree)
    return "'" + std::string(Dir) + "' has " +
           std::to_string(Space->available >> 20) +
           " MiB free: shared preambles are not built there "
           "(at least 256 MiB; files are parsed without them)";
  return std::nullopt;
}

} // namespace

void CheckRun::buildPreamble(size_t I) {
  Preamble &P = Preambles[I];
  const clang::tooling::CompileCommand &C = Jobs[P.CommandJob].Commands.front();
  // Built on its base when that one was built; alone otherwise.
  const Preamble *Base =
      P.Base >= 0 && Preambles[P.Base].Ok ? &Preambles[P.Base] : nullptr;
  std::string Text;
  if (auto Buf = llvm::MemoryBuffer::getFile(P.Header, /*IsText=*/true))
    Text = (*Buf)->getBuffer().str();
  // Kept between runs: everything the PCH depends on but its inputs, whose
  // sizes and times the cache checks.
  std::string &Key = P.Key;
  if (Cache) {
    Key = Parts.seam() + '\0' + Text + '\0' + preambleFlags(C);
    Key += frontendKey(Opts.Frontend);
    if (Base)
      Key += "\x1e" + Base->Key;
    Key = ResultCache::hash(Key);
    std::string Note;
    std::optional<CachedPreamble> Hit = Cache->lookupPreamble(Key, Note);
    if (!Note.empty()) {
      std::lock_guard<std::mutex> G(Lock);
      llvm::errs() << "seam: note: " << Note << "\n";
    }
    if (Hit) {
      P.Reused = true;
      P.Header = Hit->Header;
      P.Pch = Hit->Pch;
      P.Deps = std::move(Hit->Deps);
      P.Inputs = std::move(Hit->Inputs);
      P.Ok = true;
      return;
    }
  }
  if (!P.MayBuild)
    return; // one file: parsing it alone costs no more
  std::string Header = P.Header, Pch = P.Pch;
  std::optional<CachedPreamble> Slot;
  if (Cache) {
    llvm::Expected<CachedPreamble> S = Cache->preparePreamble(Key, Text);
    if (S) {
      Slot = std::move(*S);
      Header = Slot->Header;
      Pch = Slot->Pch;
    } else {
      warnOnce(CacheWarning, llvm::toString(S.takeError()));
    }
  }
  if (std::optional<std::string> W = lackOfSpace(Pch)) {
    warnOnce(SpaceWarning, *W);
    return;
  }
  std::vector<PreambleInput> Inputs;
  std::optional<std::string> Err = buildPch(
      C, Opts.Frontend, Header, Pch,
      [&](const clang::SourceManager &SM) {
        // The preamble's own header is this run's, not a source.
        P.Deps = ResultCache::dependencies(SM);
        llvm::erase_if(P.Deps,
                       [&](const auto &D) { return D.first == Header; });
        if (Cache)
          Inputs = ResultCache::inputs(SM);
      },
      Base ? Base->Pch : "");
  if (Base) {
    // What the base read, and the base itself: rebuilt, it is new.
    P.Deps.insert(P.Deps.end(), Base->Deps.begin(), Base->Deps.end());
    llvm::sys::fs::file_status St;
    if (!llvm::sys::fs::status(Base->Pch, St))
      Inputs.push_back(
          {Base->Pch, St.getSize(), ResultCache::modificationTime(Base->Pch)});
    Inputs.insert(Inputs.end(), Base->Inputs.begin(), Base->Inputs.end());
  }
  P.Inputs = Inputs;
  // Without it, each file parses its includes itself, as always.
  P.Ok = !Err;
  if (!Slot)
    return;
  if (!P.Ok) {
    llvm::sys::fs::remove(Pch);
    return;
  }
  Slot->Deps = P.Deps;
  if (std::optional<std::string> E =
          Cache->commitPreamble(Key, *Slot, Inputs)) {
    // Still usable for this run where it was built.
    warnOnce(CacheWarning, *E);
    P.Pch = Pch; // the temporary PCH, removed at the end
    P.Temporary.push_back(Pch);
    return;
  }
  P.Header = Header;
  P.Pch = Cache->preambleDir(Key) + "/preamble.pch";
}

} // namespace seam
