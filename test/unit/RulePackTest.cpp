//===- RulePackTest.cpp - Loading, validating and merging rule packs ------===//
#include "ApiModel/RulePack.h"

#include "gtest/gtest.h"

using namespace seam;

namespace {

std::string errorOf(llvm::StringRef Json) {
  llvm::Expected<RulePack> P = parseRulePack(Json, "pack.json");
  if (P)
    return "";
  return llvm::toString(P.takeError());
}

TEST(RulePack, BundledPacksLoad) {
  for (const char *Name : {"libtorch.json", "seamrt.json"}) {
    auto P = loadRulePack(std::string(SEAM_TEST_RULES_DIR) + "/" + Name);
    ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
    EXPECT_FALSE(P->TensorTypes.empty()) << Name;
    EXPECT_FALSE(P->Triggers.empty()) << Name;
  }
}

TEST(RulePack, LibTorchPackCoversTheDesignTriggers) {
  auto P = loadRulePack(std::string(SEAM_TEST_RULES_DIR) + "/libtorch.json");
  ASSERT_TRUE(static_cast<bool>(P));
  auto Has = [&](CallKind K, llvm::StringRef Name, Trigger T) {
    for (const TriggerRule &R : P->Triggers)
      if (R.Kind == K && R.Name == Name && R.What == T)
        return true;
    return false;
  };
  EXPECT_TRUE(Has(CallKind::Method, "item", Trigger::ScalarRead));
  EXPECT_TRUE(Has(CallKind::Method, "cpu", Trigger::HostCopy));
  EXPECT_TRUE(Has(CallKind::Operator, "<<", Trigger::Print));
  EXPECT_TRUE(Has(CallKind::Function, "at::nonzero", Trigger::DynamicShape));
  EXPECT_TRUE(Has(CallKind::Function, "torch::cuda::synchronize",
                  Trigger::ExplicitSync));
}

TEST(RulePack, ParsesEveryField) {
  auto P = parseRulePack(R"({
    "name": "mini", "formatVersion": 1,
    "types": {"tensor": ["a::T"], "deviceLike": ["a::Dev"],
              "hostRecords": ["a::Batch"], "modules": ["a::Mod"],
              "moduleHolders": ["a::Holder"], "libraryNamespaces": ["a"]},
    "triggers": [
      {"method": "get", "trigger": "scalar-read"},
      {"function": "a::wait", "trigger": "explicit-sync"},
      {"operator": "<<", "trigger": "print", "when": "tensor-arg"},
      {"method": "sync", "class": "a::Stream", "trigger": "explicit-sync"}],
    "metadata": ["shape"],
    "residency": {"hostDevices": ["H"], "deviceDevices": ["D"],
                  "toHost": ["host"], "toDevice": ["dev"], "move": ["to"],
                  "factories": ["a::make"], "likeFactories": ["a::like"],
                  "boolProducers": ["gt"], "boolDtypes": ["kBool"]},
    "regions": {"annotations": ["x.compiled"], "compileFunctions": ["a::jit"],
                "captureSpans": [{"class": "a::G", "begin": "b", "end": "e"}],
                "hotMethods": ["run"]},
    "ops": {"pointwise": ["add"], "reduction": ["sum"], "library": ["mm"],
            "view": ["view"], "data-dependent": ["nz"], "host": ["get"]}
  })",
                         "mini.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Name, "mini");
  EXPECT_EQ(P->TensorTypes, std::vector<std::string>{"a::T"});
  ASSERT_EQ(P->Triggers.size(), 4u);
  EXPECT_EQ(P->Triggers[1].Kind, CallKind::Function);
  EXPECT_EQ(P->Triggers[2].When, TriggerWhen::TensorArg);
  EXPECT_EQ(P->Triggers[3].Class, "a::Stream");
  ASSERT_EQ(P->CaptureSpans.size(), 1u);
  EXPECT_EQ(P->CaptureSpans[0].Begin, "b");
  EXPECT_EQ(P->Ops.size(), 6u);
  EXPECT_EQ(P->HotMethods, std::vector<std::string>{"run"});
}

TEST(RulePack, ShapeRuleOps) {
  auto P = parseRulePack(R"({
    "name": "mini", "formatVersion": 1, "types": {"tensor": ["a::T"]},
    "triggers": [{"method": "get", "trigger": "scalar-read"}],
    "ops": {"matmul": ["mm"], "transpose": ["t", "swap"],
            "library": ["swap"]}
  })",
                         "mini.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->MatmulOps, std::vector<std::string>{"mm"});
  EXPECT_EQ(P->TransposeOps, (std::vector<std::string>{"t", "swap"}));
  // A matrix product is a library op; a transpose keeps another list's
  // class and adds none of its own.
  std::vector<std::pair<std::string, OpClass>> Want = {{"swap",
                                                        OpClass::Library},
                                                       {"mm",
                                                        OpClass::Library}},
                                               Got;
  for (const OpRule &O : P->Ops)
    Got.emplace_back(O.Name, O.Class);
  EXPECT_EQ(Got, Want);
}

