//===- Setup.cpp - Where packs and profiles are, and loading them ---------===//
#include "Setup/Setup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace seam {

std::string findRulesDir(llvm::StringRef Installed) {
  if (auto Env = llvm::sys::Process::GetEnv("SEAM_RULES_DIR");
      Env && !Env->empty())
    return *Env;
  llvm::SmallString<256> Probe(Installed);
  llvm::sys::path::append(Probe, "libtorch.json");
  if (llvm::sys::fs::exists(Probe))
    return Installed.str();
#ifdef SEAM_SOURCE_RULES_DIR
  return SEAM_SOURCE_RULES_DIR;
#else
  return Installed.str();
#endif
}

std::string installedRulesDir(const char *Argv0) {
  std::string Exe =
      llvm::sys::fs::getMainExecutable(Argv0, (void *)&installedRulesDir);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Dir, "..", "share", "seam", "rules");
  return std::string(Dir);
}

std::vector<std::string> defaultPackPaths(llvm::StringRef RulesDir) {
  std::vector<std::string> Out;
  for (const char *Name : {"libtorch.json", "seamrt.json"}) {
    llvm::SmallString<256> P(RulesDir);
    llvm::sys::path::append(P, Name);
    Out.push_back(std::string(P));
  }
  return Out;
}

std::string packPath(const std::string &Name, llvm::StringRef RulesDir) {
  if (Name.find('/') != std::string::npos ||
      llvm::StringRef(Name).ends_with(".json") || llvm::sys::fs::exists(Name))
    return Name;
  llvm::SmallString<256> Shipped(RulesDir);
  llvm::sys::path::append(Shipped, Name + ".json");
  return llvm::sys::fs::exists(Shipped) ? std::string(Shipped) : Name;
}

std::string profilesDir(llvm::StringRef RulesDir) {
  llvm::SmallString<256> P(RulesDir);
  llvm::sys::path::append(P, "profiles");
  return std::string(P);
}

std::string profilePath(const std::string &Name, llvm::StringRef ProfilesDir) {
  if (llvm::StringRef(Name).ends_with(".json") ||
      Name.find('/') != std::string::npos)
    return Name;
  llvm::SmallString<256> P(ProfilesDir);
  llvm::sys::path::append(P, Name + ".json");
  return std::string(P);
}

llvm::Expected<RulePack> loadPacks(const std::vector<std::string> &Paths) {
  RulePack Merged;
  for (const std::string &Path : Paths) {
    llvm::Expected<RulePack> P = loadRulePack(Path);
    if (!P)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "invalid rule pack: " +
                                         llvm::toString(P.takeError()));
    mergeRulePack(Merged, *P);
  }
  return std::move(Merged);
}

} // namespace seam
