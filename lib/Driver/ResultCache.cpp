//===- ResultCache.cpp - Results of unchanged translation units, reused ---===//
#include "Driver/ResultCache.h"

#include "Basic/FindingJson.h"
#include "Basic/SourcePoint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace seam {

// The entry format; bump when a serialized field changes.
static constexpr int EntryVersion = 4;

namespace {

json findings(const std::vector<Finding> &Fs) {
  json A = json::array();
  for (const Finding &F : Fs)
    A.push_back(toJson(F, JsonDetail::Full));
  return A;
}
std::vector<Finding> findings(const json &A) {
  std::vector<Finding> Out;
  for (const json &F : A)
    Out.push_back(findingFromJson(F));
  return Out;
}

/// Sets \p Path's time to now: it was used, for the least-recently-used
/// eviction.
void markUsed(const std::string &Path) {
  if (int FD; !llvm::sys::fs::openFileForWrite(
          Path, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append)) {
    llvm::sys::fs::setLastAccessAndModificationTime(
        FD, llvm::sys::toTimePoint(std::time(nullptr)));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
}

/// Checks an entry's version and key (throwing when they are not this
/// run's) and returns the dependencies it lists.
std::vector<std::pair<std::string, std::string>>
header(const json &J, const std::string &Key) {
  if (J.is_discarded() || J.at("version") != EntryVersion || J.at("key") != Key)
    throw std::runtime_error("bad header");
  std::vector<std::pair<std::string, std::string>> Deps;
  for (const json &D : J.at("deps"))
    Deps.push_back({D.at(0).get<std::string>(), D.at(1).get<std::string>()});
  return Deps;
}

/// Writes \p Text to a temporary file beside \p Path and renames it over
/// \p Path: a concurrent run reads the old file or the new one, never half
/// of one. Returns an error line, or nothing.
std::optional<std::string> writeAtomically(const std::string &Path,
                                           llvm::StringRef Text) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
    return "cannot create the cache directory '" + Parent.str() +
           "': " + EC.message();
  llvm::SmallString<256> Tmp;
  int FD;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Tmp))
    return "cannot write to the cache directory '" + Parent.str() +
           "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return "cannot write to the cache directory '" + Parent.str() + "'";
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return "cannot write the cache entry '" + Path + "': " + EC.message();
  }
  return std::nullopt;
}

json toJson(const std::vector<PreambleInput> &Inputs) {
  json Out = json::array();
  for (const PreambleInput &I : Inputs)
    Out.push_back({I.Path, I.Size, I.MTime});
  return Out;
}

std::vector<PreambleInput> inputsFrom(const json &J) {
  std::vector<PreambleInput> Out;
  for (const json &In : J)
    Out.push_back({In.at(0).get<std::string>(), jsonInteger<uint64_t>(In.at(1)),
                   jsonInteger<int64_t>(In.at(2))});
  return Out;
}

} // namespace

ResultCache::ResultCache(std::string D, uint64_t MaxBytes)
    : Dir(D.empty() ? defaultDir() : std::move(D)), MaxBytes(MaxBytes) {
  // Absolute: a PCH records the paths of the files it was built from, and a
  // parse runs in its command's directory, not the working directory.
  llvm::SmallString<256> P(Dir);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  Dir = std::string(P);
}

std::string ResultCache::defaultDir() {
  llvm::SmallString<256> P;
  if (auto X = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); X && !X->empty())
    P = *X;
  else if (auto H = llvm::sys::Process::GetEnv("HOME"); H && !H->empty()) {
    P = *H;
    llvm::sys::path::append(P, ".cache");
  } else {
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/false, P);
  }
  llvm::sys::path::append(P, "seam");
  return std::string(P);
}

std::string ResultCache::hash(llvm::StringRef Text) {
  char Buf[17];
  std::snprintf(Buf, sizeof(Buf), "%016llx",
                static_cast<unsigned long long>(llvm::xxh3_64bits(Text)));
  return Buf;
}

