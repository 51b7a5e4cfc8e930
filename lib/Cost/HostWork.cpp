//===- HostWork.cpp - What the host does after a sync, before its next launch
//===//
#include "Cost/HostWork.h"

#include "ApiModel/ApiModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace clang;

namespace seam {

namespace {

/// `std::basic_ostream` or a class derived from it (std::cout, an
/// ofstream, an ostringstream).
bool isStreamType(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (RD->getName() == "basic_ostream" && RD->isInStdNamespace())
    return true;
  RD = RD->getDefinition();
  if (!RD)
    return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (isStreamType(Base.getType()))
      return true;
  return false;
}

/// `os << x` with a stream on the left.
const CXXOperatorCallExpr *streamInsert(const Stmt *St) {
  const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(St);
  if (!OC || OC->getOperator() != OO_LessLess || OC->getNumArgs() != 2 ||
      !isStreamType(OC->getArg(0)->getType()))
    return nullptr;
  return OC;
}

/// The C library's printing functions: one print each.
bool isPrintFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases("printf", "fprintf", "dprintf", "puts", "fputs", true)
      .Default(false);
}

/// A name of the standard library's, or of the C library's (\p Name):
/// `std::endl`, `std::cerr`, `stderr`.
bool namesStd(const Expr *E, llvm::StringRef Name) {
  const auto *DRE =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  if (!DRE || !DRE->getDecl()->getIdentifier() ||
      DRE->getDecl()->getName() != Name)
    return false;
  const DeclContext *DC = DRE->getDecl()->getDeclContext();
  return DC->isStdNamespace() || DC->isTranslationUnit() ||
         DC->isExternCContext();
}

/// A C library call that writes through at once: `fflush`, or a print to
/// `stderr` (unbuffered).
bool flushesAtOnce(const CallExpr *CE, const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  if (N == "fflush")
    return true;
  if ((N == "fprintf" || N == "fputs") && CE->getNumArgs() > 0)
    return namesStd(CE->getArg(N == "fputs" ? CE->getNumArgs() - 1 : 0),
                    "stderr");
  return false;
}

/// An expression of the loop that runs where the loop statement is (its
/// init or range), else its condition.
const Stmt *loopAnchor(const Stmt *L) {
  if (const auto *F = dyn_cast<ForStmt>(L))
    return F->getInit() ? F->getInit() : F->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(L))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(L))
    return D->getCond();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(L))
    return R->getRangeInit();
  return nullptr;
}

/// A tensor, under the conversions that pass it to a print
/// (`seam::rt::detail::Printed`, a reference binding).
bool printsTensor(const ApiModel &Api, const Expr *E) {
  for (;;) {
    E = E->IgnoreImplicit();
    const auto *CCE = dyn_cast<CXXConstructExpr>(E);
    if (!CCE || isa<CXXTemporaryObjectExpr>(CCE) || CCE->getNumArgs() == 0)
      break;
    E = CCE->getArg(0);
  }
  return Api.isTensorType(E->getType());
}

/// A call a trigger rule matches; an operator only with a tensor operand
/// (`os << "loss "` is no sync, `os << t` is).
bool isSync(const ApiModel &Api, const CallExpr *CE) {
  if (Api.matchTriggers(CE).empty())
    return false;
  if (!isa<CXXOperatorCallExpr>(CE))
    return true;
  for (const Expr *Arg : CE->arguments())
    if (printsTensor(Api, Arg))
      return true;
  return false;
}

class Scanner {
public:
  Scanner(ASTContext &Ctx, const ApiModel &Api, const RegionModel &Regions,
          const TriggerSite &S, const AfterSpan &Span, const TripHints *Trips,
          const std::vector<const CallExpr *> &Syncs)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Api(Api), Regions(Regions), S(S),
        Span(Span), Trips(Trips), Syncs(Syncs) {
    std::vector<LoopVisit> Loops = Regions.loopsAt(S.Node, S.Call, S.Match.Loc);
    if (!Loops.empty()) {
      SyncLoop = Loops.front().Loop;
      SyncFreq = Loops.front().Freq.PerIteration;
    }
  }

