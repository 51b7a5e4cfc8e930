//===- SharedPreamble.cpp - One parse of the includes files share ---------===//
#include "Driver/SharedPreamble.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <functional>
#include <set>

namespace seam {

namespace {

/// The lines of a file that are not blank and not comments, trimmed; a line
/// that goes on after a block comment ends comes back as what follows it.
class CodeLines {
public:
  explicit CodeLines(llvm::StringRef Text) : Text(Text) {
    this->Text.consume_front("\xEF\xBB\xBF"); // a UTF-8 byte order mark
  }
  bool next(llvm::StringRef &Out) {
    while (!Text.empty()) {
      size_t NL = Text.find('\n');
      llvm::StringRef Line = Text.take_front(NL).trim();
      Text = NL == llvm::StringRef::npos ? "" : Text.drop_front(NL + 1);
      if (InComment) {
        if (!Line.contains("*/"))
          continue;
        InComment = false;
        Line = Line.split("*/").second.trim();
      }
      while (Line.starts_with("/*")) {
        if (!Line.contains("*/")) {
          InComment = true;
          Line = "";
          break;
        }
        Line = Line.split("*/").second.trim();
      }
      if (Line.empty() || Line.starts_with("//"))
        continue;
      Out = Line;
      return true;
    }
    return false;
  }

private:
  llvm::StringRef Text;
  bool InComment = false;
};

/// `#include <name>` or `#include "name"`, with nothing after it but a line
/// comment; \p Close is '>' or '"'.
bool parseInclude(llvm::StringRef Line, char &Close, llvm::StringRef &Name) {
  llvm::StringRef Rest = Line;
  if (!Rest.consume_front("#"))
    return false;
  Rest = Rest.ltrim();
  if (!Rest.consume_front("include"))
    return false;
  Rest = Rest.ltrim();
  Close = Rest.starts_with("<") ? '>' : Rest.starts_with("\"") ? '"' : 0;
  size_t End = Close ? Rest.find(Close, 1) : llvm::StringRef::npos;
  if (End == llvm::StringRef::npos)
    return false;
  Name = Rest.substr(1, End - 1);
  llvm::StringRef After = Rest.drop_front(End + 1).trim();
  return After.empty() || After.starts_with("//");
}

/// The directive's keyword and its argument: "#  ifndef X" is {ifndef, X}.
std::pair<llvm::StringRef, llvm::StringRef> directive(llvm::StringRef Line) {
  if (!Line.consume_front("#"))
    return {};
  Line = Line.ltrim();
  size_t End = Line.find_first_of(" \t");
  llvm::StringRef Arg =
      End == llvm::StringRef::npos ? "" : Line.drop_front(End).trim();
  if (Arg.contains("//"))
    Arg = Arg.split("//").first.rtrim();
  return {Line.take_front(End), Arg};
}

std::string existing(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Name);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return llvm::sys::fs::is_regular_file(P) ? std::string(P) : std::string();
}

} // namespace

std::string leadingIncludes(llvm::StringRef Text, llvm::StringRef MainDir) {
  std::string Out;
  CodeLines Lines(Text);
  llvm::StringRef Line;
  while (Lines.next(Line)) {
    if (Line == "#pragma once")
      continue;
    char Close;
    llvm::StringRef Name;
    if (!parseInclude(Line, Close, Name))
      break;
    if (Close == '"') {
      std::string Beside = existing(MainDir, Name);
      if (!Beside.empty()) {
        Out += "#include \"" + Beside + "\"\n";
        continue;
      }
    }
    Out += "#include " + std::string(1, Close == '>' ? '<' : '"') + Name.str() +
           Close + "\n";
  }
  return Out;
}

std::string preambleFlags(const clang::tooling::CompileCommand &C) {
  std::string Out = C.Directory;
  const std::vector<std::string> &A = C.CommandLine;
  for (size_t I = 0; I < A.size(); ++I) {
    llvm::StringRef Arg(A[I]);
    if (Arg == C.Filename)
      continue;
    if (Arg == "-o" || Arg == "-MF" || Arg == "-MT" || Arg == "-MQ") {
      ++I; // and its value
      continue;
    }
    if ((Arg.starts_with("-o") || Arg.starts_with("-MF") ||
         Arg.starts_with("-MT") || Arg.starts_with("-MQ")) &&
        Arg.size() > 3)
      continue;
    Out += '\x1f' + A[I];
  }
  return Out;
}

