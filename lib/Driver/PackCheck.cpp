//===- PackCheck.cpp - `seam pack check` ----------------------------------===//
#include "Driver/PackCheck.h"

#include "ApiModel/ApiModel.h"
#include "Driver/CheckCommand.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <deque>
#include <map>
#include <nlohmann/json.hpp>

using namespace clang;

namespace seam {
namespace {

void errorLine(const std::string &Msg) {
  llvm::errs() << "seam: error: " << Msg << "\n";
}

/// One entry of the checked pack that code can match, by its JSON path.
struct Entry {
  std::string Path; ///< 'triggers[3]', 'residency.factories[0]'
  std::string What; ///< "method 'value'", "function 'ml::zeros'"
  bool Matched = false;
  /// A call it matched with no tensor object or argument and no "operand"
  /// (file:line), empty when none: where the object is a local, Seam takes
  /// it as host data and never reports the call.
  std::string NoOperandAt;
};

/// Whether a match of \p R at \p CE has a tensor whose residency decides
/// whether it syncs: without one, a local object counts as host data.
bool hasOperand(const ApiModel &Api, const TriggerRule &R,
                const TriggerMatch &M, const CallExpr *CE) {
  if (R.Operand >= 0 || R.What == Trigger::ExplicitSync ||
      R.When != TriggerWhen::Always)
    return true;
  auto Tensorish = [&](const Expr *E) {
    QualType T = E->IgnoreParenImpCasts()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    return Api.isTensorType(T) || Api.mentionsTensor(T);
  };
  if (M.Object && Tensorish(M.Object))
    return true;
  for (const Expr *A : CE->arguments())
    if (A != M.Object && Tensorish(A))
      return true;
  return false;
}

const char *kindName(CallKind K) {
  switch (K) {
  case CallKind::Method:
    return "method";
  case CallKind::Function:
    return "function";
  case CallKind::Operator:
    return "operator";
  case CallKind::Conversion:
    return "conversion";
  case CallKind::Constructor:
    return "constructor";
  }
  return "rule";
}

/// Walks a TU outside system headers and marks what matched.
class Matcher : public RecursiveASTVisitor<Matcher> {
public:
  Matcher(const ApiModel &Api, unsigned FirstRule, std::vector<Entry> &Triggers,
          std::map<std::string, std::vector<Entry *>> &Names,
          std::map<std::string, std::vector<Entry *>> &Types,
          std::map<std::string, std::vector<Entry *>> &Classes)
      : Api(Api), FirstRule(FirstRule), Triggers(Triggers), Names(Names),
        Types(Types), Classes(Classes) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    mark(Types, qualifiedName(RD));
    return true;
  }
  bool VisitEnumDecl(EnumDecl *ED) {
    mark(Types, qualifiedName(ED));
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    mark(Types, qualifiedName(TD));
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (inSystemHeader(CE->getBeginLoc()))
      return true;
    for (const TriggerMatch &TM : Api.matchTriggers(CE)) {
      const TriggerRule &R = *TM.Rule;
      if (R.Index < FirstRule || R.Index - FirstRule >= Triggers.size())
        continue;
      Entry &E = Triggers[R.Index - FirstRule];
      if (E.NoOperandAt.empty() && !hasOperand(Api, R, TM, CE)) {
        PresumedLoc P = SMPtr->getPresumedLoc(SMPtr->getFileLoc(TM.Loc));
        if (P.isValid())
          E.NoOperandAt = llvm::sys::path::filename(P.getFilename()).str() +
                          ":" + std::to_string(P.getLine());
      }
    }
    Api.forEachMatchedRule(CE, [&](const TriggerRule &R) {
      if (R.Index >= FirstRule && R.Index - FirstRule < Triggers.size())
        Triggers[R.Index - FirstRule].Matched = true;
    });
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      mark(Names, qualifiedName(FD));
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
          MD && FD->getIdentifier()) {
        mark(Classes,
             qualifiedName(MD->getParent()) + "::" + FD->getName().str());
        // v.emplace_back(args...) runs a constructor of the element type.
        if (const auto *Spec =
                dyn_cast<ClassTemplateSpecializationDecl>(MD->getParent());
            Spec && Spec->isInStdNamespace() &&
            FD->getName().starts_with("emplace") &&
            Spec->getTemplateArgs().size() > 0 &&
            Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
          if (const CXXRecordDecl *Elem =
                  Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl())
            mark(Classes, qualifiedName(Elem));
      }
    }
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (inSystemHeader(CE->getBeginLoc()) || !CE->getConstructor())
      return true;
    mark(Classes, qualifiedName(CE->getConstructor()->getParent()));
    for (const TriggerMatch &TM : Api.matchTriggers(CE))
      if (TM.Rule->Index >= FirstRule &&
          TM.Rule->Index - FirstRule < Triggers.size())
        Triggers[TM.Rule->Index - FirstRule].Matched = true;
    return true;
  }

private:
  bool inSystemHeader(SourceLocation L) const {
    return L.isValid() && SMPtr->isInSystemHeader(SMPtr->getFileLoc(L));
  }
  void mark(std::map<std::string, std::vector<Entry *>> &M,
            const std::string &Key) {
    if (auto It = M.find(Key); It != M.end())
      for (Entry *E : It->second)
        E->Matched = true;
  }

public:
  const SourceManager *SMPtr = nullptr;

private:
  const ApiModel &Api;
  unsigned FirstRule;
  std::vector<Entry> &Triggers;
  std::map<std::string, std::vector<Entry *>> &Names, &Types, &Classes;
};

} // namespace

