//===- ProjectPassTest.cpp - The project pass on hand-made summaries ------===//
#include "Project/ProjectPass.h"
#include "Basic/FindingJson.h"

#include <gtest/gtest.h>

namespace seam {
namespace {

SourcePoint at(const std::string &File, unsigned Line) {
  SourcePoint P;
  P.File = "/p/" + File;
  P.Line = Line;
  P.Column = 1;
  return P;
}

SummaryFunction fn(const std::string &Usr, const std::string &File,
                   unsigned Line, bool Hot = false) {
  SummaryFunction F;
  F.Usr = Usr;
  F.Name = Usr;
  F.Where = at(File, Line);
  F.Hot = Hot;
  return F;
}

SummaryCall call(const std::string &Callee, const std::string &File,
                 unsigned Line, bool Repeats = false) {
  SummaryCall C;
  C.Callee = Callee;
  C.CalleeName = Callee;
  C.Where = at(File, Line);
  C.Repeats = Repeats;
  if (Repeats) {
    C.Loop = {"inside this loop, which runs the call every iteration",
              at(File, Line - 1), false};
    C.Frequency = "every iteration";
  }
  return C;
}

ConditionalFinding sync(const std::string &Function, const std::string &File,
                        unsigned Line, int Param = -1) {
  ConditionalFinding C;
  C.Function = Function;
  C.ParamIndex = Param;
  C.F.RuleId = "seam-host-sync";
  C.F.Message = "host sync";
  C.F.Where = at(File, Line);
  CostEstimate E;
  E.IdleMicrosPerExecution = 10;
  E.Summary = "~10 us device idle per call (profile h100)";
  C.F.Cost = E;
  return C;
}

std::vector<ProjectFinding> run(const std::vector<TUSummary> &TUs) {
  std::vector<const TUSummary *> P;
  for (const TUSummary &S : TUs)
    P.push_back(&S);
  return runProjectPass(P);
}

TEST(ProjectPass, LoopInOneFileMakesAHelperTwoFilesAwayHot) {
  TUSummary Train, Nms, Util;
  SummaryFunction T = fn("train", "train.cpp", 3);
  T.Calls.push_back(call("nms", "train.cpp", 5, /*Repeats=*/true));
  Train.Functions.push_back(T);
  SummaryFunction N = fn("nms", "nms.cpp", 2);
  N.Calls.push_back(call("count", "nms.cpp", 4));
  Nms.Functions.push_back(N);
  Util.Functions.push_back(fn("count", "util.cpp", 1));
  Util.Conditional.push_back(sync("count", "util.cpp", 2));
  std::vector<ProjectFinding> Found = run({Train, Nms, Util});
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0].From, 2u);
  const Finding &F = Found[0].F;
  EXPECT_EQ(F.HotReason, "loop");
  ASSERT_EQ(F.Path.size(), 3u); // the loop, train -> nms, nms -> count
  EXPECT_EQ(F.Path[0].Where.File, "/p/train.cpp");
  EXPECT_TRUE(F.Path[1].IsCall);
  EXPECT_EQ(F.Path[2].Where.File, "/p/nms.cpp");
  EXPECT_NE(F.Details.front().find("through 'nms' (nms.cpp:2), 'count' "
                                   "(util.cpp:1)"),
            std::string::npos)
      << F.Details.front();
  ASSERT_TRUE(F.Cost);
  EXPECT_NE(F.Cost->Summary.find("per iteration"), std::string::npos);
  EXPECT_FALSE(F.Cost->IdleMicrosTotal); // the loop's trips are not known
}

TEST(ProjectPass, TheCallersLoopCountsPriceTheHelper) {
  TUSummary Train, Helper;
  SummaryFunction T = fn("train", "train.cpp", 3);
  SummaryCall C = call("helper", "train.cpp", 5, /*Repeats=*/true);
  C.PerIteration = 0.5; // every other iteration
  C.Iterations = 1000;
  C.Calls = 500;
  T.Calls.push_back(C);
  Train.Functions.push_back(T);
  Helper.Functions.push_back(fn("helper", "helper.cpp", 1));
  Helper.Conditional.push_back(sync("helper", "helper.cpp", 2));
  std::vector<ProjectFinding> Found = run({Train, Helper});
  ASSERT_EQ(Found.size(), 1u);
  const CostEstimate &E = *Found[0].F.Cost;
  EXPECT_DOUBLE_EQ(E.ExecutionsPerIteration, 0.5);
  EXPECT_EQ(E.TripCount, 1000);
  EXPECT_EQ(E.Executions, 500);
  EXPECT_EQ(E.IdleMicrosTotal, 5000); // 10 us each
  EXPECT_EQ(Found[0].F.Details.back(),
            "~5 ms device idle per 1000 iterations of the loop");
}

TEST(ProjectPass, ColdCallerHotInItsOwnFileOrOnceFromMain) {
  TUSummary Main, Helper;
  SummaryFunction M = fn("main", "main.cpp", 1);
  M.Calls.push_back(call("helper", "main.cpp", 2)); // once
  Main.Functions.push_back(M);
  Helper.Functions.push_back(fn("helper", "helper.cpp", 1));
  Helper.Conditional.push_back(sync("helper", "helper.cpp", 2));
  EXPECT_TRUE(run({Main, Helper}).empty());
  // Hot in its own file: reported there, not again.
  Helper.Functions[0].Hot = true;
  Main.Functions[0].Calls[0].Repeats = true;
  EXPECT_TRUE(run({Main, Helper}).empty());
}

