//===- FunctionFlow.cpp - CFG, order, dominators and loops of a function --===//
#include "Flow/FunctionFlow.h"

#include "Basic/ConstantValue.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace seam {

static bool isLoopStatement(const Stmt *S) {
  return S && (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
               isa<CXXForRangeStmt>(S));
}

namespace {

/// A + B and A - B, or nullopt where int64 overflows.
std::optional<int64_t> addOrNone(int64_t A, int64_t B) {
  int64_t Out;
  if (llvm::AddOverflow(A, B, Out))
    return std::nullopt;
  return Out;
}
std::optional<int64_t> subOrNone(int64_t A, int64_t B) {
  int64_t Out;
  if (llvm::SubOverflow(A, B, Out))
    return std::nullopt;
  return Out;
}

/// The value of \p E when the loop variable \p V holds \p Value; E may read
/// V and constants only.
std::optional<int64_t> valueWith(const Expr *E, const VarDecl *V, int64_t Value,
                                 ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E); D && D->getDecl() == V)
    return Value;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<int64_t> X = valueWith(U->getSubExpr(), V, Value, Ctx);
    if (!X)
      return std::nullopt;
    if (U->getOpcode() == UO_LNot)
      return !*X;
    if (U->getOpcode() == UO_Minus && *X != INT64_MIN)
      return -*X;
    return std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    std::optional<int64_t> L = valueWith(B->getLHS(), V, Value, Ctx);
    std::optional<int64_t> R = valueWith(B->getRHS(), V, Value, Ctx);
    if (!L || !R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_LT:
      return *L < *R;
    case BO_GT:
      return *L > *R;
    case BO_LE:
      return *L <= *R;
    case BO_GE:
      return *L >= *R;
    case BO_EQ:
      return *L == *R;
    case BO_NE:
      return *L != *R;
    case BO_LAnd:
      return *L && *R;
    case BO_LOr:
      return *L || *R;
    case BO_Add:
      return addOrNone(*L, *R);
    case BO_Sub:
      return subOrNone(*L, *R);
    default:
      return std::nullopt;
    }
  }
  return constantInt(E, Ctx);
}

/// Whether every use of \p V in \p S only reads its value.
bool onlyReads(const Stmt *S, const VarDecl *V) {
  if (!S)
    return true;
  if (const auto *C = dyn_cast<ImplicitCastExpr>(S);
      C && C->getCastKind() == CK_LValueToRValue)
    if (const auto *D = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens());
        D && D->getDecl() == V)
      return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == V)
    return false;
  for (const Stmt *Child : S->children())
    if (!onlyReads(Child, V))
      return false;
  return true;
}

/// V's value after the for-increment \p Inc runs on \p Value.
std::optional<int64_t> stepped(const Expr *Inc, const VarDecl *V, int64_t Value,
                               ASTContext &Ctx) {
  Inc = Inc->IgnoreParenImpCasts();
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  std::optional<int64_t> Out;
  if (const auto *U = dyn_cast<UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp() && IsV(U->getSubExpr()))
    Out = addOrNone(Value, U->isIncrementOp() ? 1 : -1);
  else if (const auto *C = dyn_cast<CompoundAssignOperator>(Inc);
           C && IsV(C->getLHS()) && onlyReads(C->getRHS(), V) &&
           (C->getOpcode() == BO_AddAssign || C->getOpcode() == BO_SubAssign))
    if (std::optional<int64_t> K = valueWith(C->getRHS(), V, Value, Ctx))
      Out = C->getOpcode() == BO_AddAssign ? addOrNone(Value, *K)
                                           : subOrNone(Value, *K);
  if (const auto *B = dyn_cast<BinaryOperator>(Inc);
      B && B->getOpcode() == BO_Assign && IsV(B->getLHS()) &&
      onlyReads(B->getRHS(), V))
    Out = valueWith(B->getRHS(), V, Value, Ctx);
  if (Out && V->getType()->isBooleanType())
    Out = *Out != 0;
  return Out;
}

} // namespace

