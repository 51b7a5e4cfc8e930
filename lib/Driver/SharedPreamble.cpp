//===- SharedPreamble.cpp - One parse of the includes files share ---------===//
#include "Driver/SharedPreamble.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace seam {

std::string leadingIncludes(llvm::StringRef Text, llvm::StringRef MainDir) {
  std::string Out;
  bool InComment = false;
  Text.consume_front("\xEF\xBB\xBF"); // a UTF-8 byte order mark
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    llvm::StringRef Line = Text.take_front(NL).trim();
    Text = NL == llvm::StringRef::npos ? "" : Text.drop_front(NL + 1);
    if (InComment) {
      if (Line.contains("*/")) {
        InComment = false;
        if (!Line.split("*/").second.trim().empty())
          break; // code after the comment
      }
      continue;
    }
    if (Line.empty() || Line.starts_with("//"))
      continue;
    if (Line.starts_with("/*")) {
      InComment = !Line.contains("*/");
      if (!InComment && !Line.split("*/").second.trim().empty())
        break;
      continue;
    }
    if (Line == "#pragma once")
      continue;
    llvm::StringRef Rest = Line;
    if (!Rest.consume_front("#"))
      break;
    Rest = Rest.ltrim();
    if (!Rest.consume_front("include"))
      break;
    Rest = Rest.ltrim();
    // Only plain forms, with nothing after them but a comment.
    char Close = Rest.starts_with("<") ? '>' : Rest.starts_with("\"") ? '"' : 0;
    size_t End = Close ? Rest.find(Close, 1) : llvm::StringRef::npos;
    if (End == llvm::StringRef::npos)
      break;
    llvm::StringRef Name = Rest.substr(1, End - 1);
    llvm::StringRef After = Rest.drop_front(End + 1).trim();
    if (!After.empty() && !After.starts_with("//"))
      break;
    if (Close == '"') {
      llvm::SmallString<256> Beside(MainDir);
      llvm::sys::path::append(Beside, Name);
      if (llvm::sys::fs::exists(Beside)) {
        Out += "#include \"" + std::string(Beside) + "\"\n";
        continue;
      }
    }
    Out += "#include " + Rest.take_front(End + 1).str() + "\n";
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

} // namespace seam
