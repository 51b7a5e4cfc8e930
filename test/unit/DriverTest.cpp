//===- DriverTest.cpp - clang-tidy-style selection, suppressions, baselines
//===//
#include "Basic/FindingJson.h"
#include "Driver/Baseline.h"
#include "Driver/Selection.h"
#include "Driver/SharedPreamble.h"
#include "Driver/Validate.h"
#include "Rules/GlobList.h"
#include "Rules/Suppressions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace seam;

TEST(GlobList, LastMatchingItemDecides) {
  GlobList G("-*, seam-host-sync,\nseam-graph-*");
  EXPECT_TRUE(G.contains("seam-host-sync"));
  EXPECT_TRUE(G.contains("seam-graph-break"));
  EXPECT_FALSE(G.contains("seam-capture-sync"));
  EXPECT_FALSE(GlobList("seam-*,-seam-host-sync").contains("seam-host-sync"));
  EXPECT_TRUE(GlobList("-seam-host-sync,seam-*").contains("seam-host-sync"));
  EXPECT_FALSE(GlobList("").contains("seam-host-sync"));
  EXPECT_TRUE(matchesGlob("*sync", "seam-host-sync"));
  EXPECT_TRUE(matchesGlob("s*-*-sync", "seam-host-sync"));
  EXPECT_FALSE(matchesGlob("seam-?ost-sync", "seam-host-sync")); // '*' only
}

TEST(Nolint, FormsAndBlocks) {
  NolintDirectives D =
      NolintDirectives::parse("a; // NOLINT\n"                      // 1
                              "b; // NOLINT(seam-graph-*)\n"        // 2
                              "// NOLINTNEXTLINE(seam-host-sync)\n" // 3
                              "c;\n"                                // 4
                              "// NOLINTBEGIN(seam-*)\n"            // 5
                              "d;\n"                                // 6
                              "// NOLINTEND(seam-*)\n"              // 7
                              "e;\n"                                // 8
                              "// NOLINTBEGIN(x)\n"                 // 9
                              "// NOLINTEND(y)\n");                 // 10
  EXPECT_TRUE(D.suppresses(1, "seam-host-sync"));
  EXPECT_FALSE(D.suppresses(2, "seam-host-sync"));
  EXPECT_TRUE(D.suppresses(2, "seam-graph-break"));
  EXPECT_TRUE(D.suppresses(4, "seam-host-sync"));
  EXPECT_FALSE(D.suppresses(3, "seam-host-sync"));
  EXPECT_TRUE(D.suppresses(6, "seam-capture-sync"));
  EXPECT_FALSE(D.suppresses(8, "seam-host-sync"));
  ASSERT_EQ(D.Problems.size(), 2u);
  EXPECT_EQ(D.Problems[0].Line, 10u); // the END without its BEGIN
  EXPECT_FALSE(D.Problems[0].IsBegin);
  EXPECT_EQ(D.Problems[1].Line, 9u);
  EXPECT_TRUE(D.Problems[1].IsBegin);
}

TEST(Shard, ParseAndSplit) {
  EXPECT_FALSE(!parseShard("2/4"));
  for (const char *Bad : {"0/4", "5/4", "x/4", "1/0", "1"}) {
    llvm::Expected<Shard> S = parseShard(Bad);
    EXPECT_FALSE(static_cast<bool>(S)) << Bad;
    if (!S)
      llvm::consumeError(S.takeError());
  }
  // Every file is in exactly one shard.
  for (const char *F : {"src/a.cpp", "src/b.cpp", "tools/c.cc", "x"}) {
    int In = 0;
    for (unsigned I = 1; I <= 3; ++I)
      In += inShard(F, Shard{I, 3});
    EXPECT_EQ(In, 1) << F;
  }
}

TEST(LineFilter, ClangTidySemantics) {
  llvm::Expected<LineFilter> LF = LineFilter::parse(
      R"([{"name":"a.cpp","lines":[[1,3],[7,7]]},{"name":"b.h"}])");
  ASSERT_TRUE(static_cast<bool>(LF));
  EXPECT_TRUE(LF->passes("/src/a.cpp", 2));
  EXPECT_TRUE(LF->passes("/src/a.cpp", 7));
  EXPECT_FALSE(LF->passes("/src/a.cpp", 5));
  EXPECT_TRUE(LF->passes("/inc/b.h", 500));
  EXPECT_FALSE(LF->passes("/src/c.cpp", 1));
  llvm::Expected<LineFilter> Bad = LineFilter::parse("[{\"lines\":[]}]");
  EXPECT_FALSE(static_cast<bool>(Bad));
  if (!Bad)
    llvm::consumeError(Bad.takeError());
}

