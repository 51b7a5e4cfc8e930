//===- RuleSupport.cpp - Phrases and notes the rules share ----------------===//
#include "Hazards/SourcePoint.h"
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

std::vector<PathNote> toNotes(const clang::SourceManager &SM,
                              const clang::LangOptions &LO,
                              const std::vector<PathStep> &Steps) {
  std::vector<PathNote> Notes;
  for (const PathStep &P : Steps)
    Notes.push_back(
        {P.Message, makePoint(SM, LO, P.Loc), P.What == PathStep::Call});
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
