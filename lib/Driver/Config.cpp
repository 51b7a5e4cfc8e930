//===- Config.cpp - .seam.yaml, read with llvm::yaml::IO ------------------===//
#include "Driver/Config.h"
#include "Basic/InputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/thread.h"
#include <optional>

namespace {

/// The document as written: every key optional, both spellings of the 0.1
/// keys accepted.
struct RawConfig {
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilterRegex,
      Profile, DefaultResidency;
  std::optional<std::vector<std::string>> Regions, OldRegions, Rules;
  std::optional<std::map<std::string, std::string>> Shapes, OldShapes, Trips;
  std::optional<bool> InheritParentConfig;
};

} // namespace

namespace llvm::yaml {

template <> struct CustomMappingTraits<std::map<std::string, std::string>> {
  static void inputOne(IO &IO, StringRef Key,
                       std::map<std::string, std::string> &M) {
    IO.mapRequired(Key.str().c_str(), M[Key.str()]);
  }
  static void output(IO &IO, std::map<std::string, std::string> &M) {
    for (auto &[K, V] : M)
      IO.mapRequired(K.c_str(), V);
  }
};

template <> struct MappingTraits<RawConfig> {
  static void mapping(IO &IO, RawConfig &C) {
    IO.mapOptional("Checks", C.Checks);
    IO.mapOptional("WarningsAsErrors", C.WarningsAsErrors);
    IO.mapOptional("HeaderFilterRegex", C.HeaderFilterRegex);
    IO.mapOptional("Regions", C.Regions);
    IO.mapOptional("Shapes", C.Shapes);
    IO.mapOptional("Trips", C.Trips);
    IO.mapOptional("Profile", C.Profile);
    IO.mapOptional("Rules", C.Rules);
    IO.mapOptional("DefaultResidency", C.DefaultResidency);
    IO.mapOptional("InheritParentConfig", C.InheritParentConfig);
    IO.mapOptional("regions", C.OldRegions); // Seam 0.1 spellings
    IO.mapOptional("shapes", C.OldShapes);
  }
};

} // namespace llvm::yaml

namespace seam {

static const char *const KnownKeys =
    "Checks, WarningsAsErrors, HeaderFilterRegex, Regions, Shapes, Trips, "
    "Profile, "
    "Rules, DefaultResidency, InheritParentConfig";

std::vector<std::string> FileConfig::shapeHints() const {
  std::vector<std::string> Out;
  for (auto &[Name, Dims] : Shapes)
    Out.push_back(Name + "=" + Dims);
  return Out;
}

void FileConfig::inherit(const FileConfig &Child) {
  // As clang-tidy merges .clang-tidy files: check lists concatenate, so the
  // child's items come last and win; scalars are replaced; lists add up.
  auto Concat = [](std::optional<std::string> &Into,
                   const std::optional<std::string> &More) {
    if (More)
      Into = Into && !Into->empty() ? *Into + "," + *More : *More;
  };
  Concat(Checks, Child.Checks);
  Concat(WarningsAsErrors, Child.WarningsAsErrors);
  if (Child.HeaderFilterRegex)
    HeaderFilterRegex = Child.HeaderFilterRegex;
  if (Child.Profile)
    Profile = Child.Profile;
  if (Child.DefaultResidency)
    DefaultResidency = Child.DefaultResidency;
  Regions.insert(Regions.end(), Child.Regions.begin(), Child.Regions.end());
  for (auto &[Name, Dims] : Child.Shapes)
    Shapes[Name] = Dims;
  for (auto &[Name, Count] : Child.Trips)
    Trips[Name] = Count;
  Rules.insert(Rules.end(), Child.Rules.begin(), Child.Rules.end());
  Sources.insert(Sources.end(), Child.Sources.begin(), Child.Sources.end());
  InheritParentConfig = Child.InheritParentConfig;
}

static llvm::Expected<FileConfig> parseConfigHere(llvm::StringRef Text,
                                                  llvm::StringRef Path);

llvm::Expected<FileConfig> parseConfig(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  // LLVM's YAML parser recurses once per nesting level: a file of 100 KB can
  // nest 50,000 deep (`[[[[...`, `- - - ...`), more than a thread's usual
  // stack. Parsed on a stack of its own, it is an error line, not a crash.
  std::optional<llvm::Expected<FileConfig>> Out;
  llvm::thread Worker(std::optional<unsigned>(1u << 30),
                      [&] { Out.emplace(parseConfigHere(Text, Path)); });
  Worker.join();
  return std::move(*Out);
}

static llvm::Expected<FileConfig> parseConfigHere(llvm::StringRef Text,
                                                  llvm::StringRef Path) {
  FileConfig C;
  C.Sources.push_back(Path.str());
  if (Text.trim().empty())
    return C;
  std::string Diag;
  RawConfig Raw;
  {
    llvm::yaml::Input In(
        Text, nullptr,
        [](const llvm::SMDiagnostic &D, void *Ctx) {
          auto *Out = static_cast<std::string *>(Ctx);
          if (!Out->empty())
            return;
          std::string Msg = D.getMessage().str();
          if (llvm::StringRef(Msg).starts_with("unknown key"))
            Msg += std::string(" (expected ") + KnownKeys + ")";
          else if (Msg == "not a sequence")
            Msg = "expected a list (Regions and Rules take one: "
                  "Regions: ['step_*'])";
          else if (Msg == "not a mapping")
            Msg = "expected a mapping (the file, and Shapes: "
                  "{x: 64x1024:f16})";
          *Out = std::to_string(D.getLineNo()) + ": " + Msg;
        },
        &Diag);
    In >> Raw;
    if (In.error() && Diag.empty())
      Diag = "0: not a valid configuration (expected a mapping of " +
             std::string(KnownKeys) + ")";
  }
  if (!Diag.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s:%s",
                                   Path.str().c_str(), Diag.c_str());
  auto Twice = [&](const char *Old, const char *New) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s: both '%s' and '%s' are given; write only '%s'", Path.str().c_str(),
        Old, New, New);
  };
  if (Raw.Regions && Raw.OldRegions)
    return Twice("regions", "Regions");
  if (Raw.Shapes && Raw.OldShapes)
    return Twice("shapes", "Shapes");
  C.Checks = Raw.Checks;
  C.WarningsAsErrors = Raw.WarningsAsErrors;
  C.HeaderFilterRegex = Raw.HeaderFilterRegex;
  C.Profile = Raw.Profile;
  if (Raw.DefaultResidency && *Raw.DefaultResidency != "host" &&
      *Raw.DefaultResidency != "device")
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s: DefaultResidency: '%s' (expected 'device' or 'host')",
        Path.str().c_str(), Raw.DefaultResidency->c_str());
  C.DefaultResidency = Raw.DefaultResidency;
  if (Raw.Regions || Raw.OldRegions)
    C.Regions = Raw.Regions ? *Raw.Regions : *Raw.OldRegions;
  if (Raw.Shapes || Raw.OldShapes)
    C.Shapes = Raw.Shapes ? *Raw.Shapes : *Raw.OldShapes;
  if (Raw.Trips)
    C.Trips = *Raw.Trips;
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (Raw.Rules)
    for (const std::string &R : *Raw.Rules) {
      llvm::SmallString<256> P(R);
      if (!llvm::sys::path::is_absolute(P)) {
        P = Dir;
        llvm::sys::path::append(P, R);
      }
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      C.Rules.push_back(std::string(P));
    }
  C.InheritParentConfig = Raw.InheritParentConfig.value_or(false);
  return C;
}