TEST(Fingerprint, SurvivesShiftsNotEdits) {
  auto Make = [](unsigned Line, const std::string &Text) {
    Finding F;
    F.RuleId = "seam-host-sync";
    F.Function = "train";
    F.Where.File = "/repo/src/train.cpp";
    F.Where.Line = Line;
    F.Where.LineText = Text;
    return F;
  };
  std::vector<Finding> A = {Make(10, "  x.item<float>();"),
                            Make(11, "  x.item<float>();")};
  std::vector<Finding> B = {Make(40, "    x.item<float>();"),
                            Make(41, "x.item<float>();")};
  assignFingerprints(A, "/repo");
  assignFingerprints(B, "/repo");
  EXPECT_EQ(A[0].Fingerprint, B[0].Fingerprint); // moved, re-indented
  EXPECT_EQ(A[1].Fingerprint, B[1].Fingerprint);
  EXPECT_NE(A[0].Fingerprint, A[1].Fingerprint); // occurrence index
  std::vector<Finding> C = {Make(10, "  y.item<float>();")};
  assignFingerprints(C, "/repo");
  EXPECT_NE(A[0].Fingerprint, C[0].Fingerprint); // the line itself edited
  std::vector<Finding> D = {Make(10, "  x.item<float>();")};
  assignFingerprints(D, "/elsewhere/checkout");
  EXPECT_NE(A[0].Fingerprint, D[0].Fingerprint); // root-relative path
}

TEST(SharedPreamble, LeadingIncludes) {
  EXPECT_EQ(leadingIncludes("\xEF\xBB\xBF// c\n/* x\n y */\n#pragma once\n"
                            "#include <torch/torch.h>\n#include <vector> // v\n"
                            "int x;\n#include <map>\n",
                            "/nowhere"),
            "#include <torch/torch.h>\n#include <vector>\n");
  EXPECT_EQ(leadingIncludes("#define X 1\n#include <torch/torch.h>\n", "/"),
            "");
  EXPECT_EQ(leadingIncludes("#include \"missing-here.h\"\n", "/nowhere"),
            "#include \"missing-here.h\"\n");
}

namespace {
/// A directory of files, removed at the end of the test.
struct Files {
  llvm::SmallString<128> Dir;
  Files() { llvm::sys::fs::createUniqueDirectory("seam-preamble-test", Dir); }
  ~Files() { llvm::sys::fs::remove_directories(Dir); }
  std::string add(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
    return std::string(P);
  }
};
} // namespace

TEST(SharedPreamble, LeadingSystemHeadersFollowProjectHeaders) {
  Files F;
  F.add("inc/a.h", "\xEF\xBB\xBF#ifndef A_H\n#define A_H // guard\n"
                   "#include <vector>\n#include \"b.h\"\n"
                   "#include <torch/torch.h>\nint a();\n#include <map>\n"
                   "#endif\n");
  F.add("inc/b.h", "#pragma once\n/* only includes */\n#include <string>\n"
                   "#include <vector>\n");
  F.add("src/includes-only.h", "#pragma once\n#include <set>\n");
  std::string Main =
      F.add("src/main.cpp", "// c\n#include \"includes-only.h\"\n#include "
                            "<a.h>\n#include <list>\nint main();\n");
  IncludeDirs D;
  D.User = {std::string(F.Dir) + "/inc"};
  D.Quote = D.User;
  // includes-only.h beside main.cpp, a.h through -I and its guard, b.h
  // beside a.h; a.h's code ends the walk.
  EXPECT_EQ(leadingSystemHeaders(Main, D),
            (std::vector<std::string>{"<set>", "<vector>", "<string>",
                                      "<torch/torch.h>"}));
  std::string Macro =
      F.add("src/macro.cpp", "#define NOMINMAX\n#include <vector>\n");
  EXPECT_TRUE(leadingSystemHeaders(Macro, D).empty());
  // A guard that is not the header's first line is code.
  F.add("inc/late.h", "#include <set>\n#ifndef LATE_H\n#define LATE_H\n"
                      "#include <map>\n#endif\n");
  std::string Late = F.add("src/late.cpp", "#include \"late.h\"\n");
  EXPECT_EQ(leadingSystemHeaders(Late, D), (std::vector<std::string>{"<set>"}));
  // A quoted include found nowhere in the project is written as it was.
  std::string Cuda = F.add("src/cuda.cpp", "#include \"cuda.h\"\nint x;\n");
  EXPECT_EQ(leadingSystemHeaders(Cuda, D),
            (std::vector<std::string>{"\"cuda.h\""}));
}

