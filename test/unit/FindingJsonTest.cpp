//===- FindingJsonTest.cpp - One JSON encoding, reporters and cache -------===//
#include "Basic/FindingJson.h"

#include "gtest/gtest.h"

using namespace seam;
using nlohmann::json;

namespace {

SourcePoint point(unsigned Line) {
  SourcePoint P;
  P.File = "/src/train.cpp";
  P.Line = Line;
  P.Column = 7;
  P.EndLine = Line + 1;
  P.EndColumn = 12;
  P.LineText = "  float l = loss.item<float>();";
  return P;
}

/// A finding with every field set to something other than its default.
Finding fullFinding() {
  Finding F;
  F.RuleId = "seam-host-sync";
  F.Severity = Level::Error;
  F.Message = "host sync: '.item()' reads 'loss' on the host";
  F.Where = point(12);
  F.Details = {"why it waits", "what was assumed"};
  F.Path = {{"inside this loop", point(10), false},
            {"'step' called here", point(40), true}};
  F.Trigger = "scalar-read";
  F.Residency = "device";
  F.Region = "Net::forward";
  F.Function = "train";
  F.Api = "'.item()'";
  F.HotReason = "loop";
  CostEstimate C;
  C.Profile = "h100";
  C.RegionPieces = 3;
  C.OpsPerPiece = {2, 4, 1};
  C.FusionGroupsCut = 2;
  C.ExtraLaunches = 5;
  C.BytesMaterialized = 4096;
  C.IntermediatesMaterialized = 6;
  C.IdleMicrosPerExecution = 12.5;
  C.ExecutionsPerIteration = 0.01;
  C.Frequency = "every 100th iteration";
  C.UncountedConditions = 1;
  C.Executions = 300;
  C.RunExecutions = 1200;
  C.RunExecutionsBound = true;
  C.CallFirstLine = 12;
  C.CallLastLine = 14;
  C.TripCount = 30000;
  C.IdleMicrosTotal = 3750;
  C.Rank = 77;
  C.Summary = "~12.5 us idle per execution";
  C.Detail = "cost: 3 pieces";
  F.Cost = C;
  Fix X;
  X.Kind = "deferred-accumulation";
  X.Description = "sum on the device";
  X.Effect = "saves one sync per iteration";
  X.Edits = {{"/src/train.cpp", 120, 5, "loss_sum", 12, 3, 12, 8}};
  F.AutoFix = X;
  F.NoFixReason = "withdrawn: compile errors";
  F.Suggestion = "keep the value on the device";
  F.Fingerprint = "0123456789abcdef";
  F.PromotedToError = true;
  return F;
}

SummaryRow fullRow() {
  SummaryRow R;
  R.Kind = "region";
  R.Name = "Net::forward";
  R.Where = point(30);
  R.Pieces = 3;
  R.LaunchesBefore = 2;
  R.LaunchesAfter = 6;
  R.Syncs = 2;
  R.MicrosPerExecution = 40.25;
  R.TripCount = 1000;
  R.MicrosTotal = 40250;
  R.Rank = 90;
  R.Profile = "h200";
  R.CompiledAt = point(5);
  R.NonEmptyPieces = 2;
  R.RunCalls = 1000;
  R.RunCallsBound = true;
  return R;
}

// Compared through the full encoding, which names every field: a field the
// encoding forgets is caught by the checks below, one it garbles here.
TEST(FindingJson, FullEncodingRoundTripsEveryField) {
  Finding F = fullFinding();
  json J = toJson(F, JsonDetail::Full);
  Finding Back = findingFromJson(J);
  EXPECT_EQ(toJson(Back, JsonDetail::Full), J);
  ASSERT_TRUE(Back.Cost);
  EXPECT_EQ(Back.Cost->RunExecutions, 1200);
  EXPECT_TRUE(Back.Cost->RunExecutionsBound);
  EXPECT_EQ(Back.Cost->CallFirstLine, 12u);
  EXPECT_EQ(Back.Cost->CallLastLine, 14u);
  EXPECT_EQ(Back.Cost->Summary, F.Cost->Summary);
  EXPECT_EQ(Back.Cost->Detail, F.Cost->Detail);
  EXPECT_EQ(Back.Where.LineText, F.Where.LineText);
  EXPECT_EQ(Back.NoFixReason, F.NoFixReason);
  EXPECT_TRUE(Back.PromotedToError);
  EXPECT_EQ(Back.Severity, Level::Error);
  ASSERT_EQ(Back.Path.size(), 2u);
  EXPECT_TRUE(Back.Path[1].IsCall);
  ASSERT_TRUE(Back.AutoFix);
  EXPECT_EQ(Back.AutoFix->Edits.at(0).Text, "loss_sum");
}

TEST(FindingJson, SummaryRowRoundTripsEveryField) {
  SummaryRow R = fullRow();
  json J = toJson(R, JsonDetail::Full);
  SummaryRow Back = summaryRowFromJson(J);
  EXPECT_EQ(toJson(Back, JsonDetail::Full), J);
  EXPECT_EQ(Back.CompiledAt.Line, 5u);
  EXPECT_EQ(Back.NonEmptyPieces, 2u);
  EXPECT_EQ(Back.RunCalls, 1000);
  EXPECT_TRUE(Back.RunCallsBound);
}

TEST(FindingJson, DefaultsRoundTrip) {
  Finding F;
  F.RuleId = "seam-graph-break";
  Finding Back = findingFromJson(toJson(F, JsonDetail::Full));
  EXPECT_FALSE(Back.Cost);
  EXPECT_FALSE(Back.AutoFix);
  EXPECT_TRUE(Back.Region.empty());
  EXPECT_EQ(Back.Severity, Level::Warning);
}

// The report keeps the documented keys, and leaves the cache's own out.
TEST(FindingJson, ReportEncodingIsTheDocumentedSubset) {
  json J = toJson(fullFinding());
  EXPECT_EQ(J.at("ruleId"), "seam-host-sync");
  EXPECT_EQ(J.at("level"), "error");
  EXPECT_EQ(J.at("hotPath"), "loop");
  EXPECT_TRUE(J.at("noFix").is_null()); // a fix was offered
  EXPECT_FALSE(J.at("location").contains("lineText"));
  EXPECT_FALSE(J.at("cost").contains("summary"));
  EXPECT_FALSE(J.contains("promotedToError"));
  EXPECT_FALSE(toJson(fullRow()).contains("compiledAt"));
}

TEST(FindingJson, MalformedValuesThrow) {
  json J = toJson(fullFinding(), JsonDetail::Full);
  json BadLevel = J;
  BadLevel["level"] = "fatal";
  EXPECT_THROW(findingFromJson(BadLevel), json::exception);
  json BadLine = J;
  BadLine["location"]["line"] = -4;
  EXPECT_THROW(findingFromJson(BadLine), json::exception);
  json Missing = J;
  Missing["cost"].erase("callLines");
  EXPECT_THROW(findingFromJson(Missing), json::exception);
}

} // namespace