std::optional<unsigned> oneShotTrips(const Stmt *Loop, ASTContext &Ctx) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getCond() || !For->getInc() || For->getConditionVariable())
    return std::nullopt;
  const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  if (!V || !V->getInit() || V->getType()->isReferenceType() ||
      !V->getType()->isIntegralOrEnumerationType() ||
      !onlyReads(V->getInit(), V) || !onlyReads(For->getCond(), V) ||
      !onlyReads(For->getBody(), V))
    return std::nullopt;
  std::optional<int64_t> First = valueWith(V->getInit(), nullptr, 0, Ctx);
  if (!First)
    return std::nullopt;
  if (V->getType()->isBooleanType())
    First = *First != 0;
  std::optional<int64_t> Enter = valueWith(For->getCond(), V, *First, Ctx);
  if (!Enter)
    return std::nullopt;
  if (!*Enter)
    return 0u;
  std::optional<int64_t> Next = stepped(For->getInc(), V, *First, Ctx);
  std::optional<int64_t> Again =
      Next ? valueWith(For->getCond(), V, *Next, Ctx) : std::nullopt;
  if (!Again || *Again)
    return std::nullopt;
  return 1u;
}

std::unique_ptr<FunctionFlow> FunctionFlow::build(const FunctionDecl *FD,
                                                  ASTContext &Ctx) {
  if (!FD || !FD->getBody())
    return nullptr;
  CFG::BuildOptions Opts;
  // Every expression is an element, in evaluation order, so that a
  // transfer function sees each one once and a hook sees the exact state
  // at each call.
  Opts.setAllAlwaysAdd();
  Opts.AddInitializers = true;
  Opts.PruneTriviallyFalseEdges = true;
  std::unique_ptr<FunctionFlow> F(new FunctionFlow());
  F->FD = FD;
  F->Graph = CFG::buildCFG(FD, FD->getBody(), &Ctx, Opts);
  if (!F->Graph)
    return nullptr;
  for (const CFGBlock *B : *F->Graph)
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        F->BlockOf.try_emplace(S->getStmt(), B);
  F->computeOrder();
  F->Dom = std::make_unique<CFGDomTree>(F->Graph.get());
  F->computeLoops(Ctx);
  return F;
}

const CFGBlock *FunctionFlow::blockOf(const Stmt *S) const {
  auto It = BlockOf.find(S);
  return It == BlockOf.end() ? nullptr : It->second;
}

void FunctionFlow::computeOrder() {
  unsigned N = Graph->getNumBlockIDs();
  Reachable.resize(N);
  RPOIndex.assign(N, ~0u);
  // Iterative depth-first search from \p Root; post-order reversed.
  auto Visit = [&](const CFGBlock *Root) {
    std::vector<const CFGBlock *> Post;
    std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>>
        Stack;
    Reachable.set(Root->getBlockID());
    Stack.push_back({Root, Root->succ_begin()});
    while (!Stack.empty()) {
      auto &[B, It] = Stack.back();
      if (It == B->succ_end()) {
        Post.push_back(B);
        Stack.pop_back();
        continue;
      }
      const CFGBlock *Next = *It;
      ++It;
      if (Next && !Reachable[Next->getBlockID()]) {
        Reachable.set(Next->getBlockID());
        Stack.push_back({Next, Next->succ_begin()});
      }
    }
    RPO.insert(RPO.end(), Post.rbegin(), Post.rend());
  };
  Visit(&Graph->getEntry());
  FromEntry = Reachable;
  // Without exception edges, catch handlers hang off no path; they can run
  // all the same, so they are roots of their own.
  for (const CFGBlock *B : *Graph)
    if (B && isa_and_nonnull<CXXCatchStmt>(B->getLabel()) &&
        !Reachable[B->getBlockID()])
      Visit(B);
  for (unsigned I = 0; I < RPO.size(); ++I)
    RPOIndex[RPO[I]->getBlockID()] = I;
}

bool FunctionFlow::dominates(const CFGBlock *A, const CFGBlock *B) const {
  if (!A || !B || !FromEntry[A->getBlockID()] || !FromEntry[B->getBlockID()])
    return false;
  return Dom->dominates(A, B);
}