std::string ResultCache::hashFile(llvm::StringRef Path) {
  // Only a regular file is read: an entry may name a device (an old
  // `#include </dev/zero>`), which would never end.
  if (!llvm::sys::fs::is_regular_file(Path))
    return "";
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  return Buf ? hash((*Buf)->getBuffer()) : "";
}

std::vector<std::pair<std::string, std::string>>
ResultCache::dependencies(const clang::SourceManager &SM) {
  // The files this parse entered itself; those of a precompiled preamble
  // are the preamble's dependencies.
  std::vector<std::pair<std::string, std::string>> Out;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const clang::SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() ||
        clang::SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      continue;
    const clang::SrcMgr::ContentCache &C = E.getFile().getContentCache();
    std::optional<llvm::MemoryBufferRef> Buf = C.getBufferIfLoaded();
    if (!C.OrigEntry || !Buf)
      continue;
    Out.push_back({absolutePath(SM, *C.OrigEntry), hash(Buf->getBuffer())});
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::string ResultCache::pathOf(const std::string &Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key.substr(0, 2), Key + ".json");
  return std::string(P);
}

std::optional<CachedTU> ResultCache::lookup(const std::string &Key,
                                            std::string &Note) {
  std::string Path = pathOf(Key);
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::nullopt; // not cached
  json J = json::parse((*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(),
                       nullptr, /*allow_exceptions=*/false);
  CachedTU TU;
  try {
    TU.Deps = header(J, Key);
    const json &P = J.at("parse");
    TU.Parse.File = P.at("file").get<std::string>();
    TU.Parse.Ok = P.at("ok").get<bool>();
    TU.Parse.Error = P.at("error").get<std::string>();
    TU.Parse.CompileErrors = findings(P.at("compileErrors"));
    TU.Parse.Seconds = P.at("seconds").get<double>();
    const json &A = J.at("analysis");
    TU.Analysis.Findings = findings(A.at("findings"));
    TU.Analysis.NolintProblems = findings(A.at("nolint"));
    TU.Analysis.Incomplete = A.at("incomplete").get<std::vector<std::string>>();
    for (const json &R : A.at("summary"))
      TU.Analysis.Summary.push_back(summaryRowFromJson(R));
    if (!A.at("project").is_null())
      TU.Analysis.Project = tuSummaryFromJson(A.at("project"));
    TU.Inputs = inputsFrom(J.at("inputs"));
  } catch (const std::exception &) {
    Note = "ignoring the corrupt cache entry '" + Path +
           "'; the file is analyzed again";
    llvm::sys::fs::remove(Path);
    return std::nullopt;
  }
  for (const auto &[File, Hash] : TU.Deps)
    if (hashFile(File) != Hash)
      return std::nullopt; // a source changed
  if (!unchanged(TU.Inputs))
    return std::nullopt; // a system header changed (a library upgrade)
  markUsed(Path);
  return TU;
}

std::optional<std::string> ResultCache::store(const std::string &Key,
                                              const CachedTU &TU) {
  json Deps = json::array();
  for (const auto &[File, Hash] : TU.Deps)
    Deps.push_back({File, Hash});
  json Summary = json::array();
  for (const SummaryRow &R : TU.Analysis.Summary)
    Summary.push_back(toJson(R, JsonDetail::Full));
  json J = {{"version", EntryVersion},
            {"key", Key},
            {"deps", Deps},
            {"inputs", toJson(TU.Inputs)},
            {"parse",
             {{"file", TU.Parse.File},
              {"ok", TU.Parse.Ok},
              {"error", TU.Parse.Error},
              {"compileErrors", findings(TU.Parse.CompileErrors)},
              {"seconds", TU.Parse.Seconds}}},
            {"analysis",
             {{"findings", findings(TU.Analysis.Findings)},
              {"nolint", findings(TU.Analysis.NolintProblems)},
              {"incomplete", TU.Analysis.Incomplete},
              {"summary", Summary},
              {"project",
               TU.Analysis.Project ? toJson(*TU.Analysis.Project) : json()}}}};
  return writeAtomically(
      pathOf(Key), J.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string ResultCache::preambleDir(const std::string &Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "preambles", Key);
  return std::string(P);
}

static int64_t nanoseconds(const llvm::sys::fs::file_status &St) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             St.getLastModificationTime().time_since_epoch())
      .count();
}