IncludeDirs includeDirs(const clang::tooling::CompileCommand &C) {
  IncludeDirs D;
  std::vector<std::string> Quote;
  auto Absolute = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> P(Dir);
    if (!llvm::sys::path::is_absolute(P)) {
      P = C.Directory;
      llvm::sys::path::append(P, Dir);
    }
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  };
  const std::vector<std::string> &A = C.CommandLine;
  for (size_t I = 1; I < A.size(); ++I) {
    llvm::StringRef Arg(A[I]);
    for (llvm::StringRef Flag : {"-iquote", "-I", "--include-directory="}) {
      if (!Arg.starts_with(Flag))
        continue;
      llvm::StringRef Dir = Arg.drop_front(Flag.size());
      if (Dir.empty() && Flag != "--include-directory=" && I + 1 < A.size())
        Dir = A[++I];
      if (Dir.empty())
        break;
      (Flag == "-iquote" ? Quote : D.User).push_back(Absolute(Dir));
      break;
    }
  }
  D.Quote = Quote;
  D.Quote.insert(D.Quote.end(), D.User.begin(), D.User.end());
  return D;
}

bool hasForcedIncludes(const std::vector<std::string> &Args) {
  for (const std::string &A : Args) {
    llvm::StringRef Arg(A);
    if (Arg.starts_with("-include") || Arg.starts_with("--include=") ||
        Arg.starts_with("-imacros") || Arg.starts_with("/FI") ||
        Arg.starts_with("-FI"))
      return true;
  }
  return false;
}

std::vector<std::string> leadingSystemHeaders(const std::string &MainFile,
                                              const IncludeDirs &Dirs) {
  std::vector<std::string> Out;
  std::set<std::string> Seen, Visited;
  // Returns false at the first line of code (or what the walk cannot
  // follow): then nothing after it is leading.
  std::function<bool(const std::string &, bool, unsigned)> Walk =
      [&](const std::string &File, bool IsMain, unsigned Depth) {
        if (Depth > 64 || Visited.size() > 512)
          return false;
        Visited.insert(File);
        auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
        if (!Buf)
          return false;
        CodeLines Lines((*Buf)->getBuffer());
        llvm::StringRef Line;
        llvm::StringRef Guard; // #ifndef G, then #define G, open
        bool GuardMayOpen = !IsMain;
        while (Lines.next(Line)) {
          auto [Kw, Arg] = directive(Line);
          if (Kw == "pragma" && Arg == "once")
            continue;
          bool MayOpen = GuardMayOpen;
          GuardMayOpen = false;
          if (MayOpen && Kw == "ifndef" && !Arg.empty() && Lines.next(Line) &&
              directive(Line).first == "define" &&
              directive(Line).second == Arg) {
            Guard = Arg;
            continue;
          }
          if (Kw == "endif" && !Guard.empty()) {
            Guard = "";
            continue;
          }
          char Close;
          llvm::StringRef Name;
          if (!parseInclude(Line, Close, Name))
            return false;
          std::string Found;
          if (Close == '"')
            Found = existing(llvm::sys::path::parent_path(File), Name);
          for (const std::string &D : Close == '"' ? Dirs.Quote : Dirs.User)
            if (Found.empty())
              Found = existing(D, Name);
          if (!Found.empty()) { // the project's own header
            if (Visited.count(Found))
              continue; // included again: its guard makes it empty
            if (!Walk(Found, false, Depth + 1))
              return false;
            continue;
          }
          std::string Written =
              (Close == '>' ? "<" : "\"") + Name.str() + std::string(1, Close);
          if (Seen.insert(Written).second)
            Out.push_back(Written);
        }
        return true;
      };
  Walk(MainFile, true, 0);
  return Out;
}

std::vector<SystemPreamble>
planSystemPreambles(const std::vector<std::vector<std::string>> &Leading,
                    const std::map<std::string, uint64_t> &Bytes) {
  std::vector<SystemPreamble> Out;
  std::vector<bool> Taken(Leading.size());
  while (true) {
    std::map<std::string, size_t> Count;
    for (size_t I = 0; I < Leading.size(); ++I)
      if (!Taken[I])
        for (const std::string &H : Leading[I])
          ++Count[H];
    const std::string *Best = nullptr;
    uint64_t BestSaved = 0;
    for (const auto &[H, N] : Count) {
      if (N < 2)
        continue;
      auto B = Bytes.find(H);
      // A header whose size is unknown still saves a parse per file.
      uint64_t Saved = (B == Bytes.end() ? 1 : B->second + 1) * (N - 1);
      if (!Best || Saved > BestSaved) {
        Best = &H;
        BestSaved = Saved;
      }
    }
    if (!Best)
      break;
    SystemPreamble P;
    for (size_t I = 0; I < Leading.size(); ++I)
      if (!Taken[I] && llvm::is_contained(Leading[I], *Best)) {
        P.Members.push_back(I);
        Taken[I] = true;
      }
    for (const std::string &H : Leading[P.Members.front()])
      if (llvm::all_of(P.Members, [&](size_t M) {
            return llvm::is_contained(Leading[M], H);
          }))
        P.Headers.push_back(H);
    Out.push_back(std::move(P));
  }
  return Out;
}

} // namespace seam
