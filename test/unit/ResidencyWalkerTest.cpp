//===- ResidencyWalkerTest.cpp - Residency of values at program points ----===//
#include "Residency/ResidencyWalker.h"
#include "ApiModel/ApiModel.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace seam;
using namespace clang;

namespace {

/// Parses \p Body inside `void f(torch::Tensor param, torch::Device dev,
/// bool flag)` against the mock LibTorch, walks it, and returns the
/// residency of the argument of every `probe(...)` call, in order.
std::vector<Residency> probe(const std::string &Body) {
  std::string Code = "#include <torch/torch.h>\n"
                     "#include <vector>\n"
                     "int i_;\n"
                     "void probe(const torch::Tensor &);\n"
                     "void f(torch::Tensor param, torch::Device dev, bool "
                     "flag) {\n" +
                     Body + "\n}\n";
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      Code,
      {"-std=c++17", "-isystem", SEAM_TEST_INPUTS_DIR,
       "-resource-dir=" SEAM_CLANG_RESOURCE_DIR},
      "input.cpp");
  EXPECT_TRUE(AST);
  EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  auto Pack = loadRulePack(std::string(SEAM_TEST_RULES_DIR) + "/libtorch.json");
  EXPECT_TRUE(static_cast<bool>(Pack));
  ApiModel Api(std::move(*Pack));
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = nullptr;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->getName() == "f" && FD->hasBody())
      F = FD;
  EXPECT_NE(F, nullptr);
  FlowCache Flows(Ctx);
  ResidencyContext RC(Ctx, Api, Flows);
  ResidencyWalker W(RC);
  std::map<const CallExpr *, Residency> Seen;
  std::vector<const CallExpr *> Order;
  W.run(F, [&](const Expr *E, const ResidencyWalker &W) {
    const auto *CE = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
    if (!Callee || Callee->getName() != "probe")
      return;
    if (!Seen.count(CE))
      Order.push_back(CE);
    Seen[CE] = join(Seen[CE], W.eval(CE->getArg(0)).Where);
  });
  std::vector<Residency> Out;
  for (const CallExpr *CE : Order)
    Out.push_back(Seen[CE]);
  return Out;
}

using R = Residency;

TEST(ResidencyWalker, Factories) {
  EXPECT_EQ(probe("probe(torch::ones({2}));"
                  "probe(torch::ones({2}, torch::kCUDA));"
                  "probe(torch::zeros({2}, "
                  "torch::TensorOptions().dtype(torch::kFloat)));"
                  "probe(torch::zeros({2}, torch::device(torch::kCUDA)));"
                  "probe(torch::zeros({2}, dev));"
                  "probe(torch::tensor({1.0f}));"),
            (std::vector<R>{R::Host, R::Device, R::Host, R::Device, R::Unknown,
                            R::Host}));
}

TEST(ResidencyWalker, MovesAndOps) {
  EXPECT_EQ(probe("auto d = torch::ones({2}).cuda();"
                  "probe(d.cpu());"
                  "probe(d.to(torch::kCPU));"
                  "probe(d.to(torch::kDouble));"
                  "probe(torch::ones({2}) + d);"
                  "probe(param);"
                  "probe(torch::ones({2}) + param);"),
            (std::vector<R>{R::Host, R::Host, R::Device, R::Device, R::Unknown,
                            R::Unknown}));
}

TEST(ResidencyWalker, FlowSensitive) {
  EXPECT_EQ(probe("auto x = torch::ones({2}, torch::kCUDA);"
                  "probe(x);"
                  "x = x.cpu();"
                  "probe(x);"
                  "auto y = torch::ones({2});"
                  "if (flag) y = param;"
                  "probe(y);"
                  "auto z = torch::ones({2});"
                  "for (int i = 0; i < 3; ++i) { probe(z); z = param * 2; }"),
            (std::vector<R>{R::Device, R::Host, R::Unknown, R::Unknown}));
}

TEST(ResidencyWalker, DeviceVariables) {
  EXPECT_EQ(probe("torch::Device cpu(torch::kCPU);"
                  "probe(torch::ones({2}, cpu));"
                  "torch::Device d = torch::cuda::is_available() ? "
                  "torch::kCUDA : torch::kCPU;"
                  "probe(torch::ones({2}, d));"
                  "probe(torch::ones({2}, torch::Device(\"cuda:1\")));"),
            (std::vector<R>{R::Host, R::Device, R::Device}));
}

} // namespace

namespace {

// The transfer table over Clang's CFG: paths that leave do not flow on.
TEST(ResidencyWalker, PathsThatLeave) {
  EXPECT_EQ(probe("auto x = torch::ones({2});"
                  "if (flag) { x = x.cuda(); return; }"
                  "probe(x);"),
            (std::vector<R>{R::Host}));
  EXPECT_EQ(probe("auto x = torch::ones({2});"
                  "for (int i = 0; i < 3; ++i) {"
                  "  if (flag) { x = x.cuda(); break; }"
                  "  probe(x);"
                  "}"
                  "probe(x);"),
            (std::vector<R>{R::Host, R::Device}));
  EXPECT_EQ(probe("auto x = torch::ones({2});"
                  "for (int i = 0; i < 3; ++i) {"
                  "  if (flag) { x = x.cuda(); continue; }"
                  "  probe(x);"
                  "}"),
            (std::vector<R>{R::Device}));
}

TEST(ResidencyWalker, LoopCarriedAndBranches) {
  EXPECT_EQ(probe("auto x = torch::ones({2});"
                  "for (int i = 0; i < 3; ++i) { probe(x); x = x.cuda(); }"
                  "auto y = flag ? torch::ones({2}).cuda() : torch::ones({2});"
                  "probe(y);"
                  "auto z = torch::ones({2});"
                  "switch (i_) { case 0: z = z.cuda(); break; default: break; }"
                  "probe(z);"),
            (std::vector<R>{R::Device, R::Device, R::Device}));
}

TEST(ResidencyWalker, ContainersAndCatch) {
  EXPECT_EQ(probe("std::vector<torch::Tensor> v;"
                  "for (int i = 0; i < 3; ++i) v.push_back(torch::ones({2}));"
                  "probe(v[0]);"
                  "auto x = torch::ones({2});"
                  "try { x = x.cuda(); if (flag) throw 1; }"
                  "catch (...) { probe(x); }"),
            (std::vector<R>{R::Host, R::Device}));
}

} // namespace
