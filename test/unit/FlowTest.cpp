//===- FlowTest.cpp - Loops and execution counts from Clang's CFG ---------===//
#include "Flow/ExecCount.h"
#include "Flow/FunctionFlow.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace seam;
using namespace clang;

namespace {

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  std::vector<const CallExpr *> Marks; ///< calls to mark(), in order
};

/// Parses \p Body inside `void f(int n, bool flag)`.
Parsed parse(const std::string &Body) {
  Parsed P;
  std::string Code =
      "void mark();\nvoid f(int n, bool flag) {\n" + Body + "\n}\n";
  P.AST = tooling::buildASTFromCodeWithArgs(
      Code, {"-std=c++17", "-resource-dir=" SEAM_CLANG_RESOURCE_DIR},
      "input.cpp");
  EXPECT_TRUE(P.AST);
  EXPECT_FALSE(P.AST->getDiagnostics().hasErrorOccurred());
  for (Decl *D : P.AST->getASTContext().getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->getName() == "f" && FD->hasBody())
      P.F = FD;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const CallExpr *> *Out;
    bool VisitCallExpr(CallExpr *CE) {
      if (CE->getDirectCallee() && CE->getDirectCallee()->getName() == "mark")
        Out->push_back(CE);
      return true;
    }
  } Fi;
  Fi.Out = &P.Marks;
  Fi.TraverseDecl(const_cast<FunctionDecl *>(P.F));
  return P;
}

unsigned loops(const std::string &Body) {
  Parsed P = parse(Body);
  auto Flow = FunctionFlow::build(P.F, P.AST->getASTContext());
  return Flow ? Flow->loops().size() : ~0u;
}

/// How often each mark() runs per iteration of its innermost loop; with
/// \p N, the parameter `n` bound to it.
std::vector<Frequency> counts(const std::string &Body,
                              std::optional<int64_t> N = std::nullopt) {
  Parsed P = parse(Body);
  auto Flow = FunctionFlow::build(P.F, P.AST->getASTContext());
  ParamValues Params;
  if (N)
    Params.Vars[P.F->getParamDecl(0)] = *N;
  std::vector<Frequency> Out;
  for (const CallExpr *CE : P.Marks) {
    const CFGBlock *B = Flow->blockOf(CE);
    std::vector<unsigned> Ls = Flow->loopsAt(B);
    const NaturalLoop *L = Ls.empty() ? nullptr : &Flow->loops()[Ls.front()];
    Out.push_back(frequencyOf(*Flow, B, L, P.AST->getASTContext(),
                              N ? &Params : nullptr));
  }
  return Out;
}

TEST(Flow, LoopsAreCycles) {
  EXPECT_EQ(loops("for (int i = 0; i < n; ++i) mark();"), 1u);
  EXPECT_EQ(loops("do { mark(); } while (0);"), 0u);
  EXPECT_EQ(loops("while (false) { mark(); }"), 0u);
  EXPECT_EQ(loops("while (true) { mark(); break; }"), 0u);
  EXPECT_EQ(loops("int k = 0; again: mark(); if (++k < n) goto again;"), 1u);
  EXPECT_EQ(loops("for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) "
                  "mark();"),
            2u);
}

TEST(Flow, ExecutionCounts) {
  std::vector<Frequency> F = counts("for (int i = 0; i < n; ++i) {"
                                    "  mark();"
                                    "  if (i % 100 == 0) mark();"
                                    "  if (i % 4 != 0) mark();"
                                    "  if (i == 0) mark();"
                                    "  if (flag) mark();"
                                    "  if (i % 10 == 0 && flag) mark();"
                                    "  if (i % 5) continue;"
                                    "  mark();"
                                    "}");
  ASSERT_EQ(F.size(), 7u);
  EXPECT_EQ(F[0].phrase(), "every iteration");
  EXPECT_TRUE(F[0].Uncounted.empty());
  EXPECT_DOUBLE_EQ(F[1].PerIteration, 0.01);
  EXPECT_EQ(F[1].phrase(), "every 100th iteration");
  EXPECT_DOUBLE_EQ(F[2].PerIteration, 0.75);
  EXPECT_TRUE(F[3].OncePerLoop);
  EXPECT_DOUBLE_EQ(F[4].PerIteration, 1);
  EXPECT_EQ(F[4].Uncounted.size(), 1u);
  EXPECT_DOUBLE_EQ(F[5].PerIteration, 0.1);
  EXPECT_EQ(F[5].Uncounted.size(), 1u);
  EXPECT_EQ(F[6].phrase(), "every 5th iteration");
}