TEST(RulePack, RejectsMalformedInput) {
  EXPECT_NE(errorOf("{"), "");
  EXPECT_NE(errorOf("[]").find("expected an object"), std::string::npos);
  EXPECT_NE(errorOf(R"({"types": {}})").find("missing required key 'name'"),
            std::string::npos);
  EXPECT_NE(
      errorOf(R"({"name": "x", "tensors": []})").find("'tensors': unknown key"),
      std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "types": {"tensor": "a::T"}})")
                .find("'types.tensor': expected an array of strings"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "triggers": [{"trigger": "print"}]})")
                .find("needs exactly one of 'method', 'function', 'operator'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "triggers": [{"method": "m",
                       "trigger": "print", "when": "sometimes"}]})")
                .find("unknown condition 'sometimes'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 3})")
                .find("unsupported format version"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "ops": {"fused": []}})")
                .find("'ops.fused': unknown key"),
            std::string::npos);
}

TEST(RulePack, FormatTwoKeys) {
  // Format-2 keys in a format-1 pack are errors, not silently new meaning.
  EXPECT_NE(errorOf(R"({"name": "x", "triggers": [{"method": "m",
                       "trigger": "print", "args": 1}]})")
                .find("'triggers[0].args': needs \"formatVersion\": 2"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"function": "f", "trigger": "print",
                        "params": ["a[b"]}]})")
                .find("'triggers[0].params[0]': bad type pattern"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"method": "m", "trigger": "print",
                        "operands": ["tensor"]}]})")
                .find("only operator rules have operands"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"method": "m", "effect": "flushes"}]})")
                .find("unknown effect 'flushes'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"method": "m"}]})")
                .find("missing required key 'trigger'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "residency": {
                       "defaults": [{"arg": 0}]}})")
                .find("needs exactly one of 'function', 'scope'"),
            std::string::npos);
  auto P = parseRulePack(R"({"name": "p", "formatVersion": 2,
      "types": {"tensor": ["p::A"]},
      "triggers": [
        {"function": "p::sum", "trigger": "scalar-read",
         "args": {"min": 1, "max": 1}, "returns": "non-tensor",
         "source": "docs"},
        {"function": "p::eval", "effect": "materialises"},
        {"conversion": "*", "trigger": "scalar-read", "on": "any-tensor"}],
      "residency": {"deviceFactories": ["p::zeros"],
                    "constructors": [{"class": "p::A", "params": ["scalar"],
                                      "residency": "host"}],
                    "defaults": [{"scope": "p::StreamContext"}]},
      "regions": {"transforms": ["p::grad"], "invokeFunctions": ["p::vjp"]}})",
                         "p.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Triggers.size(), 3u);
  EXPECT_EQ(P->Triggers[0].Overload.MaxArgs, 1);
  EXPECT_EQ(P->Triggers[0].Scope, (std::vector<std::string>{"p::A"}));
  EXPECT_FALSE(P->Triggers[1].Reports);
  EXPECT_EQ(P->Triggers[1].Does, Effect::Materialises);
  EXPECT_EQ(P->Triggers[2].Kind, CallKind::Conversion);
  EXPECT_TRUE(P->Triggers[2].Scope.empty());
  EXPECT_EQ(P->Constructors.size(), 1u);
  EXPECT_TRUE(P->Defaults[0].Scoped);
  EXPECT_EQ(P->Transforms, (std::vector<std::string>{"p::grad"}));
  EXPECT_EQ(P->InvokeFunctions, (std::vector<std::string>{"p::vjp"}));
  // A reference suffix is a pattern; a top-level const is refused.
  EXPECT_TRUE(static_cast<bool>(parseRulePack(
      R"({"name": "x", "formatVersion": 2, "triggers": [{"operator": "=",
          "trigger": "explicit-sync", "params": ["const tensor&"]},
          {"operator": "=", "trigger": "explicit-sync",
           "params": ["!tensor&&"]}]})",
      "x.json")));
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"operator": "=", "trigger": "explicit-sync",
                        "params": ["const tensor"]}]})")
                .find("'const tensor': a top-level const is ignored"),
            std::string::npos);
  // A constructor rule names its class; it has no object or result.
  auto C = parseRulePack(R"({"name": "c", "formatVersion": 2, "triggers": [
      {"constructor": "p::HostVec", "trigger": "host-copy",
       "params": ["p::DevVec"]}]})",
                         "c.json");
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Triggers[0].Kind, CallKind::Constructor);
  EXPECT_EQ(C->Triggers[0].Name, "p::HostVec");
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"constructor": "p::H", "class": "p::H",
                        "trigger": "host-copy"}]})")
                .find("'triggers[0].class': a constructor rule has no 'class'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"constructor": "p::H", "trigger": "host-copy",
                        "when": "to-host"}]})")
                .find("a constructor rule takes only 'always' or 'tensor-arg'"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "triggers": [
                       {"constructor": "p::H", "trigger": "host-copy"}]})")
                .find("needs \"formatVersion\": 2"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "regions": {"invokeFunctions": ["f"]}})")
                .find("needs \"formatVersion\": 2"),
            std::string::npos);
}