  HostWork run() {
    const Stmt *Root = Span.Scope;
    if (const Stmt *Body = loopBody(Root))
      Root = Body;
    findNextSync();
    visit(Root, 1.0, /*TopLevel=*/true);
    return std::move(Work);
  }

private:
  SourceLocation at(SourceLocation L) const { return SM.getExpansionLoc(L); }
  bool before(SourceLocation A, SourceLocation B) const {
    return SM.isBeforeInTranslationUnit(at(A), at(B));
  }
  /// Where code at \p L runs in the span: (0, L) after the sync, (1, L)
  /// once the span has come round to the loop's start; none outside it.
  std::optional<std::pair<int, SourceLocation>> order(SourceLocation L) const {
    bool AfterSync = before(Span.From, L);
    bool BeforeNext = Span.To.isInvalid() || before(L, Span.To);
    if (Span.Wraps ? AfterSync : AfterSync && BeforeNext)
      return std::make_pair(0, at(L));
    if (Span.Wraps && BeforeNext)
      return std::make_pair(1, at(L));
    return std::nullopt;
  }
  bool earlier(const std::pair<int, SourceLocation> &A,
               const std::pair<int, SourceLocation> &B) const {
    return A.first != B.first ? A.first < B.first : before(A.second, B.second);
  }
  /// Whether code at \p L runs between the sync and the next launch, and
  /// before the next sync: the device idles on after that one too, but its
  /// idle is that sync's (seam::rt attributes it to the last sync before
  /// the device's next task).
  bool inSpan(SourceLocation L) const {
    std::optional<std::pair<int, SourceLocation>> O = order(L);
    return O && (!NextSync || earlier(*O, *NextSync));
  }

  /// The first sync after this one in the span, if any.
  void findNextSync() {
    for (const CallExpr *CE : Syncs)
      if (CE != S.Call)
        if (std::optional<std::pair<int, SourceLocation>> O =
                order(CE->getExprLoc()))
          if (!NextSync || earlier(*O, *NextSync))
            NextSync = O;
  }

  /// Whether \p St may hold code of the span: a statement wholly before
  /// the sync and wholly after where the span stops (the next sync or
  /// launch) holds none, and is not walked.
  bool mayHoldSpan(const Stmt *St) const {
    SourceLocation B = St->getBeginLoc(), E = St->getEndLoc();
    if (B.isInvalid() || E.isInvalid())
      return true;
    bool StopsAfterSync = NextSync && NextSync->first == 0;
    SourceLocation Stop = NextSync ? NextSync->second : Span.To;
    bool EndsBeforeSync = !before(Span.From, E);
    bool StartsAtStop = Stop.isValid() && !before(B, Stop);
    if (!Span.Wraps || StopsAfterSync)
      return !(EndsBeforeSync || StartsAtStop);
    return !(EndsBeforeSync && StartsAtStop);
  }

  unsigned lineOf(SourceLocation L) const {
    return SM.getExpansionLineNumber(L);
  }
  void unknown(std::string What) {
    if (std::find(Work.Unknown.begin(), Work.Unknown.end(), What) ==
        Work.Unknown.end())
      Work.Unknown.push_back(std::move(What));
  }

  /// How often the code at \p Item runs when the sync does: its frequency
  /// in the innermost loop around the sync over the sync's, at most 1
  /// (`if (i % 50 == 0) sync; if (i % 25 == 0) print;` prints every time
  /// the sync runs). Loops the item itself starts are not counted.
  double weightOf(const Stmt *Item, const Stmt *OwnLoop = nullptr) const {
    if (!Item || !SyncLoop)
      return 1;
    for (const LoopVisit &V :
         Regions.loopsAt(S.Node, Item, Item->getBeginLoc())) {
      if (OwnLoop && V.Loop->S == OwnLoop)
        continue;
      if (V.Loop != SyncLoop || SyncFreq <= 0)
        return 1;
      return std::min(1.0, V.Freq.PerIteration / SyncFreq);
    }
    return 1;
  }

  void visitChildren(const Stmt *St, double Mult, bool TopLevel) {
    for (const Stmt *Child : St->children())
      visit(Child, Mult, TopLevel);
  }

  void visitPrint(const CXXOperatorCallExpr *Outer, double Mult,
                  bool TopLevel) {
    std::vector<const CXXOperatorCallExpr *> Chain;
    for (const CXXOperatorCallExpr *C = Outer; C;
         C = streamInsert(C->getArg(0)->IgnoreImplicit()))
      Chain.push_back(C);
    bool HasSync = false;
    for (const CXXOperatorCallExpr *C : Chain)
      HasSync |= C == S.Call;
    // The chain writes when it ends: after the sync when it ends in the
    // span, or when the sync is one of its own operands.
    if (TopLevel && !HasSync && !inSpan(Outer->getEndLoc())) {
      for (const CXXOperatorCallExpr *C : Chain)
        visit(C->getArg(1), Mult, TopLevel);
      return;
    }
    double W = TopLevel ? Mult * weightOf(Outer) : Mult;
    Work.Prints += W;
    // std::cerr is unit-buffered: every insertion writes. Elsewhere only
    // std::endl and std::flush do.
    bool Unbuffered = namesStd(Chain.back()->getArg(0), "cerr");
    for (const CXXOperatorCallExpr *C : Chain) {
      if (Unbuffered || namesStd(C->getArg(1), "endl") ||
          namesStd(C->getArg(1), "flush"))
        Work.Flushes += W;
      // Formatted after the sync: the tensor the sync reads, and every one
      // to its right.
      bool After = !TopLevel || C == S.Call || inSpan(C->getOperatorLoc());
      if (After && printsTensor(Api, C->getArg(1)))
        Work.TensorPrints += W;
      visit(C->getArg(1), Mult, TopLevel);
    }
  }