// A parameter bound to one call's argument: the loop is walked with it.
TEST(Flow, ExecutionCountsWithParameters) {
  const std::string Body = "for (int i = 0; i < n; ++i) {"
                           "  if (i > 0 && i % 7 == 0) mark();"
                           "  if (i % 4 == n % 4) mark();"
                           "}"
                           "for (int j = 0; j < 10; ++j)"
                           "  if (j % n == 0) mark();"
                           "for (int k = 0; k < n - 1; ++k)"
                           "  if (k % 2 == 0 && k > n / 2) mark();";
  std::vector<Frequency> Free = counts(Body);
  ASSERT_EQ(Free.size(), 4u);
  EXPECT_EQ(Free[0].Uncounted.size(), 1u); // i > 0
  EXPECT_EQ(Free[1].Uncounted.size(), 1u);
  EXPECT_EQ(Free[2].Uncounted.size(), 1u);
  std::vector<Frequency> At30 = counts(Body, 30);
  ASSERT_EQ(At30.size(), 4u);
  EXPECT_TRUE(At30[0].Uncounted.empty());
  EXPECT_DOUBLE_EQ(At30[0].PerIteration, 4.0 / 30); // 7, 14, 21, 28
  EXPECT_DOUBLE_EQ(At30[1].PerIteration, 7.0 / 30); // 2, 6, ..., 26
  EXPECT_TRUE(At30[2].OncePerLoop);                 // j = 0 alone
  EXPECT_DOUBLE_EQ(At30[3].PerIteration, 7.0 / 29); // 16, 18, ..., 28
  std::vector<Frequency> At3 = counts(Body, 3);
  ASSERT_EQ(At3.size(), 4u);
  EXPECT_DOUBLE_EQ(At3[0].PerIteration, 0); // i < 3: never
  EXPECT_TRUE(At3[0].Uncounted.empty());
  EXPECT_DOUBLE_EQ(At3[2].PerIteration, 4.0 / 10); // 0, 3, 6, 9
}

TEST(Flow, UnchangedLocalsCountAsTheirValues) {
  // Parsed inside `void f(int n, bool flag)`; n is bound to 12.
  Parsed P = parse("struct Cfg { int steps = 20; int every = 5; int seed; };"
                   "void take(int &); void look(const int &);"
                   "int steps = 30; int twice = n * 2; int bumped = 4;"
                   "int shared = 6; int read = 7; int captured = 8;"
                   "Cfg cfg; Cfg edited; Cfg braced{9};"
                   "bumped += 1; take(shared); look(read);"
                   "edited.every = 3;"
                   "auto g = [&] { captured = 1; }; g();");
  ASSERT_TRUE(P.F);
  ASTContext &Ctx = P.AST->getASTContext();
  std::vector<const VarDecl *> Locals = unchangedLocals(P.F, Ctx);
  std::vector<std::string> Names;
  for (const VarDecl *V : Locals)
    Names.push_back(V->getNameAsString());
  EXPECT_EQ(Names, (std::vector<std::string>{"steps", "twice", "read", "cfg",
                                             "braced"}));
  ParamValues Values;
  Values.Vars[P.F->getParamDecl(0)] = 12;
  bindLocals(Locals, Ctx, Values);
  auto Var = [&](const VarDecl *V) -> std::optional<int64_t> {
    auto It = Values.Vars.find(V);
    return It == Values.Vars.end() ? std::nullopt
                                   : std::optional<int64_t>(It->second);
  };
  EXPECT_EQ(Var(Locals[0]), 30);
  EXPECT_EQ(Var(Locals[1]), 24); // n * 2
  EXPECT_EQ(Var(Locals[2]), 7);
  auto Field = [&](const VarDecl *V,
                   llvm::StringRef Name) -> std::optional<int64_t> {
    for (const FieldDecl *F : V->getType()->getAsCXXRecordDecl()->fields())
      if (F->getName() == Name) {
        auto It = Values.Fields.find({V, F});
        if (It != Values.Fields.end())
          return It->second;
      }
    return std::nullopt;
  };
  EXPECT_EQ(Field(Locals[3], "steps"), 20); // the member initializers
  EXPECT_EQ(Field(Locals[3], "every"), 5);
  EXPECT_EQ(Field(Locals[3], "seed"), std::nullopt); // none written
  EXPECT_EQ(Field(Locals[4], "steps"), 9);           // the braces
  EXPECT_EQ(Field(Locals[4], "every"), 5);
}

} // namespace