TEST(SharedPreamble, IncludeDirsAndForcedIncludes) {
  clang::tooling::CompileCommand C("/b", "a.cpp",
                                   {"c++", "-I", "inc", "-I/abs", "-iquote",
                                    "q", "-isystem", "/sys",
                                    "--include-directory=d", "a.cpp"},
                                   "");
  IncludeDirs D = includeDirs(C);
  EXPECT_EQ(D.User, (std::vector<std::string>{"/b/inc", "/abs", "/b/d"}));
  EXPECT_EQ(D.Quote,
            (std::vector<std::string>{"/b/q", "/b/inc", "/abs", "/b/d"}));
  EXPECT_FALSE(hasForcedIncludes(C.CommandLine));
  EXPECT_TRUE(hasForcedIncludes({"c++", "-include", "cfg.h", "a.cpp"}));
  EXPECT_TRUE(hasForcedIncludes({"-include-pch", "x.pch"}));
  EXPECT_TRUE(hasForcedIncludes({"-imacros", "m.h"}));
}

TEST(SharedPreamble, PlanSharesTheHeaderThatSavesMost) {
  // As PPO-LibTorch: files reach <iostream> or <vector> first, most of them
  // also <torch/torch.h>, which is what is worth sharing.
  std::vector<std::vector<std::string>> Leading = {
      {"<iostream>", "<torch/torch.h>", "<random>"}, // 0
      {"<vector>", "<cmath>", "<torch/torch.h>"},    // 1
      {"<vector>", "<iostream>"},                    // 2
      {"<iostream>", "<vector>", "<mutex>"},         // 3
      {"<torch/torch.h>", "<iostream>"},             // 4
      {"<map>"},                                     // 5
  };
  std::map<std::string, uint64_t> Bytes = {{"<iostream>", 900000},
                                           {"<vector>", 400000},
                                           {"<torch/torch.h>", 9000000},
                                           {"<random>", 100000},
                                           {"<cmath>", 80000},
                                           {"<mutex>", 50000},
                                           {"<map>", 60000}};
  std::vector<SystemPreamble> P = planSystemPreambles(Leading, Bytes);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Members, (std::vector<size_t>{0, 1, 4}));
  EXPECT_EQ(P[0].Headers, (std::vector<std::string>{"<torch/torch.h>"}));
  // Then what 2 and 3 both reach, in 2's order; 5 shares nothing.
  EXPECT_EQ(P[1].Members, (std::vector<size_t>{2, 3}));
  EXPECT_EQ(P[1].Headers, (std::vector<std::string>{"<vector>", "<iostream>"}));
  // Counted by files when nothing was measured.
  P = planSystemPreambles({{"<a>"}, {"<a>", "<b>"}, {"<b>"}, {"<b>"}}, {});
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Members, (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(P[0].Headers, (std::vector<std::string>{"<b>"}));
}

TEST(SharedPreamble, FlagsIgnoreFileAndOutputs) {
  clang::tooling::CompileCommand A(
      "/b", "../a.cpp",
      {"c++", "-Iinc", "-MD", "-MF", "a.d", "-o", "a.o", "-c", "../a.cpp"}, "");
  clang::tooling::CompileCommand B(
      "/b", "../b.cpp",
      {"c++", "-Iinc", "-MD", "-MF", "b.d", "-o", "b.o", "-c", "../b.cpp"}, "");
  EXPECT_EQ(preambleFlags(A), preambleFlags(B));
  B.CommandLine.insert(B.CommandLine.begin() + 1, "-DX");
  EXPECT_NE(preambleFlags(A), preambleFlags(B));
}

// What the cache's reader takes as a count: json::get<unsigned> would
// convert a float with undefined behaviour and wrap a negative number.
TEST(JsonInteger, RefusesFloatsAndValuesOutOfRange) {
  using nlohmann::json;
  EXPECT_EQ(jsonInteger<unsigned>(json(7)), 7u);
  EXPECT_EQ(jsonInteger<int64_t>(json(-3)), -3);
  EXPECT_EQ(jsonInteger<uint64_t>(json(18446744073709551615ull)),
            18446744073709551615ull);
  EXPECT_THROW(jsonInteger<unsigned>(json(1.77732e+27)), json::type_error);
  EXPECT_THROW(jsonInteger<unsigned>(json(2.0)), json::type_error);
  EXPECT_THROW(jsonInteger<unsigned>(json("7")), json::type_error);
  EXPECT_THROW(jsonInteger<unsigned>(json(-1)), json::out_of_range);
  EXPECT_THROW(jsonInteger<unsigned>(json(4294967296ll)), json::out_of_range);
  EXPECT_THROW(jsonInteger<int>(json(2147483648ull)), json::out_of_range);
  EXPECT_THROW(jsonInteger<int>(json(-2147483649ll)), json::out_of_range);
  EXPECT_THROW(jsonInteger<int64_t>(json(18446744073709551615ull)),
               json::out_of_range);
}