/// What `seam pack check` found, as text or JSON on standard output.
static void printResult(const PackCheckOptions &Opts, const RulePack &P,
                        const std::vector<Entry> &Triggers,
                        const std::deque<Entry> &Others,
                        const std::vector<const Entry *> &Unmatched,
                        const std::vector<std::string> &Analyzed) {
  bool Against = !Opts.Against.empty();
  if (Opts.Json) {
    nlohmann::json J;
    J["pack"] = Opts.Pack;
    J["name"] = P.Name;
    J["formatVersion"] = P.FormatVersion;
    J["valid"] = true;
    J["triggers"] = P.Triggers.size();
    J["against"] = Analyzed;
    J["unmatched"] = nlohmann::json::array();
    J["noOperand"] = nlohmann::json::array();
    if (Against) {
      for (const Entry *E : Unmatched)
        J["unmatched"].push_back({{"path", E->Path}, {"entry", E->What}});
      for (const Entry &E : Triggers)
        if (!E.NoOperandAt.empty())
          J["noOperand"].push_back(
              {{"path", E.Path}, {"entry", E.What}, {"at", E.NoOperandAt}});
    }
    llvm::outs() << J.dump(2) << "\n";
  } else {
    llvm::outs() << Opts.Pack << ": valid rule pack '" << P.Name << "' (format "
                 << P.FormatVersion << ", " << P.Triggers.size()
                 << " triggers, " << P.TensorTypes.size() << " tensor types)\n";
    if (Against) {
      for (const Entry *E : Unmatched)
        llvm::outs() << Opts.Pack << ": '" << E->Path << "': " << E->What
                     << " never matched in the code given\n";
      for (const Entry &E : Triggers)
        if (!E.NoOperandAt.empty())
          llvm::outs() << Opts.Pack << ": warning: '" << E.Path
                       << "': " << E.What << " matched at " << E.NoOperandAt
                       << " a call with no tensor object or argument: it is "
                          "reported only where that object's origin is "
                          "unknown, never for a local one; give \"operand\" "
                          "the argument whose residency decides\n";
      llvm::outs() << (Triggers.size() + Others.size() - Unmatched.size())
                   << " of " << Triggers.size() + Others.size()
                   << " entries matched in " << Analyzed.size() << " file"
                   << (Analyzed.size() == 1 ? "" : "s") << "\n";
    }
  }
}

