//===- RulePack.cpp - Load and merge JSON rule packs ----------------------===//
#include "ApiModel/RulePack.h"
#include "Basic/InputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

using nlohmann::json;

namespace seam {

/// The one table of trigger names, used both ways.
static const std::pair<Trigger, llvm::StringLiteral> TriggerNames[] = {
    {Trigger::ScalarRead, "scalar-read"},
    {Trigger::HostCopy, "host-copy"},
    {Trigger::Print, "print"},
    {Trigger::DynamicShape, "dynamic-shape"},
    {Trigger::ExplicitSync, "explicit-sync"}};

llvm::StringRef triggerName(Trigger T) {
  for (const auto &[Kind, Name] : TriggerNames)
    if (Kind == T)
      return Name;
  return "unknown";
}

namespace {

/// Walks a pack's JSON and records the first problem with its JSON path.
class PackReader {
public:
  explicit PackReader(llvm::StringRef Path) : Path(Path.str()) {}

  std::optional<std::string> Error;

  void fail(const std::string &Where, const std::string &What) {
    if (!Error)
      Error = Path + ": '" + Where + "': " + What;
  }

  /// Rejects keys outside \p Allowed so that a typo is an error, not a
  /// silently ignored setting.
  bool checkKeys(const json &Obj, const std::string &Where,
                 llvm::ArrayRef<const char *> Allowed) {
    if (!Obj.is_object()) {
      fail(Where.empty() ? "(top level)" : Where, "expected an object");
      return false;
    }
    for (auto It = Obj.begin(); It != Obj.end(); ++It) {
      bool Known = false;
      for (const char *A : Allowed)
        Known |= It.key() == A;
      if (!Known) {
        std::string List;
        for (const char *A : Allowed)
          List += (List.empty() ? "" : ", ") + std::string(A);
        fail(Where.empty() ? It.key() : Where + "." + It.key(),
             "unknown key (expected one of: " + List + ")");
        return false;
      }
    }
    return true;
  }

  void strings(const json &Obj, const std::string &Where, const char *Key,
               std::vector<std::string> &Out) {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      return;
    std::string Here = Where.empty() ? Key : Where + "." + Key;
    if (!It->is_array()) {
      fail(Here, "expected an array of strings");
      return;
    }
    for (size_t I = 0; I < It->size(); ++I) {
      const json &V = (*It)[I];
      if (!V.is_string() || V.get<std::string>().empty()) {
        fail(Here + "[" + std::to_string(I) + "]",
             "expected a non-empty string");
        return;
      }
      Out.push_back(V.get<std::string>());
    }
  }