TEST(RulePack, ArgValues) {
  // LibTorch's multinomial checks its input when it draws one sample.
  auto P = parseRulePack(R"({"name": "p", "formatVersion": 2, "triggers": [
      {"method": "multinomial", "trigger": "scalar-read",
       "argValues": {"0": 1, "1": false}}]})",
                         "p.json");
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Triggers.size(), 1u);
  const OverloadFilter &O = P->Triggers[0].Overload;
  EXPECT_FALSE(O.empty());
  ASSERT_EQ(O.ArgValues.size(), 2u);
  EXPECT_EQ(O.ArgValues[0], (std::pair<unsigned, double>{0, 1.0}));
  EXPECT_EQ(O.ArgValues[1], (std::pair<unsigned, double>{1, 0.0}));
  EXPECT_NE(errorOf(R"({"name": "x", "triggers": [{"method": "m",
                       "trigger": "print", "argValues": {"0": 1}}]})")
                .find("'triggers[0].argValues': needs \"formatVersion\": 2"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"method": "m", "trigger": "print",
                        "argValues": {"first": 1}}]})")
                .find("'triggers[0].argValues.first': expected an argument "
                      "index from 0 to 63"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"method": "m", "trigger": "print",
                        "argValues": {"0": "one"}}]})")
                .find("'triggers[0].argValues.0': expected a number or "
                      "true/false"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"name": "x", "formatVersion": 2, "triggers": [
                       {"method": "m", "trigger": "print", "argValues": {}}]})")
                .find("'triggers[0].argValues': expected an object"),
            std::string::npos);
}

TEST(RulePack, ErrorsNameThePackFile) {
  EXPECT_EQ(errorOf("{").rfind("pack.json: ", 0), 0u);
  auto Missing = loadRulePack("/nonexistent/dir/pack.json");
  ASSERT_FALSE(static_cast<bool>(Missing));
  std::string Msg = llvm::toString(Missing.takeError());
  EXPECT_NE(Msg.find("cannot read '/nonexistent/dir/pack.json' (from a rule "
                     "pack)"),
            std::string::npos);
}

TEST(RulePack, KeyGivenTwiceIsAnError) {
  // A second "triggers" would silently replace the first list.
  std::string Msg = errorOf(R"({"name": "d", "triggers": [], "triggers": []})");
  EXPECT_NE(Msg.find("the key 'triggers' is given twice in one object"),
            std::string::npos)
      << Msg;
  // Nested objects are checked too.
  Msg = errorOf(R"({"name": "d", "types": {"tensor": ["a::T"],
                                           "tensor": ["b::T"]}})");
  EXPECT_NE(Msg.find("the key 'tensor' is given twice"), std::string::npos)
      << Msg;
}

TEST(RulePack, MergeIsUnion) {
  auto A = parseRulePack(R"({"name": "a", "types": {"tensor": ["a::T"]},
      "triggers": [{"method": "x", "trigger": "scalar-read"}]})",
                         "a");
  auto B = parseRulePack(R"({"name": "b", "types": {"tensor": ["b::T"]},
      "triggers": [{"method": "y", "trigger": "host-copy"}]})",
                         "b");
  ASSERT_TRUE(A && B);
  RulePack M;
  mergeRulePack(M, *A);
  mergeRulePack(M, *B);
  EXPECT_EQ(M.Name, "a+b");
  EXPECT_EQ(M.TensorTypes, (std::vector<std::string>{"a::T", "b::T"}));
  EXPECT_EQ(M.Triggers.size(), 2u);
}

} // namespace
