//===- RuleSupport.cpp - Phrases and notes the rules share ----------------===//
#include "Basic/SourcePoint.h"
#include "Rules/Rule.h"

namespace seam {

std::string actionPhrase(const TriggerSite &S) {
  const std::string &Api = S.Match.Spelling;
  const std::string &Op = S.Operand;
  switch (S.Match.Rule->What) {
  case Trigger::ScalarRead:
    return Api + " reads '" + Op + "' on the host";
  case Trigger::HostCopy:
    return Api + " copies '" + Op + "' to the host";
  case Trigger::Print:
    return "printing '" + Op + "' with " + Api + " copies it to the host";
  case Trigger::DynamicShape:
    return Api + " on '" + Op + "' has a data-dependent output shape";
  case Trigger::ExplicitSync:
    return Api + " waits for the device to drain its queue";
  }
  return Api;
}

void addRuleSource(const TriggerSite &S, std::vector<std::string> &Details) {
  const TriggerRule *R = S.Match.Rule;
  if (R && !R->Source.empty())
    Details.push_back("why " + S.Match.Spelling + " waits (rule pack '" +
                      R->Pack + "'): " + R->Source);
}

std::string describePathStep(const PathStep &P) {
  switch (P.What) {
  case PathStep::RegionRoot:
    return "compiled region '" + P.Function + "' begins here (" + P.Why + ")";
  case PathStep::HotRoot:
    return "'" + P.Function + "' is a module forward, a hot path";
  case PathStep::Capture:
    return "CUDA graph capture begins here";
  case PathStep::Call:
    if (P.LambdaDefinition)
      return "lambda defined here, in '" + P.Caller + "'";
    return "'" + P.Function + "' called here" +
           (P.Through.empty() ? std::string()
                              : " through '" + P.Through + "'") +
           ", from '" + P.Caller + "'";
  case PathStep::Loop:
    if (!P.IteratedBy.empty())
      return "passed to '" + P.IteratedBy + "', which runs it once per element";
    return std::string("inside this loop, which runs ") +
           (P.RunsCall ? "the call" : "it") + " " +
           (P.Freq.OncePerLoop && !P.Freq.OnceWhy.empty()
                ? "at most once (" + P.Freq.OnceWhy + ")"
                : P.Freq.phrase());
  }
  return "";
}

std::vector<PathNote> toNotes(const clang::SourceManager &SM,
                              const clang::LangOptions &LO,
                              const std::vector<PathStep> &Steps) {
  std::vector<PathNote> Notes;
  for (const PathStep &P : Steps)
    Notes.push_back({describePathStep(P), makePoint(SM, LO, P.Loc),
                     P.What == PathStep::Call});
  return Notes;
}

std::string hotReason(const std::vector<PathStep> &Steps) {
  if (Steps.empty())
    return "";
  switch (Steps.front().What) {
  case PathStep::Loop:
    return "loop";
  case PathStep::HotRoot:
    return "forward";
  case PathStep::RegionRoot:
    return "region";
  case PathStep::Capture:
    return "capture";
  case PathStep::Call:
    return "call";
  }
  return "";
}

} // namespace seam