TEST(Validate, MedianAndSpreadOfRuns) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3}), 3);
  EXPECT_EQ(median({5, 1, 3}), 3);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  // Quartiles interpolate between order statistics: 1 2 3 4 5 has Q1 = 2,
  // Q3 = 4, so the spread is 2 / 3.
  EXPECT_DOUBLE_EQ(relativeSpread({5, 4, 3, 2, 1}), 2.0 / 3);
  EXPECT_EQ(relativeSpread({7}), 0);       // one run: no spread
  EXPECT_EQ(relativeSpread({0, 0, 0}), 0); // a zero median
  // Runs of 1 and 64 ms in turn (test/runtime/validate/noisy.cpp): far
  // wider than any tolerance, from two runs on.
  EXPECT_GT(relativeSpread({1000, 64000}), 0.9);
  EXPECT_GT(relativeSpread({1000, 64000, 1000, 64000, 1000}), 2.5);
  // Quiet runs: a few percent.
  EXPECT_LT(relativeSpread({70, 71, 69, 72, 70}), 0.05);
}

TEST(Validate, IdleJudgedByMediansUnlessRunsSpreadWiderThanTolerance) {
  struct Case {
    double Predicted, Measured, Spread;
    unsigned Runs;
    IdleVerdict Expected;
  };
  const Case Cases[] = {
      // One run: no spread known, the values decide.
      {10, 10, 0, 1, IdleVerdict::Match},
      {12.4, 10, 0, 1, IdleVerdict::Match},
      {12.6, 10, 0, 1, IdleVerdict::Outside},
      {7.4, 10, 0, 1, IdleVerdict::Outside},
      // Quiet runs near the edge (a 10% measured spread over five runs:
      // about +-8% of uncertainty): judged by the medians on either side
      // of it, never noisy.
      {12.3, 10, 0.10, 5, IdleVerdict::Match},
      {12.7, 10, 0.10, 5, IdleVerdict::Outside},
      {7.6, 10, 0.10, 5, IdleVerdict::Match},
      // Far off the edge, even wide runs judge it.
      {50, 10, 0.5, 5, IdleVerdict::Outside},
      // Runs that disagree by more than the tolerance (the measured
      // medians of two runs of test/runtime/validate/noisy.cpp spread 0.97)
      // and could put it on either side: noisy, whichever side the medians
      // are on.
      {32500, 32500, 0.97, 2, IdleVerdict::Noisy},
      {5, 32500, 0.97, 2, IdleVerdict::Noisy},
      {16000, 16000, 3.75, 5, IdleVerdict::Noisy},
      {5, 16000, 3.75, 5, IdleVerdict::Noisy},
      {11, 10, 0.6, 5, IdleVerdict::Noisy},
      // More runs narrow the uncertainty: the same spread is judged.
      {11, 10, 0.3, 100, IdleVerdict::Match},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(judgeIdle(C.Predicted, C.Measured, C.Spread, C.Runs, 0.25),
              C.Expected)
        << C.Predicted << " against " << C.Measured << ", spread " << C.Spread
        << " over " << C.Runs << " runs";
}

TEST(Validate, MergeRunsTakesMediansAndMarksCountsThatVary) {
  auto Line = [](unsigned L, int64_t Syncs, double Total, double Median) {
    Measured M;
    M.File = "a.cpp";
    M.Line = L;
    M.Executions = M.Syncs = Syncs;
    M.Idle = Total;
    M.IdleMedian = Median;
    M.IdleSamples = Syncs;
    return M;
  };
  std::vector<Measured> Ms =
      mergeRuns({{Line(3, 10, 100, 10), Line(7, 1, 5, 5)},
                 {Line(3, 10, 300, 30), Line(7, 2, 6, 6)},
                 {Line(3, 10, 200, 20)}});
  ASSERT_EQ(Ms.size(), 2u);
  EXPECT_EQ(Ms[0].Runs, 3u);
  EXPECT_EQ(Ms[0].Idle, 200);
  EXPECT_EQ(Ms[0].IdleMedian, 20);
  EXPECT_GT(Ms[0].IdleSpread, 0);
  EXPECT_GT(Ms[0].IdleTotalSpread, 0);
  EXPECT_FALSE(Ms[0].CountsVary);
  // Line 7 synced once, then twice, then never ran.
  EXPECT_TRUE(Ms[1].CountsVary);
  EXPECT_TRUE(mergeRuns({}).empty());
}