void dumpConfig(llvm::raw_ostream &OS, const FileConfig &C) {
  RawConfig Raw;
  Raw.Checks = C.Checks;
  Raw.WarningsAsErrors = C.WarningsAsErrors;
  Raw.HeaderFilterRegex = C.HeaderFilterRegex;
  Raw.Profile = C.Profile;
  Raw.DefaultResidency = C.DefaultResidency;
  if (!C.Regions.empty())
    Raw.Regions = C.Regions;
  if (!C.Shapes.empty())
    Raw.Shapes = C.Shapes;
  if (!C.Trips.empty())
    Raw.Trips = C.Trips;
  if (!C.Rules.empty())
    Raw.Rules = C.Rules;
  for (const std::string &S : C.Sources)
    OS << "# from " << S << "\n";
  llvm::yaml::Output Out(OS);
  Out << Raw;
}

llvm::Expected<FileConfig> ConfigFinder::load(llvm::StringRef Path) {
  if (auto It = Parsed.find(Path.str()); It != Parsed.end())
    return It->second;
  auto Buf = readInputFile(Path, "a Seam configuration file");
  if (!Buf)
    return Buf.takeError();
  llvm::Expected<FileConfig> C = parseConfig((*Buf)->getBuffer(), Path);
  if (C)
    Parsed[Path.str()] = *C;
  return C;
}

llvm::Expected<FileConfig> ConfigFinder::forDir(llvm::StringRef Dir) {
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, ".seam.yaml");
    if (!llvm::sys::fs::exists(Candidate))
      continue;
    llvm::Expected<FileConfig> C = load(Candidate);
    if (!C || !C->InheritParentConfig)
      return C;
    llvm::StringRef Parent = llvm::sys::path::parent_path(D);
    if (Parent.empty() || Parent == D)
      return C;
    llvm::Expected<FileConfig> Base = forDir(Parent);
    if (!Base)
      return Base.takeError();
    Base->inherit(*C);
    return Base;
  }
  return FileConfig();
}

llvm::Expected<FileConfig> ConfigFinder::forFile(llvm::StringRef SourceFile) {
  if (!ConfigFile.empty())
    return load(ConfigFile);
  llvm::SmallString<256> Dir(SourceFile);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  llvm::sys::path::remove_filename(Dir);
  return forDir(Dir);
}

} // namespace seam