int64_t ResultCache::modificationTime(llvm::StringRef Path) {
  // clang's FileEntry keeps whole seconds; the file system, nanoseconds.
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return 0;
  return nanoseconds(St);
}

bool ResultCache::unchanged(const std::vector<PreambleInput> &Inputs) {
  // One stat a file: this runs over every header of every cached TU.
  for (const PreambleInput &In : Inputs) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(In.Path, St) || St.getSize() != In.Size ||
        nanoseconds(St) != In.MTime)
      return false;
  }
  return true;
}

std::vector<PreambleInput> ResultCache::inputs(const clang::SourceManager &SM,
                                               bool SystemOnly) {
  std::vector<PreambleInput> Out;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const clang::SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() || (SystemOnly && !clang::SrcMgr::isSystem(
                                          E.getFile().getFileCharacteristic())))
      continue;
    const clang::SrcMgr::ContentCache &C = E.getFile().getContentCache();
    if (!C.OrigEntry)
      continue;
    // As opened: a lexical clean-up of "../" is wrong across symlinks
    // (GCC's headers are reached through several).
    llvm::SmallString<256> Path(C.OrigEntry->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    Out.push_back({std::string(Path),
                   static_cast<uint64_t>(C.OrigEntry->getSize()),
                   modificationTime(Path)});
  }
  std::sort(Out.begin(), Out.end(),
            [](const PreambleInput &A, const PreambleInput &B) {
              return A.Path < B.Path;
            });
  Out.erase(std::unique(Out.begin(), Out.end(),
                        [](const PreambleInput &A, const PreambleInput &B) {
                          return A.Path == B.Path;
                        }),
            Out.end());
  return Out;
}

std::optional<CachedPreamble>
ResultCache::lookupPreamble(const std::string &Key, std::string &Note) {
  std::string D = preambleDir(Key);
  std::string Manifest = D + "/manifest.json";
  auto Buf = llvm::MemoryBuffer::getFile(Manifest, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  CachedPreamble P{D + "/preamble.h", D + "/preamble.pch", {}};
  json J = json::parse((*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(),
                       nullptr, /*allow_exceptions=*/false);
  try {
    P.Deps = header(J, Key);
    P.Inputs = inputsFrom(J.at("inputs"));
    if (!unchanged(P.Inputs))
      return std::nullopt; // a header changed: built again
    // The project's own headers by content too: an edit that keeps the
    // size, within the clock's resolution, or restored with its old time.
    for (const auto &[File, Hash] : P.Deps)
      if (hashFile(File) != Hash)
        return std::nullopt;
    // The PCH itself, as committed: bit rot or a bad cache restore keeps
    // its size and time, and clang may crash on what it then reads.
    if (!J.contains("pch") ||
        hashFile(P.Pch) != J.at("pch").get<std::string>()) {
      Note = "ignoring the cached preamble '" + P.Pch +
             "': its contents changed since it was built; it is built again";
      llvm::sys::fs::remove(Manifest);
      return std::nullopt;
    }
  } catch (const std::exception &) {
    Note = "ignoring the corrupt cached preamble '" + Manifest +
           "'; it is built again";
    llvm::sys::fs::remove(Manifest);
    return std::nullopt;
  }
  if (!llvm::sys::fs::exists(P.Pch) || !llvm::sys::fs::exists(P.Header))
    return std::nullopt;
  markUsed(Manifest);
  return P;
}

bool ResultCache::dropPreamble(const std::string &Key) {
  // Without its manifest a preamble is never used; the files go with the
  // next eviction or the next build under the same key.
  return !llvm::sys::fs::remove(preambleDir(Key) + "/manifest.json",
                                /*IgnoreNonExisting=*/false);
}

llvm::Expected<CachedPreamble>
ResultCache::preparePreamble(const std::string &Key, llvm::StringRef Text) {
  std::string D = preambleDir(Key);
  auto Fail = [&](const std::string &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   Msg.c_str());
  };
  if (std::error_code EC = llvm::sys::fs::create_directories(D))
    return Fail("cannot create the cache directory '" + D +
                "': " + EC.message());
  CachedPreamble P{D + "/preamble.h", "", {}};
  auto Old = llvm::MemoryBuffer::getFile(P.Header, /*IsText=*/true);
  if (!Old || (*Old)->getBuffer() != Text) {
    // Linked into place, never replaced: a concurrent run's PCH may have
    // recorded the time of the one there.
    llvm::SmallString<256> Tmp;
    int FD;
    if (std::error_code EC =
            llvm::sys::fs::createUniqueFile(P.Header + ".tmp-%%%%%%", FD, Tmp))
      return Fail("cannot write to the cache directory '" + D +
                  "': " + EC.message());
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Text;
      OS.close();
      if (OS.has_error()) { // a full disk: a warning, not LLVM ERROR
        OS.clear_error();
        llvm::sys::fs::remove(Tmp);
        return Fail("cannot write to the cache directory '" + D + "'");
      }
    }
    if (Old) // a corrupt header: nothing can use it
      llvm::sys::fs::remove(P.Header);
    (void)llvm::sys::fs::create_hard_link(Tmp, P.Header);
    llvm::sys::fs::remove(Tmp);
    auto Now = llvm::MemoryBuffer::getFile(P.Header, /*IsText=*/true);
    if (!Now || (*Now)->getBuffer() != Text)
      return Fail("cannot write the preamble header '" + P.Header + "'");
  }
  llvm::SmallString<256> Tmp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          D + "/preamble.pch.tmp-%%%%%%", FD, Tmp))
    return Fail("cannot write to the cache directory '" + D +
                "': " + EC.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  P.Pch = std::string(Tmp);
  return P;
}