TEST(ProjectPass, VirtualCallsRunOverridesDefinedElsewhere) {
  TUSummary Train, Heads;
  SummaryFunction T = fn("train", "train.cpp", 1);
  SummaryCall V = call("Head::score", "train.cpp", 3, true);
  V.Virtual = true;
  T.Calls.push_back(V);
  Train.Functions.push_back(T);
  SummaryFunction B = fn("BoxHead::score", "heads.cpp", 2);
  B.Overrides = {"Head::score"};
  Heads.Functions.push_back(B);
  Heads.Conditional.push_back(sync("BoxHead::score", "heads.cpp", 3));
  EXPECT_EQ(run({Train, Heads}).size(), 1u);
  Train.Functions[0].Calls[0].Virtual = false; // a qualified call: no
  EXPECT_TRUE(run({Train, Heads}).empty());
}

TEST(ProjectPass, CallablesStoredInOneFileCalledInAnother) {
  TUSummary Train, Hooks;
  SummaryFunction T = fn("train", "train.cpp", 1);
  T.Calls.push_back(call("holder:Hooks::on_step", "train.cpp", 3, true));
  Train.Functions.push_back(T);
  Hooks.Functions.push_back(fn("print_loss", "hooks.cpp", 1));
  Hooks.Stores.push_back({"Hooks::on_step", "print_loss"});
  Hooks.Conditional.push_back(sync("print_loss", "hooks.cpp", 2));
  EXPECT_EQ(run({Train, Hooks}).size(), 1u);
  Hooks.Stores.clear();
  EXPECT_TRUE(run({Train, Hooks}).empty());
}

TEST(ProjectPass, ArgumentResidencyDecidesAParameterSync) {
  TUSummary A, B, Helper;
  SummaryFunction Fa = fn("host_loop", "a.cpp", 1);
  Fa.Calls.push_back(call("read", "a.cpp", 3, true));
  Fa.Calls.back().Args = {"host"};
  A.Functions.push_back(Fa);
  Helper.Functions.push_back(fn("read", "read.cpp", 1));
  Helper.Conditional.push_back(sync("read", "read.cpp", 1, /*Param=*/0));
  // Only host tensors: nothing.
  EXPECT_TRUE(run({A, Helper}).empty());
  // Another loop passes a device tensor: reported, on that loop's path.
  SummaryFunction Fb = fn("device_loop", "b.cpp", 1);
  Fb.Calls.push_back(call("read", "b.cpp", 5, true));
  Fb.Calls.back().Args = {"device"};
  B.Functions.push_back(Fb);
  std::vector<ProjectFinding> Found = run({A, B, Helper});
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0].F.Path[1].Where.File, "/p/b.cpp");
}

TEST(ProjectPass, TheOrderOfTheSummariesDoesNotChooseThePath) {
  // Two loops in two files call one helper: the path is the same whatever
  // order the summaries come in (one run, or the merge of its shards).
  TUSummary A, B, Helper;
  A.File = "/p/a.cpp";
  B.File = "/p/b.cpp";
  Helper.File = "/p/read.cpp";
  SummaryFunction Fa = fn("loop_a", "a.cpp", 1);
  Fa.Calls.push_back(call("read", "a.cpp", 3, true));
  A.Functions.push_back(Fa);
  SummaryFunction Fb = fn("loop_b", "b.cpp", 1);
  Fb.Calls.push_back(call("read", "b.cpp", 5, true));
  B.Functions.push_back(Fb);
  Helper.Functions.push_back(fn("read", "read.cpp", 1));
  Helper.Conditional.push_back(sync("read", "read.cpp", 1, /*Param=*/0));
  std::vector<ProjectFinding> One = run({A, B, Helper});
  std::vector<ProjectFinding> Other = run({Helper, B, A});
  ASSERT_EQ(One.size(), 1u);
  ASSERT_EQ(Other.size(), 1u);
  EXPECT_EQ(toJson(One[0].F, JsonDetail::Full),
            toJson(Other[0].F, JsonDetail::Full));
  EXPECT_EQ(One[0].F.Path[0].Where.File, "/p/a.cpp");
}

TEST(ProjectPass, AHeaderFunctionInSeveralSummariesIsReportedOnce) {
  TUSummary Train, X, Y;
  SummaryFunction T = fn("train", "train.cpp", 1);
  T.Calls.push_back(call("inl", "train.cpp", 3, true));
  Train.Functions.push_back(T);
  for (TUSummary *S : {&X, &Y}) {
    S->Functions.push_back(fn("inl", "h.h", 1));
    S->Conditional.push_back(sync("inl", "h.h", 2));
  }
  EXPECT_EQ(run({Train, X, Y}).size(), 1u);
}

TEST(ProjectPass, SummaryJsonRoundTrips) {
  TUSummary S;
  S.File = "/p/a.cpp";
  SummaryFunction F = fn("f", "a.cpp", 1, true);
  F.HotPath = {{"'f' is a module forward, a hot path", at("a.cpp", 1), false}};
  F.HotReason = "forward";
  F.Overrides = {"Base::f"};
  SummaryCall C = call("g", "a.cpp", 2, true);
  C.Virtual = true;
  C.Through = "cb";
  C.PerIteration = 0.5;
  C.Args = {"host", "", "device"};
  F.Calls.push_back(C);
  S.Functions.push_back(F);
  S.Stores.push_back({"K::cb", "g"});
  S.Conditional.push_back(sync("f", "a.cpp", 3, 1));
  nlohmann::json J = toJson(S);
  TUSummary Back = tuSummaryFromJson(J);
  EXPECT_EQ(toJson(Back), J);
  EXPECT_EQ(Back.Functions[0].Calls[0].Args[2], "device");
  EXPECT_EQ(Back.Conditional[0].ParamIndex, 1);
  J["functions"][0]["calls"][0]["repeats"] = "yes";
  EXPECT_THROW(tuSummaryFromJson(J), nlohmann::json::exception);
}

} // namespace
} // namespace seam