int runPackCheck(const PackCheckOptions &Opts, bool Strict) {
  llvm::Expected<RulePack> Checked = loadRulePack(Opts.Pack);
  if (!Checked) {
    errorLine("invalid rule pack: " + llvm::toString(Checked.takeError()));
    return 2;
  }
  // The default packs come first, so that "tensor" patterns of a pack that
  // only adds rules see the types they add to.
  RulePack Merged;
  if (Opts.DefaultRules)
    for (const std::string &P : defaultPackPaths(Opts.RulesDir)) {
      if (llvm::sys::fs::equivalent(P, Opts.Pack))
        continue;
      llvm::Expected<RulePack> D = loadRulePack(P);
      if (!D) {
        errorLine("invalid rule pack: " + llvm::toString(D.takeError()));
        return 2;
      }
      mergeRulePack(Merged, *D);
    }
  unsigned FirstRule = Merged.Triggers.size();
  mergeRulePack(Merged, *Checked);
  const RulePack &P = *Checked;

  // What code can match, by JSON path.
  std::vector<Entry> Triggers;
  for (unsigned I = 0; I < P.Triggers.size(); ++I)
    Triggers.push_back({"triggers[" + std::to_string(I) + "]",
                        std::string(kindName(P.Triggers[I].Kind)) + " '" +
                            P.Triggers[I].Name + "'" +
                            (P.Triggers[I].Class.empty()
                                 ? ""
                                 : " of '" + P.Triggers[I].Class + "'")});
  std::deque<Entry> Others;
  std::map<std::string, std::vector<Entry *>> Names, Types, Classes;
  auto Add = [&](std::map<std::string, std::vector<Entry *>> &M,
                 const std::string &Path, const std::vector<std::string> &V,
                 const char *What) {
    for (unsigned I = 0; I < V.size(); ++I) {
      Others.push_back({Path + "[" + std::to_string(I) + "]",
                        std::string(What) + " '" + V[I] + "'"});
      M[V[I]].push_back(&Others.back());
    }
  };
  // The lists of names the table of pack keys says code can match.
  auto AddMatched = [&](const std::string &Path,
                        const std::vector<std::string> &V, const char *What) {
    if (What)
      Add(llvm::StringRef(What) == "type" ? Types : Names, Path, V, What);
  };
#define SEAM_PACK_NAMES(Section, Key, Member, Version, Matches)                \
  AddMatched(std::string(Section) + "." + Key, P.Member, Matches);
#include "ApiModel/PackKeys.def"
  for (unsigned I = 0; I < P.Defaults.size(); ++I) {
    const PlacementDefault &D = P.Defaults[I];
    Others.push_back(
        {"residency.defaults[" + std::to_string(I) + "]",
         std::string(D.Scoped ? "scope '" : "function '") + D.Name + "'"});
    (D.Scoped ? Classes : Names)[D.Name].push_back(&Others.back());
  }
  for (unsigned I = 0; I < P.Constructors.size(); ++I) {
    Others.push_back({"residency.constructors[" + std::to_string(I) + "]",
                      "constructor of '" + P.Constructors[I].Class + "'"});
    Classes[P.Constructors[I].Class].push_back(&Others.back());
  }
  for (unsigned I = 0; I < P.CaptureSpans.size(); ++I) {
    const CaptureMarker &M = P.CaptureSpans[I];
    std::string Prefix = M.Class.empty() ? "" : M.Class + "::";
    Others.push_back({"regions.captureSpans[" + std::to_string(I) + "]",
                      "capture span '" + Prefix + M.Begin + "'"});
    (M.Class.empty() ? Names : Classes)[Prefix + M.Begin].push_back(
        &Others.back());
  }

  std::vector<std::string> Analyzed;
  if (!Opts.Against.empty()) {
    std::string Warning;
    auto DB = makeCompilationDatabase(Opts.Frontend, Warning);
    if (!DB) {
      errorLine(llvm::toString(DB.takeError()));
      return 2;
    }
    auto Index = std::make_shared<const ApiIndex>(Merged);
    for (const std::string &File : Opts.Against) {
      if (auto Bad = checkSourceFile(**DB, File)) {
        errorLine(*Bad);
        return 2;
      }
      ParseResult R = parseFile(
          commandsFor(**DB, File), Opts.Frontend, File, [&](ASTContext &Ctx) {
            ApiModel Api(Index); // per translation unit
            Matcher M(Api, FirstRule, Triggers, Names, Types, Classes);
            M.SMPtr = &Ctx.getSourceManager();
            M.TraverseAST(Ctx);
          });
      if (!R.Ok) {
        errorLine(R.Error);
        return 2;
      }
      Analyzed.push_back(File);
    }
  }

  std::vector<const Entry *> Unmatched;
  for (const Entry &E : Triggers)
    if (!E.Matched)
      Unmatched.push_back(&E);
  for (const Entry &E : Others)
    if (!E.Matched)
      Unmatched.push_back(&E);
  bool Against = !Opts.Against.empty();
  printResult(Opts, P, Triggers, Others, Unmatched, Analyzed);
  bool NoOperand = llvm::any_of(
      Triggers, [](const Entry &E) { return !E.NoOperandAt.empty(); });
  return Against && Strict && (!Unmatched.empty() || NoOperand) ? 1 : 0;
}

} // namespace seam
