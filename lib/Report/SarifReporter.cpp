//===- SarifReporter.cpp - SARIF 2.1.0 for code review and CI -------------===//
//
// Written for GitHub code scanning as well as for the schema: rules carry
// helpUri and help.markdown (their docs page), results carry
// partialFingerprints, URIs are relative to %SRCROOT%, related locations are
// linked from the message text, columns are UTF-16 code units (SARIF's
// default, as GitHub reads them), and results are ordered by rank.
//
//===----------------------------------------------------------------------===//
#include "Basic/FindingJson.h"
#include "Report/Reporters.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Path.h"

namespace seam {

namespace {

/// Percent-encodes a path for a URI (RFC 3986 unreserved characters and
/// '/' pass through).
std::string uriEscape(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

nlohmann::json artifact(const std::string &File, const std::string &Base) {
  llvm::StringRef F(File);
  llvm::StringRef B = llvm::StringRef(Base).rtrim('/'); // "/" is ""
  if (!Base.empty() && F.starts_with(B) && F.size() > B.size() + 1 &&
      F[B.size()] == '/')
    return {{"uri", uriEscape(F.drop_front(B.size() + 1))},
            {"uriBaseId", "%SRCROOT%"}};
  return {{"uri", "file://" + uriEscape(F)}};
}

/// The UTF-16 column of byte column \p ByteCol (1-based) in \p Line. Bytes
/// that are not UTF-8 count one each.
unsigned utf16Column(llvm::StringRef Line, unsigned ByteCol) {
  unsigned Units = 1;
  size_t I = 0, End = std::min<size_t>(ByteCol - 1, Line.size());
  while (I < End) {
    unsigned char C = Line[I];
    unsigned Len = C < 0x80           ? 1
                   : (C >> 5) == 0x6  ? 2
                   : (C >> 4) == 0xE  ? 3
                   : (C >> 3) == 0x1E ? 4
                                      : 1;
    if (I + Len > Line.size() || Len == 1 ||
        !llvm::isLegalUTF8Sequence(
            reinterpret_cast<const llvm::UTF8 *>(Line.data() + I),
            reinterpret_cast<const llvm::UTF8 *>(Line.data() + I + Len)))
      Len = 1;
    Units += Len == 4 ? 2 : 1;
    I += Len;
  }
  // Past the text (a line cut at 4 KiB, SourcePoint.cpp): the rest as bytes.
  if (ByteCol - 1 > Line.size())
    Units += ByteCol - 1 - Line.size();
  return Units;
}

nlohmann::json physical(const SourcePoint &P, const std::string &Base) {
  nlohmann::json Loc = {{"artifactLocation", artifact(P.File, Base)}};
  if (P.Line == 0)
    return Loc; // a driver error belongs to the file, not a line
  nlohmann::json Region = {{"startLine", P.Line},
                           {"startColumn", utf16Column(P.LineText, P.Column)}};
  if (P.EndLine >= P.Line && P.EndColumn > 0) {
    Region["endLine"] = P.EndLine;
    Region["endColumn"] = P.EndLine == P.Line
                              ? utf16Column(P.LineText, P.EndColumn)
                              : P.EndColumn;
  }
  if (!P.LineText.empty())
    Region["snippet"] = {{"text", P.LineText}};
  Loc["region"] = Region;
  return Loc;
}

const char *sarifLevel(Level L) {
  return L == Level::Error ? "error" : L == Level::Warning ? "warning" : "note";
}

/// A short label for a related location in the message: "[loop](1)".
std::string linkLabel(const PathNote &N) {
  llvm::StringRef M(N.Message);
  if (N.IsCall)
    return "call";
  if (M.contains("loop"))
    return "loop";
  if (M.contains("region"))
    return "region";
  if (M.contains("capture"))
    return "capture";
  if (M.contains("condition"))
    return "condition";
  if (M.contains("forward"))
    return "forward";
  return "note";
}

} // namespace

namespace {

/// The rules of the catalog, as SARIF's tool.driver.rules.
nlohmann::json rulesJson() {
  nlohmann::json Rules = nlohmann::json::array();
  for (const RuleInfo &Rule : ruleCatalog()) {
    // The prose is the rule's docs page (docs/rules/<id>.md).
    std::string Full = ruleDocSummary(Rule.Id);
    std::string HowToFix = ruleDocSection(Rule.Id, "How to fix");
    nlohmann::json Help = {
        {"text", HowToFix.empty() ? Rule.ShortDescription : HowToFix}};
    if (llvm::StringRef Md = ruleDocMarkdown(Rule.Id); !Md.empty())
      Help["markdown"] = Md.str();
    std::string HelpUri = ruleDocUri(Rule.Id);
    Rules.push_back(
        {{"id", Rule.Id},
         {"name", Rule.Name},
         {"shortDescription", {{"text", Rule.ShortDescription}}},
         {"fullDescription",
          {{"text", Full.empty() ? Rule.ShortDescription : Full}}},
         {"help", Help},
         {"defaultConfiguration", {{"level", sarifLevel(Rule.DefaultLevel)}}},
         {"properties",
          {{"tags", Rule.Selectable ? std::vector<std::string>{"performance"}
                                    : std::vector<std::string>{"correctness"}},
           {"precision", "high"}}}});
    // Only a link a reviewer can open (help.markdown holds the page anyway).
    if (isWebUri(HelpUri))
      Rules.back()["helpUri"] = HelpUri;
  }

  return Rules;
}

/// Results costliest first; GitHub keeps the first 5,000: \p Cut says how
/// many were left out.
std::vector<const Finding *> resultOrder(const Report &R, size_t &Cut) {
  std::vector<const Finding *> Order;
  for (const Finding &F : R.Findings)
    Order.push_back(&F);
  std::stable_sort(Order.begin(), Order.end(),
                   [](const Finding *A, const Finding *B) {
                     auto Rank = [](const Finding *F) {
                       return F->Cost ? F->Cost->Rank : 0u;
                     };
                     return std::make_tuple(-static_cast<int>(A->Severity),
                                            -static_cast<int>(Rank(A))) <
                            std::make_tuple(-static_cast<int>(B->Severity),
                                            -static_cast<int>(Rank(B)));
                   });
  Cut = 0;
  if (Order.size() > MaxSarifResults) {
    Cut = Order.size() - MaxSarifResults;
    Order.resize(MaxSarifResults);
  }
  return Order;
}

/// The message: the first line, the details, then SARIF's embedded links
/// to the related locations (\p Related, filled here), by id.
std::string messageText(const Finding &F, const std::string &Base,
                        nlohmann::json &Related, bool &HasCall) {
  std::string Text = F.Message;
  if (F.Cost && !F.Cost->Summary.empty())
    Text += "; " + F.Cost->Summary;
  // Review UIs show one text: the first line, then the details.
  for (const std::string &D : F.Details)
    Text += ". " + std::string(1, llvm::toUpper(D[0])) + D.substr(1);
  if (!F.Details.empty())
    Text += ".";
  std::vector<std::string> Links;
  for (size_t I = 0; I < F.Path.size(); ++I) {
    if (!F.Path[I].Where.valid())
      continue;
    HasCall |= F.Path[I].IsCall;
    int Id = static_cast<int>(Related.size()) + 1;
    Related.push_back({{"id", Id},
                       {"message", {{"text", F.Path[I].Message}}},
                       {"physicalLocation", physical(F.Path[I].Where, Base)}});
    Links.push_back("[" + linkLabel(F.Path[I]) + "](" + std::to_string(Id) +
                    ")");
  }
  if (!Links.empty()) {
    // SARIF's embedded links: each related location, by id, from the text.
    // Brackets of the plain text are escaped, as SARIF requires next to
    // embedded links.
    std::string Escaped;
    for (char C : Text) {
      if (C == '[' || C == ']')
        Escaped += '\\';
      Escaped += C;
    }
    Text = Escaped + " (see " + llvm::join(Links, ", ") + ")";
  }
  return Text;
}

/// The steps from the hot path's start to the finding, as a code flow.
nlohmann::json codeFlow(const Finding &F, const std::string &Base) {
  nlohmann::json Steps = nlohmann::json::array();
  for (const PathNote &N : F.Path)
    if (N.Where.valid())
      Steps.push_back({{"location",
                        {{"physicalLocation", physical(N.Where, Base)},
                         {"message", {{"text", N.Message}}}}}});
  Steps.push_back({{"location",
                    {{"physicalLocation", physical(F.Where, Base)},
                     {"message", {{"text", F.Message}}}}}});
  return {{{"threadFlows", {{{"locations", Steps}}}}}};
}

/// The result's properties, and its fix as SARIF fixes.
void addProperties(const Finding &F, const std::string &Base,
                   nlohmann::json &Result) {
  nlohmann::json Props = {{"trigger", F.Trigger},
                          {"residency", F.Residency},
                          {"function", F.Function},
                          {"hotPath", F.HotReason}};
  if (!F.Region.empty())
    Props["region"] = F.Region;
  if (F.Cost)
    Props["cost"] = toJson(*F.Cost);
  if (F.AutoFix && !F.AutoFix->Edits.empty()) {
    // SARIF fixes: one artifactChange (a fix edits one file), each edit a
    // replacement; an insertion deletes an empty region.
    nlohmann::json Replacements = nlohmann::json::array();
    for (const TextEdit &E : F.AutoFix->Edits)
      Replacements.push_back({{"deletedRegion",
                               {{"startLine", E.Line},
                                {"startColumn", E.Column},
                                {"endLine", E.EndLine},
                                {"endColumn", E.EndColumn}}},
                              {"insertedContent", {{"text", E.Text}}}});
    std::string Description = F.AutoFix->Description;
    if (!F.AutoFix->Effect.empty())
      Description += "; " + F.AutoFix->Effect;
    Result["fixes"] = {
        {{"description", {{"text", Description}}},
         {"artifactChanges",
          {{{"artifactLocation", artifact(F.AutoFix->Edits.front().File, Base)},
            {"replacements", Replacements}}}}}};
    Props["fixKind"] = F.AutoFix->Kind;
  } else if (!F.NoFixReason.empty()) {
    Props["noFix"] = F.NoFixReason;
  }
  if (!F.Suggestion.empty())
    Props["suggestion"] = F.Suggestion;
  Result["properties"] = Props;
  if (F.Cost)
    Result["rank"] = F.Cost->Rank;
}

nlohmann::json resultJson(const Finding &F, const std::string &Base) {
  int RuleIndex = 0;
  for (size_t I = 0; I < ruleCatalog().size(); ++I)
    if (ruleCatalog()[I].Id == F.RuleId)
      RuleIndex = static_cast<int>(I);
  nlohmann::json Related = nlohmann::json::array();
  bool HasCall = false;
  std::string Text = messageText(F, Base, Related, HasCall);
  nlohmann::json Result = {
      {"ruleId", F.RuleId},
      {"ruleIndex", RuleIndex},
      {"level", sarifLevel(F.Severity)},
      {"message", {{"text", Text}}},
      {"locations", {{{"physicalLocation", physical(F.Where, Base)}}}}};
  if (!F.Function.empty())
    Result["locations"][0]["logicalLocations"] = {
        {{"fullyQualifiedName", F.Function}, {"kind", "function"}}};
  if (!F.Fingerprint.empty())
    Result["partialFingerprints"] = {{"seam/v1", F.Fingerprint}};
  if (!Related.empty())
    Result["relatedLocations"] = Related;
  if (HasCall)
    Result["codeFlows"] = codeFlow(F, Base);
  addProperties(F, Base, Result);
  return Result;
}

/// Input errors, baseline notes and the results cut, as notifications.
nlohmann::json invocationJson(const Report &R, size_t Cut) {
  nlohmann::json Notifications = nlohmann::json::array();
  for (const InputError &E : R.Errors)
    Notifications.push_back({{"level", "error"},
                             {"message", {{"text", E.Message}}},
                             {"descriptor", {{"id", "seam-input-error"}}}});
  for (const std::string &N : R.Notes)
    Notifications.push_back({{"level", "note"},
                             {"message", {{"text", N}}},
                             {"descriptor", {{"id", "seam-baseline"}}}});
  if (Cut)
    Notifications.push_back({{"level", "warning"},
                             {"message", {{"text", sarifCutMessage(Cut)}}},
                             {"descriptor", {{"id", "seam-results-cut"}}}});
  nlohmann::json Invocation = {{"executionSuccessful", R.Errors.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = Notifications;

  return Invocation;
}

} // namespace

void writeSarif(llvm::raw_ostream &OS, const Report &R) {
  const std::string &Base = R.SourceRoot;
  nlohmann::json Rules = rulesJson();
  size_t Cut = 0;
  nlohmann::json Results = nlohmann::json::array();
  for (const Finding *F : resultOrder(R, Cut))
    Results.push_back(resultJson(*F, Base));
  nlohmann::json Invocation = invocationJson(R, Cut);

  nlohmann::json Run = {{"tool",
                         {{"driver",
                           {{"name", "seam"},
                            {"version", SeamVersion},
                            {"semanticVersion", SeamVersion},
                            {"rules", Rules}}}}},
                        {"invocations", nlohmann::json::array({Invocation})},
                        {"columnKind", "utf16CodeUnits"},
                        {"results", Results}};
  if (std::string Info = ruleDocUri(""); isWebUri(Info))
    Run["tool"]["driver"]["informationUri"] = Info;
  if (!R.Category.empty()) {
    // GitHub reads the category as everything up to the last '/'.
    std::string Id = R.Category;
    if (Id.back() != '/')
      Id += '/';
    Run["automationDetails"] = {{"id", Id}};
  }
  if (!R.Summary.empty()) {
    nlohmann::json Summary = nlohmann::json::array();
    for (const SummaryRow &Row : R.Summary)
      Summary.push_back(toJson(Row));
    Run["properties"] = {{"summary", Summary}};
  }
  Run["properties"]["incompleteFunctions"] = R.Incomplete;
  Run["properties"]["baselined"] = R.Baselined;
  // No cache statistics here: the SARIF of a run is the same whatever the
  // cache held (JSON reports them, under "cache").
  if (!Base.empty())
    Run["originalUriBaseIds"] = {
        {"%SRCROOT%",
         {{"uri",
           "file://" + uriEscape(llvm::StringRef(Base).rtrim('/')) + "/"}}}};
  nlohmann::json Doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::json::array({Run})}};
  // Paths and source text need not be UTF-8: invalid bytes become U+FFFD.
  OS << Doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
     << "\n";
}

nlohmann::json sarifResult(const Finding &F, const std::string &Base) {
  return resultJson(F, Base);
}

std::string sarifCutMessage(size_t Cut) {
  return std::to_string(Cut) +
         " lower-ranked results were left out: GitHub code scanning shows "
         "at most " +
         std::to_string(MaxSarifResults) +
         " per run; the JSON format has "
         "them all";
}

} // namespace seam