  void visitLoop(const Stmt *L, double Mult, bool TopLevel) {
    if (TopLevel && !(inSpan(L->getBeginLoc()) && inSpan(L->getEndLoc()))) {
      visitChildren(L, Mult, TopLevel);
      return;
    }
    std::optional<double> N = constantTripCount(L, Ctx, nullptr, Trips);
    if (!N) {
      unknown("a loop without a constant trip count at line " +
              std::to_string(lineOf(L->getBeginLoc())));
      return;
    }
    double W = TopLevel ? Mult * weightOf(loopAnchor(L), L) : Mult;
    Work.LoopIterations += W * *N;
    if (const Stmt *Body = loopBody(L))
      visit(Body, W * *N, /*TopLevel=*/false);
  }

  /// Whether \p FD's body launches device work (then its host work is not
  /// all before the next launch: left to the launch scan).
  bool launches(const FunctionDecl *FD) {
    bool Found = false;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
      if (!St || Found || isa<LambdaExpr>(St))
        return;
      if (const auto *CE = dyn_cast<CallExpr>(St))
        if (Api.isTensorType(CE->getType())) {
          Found = true;
          return;
        }
      for (const Stmt *Child : St->children())
        Walk(Child);
    };
    Walk(FD->getBody());
    return Found;
  }

  void visitCall(const CallExpr *CE, double Mult, bool TopLevel) {
    const FunctionDecl *FD = CE->getDirectCallee();
    // A call runs once its arguments are evaluated: `log(x.item())` runs
    // after the sync, `save(y.detach())` after the launch that ends the
    // span.
    bool Here = !TopLevel || inSpan(CE->getEndLoc());
    bool Prints = Here && isPrintFunction(FD);
    bool Flushes = Here && flushesAtOnce(CE, FD);
    if (Prints || Flushes) {
      double W = TopLevel ? Mult * weightOf(CE) : Mult;
      Work.Prints += Prints ? W : 0;
      Work.Flushes += Flushes ? W : 0;
    } else if (Here && FD && !Api.isLibraryDecl(FD) &&
               !Api.isTensorType(CE->getType()) && !Api.isCompileFunction(FD)) {
      const FunctionDecl *Def = nullptr;
      if (FD->hasBody(Def) && Def->getBody()) {
        // A helper of this file: its host work, unless it launches.
        if (Depth < 4 && Entered.insert(Def).second && !launches(Def)) {
          ++Depth;
          visit(Def->getBody(), TopLevel ? Mult * weightOf(CE) : Mult,
                /*TopLevel=*/false);
          --Depth;
          Entered.erase(Def);
        }
      } else if (!FD->isDefaulted() && !FD->isTrivial()) {
        unknown("a call to '" + FD->getNameAsString() +
                "', defined in another file");
      }
    }
    visitChildren(CE, Mult, TopLevel);
  }

  void visit(const Stmt *St, double Mult, bool TopLevel) {
    if (!St || isa<LambdaExpr>(St) || (TopLevel && !mayHoldSpan(St)))
      return;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(St))
      return visitLoop(St, Mult, TopLevel);
    if (const CXXOperatorCallExpr *Print = streamInsert(St))
      return visitPrint(Print, Mult, TopLevel);
    if (const auto *CE = dyn_cast<CallExpr>(St))
      return visitCall(CE, Mult, TopLevel);
    visitChildren(St, Mult, TopLevel);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const ApiModel &Api;
  const RegionModel &Regions;
  const TriggerSite &S;
  const AfterSpan &Span;
  const TripHints *Trips;
  const std::vector<const CallExpr *> &Syncs;
  const LoopInfo *SyncLoop = nullptr;
  double SyncFreq = 1;
  std::optional<std::pair<int, SourceLocation>> NextSync;
  unsigned Depth = 0;
  llvm::DenseSet<const FunctionDecl *> Entered;
  HostWork Work;
};

} // namespace

const std::vector<const CallExpr *> &HostWorkFinder::syncsIn(const Stmt *Root) {
  auto [It, New] = SyncsIn.try_emplace(Root);
  if (!New)
    return It->second;
  std::vector<const CallExpr *> &Out = It->second;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
    if (!St || isa<LambdaExpr>(St))
      return;
    if (const auto *CE = dyn_cast<CallExpr>(St); CE && isSync(Api, CE))
      Out.push_back(CE);
    for (const Stmt *Child : St->children())
      Walk(Child);
  };
  Walk(Root);
  return Out;
}

HostWork HostWorkFinder::after(const TriggerSite &S, const AfterSpan &Span) {
  if (!Span.Scope || !S.Call)
    return {};
  const Stmt *Root = Span.Scope;
  if (const Stmt *Body = loopBody(Root))
    Root = Body;
  return Scanner(Ctx, Api, Regions, S, Span, Trips, syncsIn(Root)).run();
}

} // namespace seam
