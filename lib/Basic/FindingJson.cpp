//===- FindingJson.cpp - The one JSON encoding of Seam's results ----------===//
#include "Basic/FindingJson.h"

namespace seam {

using nlohmann::json;

namespace {

json opt(const std::optional<double> &V) {
  return V ? json(*V) : json(nullptr);
}
std::optional<double> optFrom(const json &J) {
  return J.is_null() ? std::nullopt : std::optional<double>(J.get<double>());
}
/// "" is written as null where the report documents null.
json orNull(const std::string &S) {
  return S.empty() ? json(nullptr) : json(S);
}
std::string stringOrEmpty(const json &J) {
  return J.is_null() ? std::string() : J.get<std::string>();
}

Level levelFrom(const json &J) {
  std::string Name = J.get<std::string>();
  for (Level L : {Level::Note, Level::Warning, Level::Error})
    if (Name == levelName(L))
      return L;
  throw json::out_of_range::create(406, "no such level '" + Name + "'", &J);
}

} // namespace

json toJson(const SourcePoint &P, JsonDetail D) {
  json J = {{"file", P.File},
            {"line", P.Line},
            {"column", P.Column},
            {"endLine", P.EndLine},
            {"endColumn", P.EndColumn}};
  if (D == JsonDetail::Full)
    J["lineText"] = P.LineText;
  return J;
}

SourcePoint pointFromJson(const json &J) {
  SourcePoint P;
  P.File = J.at("file").get<std::string>();
  P.Line = jsonInteger<unsigned>(J.at("line"));
  P.Column = jsonInteger<unsigned>(J.at("column"));
  P.EndLine = jsonInteger<unsigned>(J.at("endLine"));
  P.EndColumn = jsonInteger<unsigned>(J.at("endColumn"));
  P.LineText = J.at("lineText").get<std::string>();
  return P;
}

json toJson(const PathNote &N, JsonDetail D) {
  return {{"message", N.Message},
          {"location", toJson(N.Where, D)},
          {"kind", N.IsCall ? "call" : "context"}};
}

json toJson(const CostEstimate &C, JsonDetail D) {
  json J = {{"profile", C.Profile},
            {"regionPieces", C.RegionPieces},
            {"opsPerPiece", C.OpsPerPiece},
            {"fusionGroupsCut", C.FusionGroupsCut},
            {"extraLaunches", C.ExtraLaunches},
            {"intermediatesMaterialized", C.IntermediatesMaterialized},
            {"bytesMaterialized", opt(C.BytesMaterialized)},
            {"idleMicrosPerExecution", C.IdleMicrosPerExecution},
            {"executionsPerIteration", C.ExecutionsPerIteration},
            {"frequency", C.Frequency},
            {"uncountedConditions", C.UncountedConditions},
            {"executions", opt(C.Executions)},
            {"tripCount", opt(C.TripCount)},
            {"idleMicrosTotal", opt(C.IdleMicrosTotal)},
            {"rank", C.Rank}};
  if (D == JsonDetail::Full) {
    J["runExecutions"] = opt(C.RunExecutions);
    J["runExecutionsBound"] = C.RunExecutionsBound;
    J["callLines"] = {C.CallFirstLine, C.CallLastLine};
    J["summary"] = C.Summary;
    J["detail"] = C.Detail;
  }
  return J;
}

static CostEstimate costFromJson(const json &C) {
  CostEstimate E;
  E.Profile = C.at("profile").get<std::string>();
  E.RegionPieces = jsonInteger<unsigned>(C.at("regionPieces"));
  for (const json &N : C.at("opsPerPiece"))
    E.OpsPerPiece.push_back(jsonInteger<unsigned>(N));
  E.FusionGroupsCut = jsonInteger<unsigned>(C.at("fusionGroupsCut"));
  E.ExtraLaunches = jsonInteger<unsigned>(C.at("extraLaunches"));
  E.IntermediatesMaterialized =
      jsonInteger<unsigned>(C.at("intermediatesMaterialized"));
  E.BytesMaterialized = optFrom(C.at("bytesMaterialized"));
  E.IdleMicrosPerExecution = C.at("idleMicrosPerExecution").get<double>();
  E.ExecutionsPerIteration = C.at("executionsPerIteration").get<double>();
  E.Frequency = C.at("frequency").get<std::string>();
  E.UncountedConditions = jsonInteger<unsigned>(C.at("uncountedConditions"));
  E.Executions = optFrom(C.at("executions"));
  E.TripCount = optFrom(C.at("tripCount"));
  E.IdleMicrosTotal = optFrom(C.at("idleMicrosTotal"));
  E.Rank = jsonInteger<unsigned>(C.at("rank"));
  E.RunExecutions = optFrom(C.at("runExecutions"));
  E.RunExecutionsBound = C.at("runExecutionsBound").get<bool>();
  E.CallFirstLine = jsonInteger<unsigned>(C.at("callLines").at(0));
  E.CallLastLine = jsonInteger<unsigned>(C.at("callLines").at(1));
  E.Summary = C.at("summary").get<std::string>();
  E.Detail = C.at("detail").get<std::string>();
  return E;
}

json toJson(const Fix &F) {
  json Edits = json::array();
  for (const TextEdit &E : F.Edits)
    Edits.push_back({{"file", E.File},
                     {"offset", E.Offset},
                     {"length", E.Length},
                     {"line", E.Line},
                     {"column", E.Column},
                     {"endLine", E.EndLine},
                     {"endColumn", E.EndColumn},
                     {"text", E.Text}});
  return {{"kind", F.Kind},
          {"description", F.Description},
          {"effect", F.Effect},
          {"edits", Edits}};
}

Fix fixFromJson(const json &J) {
  Fix F;
  F.Kind = J.at("kind").get<std::string>();
  F.Description = J.at("description").get<std::string>();
  F.Effect = J.at("effect").get<std::string>();
  for (const json &E : J.at("edits")) {
    TextEdit T;
    T.File = E.at("file").get<std::string>();
    T.Offset = jsonInteger<unsigned>(E.at("offset"));
    T.Length = jsonInteger<unsigned>(E.at("length"));
    T.Line = jsonInteger<unsigned>(E.at("line"));
    T.Column = jsonInteger<unsigned>(E.at("column"));
    T.EndLine = jsonInteger<unsigned>(E.at("endLine"));
    T.EndColumn = jsonInteger<unsigned>(E.at("endColumn"));
    T.Text = E.at("text").get<std::string>();
    F.Edits.push_back(std::move(T));
  }
  return F;
}

json toJson(const Finding &F, JsonDetail D) {
  json Path = json::array();
  for (const PathNote &N : F.Path)
    Path.push_back(toJson(N, D));
  json J = {{"ruleId", F.RuleId},
            {"level", levelName(F.Severity)},
            {"message", F.Message},
            {"location", toJson(F.Where, D)},
            {"trigger", F.Trigger},
            {"residency", F.Residency},
            {"region", orNull(F.Region)},
            {"function", F.Function},
            {"api", F.Api},
            {"hotPath", F.HotReason},
            {"path", Path},
            {"cost", F.Cost ? toJson(*F.Cost, D) : json(nullptr)},
            {"details", F.Details},
            {"fix", F.AutoFix ? toJson(*F.AutoFix) : json(nullptr)},
            {"noFix", F.AutoFix ? json(nullptr) : json(F.NoFixReason)},
            {"suggestion", orNull(F.Suggestion)},
            {"fingerprint", F.Fingerprint}};
  if (D == JsonDetail::Full) {
    // A fix and the reason for none can both be set before the driver
    // withdraws a fix; keep both.
    J["noFix"] = F.NoFixReason;
    J["promotedToError"] = F.PromotedToError;
  }
  return J;
}

Finding findingFromJson(const json &J) {
  Finding F;
  F.RuleId = J.at("ruleId").get<std::string>();
  F.Severity = levelFrom(J.at("level"));
  F.Message = J.at("message").get<std::string>();
  F.Where = pointFromJson(J.at("location"));
  F.Details = J.at("details").get<std::vector<std::string>>();
  for (const json &N : J.at("path")) {
    std::string Kind = N.at("kind").get<std::string>();
    if (Kind != "call" && Kind != "context")
      throw json::out_of_range::create(406, "no such path kind", &N);
    F.Path.push_back({N.at("message").get<std::string>(),
                      pointFromJson(N.at("location")), Kind == "call"});
  }
  F.Trigger = J.at("trigger").get<std::string>();
  F.Residency = J.at("residency").get<std::string>();
  F.Region = stringOrEmpty(J.at("region"));
  F.Function = J.at("function").get<std::string>();
  F.Api = J.at("api").get<std::string>();
  F.HotReason = J.at("hotPath").get<std::string>();
  if (!J.at("cost").is_null())
    F.Cost = costFromJson(J.at("cost"));
  if (!J.at("fix").is_null())
    F.AutoFix = fixFromJson(J.at("fix"));
  F.NoFixReason = stringOrEmpty(J.at("noFix"));
  F.Suggestion = stringOrEmpty(J.at("suggestion"));
  F.Fingerprint = J.at("fingerprint").get<std::string>();
  F.PromotedToError = J.at("promotedToError").get<bool>();
  return F;
}

json toJson(const SummaryRow &Row, JsonDetail D) {
  json J = {{"kind", Row.Kind},
            {"name", Row.Name},
            {"location", toJson(Row.Where, D)},
            {"pieces", Row.Pieces},
            {"launchesBefore", Row.LaunchesBefore},
            {"launchesAfter", Row.LaunchesAfter},
            {"syncs", Row.Syncs},
            {"microsPerExecution", Row.MicrosPerExecution},
            {"tripCount", opt(Row.TripCount)},
            {"microsTotal", opt(Row.MicrosTotal)},
            {"rank", Row.Rank},
            {"profile", Row.Profile}};
  if (D == JsonDetail::Full) {
    J["compiledAt"] = toJson(Row.CompiledAt, D);
    J["nonEmptyPieces"] = Row.NonEmptyPieces;
    J["runCalls"] = opt(Row.RunCalls);
    J["runCallsBound"] = Row.RunCallsBound;
  }
  return J;
}

SummaryRow summaryRowFromJson(const json &J) {
  SummaryRow R;
  R.Kind = J.at("kind").get<std::string>();
  R.Name = J.at("name").get<std::string>();
  R.Where = pointFromJson(J.at("location"));
  R.Pieces = jsonInteger<unsigned>(J.at("pieces"));
  R.LaunchesBefore = jsonInteger<unsigned>(J.at("launchesBefore"));
  R.LaunchesAfter = jsonInteger<unsigned>(J.at("launchesAfter"));
  R.Syncs = jsonInteger<unsigned>(J.at("syncs"));
  R.MicrosPerExecution = J.at("microsPerExecution").get<double>();
  R.TripCount = optFrom(J.at("tripCount"));
  R.MicrosTotal = optFrom(J.at("microsTotal"));
  R.Rank = jsonInteger<unsigned>(J.at("rank"));
  R.Profile = J.at("profile").get<std::string>();
  R.CompiledAt = pointFromJson(J.at("compiledAt"));
  R.NonEmptyPieces = jsonInteger<unsigned>(J.at("nonEmptyPieces"));
  R.RunCalls = optFrom(J.at("runCalls"));
  R.RunCallsBound = J.at("runCallsBound").get<bool>();
  return R;
}

static json notesJson(const std::vector<PathNote> &Notes) {
  json A = json::array();
  for (const PathNote &N : Notes)
    A.push_back(toJson(N, JsonDetail::Full));
  return A;
}

static PathNote noteFromJson(const json &N) {
  return {N.at("message").get<std::string>(), pointFromJson(N.at("location")),
          N.at("kind").get<std::string>() == "call"};
}

static json toJson(const SummaryCall &C) {
  return {{"callee", C.Callee},
          {"location", toJson(C.Where, JsonDetail::Full)},
          {"calleeName", C.CalleeName},
          {"through", C.Through},
          {"virtual", C.Virtual},
          {"lambdaDefinition", C.LambdaDefinition},
          {"repeats", C.Repeats},
          {"loop", toJson(C.Loop, JsonDetail::Full)},
          {"perIteration", C.PerIteration},
          {"frequency", C.Frequency},
          {"iterations", opt(C.Iterations)},
          {"calls", opt(C.Calls)},
          {"args", C.Args}};
}

static SummaryCall callFromJson(const json &J) {
  SummaryCall C;
  C.Callee = J.at("callee").get<std::string>();
  C.Where = pointFromJson(J.at("location"));
  C.CalleeName = J.at("calleeName").get<std::string>();
  C.Through = J.at("through").get<std::string>();
  C.Virtual = J.at("virtual").get<bool>();
  C.LambdaDefinition = J.at("lambdaDefinition").get<bool>();
  C.Repeats = J.at("repeats").get<bool>();
  C.Loop = noteFromJson(J.at("loop"));
  C.PerIteration = J.at("perIteration").get<double>();
  C.Frequency = J.at("frequency").get<std::string>();
  C.Iterations = optFrom(J.at("iterations"));
  C.Calls = optFrom(J.at("calls"));
  C.Args = J.at("args").get<std::vector<std::string>>();
  return C;
}

json toJson(const TUSummary &S) {
  json Functions = json::array();
  for (const SummaryFunction &F : S.Functions) {
    json Calls = json::array();
    for (const SummaryCall &C : F.Calls)
      Calls.push_back(toJson(C));
    Functions.push_back({{"usr", F.Usr},
                         {"name", F.Name},
                         {"location", toJson(F.Where, JsonDetail::Full)},
                         {"hot", F.Hot},
                         {"hotPath", notesJson(F.HotPath)},
                         {"hotReason", F.HotReason},
                         {"overrides", F.Overrides},
                         {"calls", std::move(Calls)}});
  }
  json Stores = json::array();
  for (const SummaryStore &St : S.Stores)
    Stores.push_back({{"holder", St.Holder}, {"function", St.Function}});
  json Conditional = json::array();
  for (const ConditionalFinding &C : S.Conditional)
    Conditional.push_back({{"function", C.Function},
                           {"param", C.ParamIndex},
                           {"finding", toJson(C.F, JsonDetail::Full)}});
  return {{"file", S.File},
          {"functions", std::move(Functions)},
          {"stores", std::move(Stores)},
          {"conditional", std::move(Conditional)}};
}

TUSummary tuSummaryFromJson(const json &J) {
  TUSummary S;
  S.File = J.at("file").get<std::string>();
  for (const json &FJ : J.at("functions")) {
    SummaryFunction F;
    F.Usr = FJ.at("usr").get<std::string>();
    F.Name = FJ.at("name").get<std::string>();
    F.Where = pointFromJson(FJ.at("location"));
    F.Hot = FJ.at("hot").get<bool>();
    for (const json &N : FJ.at("hotPath"))
      F.HotPath.push_back(noteFromJson(N));
    F.HotReason = FJ.at("hotReason").get<std::string>();
    F.Overrides = FJ.at("overrides").get<std::vector<std::string>>();
    for (const json &C : FJ.at("calls"))
      F.Calls.push_back(callFromJson(C));
    S.Functions.push_back(std::move(F));
  }
  for (const json &St : J.at("stores"))
    S.Stores.push_back({St.at("holder").get<std::string>(),
                        St.at("function").get<std::string>()});
  for (const json &C : J.at("conditional"))
    S.Conditional.push_back({C.at("function").get<std::string>(),
                             findingFromJson(C.at("finding")),
                             jsonInteger<int>(C.at("param"))});
  return S;
}

} // namespace seam