void FunctionFlow::computeLoops(ASTContext &Ctx) {
  unsigned N = Graph->getNumBlockIDs();
  llvm::DenseMap<const CFGBlock *, unsigned> ByHeader;
  for (const CFGBlock *U : RPO) {
    for (const CFGBlock *H : U->succs()) {
      if (!H || !FromEntry[H->getBlockID()] || !FromEntry[U->getBlockID()] ||
          !Dom->dominates(H, U))
        continue; // not a back edge
      auto [It, New] = ByHeader.try_emplace(H, Loops.size());
      if (New) {
        NaturalLoop L;
        L.Header = H;
        L.Blocks.resize(N);
        L.Blocks.set(H->getBlockID());
        Loops.push_back(std::move(L));
      }
      NaturalLoop &L = Loops[It->second];
      // Everything that reaches U without passing through H.
      std::vector<const CFGBlock *> Work;
      if (!L.Blocks[U->getBlockID()]) {
        L.Blocks.set(U->getBlockID());
        Work.push_back(U);
      }
      while (!Work.empty()) {
        const CFGBlock *X = Work.back();
        Work.pop_back();
        for (const CFGBlock *P : X->preds())
          if (P && FromEntry[P->getBlockID()] && !L.Blocks[P->getBlockID()]) {
            L.Blocks.set(P->getBlockID());
            Work.push_back(P);
          }
      }
      if (!L.Statement && isLoopStatement(U->getLoopTarget()))
        L.Statement = U->getLoopTarget();
    }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // A `for` that provably runs its body at most once cycles only in the
  // CFG: a logging macro's `for (bool once = true; once; once = false)`.
  llvm::erase_if(Loops, [&](const NaturalLoop &L) {
    const Stmt *S = L.Statement ? L.Statement : L.Header->getTerminatorStmt();
    return oneShotTrips(S, Ctx).has_value();
  });
  for (NaturalLoop &L : Loops) {
    // The header's own test, else the outermost loop statement inside.
    if (!L.Statement && isLoopStatement(L.Header->getTerminatorStmt()))
      L.Statement = L.Header->getTerminatorStmt();
    if (!L.Statement)
      for (const CFGBlock *B : RPO)
        if (L.contains(B) && isLoopStatement(B->getTerminatorStmt())) {
          const Stmt *S = B->getTerminatorStmt();
          if (!L.Statement || SM.isBeforeInTranslationUnit(
                                  S->getBeginLoc(), L.Statement->getBeginLoc()))
            L.Statement = S;
        }
    if (L.Statement) {
      L.Keyword = L.Statement->getBeginLoc();
    } else {
      // A loop made with goto: point at the label, or the header's first
      // statement.
      if (const auto *Label = dyn_cast_or_null<LabelStmt>(L.Header->getLabel()))
        L.Keyword = Label->getBeginLoc();
      else
        for (const CFGElement &E : *L.Header)
          if (auto S = E.getAs<CFGStmt>()) {
            L.Keyword = S->getStmt()->getBeginLoc();
            break;
          }
    }
  }
  // Catch handlers hang off no path (no exception edges); a handler written
  // inside a loop runs in it, with what it reaches before rejoining.
  for (NaturalLoop &L : Loops) {
    if (!L.Statement)
      continue;
    SourceRange R = L.Statement->getSourceRange();
    for (const CFGBlock *H : *Graph) {
      const auto *Catch =
          H ? dyn_cast_or_null<CXXCatchStmt>(H->getLabel()) : nullptr;
      if (!Catch || FromEntry[H->getBlockID()] ||
          SM.isBeforeInTranslationUnit(Catch->getBeginLoc(), R.getBegin()) ||
          SM.isBeforeInTranslationUnit(R.getEnd(), Catch->getBeginLoc()))
        continue;
      std::vector<const CFGBlock *> Work = {H};
      L.Blocks.set(H->getBlockID());
      while (!Work.empty()) {
        const CFGBlock *X = Work.back();
        Work.pop_back();
        for (const CFGBlock *S : X->succs())
          if (S && !FromEntry[S->getBlockID()] && !L.Blocks[S->getBlockID()]) {
            L.Blocks.set(S->getBlockID());
            Work.push_back(S);
          }
      }
    }
  }
  // Innermost enclosing loop: the smallest strict superset.
  for (unsigned I = 0; I < Loops.size(); ++I) {
    unsigned Best = ~0u, BestSize = ~0u;
    for (unsigned J = 0; J < Loops.size(); ++J) {
      if (I == J || !Loops[J].contains(Loops[I].Header))
        continue;
      unsigned Size = Loops[J].Blocks.count();
      if (Size > Loops[I].Blocks.count() && Size < BestSize) {
        Best = J;
        BestSize = Size;
      }
    }
    if (Best != ~0u)
      Loops[I].Parent = static_cast<int>(Best);
  }
}

std::vector<unsigned> FunctionFlow::loopsAt(const CFGBlock *B) const {
  std::vector<unsigned> Out;
  for (unsigned I = 0; I < Loops.size(); ++I)
    if (Loops[I].contains(B))
      Out.push_back(I);
  llvm::sort(Out, [&](unsigned A, unsigned C) {
    return Loops[A].Blocks.count() < Loops[C].Blocks.count();
  });
  return Out;
}

const NaturalLoop *FunctionFlow::loopOf(const Stmt *S) const {
  for (const NaturalLoop &L : Loops)
    if (L.Statement == S)
      return &L;
  return nullptr;
}

/// Whether \p From reaches \p To without passing through \p Avoid.
static bool reachesAvoiding(const CFGBlock *From, const CFGBlock *To,
                            const CFGBlock *Avoid, unsigned NumBlocks) {
  if (!From || From == Avoid)
    return false;
  llvm::BitVector Seen(NumBlocks);
  std::vector<const CFGBlock *> Work = {From};
  Seen.set(From->getBlockID());
  while (!Work.empty()) {
    const CFGBlock *X = Work.back();
    Work.pop_back();
    if (X == To)
      return true;
    for (const CFGBlock *S : X->succs())
      if (S && S != Avoid && !Seen[S->getBlockID()]) {
        Seen.set(S->getBlockID());
        Work.push_back(S);
      }
  }
  return false;
}

std::vector<Guard> FunctionFlow::guardsOf(const CFGBlock *B,
                                          const NaturalLoop *L) const {
  std::vector<Guard> Out;
  if (!B || !FromEntry[B->getBlockID()])
    return Out;
  unsigned N = Graph->getNumBlockIDs();
  // A dominator D decides whether B runs when only some of its successors
  // lead to B without coming back through D (B is control dependent on
  // those edges).
  const auto *Node = Dom->getBase().getNode(const_cast<CFGBlock *>(B));
  while (Node && Node->getBlock() != (L ? L->Header : nullptr)) {
    const auto *IDom = Node->getIDom();
    if (!IDom)
      break;
    const CFGBlock *D = IDom->getBlock();
    if (L && !L->contains(D))
      break;
    const Stmt *Term = D->getTerminatorStmt();
    bool OwnTest = Term && isLoopStatement(Term);
    const Expr *Cond = dyn_cast_or_null<Expr>(D->getTerminatorCondition());
    // `if (a && b)`: the block that branches on the whole condition has
    // evaluated only `b` (`a` has its own block).
    while (const auto *BO = dyn_cast_or_null<BinaryOperator>(
               Cond ? Cond->IgnoreParenImpCasts() : nullptr)) {
      if (!BO->isLogicalOp() || BO == Term)
        break;
      Cond = BO->getRHS();
    }
    if (Term && !OwnTest && Cond && D->succ_size() >= 2) {
      llvm::SmallVector<bool, 4> Leads;
      for (const CFGBlock *S : D->succs())
        Leads.push_back(reachesAvoiding(S, B, D, N));
      unsigned Count = llvm::count(Leads, true);
      if (Count > 0 && Count < Leads.size()) {
        Guard G;
        G.Condition = Cond;
        G.Branch = D;
        if (D->succ_size() == 2)
          G.WhenTrue = Leads[0];
        else
          G.Switch = true; // which case runs is not counted
        Out.push_back(G);
      }
    }
    if (L && D == L->Header)
      break;
    Node = IDom;
  }
  return Out;
}

const FunctionFlow *FlowCache::get(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return nullptr;
  auto [It, New] = Flows.try_emplace(Def);
  if (New)
    It->second = FunctionFlow::build(Def, Ctx);
  return It->second.get();
}

} // namespace seam