std::optional<std::string>
ResultCache::commitPreamble(const std::string &Key, const CachedPreamble &Built,
                            const std::vector<PreambleInput> &Inputs) {
  std::string D = preambleDir(Key);
  std::string Final = D + "/preamble.pch";
  std::string PchHash = hashFile(Built.Pch);
  // Linked into place, never renamed over a committed one: a concurrent run
  // may already have built preambles on the PCH there, and clang refuses a
  // chained PCH whose base changed ("out of date"). When another run
  // committed the same key first, its PCH is used and this one dropped.
  if (!llvm::sys::fs::create_hard_link(Built.Pch, Final)) {
    llvm::sys::fs::remove(Built.Pch);
  } else {
    // Still valid (its inputs unchanged, its PCH as committed): it stays,
    // with its manifest.
    std::string Note;
    if (lookupPreamble(Key, Note)) {
      llvm::sys::fs::remove(Built.Pch);
      return std::nullopt;
    }
    // A leftover that is stale, dropped or corrupt: replaced.
    if (std::error_code EC = llvm::sys::fs::rename(Built.Pch, Final))
      return "cannot write the cached preamble in '" + D + "': " + EC.message();
  }
  json Deps = json::array();
  for (const auto &[File, Hash] : Built.Deps)
    Deps.push_back({File, Hash});
  json In = toJson(Inputs);
  json J = {{"version", EntryVersion}, {"key", Key},   {"pch", PchHash},
            {"header", Built.Header},  {"deps", Deps}, {"inputs", In}};
  return writeAtomically(D + "/manifest.json", J.dump());
}

/// Whether \p Name is \p Digits lower-case hex digits, as the names of the
/// cache's own files and folders are (ResultCache::hash).
static bool isHexName(llvm::StringRef Name, size_t Digits) {
  return Name.size() == Digits && llvm::all_of(Name, [](char C) {
           return llvm::isHexDigit(C) && !llvm::isUpper(C);
         });
}

