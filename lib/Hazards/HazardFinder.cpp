//===- HazardFinder.cpp - Graph breaks, host syncs and capture syncs ------===//
#include "Hazards/HazardFinder.h"

#include "Hazards/SourcePoint.h"
#include "Residency/ResidencyWalker.h"

#include <map>
#include <tuple>

using namespace clang;

namespace seam {
namespace {

/// Decides whether a matched call really triggers, and on what operand.
struct SiteEvaluation {
  bool Triggers = false;
  Residency Where = Residency::None;
  const Expr *Operand = nullptr;
};

const Expr *firstTensorArg(const CallExpr *CE, const ResidencyWalker &W) {
  const Expr *Found = nullptr;
  for (const Expr *A : CE->arguments())
    if (!Found)
      W.forEachTensor(A, [&](const Expr *T) {
        if (!Found)
          Found = T;
      });
  return Found;
}

SiteEvaluation evaluate(const TriggerMatch &M, const CallExpr *CE,
                        const ResidencyWalker &W) {
  SiteEvaluation S;
  AbsValue Self = M.Object ? W.eval(M.Object) : AbsValue{};
  AbsValue Args = W.tensorArgs(CE);
  S.Operand = M.Object ? M.Object : firstTensorArg(CE, W);
  switch (M.Rule->When) {
  case TriggerWhen::Always:
    S.Triggers = true;
    S.Where = join(Self.Where, Args.Where);
    break;
  case TriggerWhen::ToHost:
    S.Triggers = W.deviceArgs(CE) == Residency::Host;
    S.Where = Self.Where;
    break;
  case TriggerWhen::BoolIndex: {
    bool Mask = false;
    for (const Expr *A : CE->arguments())
      W.forEachTensor(A, [&](const Expr *T) {
        if (T != M.Object && W.eval(T).IsBool)
          Mask = true;
      });
    S.Triggers = Mask;
    S.Where = Self.Where;
    break;
  }
  case TriggerWhen::HostDestination:
    S.Triggers = Self.Where == Residency::Host && maySync(Args.Where);
    S.Where = Args.Where;
    S.Operand = firstTensorArg(CE, W);
    break;
  case TriggerWhen::TensorArg:
    S.Triggers = S.Operand != nullptr;
    S.Where = Args.Where;
    break;
  }
  if (M.Rule->What == Trigger::ExplicitSync) {
    S.Where = Residency::Device;
    S.Operand = nullptr;
  }
  if (S.Where == Residency::None)
    S.Where = S.Operand ? Residency::Host : Residency::Unknown;
  return S;
}

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

std::string hostSyncMessage(const TriggerSite &S, bool Capture) {
  std::string Msg =
      (Capture ? "capture sync: " : "host sync: ") + actionPhrase(S);
  if (Capture)
    return Msg + " inside a CUDA graph capture; the capture fails at run time";
  switch (S.Match.Rule->What) {
  case Trigger::ExplicitSync:
    Msg += "; the device then idles until the host enqueues more work";
    break;
  case Trigger::DynamicShape:
    Msg += "; the host blocks until the device has computed it";
    break;
  default:
    Msg += " and blocks until the device has computed it";
  }
  if (S.Where == Residency::Unknown && !S.Operand.empty())
    Msg += "; '" + S.Operand + "' is assumed to be on the device";
  return Msg;
}

std::string breakMessage(const TriggerSite &S, const std::string &Region) {
  return "graph break: " + actionPhrase(S) + " inside compiled region '" +
         Region + "'";
}

std::vector<PathNote> toNotes(const SourceManager &SM, const LangOptions &LO,
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

} // namespace

std::vector<TriggerSite>
findTriggerSites(ASTContext &Ctx, const ApiModel &Api,
                 const RegionModel &Regions,
                 std::vector<std::string> *Incomplete) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  ResidencyContext RC(Ctx, Api, Regions.flows());
  std::map<std::pair<unsigned, const CallExpr *>, TriggerSite> Sites;
  const auto &Nodes = Regions.functions();
  std::vector<const FunctionDecl *> Bodies;
  for (const FunctionNode &Node : Nodes)
    Bodies.push_back(Node.FD);
  RC.solve(Bodies);
  if (Incomplete)
    for (const FunctionDecl *FD : RC.limitHits())
      if (auto N = Regions.nodeFor(FD))
        Incomplete->push_back(Regions.functions()[*N].Name);
  for (unsigned N = 0; N < Nodes.size(); ++N) {
    ResidencyWalker W(RC);
    W.run(Nodes[N].FD, [&](const CallExpr *CE, const ResidencyWalker &W) {
      std::optional<TriggerMatch> M = Api.matchTrigger(CE);
      if (!M)
        return;
      SiteEvaluation E = evaluate(*M, CE, W);
      if (!E.Triggers)
        return;
      auto [It, New] = Sites.try_emplace({N, CE});
      TriggerSite &S = It->second;
      if (New) {
        S.Node = N;
        S.Call = CE;
        S.Match = *M;
        S.Operand = exprText(SM, LO, E.Operand);
      }
      S.Where = join(S.Where, E.Where);
    });
  }
  std::vector<TriggerSite> Out;
  for (auto &[Key, S] : Sites)
    if (!SM.isInSystemHeader(SM.getFileLoc(S.Match.Loc)))
      Out.push_back(std::move(S));
  return Out;
}

std::vector<Finding> findHazards(ASTContext &Ctx, const ApiModel &Api,
                                 const RegionModel &Regions,
                                 const std::vector<TriggerSite> &Sites,
                                 const AnalysisOptions &Opts) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::vector<Finding> Out;
  for (size_t I = 0; I < Sites.size(); ++I) {
    const TriggerSite &S = Sites[I];
    SiteContext C = Regions.contextAt(S.Node, S.Call, S.Match.Loc);
    Finding Base;
    Base.SiteIndex = static_cast<int>(I);
    Base.Where = makePoint(SM, LO, S.Match.Loc, S.Call->getEndLoc());
    Base.Trigger = triggerName(S.Match.Rule->What).str();
    Base.Residency = residencyName(S.Where).str();
    Base.Function = Regions.functions()[S.Node].Name;
    Base.Api = S.Match.Spelling;
    auto Emit = [&](Finding F) {
      if (!isSuppressed(SM, S.Match.Loc, F.RuleId))
        Out.push_back(std::move(F));
    };
    if (C.Region) {
      Finding F = Base;
      F.RuleId = "seam-graph-break";
      F.Severity = Level::Warning;
      F.Region = *C.Region;
      F.Message = breakMessage(S, *C.Region);
      F.Path = toNotes(SM, LO, C.RegionPath);
      F.HotReason = "region";
      Emit(std::move(F));
    }
    if (!maySync(S.Where))
      continue;
    if (C.Capture) {
      Finding F = Base;
      F.RuleId = "seam-capture-sync";
      F.Severity = Level::Error;
      F.Message = hostSyncMessage(S, /*Capture=*/true);
      F.Path = toNotes(SM, LO, C.CapturePath);
      F.HotReason = "capture";
      Emit(std::move(F));
    } else if (C.Hot || Opts.ReportColdSyncs) {
      Finding F = Base;
      F.RuleId = "seam-host-sync";
      F.Severity = C.Hot ? Level::Warning : Level::Note;
      F.Message = hostSyncMessage(S, /*Capture=*/false);
      if (!C.Hot)
        F.Message += "; not on a hot path";
      F.Path = toNotes(SM, LO, C.HotPath);
      F.HotReason = hotReason(C.HotPath);
      Emit(std::move(F));
    }
  }
  return Out;
}

void sortAndDedupe(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    return std::make_tuple(F.Where.File, F.Where.Line, F.Where.Column,
                           F.RuleId);
  };
  std::stable_sort(
      Findings.begin(), Findings.end(),
      [&](const Finding &A, const Finding &B) { return Key(A) < Key(B); });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
}

} // namespace seam
