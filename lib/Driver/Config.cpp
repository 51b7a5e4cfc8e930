//===- Config.cpp - .seam.yaml: per-directory analysis settings -----------===//
#include "Driver/Config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace seam {

static llvm::Error configError(llvm::StringRef Path, llvm::SourceMgr &SM,
                               llvm::yaml::Node *N, const std::string &Msg) {
  unsigned Line = 0;
  // A node the parser made up while recovering may point nowhere (found by
  // fuzz/FuzzConfig.cpp): only a location inside the buffer has a line.
  const char *P = N ? N->getSourceRange().Start.getPointer() : nullptr;
  if (P && SM.getNumBuffers() > 0) {
    llvm::StringRef Buf = SM.getMemoryBuffer(1)->getBuffer();
    if (P >= Buf.begin() && P <= Buf.end())
      Line = SM.getLineAndColumn(N->getSourceRange().Start).first;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s:%u: %s",
                                 Path.str().c_str(), Line, Msg.c_str());
}

llvm::Expected<FileConfig> parseConfig(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  FileConfig C;
  C.Path = Path.str();
  llvm::SourceMgr SM;
  std::string Diag;
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        auto *Out = static_cast<std::string *>(Ctx);
        if (Out->empty())
          *Out = std::to_string(D.getLineNo()) + ": " + D.getMessage().str();
      },
      &Diag);
  llvm::yaml::Stream S(Text, SM);
  auto It = S.begin();
  if (It == S.end() || !It->getRoot() ||
      llvm::isa<llvm::yaml::NullNode>(It->getRoot()))
    return C; // an empty file
  auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(It->getRoot());
  if (!Diag.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s:%s",
                                   Path.str().c_str(), Diag.c_str());
  if (!Map)
    return configError(Path, SM, It->getRoot(), "expected a mapping");
  for (llvm::yaml::KeyValueNode &KV : *Map) {
    auto *Key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
    llvm::SmallString<32> KeyBuf;
    llvm::StringRef Name = Key ? Key->getValue(KeyBuf) : "";
    llvm::yaml::Node *Value = KV.getValue();
    if (!Diag.empty())
      break;
    if (Name == "regions") {
      auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(Value);
      if (!Seq)
        return configError(Path, SM, Value,
                           "'regions' must be a list of globs");
      for (llvm::yaml::Node &Item : *Seq) {
        auto *Glob = llvm::dyn_cast<llvm::yaml::ScalarNode>(&Item);
        if (!Glob)
          return configError(Path, SM, &Item, "a region must be a string");
        llvm::SmallString<64> Buf;
        C.Regions.push_back(Glob->getValue(Buf).str());
      }
    } else if (Name == "shapes") {
      auto *Shapes = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(Value);
      if (!Shapes)
        return configError(Path, SM, Value,
                           "'shapes' must map names to DIMS[:DTYPE]");
      for (llvm::yaml::KeyValueNode &Shape : *Shapes) {
        auto *K =
            llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(Shape.getKey());
        auto *V =
            llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(Shape.getValue());
        if (!K || !V)
          return configError(Path, SM, Shape.getKey(),
                             "a shape must be 'name: DIMS[:DTYPE]'");
        llvm::SmallString<32> KB, VB;
        C.Shapes.push_back(K->getValue(KB).str() + "=" + V->getValue(VB).str());
      }
    } else {
      return configError(Path, SM, KV.getKey(),
                         "unknown key '" + Name.str() +
                             "' (expected regions, shapes)");
    }
  }
  if (!Diag.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s:%s",
                                   Path.str().c_str(), Diag.c_str());
  return C;
}

llvm::Expected<const FileConfig *>
ConfigFinder::forFile(llvm::StringRef SourceFile) {
  llvm::SmallString<256> Dir(SourceFile);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_filename(Dir);
  std::vector<std::string> Visited;
  const FileConfig *Found = &None;
  for (llvm::StringRef D = Dir; !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    if (auto Cached = ByDir.find(D.str()); Cached != ByDir.end()) {
      Found = Cached->second;
      break;
    }
    Visited.push_back(D.str());
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, ".seam.yaml");
    if (!llvm::sys::fs::exists(Candidate))
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(Candidate, /*IsText=*/true);
    if (!Buf)
      return llvm::createStringError(Buf.getError(), "%s: cannot read: %s",
                                     Candidate.c_str(),
                                     Buf.getError().message().c_str());
    llvm::Expected<FileConfig> C =
        parseConfig((*Buf)->getBuffer(), Candidate.str());
    if (!C)
      return C.takeError();
    Found = &(ByPath[std::string(Candidate)] = std::move(*C));
    break;
  }
  for (const std::string &V : Visited)
    ByDir[V] = Found;
  return Found;
}

} // namespace seam