  std::string string(const json &Obj, const std::string &Where, const char *Key,
                     bool Required) {
    auto It = Obj.find(Key);
    if (It == Obj.end()) {
      if (Required)
        fail(Where, std::string("missing required key '") + Key + "'");
      return "";
    }
    if (!It->is_string() || It->get<std::string>().empty()) {
      fail(Where + "." + Key, "expected a non-empty string");
      return "";
    }
    return It->get<std::string>();
  }

private:
  std::string Path;
};

std::optional<Trigger> parseTrigger(llvm::StringRef S) {
  for (const auto &[Kind, Name] : TriggerNames)
    if (Name == S)
      return Kind;
  return std::nullopt;
}

std::optional<TriggerWhen> parseWhen(llvm::StringRef S) {
  return llvm::StringSwitch<std::optional<TriggerWhen>>(S)
      .Case("always", TriggerWhen::Always)
      .Case("to-host", TriggerWhen::ToHost)
      .Case("bool-index", TriggerWhen::BoolIndex)
      .Case("host-destination", TriggerWhen::HostDestination)
      .Case("tensor-arg", TriggerWhen::TensorArg)
      .Default(std::nullopt);
}

/// Keys only format 2 understands; in a format-1 pack they are errors, so
/// that an older Seam's rules are never read with a newer meaning.
bool needsV2(PackReader &R, const json &Obj, const std::string &Where,
             const RulePack &P, llvm::ArrayRef<const char *> Keys) {
  for (const char *K : Keys)
    if (Obj.contains(K) && P.FormatVersion < 2) {
      R.fail(Where + "." + K, "needs \"formatVersion\": 2");
      return false;
    }
  return true;
}

/// One line of PackKeys.def.
struct PackKey {
  const char *Section, *Key;
  int Version;
  std::vector<std::string> RulePack::*Names; ///< null: not a list of names
};

const PackKey PackKeys[] = {
#define SEAM_PACK_KEY(Section, Key, Version) {Section, Key, Version, nullptr},
#define SEAM_PACK_NAMES(Section, Key, Member, Version, Matches)                \
  {Section, Key, Version, &RulePack::Member},
#include "ApiModel/PackKeys.def"
};

/// The keys \p Section allows, in the table's order.
std::vector<const char *> keysOf(llvm::StringRef Section) {
  std::vector<const char *> Out;
  for (const PackKey &K : PackKeys)
    if (Section == K.Section)
      Out.push_back(K.Key);
  return Out;
}

/// Checks \p Obj, the object of \p Section, against the table: its keys,
/// and those that need format 2.
bool checkSection(PackReader &R, const json &Obj, const char *Section,
                  const RulePack &P) {
  if (!R.checkKeys(Obj, Section, keysOf(Section)))
    return false;
  std::vector<const char *> V2;
  for (const PackKey &K : PackKeys)
    if (llvm::StringRef(Section) == K.Section && K.Version == 2)
      V2.push_back(K.Key);
  return needsV2(R, Obj, Section, P, V2);
}

/// Reads the lists of names of \p Section from \p Obj, in the table's order.
void readNames(PackReader &R, const json &Obj, const char *Section,
               RulePack &P) {
  for (const PackKey &K : PackKeys)
    if (K.Names && llvm::StringRef(Section) == K.Section)
      R.strings(Obj, Section, K.Key, P.*K.Names);
}

int integer(PackReader &R, const json &Obj, const std::string &Where,
            const char *Key, int Min, int Max) {
  auto It = Obj.find(Key);
  if (It == Obj.end())
    return -1;
  if (!It->is_number_integer() || It->get<long long>() < Min ||
      It->get<long long>() > Max) {
    R.fail(Where + "." + Key, "expected an integer from " +
                                  std::to_string(Min) + " to " +
                                  std::to_string(Max));
    return -1;
  }
  return It->get<int>();
}

/// A type pattern's glob must compile; the special words always do.
void checkPatterns(PackReader &R, const std::string &Where,
                   const std::vector<std::string> &Patterns) {
  for (size_t I = 0; I < Patterns.size() && !R.Error; ++I) {
    llvm::StringRef P = Patterns[I];
    P.consume_front("!");
    if (P.starts_with("const ") && !P.ends_with("&"))
      R.fail(Where + "[" + std::to_string(I) + "]",
             "'" + Patterns[I] +
                 "': a top-level const is ignored; 'const P&' is a "
                 "reference to const");
    else if (auto G = llvm::GlobPattern::create(Patterns[I]); !G)
      R.fail(Where + "[" + std::to_string(I) + "]",
             "bad type pattern: " + llvm::toString(G.takeError()));
  }
}

/// "args": 2 or {"min": 1, "max": 3}; "params", "returns", "refQualifier",
/// "argValues": {"1": false}.
void readOverload(PackReader &R, const json &T, const std::string &Where,
                  OverloadFilter &O) {
  if (auto It = T.find("args"); It != T.end()) {
    if (It->is_number_integer()) {
      O.MinArgs = O.MaxArgs = integer(R, T, Where, "args", 0, 64);
    } else if (R.checkKeys(*It, Where + ".args", {"min", "max"})) {
      O.MinArgs = integer(R, *It, Where + ".args", "min", 0, 64);
      O.MaxArgs = integer(R, *It, Where + ".args", "max", 0, 64);
      if (O.MinArgs > O.MaxArgs && O.MaxArgs >= 0)
        R.fail(Where + ".args", "'min' is greater than 'max'");
    }
  }
  R.strings(T, Where, "params", O.Params);
  checkPatterns(R, Where + ".params", O.Params);
  O.Returns = R.string(T, Where, "returns", false);
  if (!O.Returns.empty())
    if (auto G = llvm::GlobPattern::create(O.Returns); !G)
      R.fail(Where + ".returns",
             "bad type pattern: " + llvm::toString(G.takeError()));
  O.RefQualifier = R.string(T, Where, "refQualifier", false);
  if (!O.RefQualifier.empty() && O.RefQualifier != "&" &&
      O.RefQualifier != "&&")
    R.fail(Where + ".refQualifier", "expected \"&\" or \"&&\"");
  if (auto It = T.find("argValues"); It != T.end()) {
    if (!It->is_object() || It->empty()) {
      R.fail(Where + ".argValues",
             "expected an object from argument index to value");
      return;
    }
    for (const auto &[Key, V] : It->items()) {
      std::string At = Where + ".argValues." + Key;
      unsigned Index = 0;
      if (llvm::StringRef(Key).getAsInteger(10, Index) || Index >= 64) {
        R.fail(At, "expected an argument index from 0 to 63");
        return;
      }
      if (!V.is_boolean() && !V.is_number()) {
        R.fail(At, "expected a number or true/false");
        return;
      }
      O.ArgValues.push_back(
          {Index, V.is_boolean() ? double(V.get<bool>()) : V.get<double>()});
    }
  }
}

void readTriggers(PackReader &R, const json &Arr, RulePack &P) {
  if (!Arr.is_array()) {
    R.fail("triggers", "expected an array");
    return;
  }
  for (size_t I = 0; I < Arr.size() && !R.Error; ++I) {
    std::string Where = "triggers[" + std::to_string(I) + "]";
    const json &T = Arr[I];
    if (!R.checkKeys(T, Where,
                     {"method", "function", "operator", "conversion",
                      "constructor", "class", "trigger", "when", "note",
                      "source", "args", "params", "returns", "refQualifier",
                      "argValues", "operands", "operand", "effect", "on"}))
      return;
    if (!needsV2(R, T, Where, P,
                 {"conversion", "constructor", "args", "params", "returns",
                  "refQualifier", "argValues", "operands", "operand", "effect",
                  "on"}))
      return;
    TriggerRule Rule;
    int Kinds = 0;
    const std::pair<const char *, CallKind> KindKeys[] = {
        {"method", CallKind::Method},
        {"function", CallKind::Function},
        {"operator", CallKind::Operator},
        {"conversion", CallKind::Conversion},
        {"constructor", CallKind::Constructor}};
    for (const auto &[Key, Kind] : KindKeys)
      if (T.contains(Key)) {
        Rule.Kind = Kind;
        Rule.Name = R.string(T, Where, Key, true);
        ++Kinds;
      }
    if (Kinds != 1) {
      R.fail(Where, "needs exactly one of 'method', 'function', 'operator', "
                    "'conversion', 'constructor'");
      return;
    }
    // A constructor rule names its class itself, and has no object, result
    // or operator operands.
    if (Rule.Kind == CallKind::Constructor)
      for (const char *Key : {"class", "returns", "refQualifier", "operands"})
        if (T.contains(Key)) {
          R.fail(Where + "." + Key,
                 std::string("a constructor rule has no '") + Key + "'");
          return;
        }
    Rule.Class = R.string(T, Where, "class", false);
    if (T.contains("effect")) {
      std::string E = R.string(T, Where, "effect", true);
      if (E == "materialises" || E == "materializes") {
        Rule.Does = Effect::Materialises;
      } else if (E == "materialises-all" || E == "materializes-all") {
        Rule.Does = Effect::MaterialisesAll;
      } else {
        R.fail(Where + ".effect", "unknown effect '" + E +
                                      "' (expected materialises or "
                                      "materialises-all)");
        return;
      }
    }
    // A rule with an effect may leave out the trigger: it reports nothing.
    std::string What = R.string(T, Where, "trigger", Rule.Does == Effect::None);
    if (R.Error)
      return;
    if (What.empty()) {
      Rule.Reports = false;
    } else if (auto Trig = parseTrigger(What)) {
      Rule.What = *Trig;
    } else {
      R.fail(Where + ".trigger",
             "unknown trigger '" + What +
                 "' (expected scalar-read, host-copy, print, dynamic-shape "
                 "or explicit-sync)");
      return;
    }
    if (T.contains("when")) {
      std::string When = R.string(T, Where, "when", true);
      auto W = parseWhen(When);
      if (!W) {
        R.fail(Where + ".when", "unknown condition '" + When +
                                    "' (expected always, to-host, bool-index, "
                                    "host-destination or tensor-arg)");
        return;
      }
      Rule.When = *W;
      if (Rule.Kind == CallKind::Constructor &&
          Rule.When != TriggerWhen::Always &&
          Rule.When != TriggerWhen::TensorArg) {
        R.fail(Where + ".when", "a constructor rule takes only 'always' or "
                                "'tensor-arg'");
        return;
      }
    }
    readOverload(R, T, Where, Rule.Overload);
    R.strings(T, Where, "operands", Rule.Operands);
    checkPatterns(R, Where + ".operands", Rule.Operands);
    if (!Rule.Operands.empty() && Rule.Kind != CallKind::Operator)
      R.fail(Where + ".operands", "only operator rules have operands");
    Rule.Operand = integer(R, T, Where, "operand", 0, 64);
    Rule.Source = R.string(T, Where, "source", false);
    std::string On = R.string(T, Where, "on", false);
    if (!On.empty() && On != "own-tensors" && On != "any-tensor")
      R.fail(Where + ".on", "expected \"own-tensors\" or \"any-tensor\"");
    if (On != "any-tensor")
      Rule.Scope = {"<own>"}; // filled with the pack's tensor types below
    P.Triggers.push_back(std::move(Rule));
  }
}

void readConstructors(PackReader &R, const json &Arr, RulePack &P) {
  if (!Arr.is_array()) {
    R.fail("residency.constructors", "expected an array");
    return;
  }
  for (size_t I = 0; I < Arr.size() && !R.Error; ++I) {
    std::string Where = "residency.constructors[" + std::to_string(I) + "]";
    if (!R.checkKeys(Arr[I], Where,
                     {"class", "args", "params", "residency", "note"}))
      return;
    ConstructorRule C;
    C.Class = R.string(Arr[I], Where, "class", true);
    readOverload(R, Arr[I], Where, C.Overload);
    std::string Res = R.string(Arr[I], Where, "residency", true);
    if (!R.Error && Res != "host" && Res != "device")
      R.fail(Where + ".residency", "expected \"host\" or \"device\"");
    C.OnDevice = Res == "device";
    P.Constructors.push_back(std::move(C));
  }
}

void readDefaults(PackReader &R, const json &Arr, RulePack &P) {
  if (!Arr.is_array()) {
    R.fail("residency.defaults", "expected an array");
    return;
  }
  for (size_t I = 0; I < Arr.size() && !R.Error; ++I) {
    std::string Where = "residency.defaults[" + std::to_string(I) + "]";
    if (!R.checkKeys(Arr[I], Where, {"function", "scope", "arg", "note"}))
      return;
    PlacementDefault D;
    if (Arr[I].contains("function") == Arr[I].contains("scope")) {
      R.fail(Where, "needs exactly one of 'function', 'scope'");
      return;
    }
    D.Scoped = Arr[I].contains("scope");
    D.Name = R.string(Arr[I], Where, D.Scoped ? "scope" : "function", true);
    D.Arg = std::max(0, integer(R, Arr[I], Where, "arg", 0, 64));
    P.Defaults.push_back(std::move(D));
  }
}

void readCaptureSpans(PackReader &R, const json &Arr, RulePack &P) {
  if (!Arr.is_array()) {
    R.fail("regions.captureSpans", "expected an array");
    return;
  }
  for (size_t I = 0; I < Arr.size() && !R.Error; ++I) {
    std::string Where = "regions.captureSpans[" + std::to_string(I) + "]";
    if (!R.checkKeys(Arr[I], Where, {"class", "begin", "end"}))
      return;
    CaptureMarker M;
    M.Class = R.string(Arr[I], Where, "class", false);
    M.Begin = R.string(Arr[I], Where, "begin", true);
    M.End = R.string(Arr[I], Where, "end", true);
    P.CaptureSpans.push_back(std::move(M));
  }
}

void readOps(PackReader &R, const json &Obj, RulePack &P) {
  if (!R.checkKeys(Obj, "ops",
                   {"pointwise", "reduction", "library", "view",
                    "data-dependent", "host", "transcendental", "matmul",
                    "transpose"}))
    return;
  const std::pair<const char *, OpClass> Classes[] = {
      {"pointwise", OpClass::Pointwise},
      {"reduction", OpClass::Reduction},
      {"library", OpClass::Library},
      {"view", OpClass::View},
      {"data-dependent", OpClass::DataDependent},
      {"host", OpClass::Host}};
  for (const auto &[Key, Class] : Classes) {
    std::vector<std::string> Names;
    R.strings(Obj, "ops", Key, Names);
    for (auto &N : Names)
      P.Ops.push_back({std::move(N), Class, {}});
  }
  // Transcendental ops are pointwise ops too.
  std::vector<std::string> Names;
  R.strings(Obj, "ops", "transcendental", Names);
  for (auto &N : Names) {
    P.Ops.push_back({N, OpClass::Pointwise, {}});
    P.TranscendentalOps.push_back(std::move(N));
  }
  // Matrix products are library ops; their result's shape follows from
  // their operands'.
  Names.clear();
  R.strings(Obj, "ops", "matmul", Names);
  for (auto &N : Names) {
    P.Ops.push_back({N, OpClass::Library, {}});
    P.MatmulOps.push_back(std::move(N));
  }
  // A transpose keeps the class another list gives it (a view in LibTorch,
  // a copying kernel elsewhere); only its shape rule is added.
  R.strings(Obj, "ops", "transpose", P.TransposeOps);
}

/// Fails at \p Where unless \p Template uses every one of \p Needs, or the
/// rewrite would drop the user's expression.
void requirePlaceholders(PackReader &R, const std::string &Where,
                         const std::string &Template,
                         std::initializer_list<const char *> Needs) {
  for (const char *N : Needs)
    if (!R.Error && Template.find(N) == std::string::npos)
      R.fail(Where, std::string("the template must use ") + N);
}

void readScalarOperandFix(PackReader &R, const json &Obj, RulePack &P) {
  const std::string Where = "fixes.scalarOperand";
  if (!R.checkKeys(Obj, Where, {"value", "operators", "methods"}))
    return;
  ScalarOperandFixTemplate T;
  T.Pack = P.Name;
  T.Value = R.string(Obj, Where, "value", true);
  R.strings(Obj, Where, "operators", T.Operators);
  R.strings(Obj, Where, "methods", T.Methods);
  requirePlaceholders(R, Where + ".value", T.Value, {"$value"});
  static const llvm::StringSet<> Known = {"+",  "-",  "*",  "/",
                                          "+=", "-=", "*=", "/="};
  for (const std::string &Op : T.Operators)
    if (!R.Error && !Known.contains(Op))
      R.fail(Where + ".operators",
             "'" + Op + "' is not one of + - * / += -= *= /=");
  if (!R.Error)
    P.ScalarOperandFixes.push_back(std::move(T));
}

void readSelectFix(PackReader &R, const json &Obj, RulePack &P) {
  const std::string Where = "fixes.branchToSelect";
  if (!R.checkKeys(Obj, Where,
                   {"condition", "convert", "select", "dtypes", "ops"}))
    return;
  SelectFixTemplate T;
  T.Pack = P.Name;
  T.Condition = R.string(Obj, Where, "condition", true);
  T.Convert = R.string(Obj, Where, "convert", true);
  T.Select = R.string(Obj, Where, "select", true);
  R.strings(Obj, Where, "ops", T.Ops);
  if (!R.Error && !Obj.contains("ops"))
    R.fail(Where, "missing required key 'ops'");
  requirePlaceholders(R, Where + ".condition", T.Condition, {"$value"});
  requirePlaceholders(R, Where + ".convert", T.Convert, {"$value"});
  requirePlaceholders(R, Where + ".select", T.Select,
                      {"$condition", "$then", "$else"});
  auto D = Obj.find("dtypes");
  if (!R.Error && (D == Obj.end() || !D->is_object()))
    R.fail(Where + ".dtypes",
           "expected an object from C++ types to the pack's dtypes");
  if (R.Error)
    return;
  for (auto It = D->begin(); It != D->end(); ++It) {
    if (!It->is_string() || It->get<std::string>().empty()) {
      R.fail(Where + ".dtypes." + It.key(), "expected a non-empty string");
      return;
    }
    T.Dtypes.emplace_back(It.key(), It->get<std::string>());
  }
  P.SelectFixes.push_back(std::move(T));
}

void readLastValueFix(PackReader &R, const json &Obj, RulePack &P) {
  const std::string Where = "fixes.lastValue";
  if (!R.checkKeys(Obj, Where, {"holder", "keep", "defined", "read"}))
    return;
  LastValueFixTemplate T;
  T.Pack = P.Name;
  T.Holder = R.string(Obj, Where, "holder", true);
  T.Keep = R.string(Obj, Where, "keep", true);
  T.Defined = R.string(Obj, Where, "defined", true);
  T.Read = R.string(Obj, Where, "read", true);
  requirePlaceholders(R, Where + ".keep", T.Keep, {"$value"});
  requirePlaceholders(R, Where + ".defined", T.Defined, {"$value"});
  requirePlaceholders(R, Where + ".read", T.Read, {"$value", "$type"});
  if (!R.Error)
    P.LastValueFixes.push_back(std::move(T));
}

void readFixes(PackReader &R, const json &Obj, RulePack &P) {
  if (!R.checkKeys(Obj, "fixes", keysOf("fixes")))
    return;
  if (auto C = Obj.find("scalarOperand"); C != Obj.end())
    readScalarOperandFix(R, *C, P);
  if (auto C = Obj.find("branchToSelect"); C != Obj.end() && !R.Error)
    readSelectFix(R, *C, P);
  if (auto C = Obj.find("lastValue"); C != Obj.end() && !R.Error)
    readLastValueFix(R, *C, P);
  if (R.Error)
    return;
  if (auto C = Obj.find("collectedCopies"); C != Obj.end()) {
    const std::string Where = "fixes.collectedCopies";
    if (!R.checkKeys(*C, Where, {"toHost"}))
      return;
    CopyFixTemplate T{P.Name, R.string(*C, Where, "toHost", true)};
    if (!R.Error && T.ToHost.find("$value") == std::string::npos)
      R.fail(Where + ".toHost", "the template must use $value");
    if (R.Error)
      return;
    P.CopyFixes.push_back(std::move(T));
  }
  auto It = Obj.find("deferredAccumulation");
  if (It == Obj.end())
    return;
  const std::string Where = "fixes.deferredAccumulation";
  if (!R.checkKeys(
          *It, Where,
          {"init", "value", "count", "read", "floatingDtype", "integralDtype"}))
    return;
  AccumulationFixTemplate T;
  T.Pack = P.Name;
  T.Init = R.string(*It, Where, "init", true);
  T.Value = R.string(*It, Where, "value", true);
  T.Count = R.string(*It, Where, "count", true);
  T.Read = R.string(*It, Where, "read", true);
  T.FloatingDtype = R.string(*It, Where, "floatingDtype", true);
  T.IntegralDtype = R.string(*It, Where, "integralDtype", true);
  // Each template must use the placeholders it is given, or the rewrite
  // would drop the user's expression.
  const std::pair<const char *, const std::string *> Uses[] = {
      {"init", &T.Init},
      {"value", &T.Value},
      {"count", &T.Count},
      {"read", &T.Read}};
  const char *Needs[] = {"$dtype", "$value", "$value", "$value"};
  for (size_t I = 0; I < 4 && !R.Error; ++I)
    if (Uses[I].second->find(Needs[I]) == std::string::npos)
      R.fail(Where + "." + Uses[I].first,
             std::string("the template must use ") + Needs[I]);
  if (!R.Error && T.Read.find("$type") == std::string::npos)
    R.fail(Where + ".read", "the template must use $type");
  if (!R.Error)
    P.AccumulationFixes.push_back(std::move(T));
}

} // namespace

/// \p Text as JSON (comments allowed), or why it is not: not JSON, or a key
/// given twice in one object (JSON parsers keep one of them, and a second
/// "triggers" would silently drop the first list).
static llvm::Expected<json> parsePackJson(llvm::StringRef Text,
                                          llvm::StringRef Path) {
  std::vector<std::set<std::string>> Keys;
  std::string Duplicate;
  json::parser_callback_t NoDuplicates = [&](int, json::parse_event_t Event,
                                             json &Parsed) {
    if (Event == json::parse_event_t::object_start)
      Keys.emplace_back();
    else if (Event == json::parse_event_t::object_end && !Keys.empty())
      Keys.pop_back();
    else if (Event == json::parse_event_t::key && !Keys.empty() &&
             !Keys.back().insert(Parsed.get<std::string>()).second &&
             Duplicate.empty())
      Duplicate = Parsed.get<std::string>();
    return true;
  };
  json J = json::parse(Text.begin(), Text.end(), NoDuplicates,
                       /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (!J.is_discarded() && !Duplicate.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s: the key '%s' is given twice in one object (JSON keeps only one; "
        "merge them)",
        Path.str().c_str(), Duplicate.c_str());
  if (J.is_discarded()) {
    // Re-parse with exceptions only to get nlohmann's byte offset message.
    std::string Why = "not valid JSON";
    try {
      (void)json::parse(Text.begin(), Text.end(), nullptr, true, true);
    } catch (const json::parse_error &E) {
      Why = E.what();
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                   Path.str().c_str(), Why.c_str());
  }
  return J;
}

namespace {

/// An operator's result lives where its operands do; listing one among the
/// device factories would do nothing, silently.
void rejectOperatorFactories(PackReader &R, const RulePack &P) {
  auto IsOperator = [](llvm::StringRef Name) {
    llvm::StringRef Last = Name.rsplit("::").second;
    if (Last.empty())
      Last = Name;
    return Last.consume_front("operator") &&
           (Last.empty() ||
            !(llvm::isAlnum(Last.front()) || Last.front() == '_'));
  };
  for (size_t I = 0; I < P.DeviceFactories.size(); ++I)
    if (IsOperator(P.DeviceFactories[I]))
      R.fail("residency.deviceFactories[" + std::to_string(I) + "]",
             "'" + P.DeviceFactories[I] +
                 "' is an operator, not a factory: an operator's result "
                 "lives where its operands do");
}

void readResidency(PackReader &R, const json &Obj, RulePack &P) {
  if (!checkSection(R, Obj, "residency", P))
    return;
  readNames(R, Obj, "residency", P);
  rejectOperatorFactories(R, P);
  if (auto C = Obj.find("constructors"); C != Obj.end() && !R.Error)
    readConstructors(R, *C, P);
  if (auto D = Obj.find("defaults"); D != Obj.end() && !R.Error)
    readDefaults(R, *D, P);
}

void readDtypes(PackReader &R, const json &Obj, RulePack &P) {
  if (!Obj.is_object()) {
    R.fail("dtypes", "expected an object of dtype name -> bytes");
    return;
  }
  for (auto D = Obj.begin(); D != Obj.end() && !R.Error; ++D) {
    if (!D->is_number() || !(D->get<double>() > 0) || D->get<double>() > 4096)
      R.fail("dtypes." + D.key(),
             "expected a positive number of bytes, at most 4096");
    else
      P.DtypeBytes.emplace_back(D.key(), D->get<double>());
  }
}

/// The sections of the pack \p J, into \p P; the first problem in R.Error.
void readPack(PackReader &R, const json &J, RulePack &P) {
  if (!R.checkKeys(J, "", keysOf("")))
    return;
  P.Name = R.string(J, "", "name", true);
  if (J.contains("formatVersion")) {
    if (!J["formatVersion"].is_number_integer() ||
        (J["formatVersion"] != 1 && J["formatVersion"] != 2))
      R.fail("formatVersion",
             "unsupported format version (this Seam reads 1 and 2)");
    else
      P.FormatVersion = J["formatVersion"].get<int>();
  }
  if (auto It = J.find("types");
      It != J.end() && checkSection(R, *It, "types", P))
    readNames(R, *It, "types", P);
  if (auto It = J.find("triggers"); It != J.end() && !R.Error)
    readTriggers(R, *It, P);
  readNames(R, J, "", P);
  if (auto It = J.find("residency"); It != J.end() && !R.Error)
    readResidency(R, *It, P);
  if (auto It = J.find("regions");
      It != J.end() && !R.Error && checkSection(R, *It, "regions", P)) {
    readNames(R, *It, "regions", P);
    if (auto C = It->find("captureSpans"); C != It->end() && !R.Error)
      readCaptureSpans(R, *C, P);
  }
  if (auto It = J.find("ops"); It != J.end() && !R.Error)
    readOps(R, *It, P);
  if (auto It = J.find("dtypes"); It != J.end() && !R.Error)
    readDtypes(R, *It, P);
  if (auto It = J.find("fixes"); It != J.end() && !R.Error) {
    if (P.FormatVersion < 2)
      R.fail("fixes", "needs \"formatVersion\": 2");
    else
      readFixes(R, *It, P);
  }
}

} // namespace

static llvm::Expected<RulePack> parseRulePackUnchecked(llvm::StringRef Text,
                                                       llvm::StringRef Path) {
  llvm::Expected<json> J = parsePackJson(Text, Path);
  if (!J)
    return J.takeError();
  PackReader R(Path);
  RulePack P;
  P.Path = Path.str();
  readPack(R, *J, P);
  if (R.Error)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   R.Error->c_str());
  // Method and conversion rules, and "tensor" patterns, cover this pack's
  // own tensor types; a pack that declares none adds rules to the others.
  for (TriggerRule &T : P.Triggers) {
    T.Pack = P.Name;
    if (!T.Scope.empty())
      T.Scope = P.TensorTypes;
  }
  // Op classes are this pack's API's.
  for (OpRule &O : P.Ops)
    O.Scope = P.LibraryNamespaces;
  return P;
}

llvm::Expected<RulePack> loadRulePack(llvm::StringRef Path) {
  auto Buf = readInputFile(Path, "a rule pack");
  if (!Buf)
    return Buf.takeError();
  return parseRulePack((*Buf)->getBuffer(), Path);
}

void mergeRulePack(RulePack &Into, const RulePack &From) {
  auto Append = [](auto &A, const auto &B) {
    A.insert(A.end(), B.begin(), B.end());
  };
  if (Into.Name.empty())
    Into.Name = From.Name;
  else
    Into.Name += "+" + From.Name;
  size_t FirstTrigger = Into.Triggers.size();
  // Every list of the table (PackKeys.def), appended.
#define SEAM_PACK_NAMES(Section, Key, Member, Version, Matches)                \
  Append(Into.Member, From.Member);
#define SEAM_PACK_VALUE(Section, Key, Member, Version)                         \
  Append(Into.Member, From.Member);
#include "ApiModel/PackKeys.def"
  // Read with `ops` (readOps), which the table holds as one value.
  Append(Into.TranscendentalOps, From.TranscendentalOps);
  Append(Into.MatmulOps, From.MatmulOps);
  Append(Into.TransposeOps, From.TransposeOps);
  for (size_t I = FirstTrigger; I < Into.Triggers.size(); ++I)
    Into.Triggers[I].Index = I;
}

llvm::Expected<RulePack> parseRulePack(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  // nlohmann reports some bad input by exception (a number that overflows a
  // double, a value of the wrong type): one clear error, never a crash.
  try {
    return parseRulePackUnchecked(Text, Path);
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                   Path.str().c_str(), E.what());
  }
}

} // namespace seam