/// The files Seam writes in a preamble folder: anything else there is not
/// Seam's, and keeps the folder.
static bool isPreambleFile(llvm::StringRef Name) {
  for (llvm::StringRef Known : {"manifest.json", "preamble.h", "preamble.pch"})
    if (Name == Known || (Name.starts_with(Known) &&
                          Name.drop_front(Known.size()).starts_with(".tmp-")))
      return true;
  return false;
}

void ResultCache::evict() {
  // Only what Seam wrote is counted or removed: result entries named
  // <2 hex>/<16 hex>.json (the folder the first two digits of the name), and
  // preamble folders preambles/<16 hex>/ with the files Seam puts there.
  // Whatever else lies under the cache directory is the user's.
  namespace fs = llvm::sys::fs;
  namespace path = llvm::sys::path;
  struct Entry {
    std::string Path;
    uint64_t Size;
    llvm::sys::TimePoint<> Used;
    bool IsPreamble;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  // The folder is marked as a cache (https://bford.info/cachedir/): backup
  // tools skip it, and a reader sees whose it is.
  llvm::SmallString<256> Tag(Dir);
  path::append(Tag, "CACHEDIR.TAG");
  if (fs::is_directory(Dir) && !fs::exists(Tag))
    (void)writeAtomically(std::string(Tag),
                          "Signature: 8a477f597d28d172789f06886806bc55\n"
                          "# This file is a cache directory tag created by "
                          "seam (Seam's result and preamble cache).\n");
  for (fs::directory_iterator Sub(Dir, EC), End; Sub != End && !EC;
       Sub.increment(EC)) {
    llvm::StringRef Prefix = path::filename(Sub->path());
    if (!isHexName(Prefix, 2) || Sub->type() != fs::file_type::directory_file)
      continue;
    std::error_code EC2;
    for (fs::directory_iterator It(Sub->path(), EC2); It != End && !EC2;
         It.increment(EC2)) {
      llvm::StringRef Name = path::filename(It->path());
      fs::file_status St;
      if (!Name.ends_with(".json") || !isHexName(Name.drop_back(5), 16) ||
          !Name.starts_with(Prefix) ||
          fs::status(It->path(), St, /*follow=*/false) ||
          !fs::is_regular_file(St))
        continue;
      Entries.push_back(
          {It->path(), St.getSize(), St.getLastModificationTime(), false});
      Total += St.getSize();
    }
  }
  llvm::SmallString<256> Preambles(Dir);
  path::append(Preambles, "preambles");
  for (fs::directory_iterator It(Preambles, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!isHexName(path::filename(It->path()), 16) ||
        It->type() != fs::file_type::directory_file)
      continue;
    Entry E{It->path(), 0, {}, true};
    fs::file_status St;
    if (!fs::status(It->path(), St))
      E.Used = St.getLastModificationTime();
    std::error_code EC2;
    for (fs::directory_iterator F(It->path(), EC2), FEnd; F != FEnd && !EC2;
         F.increment(EC2)) {
      if (!isPreambleFile(path::filename(F->path())) ||
          fs::status(F->path(), St, /*follow=*/false))
        continue;
      E.Size += St.getSize();
      if (path::filename(F->path()) == "manifest.json")
        E.Used = St.getLastModificationTime();
    }
    Entries.push_back(E);
    Total += E.Size;
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Used < B.Used; });
  // Down to 80% of the cap, so that the next runs do not evict again.
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes / 10 * 8)
      break;
    if (E.IsPreamble) {
      // The manifest first: without it the rest is never used. Then Seam's
      // own files; the folder goes only if nothing else is left in it.
      fs::remove(E.Path + "/manifest.json");
      std::vector<std::string> Mine;
      std::error_code EC2;
      for (fs::directory_iterator F(E.Path, EC2), FEnd; F != FEnd && !EC2;
           F.increment(EC2))
        if (isPreambleFile(path::filename(F->path())))
          Mine.push_back(F->path());
      for (const std::string &F : Mine)
        fs::remove(F);
      fs::remove(E.Path); // fails, and keeps it, when not empty
      Total -= E.Size;
    } else if (!fs::remove(E.Path)) {
      Total -= E.Size;
    }
  }
}

} // namespace seam
