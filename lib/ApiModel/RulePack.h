//===- RulePack.h - Tensor-API facts loaded from JSON rule packs ----------===//
//
// A rule pack tells Seam everything it knows about one tensor API: which
// types are tensors, which calls synchronize, what puts a tensor on the
// device, and what marks a compiled region or a hot path. Packs are plain
// JSON (docs/rule-packs.md), loaded at run time and merged, so a user can
// teach Seam an in-house tensor class without writing C++. Use this header
// to load packs; use ApiModel.h to ask questions about AST nodes.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_APIMODEL_RULEPACK_H
#define SEAM_APIMODEL_RULEPACK_H

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace seam {

/// Why a host value is requested; kept as a property of every result.
enum class Trigger { ScalarRead, HostCopy, Print, DynamicShape, ExplicitSync };

llvm::StringRef triggerName(Trigger T);

/// Extra condition a call must meet before it counts as a trigger.
enum class TriggerWhen {
  Always,
  ToHost,          ///< a device argument names the host (`to(kCPU)`)
  BoolIndex,       ///< an index argument is a boolean tensor (mask)
  HostDestination, ///< the object is a host tensor and a source is not
  TensorArg,       ///< some argument is a tensor (`operator<<`, `c10::str`)
};

/// How a call is matched.
enum class CallKind {
  Method,      ///< member call; `Class` empty means "on a tensor type"
  Function,    ///< free function by qualified name
  Operator,    ///< overloaded operator by spelling, e.g. "<<"
  Conversion,  ///< conversion operator; Name is a type pattern ("bool", "*")
  Constructor, ///< a constructor of the class Name (`host_vector h = d;`)
};

/// Which overloads of a name a rule covers (format 2); empty = all.
/// Type patterns are described in docs/rule-packs.md#type-patterns.
struct OverloadFilter {
  int MinArgs = -1; ///< explicitly written arguments (object excluded)
  int MaxArgs = -1;
  std::vector<std::string> Params; ///< pattern per declared parameter
  std::string Returns;             ///< pattern for the result type
  std::string RefQualifier;        ///< "&" or "&&" on the method
  /// "argValues": argument index (object excluded) -> the value the call
  /// must write there, as a constant expression (a bool as 0 or 1).
  std::vector<std::pair<unsigned, double>> ArgValues;

  bool empty() const {
    return MinArgs < 0 && MaxArgs < 0 && Params.empty() && Returns.empty() &&
           RefQualifier.empty() && ArgValues.empty();
  }
};

/// What a call does to its tensor arguments besides reading them.
enum class Effect {
  None,
  Materialises,    ///< after it, reading the arguments does not wait again
  MaterialisesAll, ///< after it, no value made before waits (`sync()`)
};

struct TriggerRule {
  CallKind Kind = CallKind::Method;
  std::string Name;  ///< method name, qualified function name or operator
  std::string Class; ///< for methods on non-tensor classes
  /// False for a rule that only has an effect (`"trigger"` omitted).
  bool Reports = true;
  Trigger What = Trigger::ScalarRead;
  TriggerWhen When = TriggerWhen::Always;
  OverloadFilter Overload;
  /// Operator rules: a type pattern per operand, in call order.
  std::vector<std::string> Operands;
  /// The argument whose residency decides (-1: the object and every tensor
  /// argument).
  int Operand = -1;
  Effect Does = Effect::None;
  std::string Source; ///< why the call synchronises (a citation)
  std::string Pack;   ///< the pack it came from
  /// Tensor types a method, conversion or "tensor" pattern applies to: the
  /// rule's own pack's (empty: every loaded pack's).
  std::vector<std::string> Scope;
  unsigned Index = 0; ///< position in the merged pack, for `seam pack check`
};

/// A constructor of a tensor type and where the tensor it makes lives.
struct ConstructorRule {
  std::string Class;
  OverloadFilter Overload;
  bool OnDevice = false;
};

/// A call or a scoped object that changes where factories put tensors.
struct PlacementDefault {
  std::string Name; ///< function (set-default) or class (RAII scope)
  bool Scoped = false;
  int Arg = 0; ///< which argument names the device
};

/// A pair of calls that opens and closes a capture span.
struct CaptureMarker {
  std::string Class; ///< empty for free functions
  std::string Begin;
  std::string End;
};

/// Op classes used by the cost model.
enum class OpClass { Pointwise, Reduction, Library, View, DataDependent, Host };

/// An op name's class, and the namespaces of the pack that gave it (its
/// libraryNamespaces): where two packs class one name differently
/// (`transpose`: a view in LibTorch, a copying kernel in seam::rt), the
/// callee's namespace picks.
struct OpRule {
  std::string Name;
  OpClass Class = OpClass::Pointwise;
  std::vector<std::string> Scope;
};

/// How a pack's API spells the deferred-accumulation fix (docs/fixes.md):
/// templates with $value, $dtype and $type placeholders.
struct AccumulationFixTemplate {
  std::string Pack;  ///< the pack that gave it
  std::string Init;  ///< a zero-dimensional host zero: "$dtype"
  std::string Value; ///< the one-element value, detached: "$value"
  std::string Count; ///< the same for integer counts: "$value", "$dtype"
  std::string Read;  ///< the host value of "$value" as "$type"
  std::string FloatingDtype; ///< the accumulator's dtype for floating sums
  std::string IntegralDtype; ///< ... and for integer counts
};

/// How a pack's API spells the collected-copies fix: "$value" copied to
/// the host (docs/fixes.md).
struct CopyFixTemplate {
  std::string Pack;
  std::string ToHost;
};

/// How a pack's API spells the scalar-operand fix (docs/fixes.md): the
/// one-element tensor "$value" made an operand of a tensor op whose other
/// operand is "$other", with the promotion of a "$type" scalar; and the
/// operators and methods that take a tensor where they take a scalar.
struct ScalarOperandFixTemplate {
  std::string Pack;
  std::string Value;
  std::vector<std::string> Operators; ///< "*", "+=", ...
  std::vector<std::string> Methods;   ///< "mul", "add_", ...
};

/// How a pack's API spells the last-value fix (docs/fixes.md): a tensor
/// variable that holds "$value" past the iteration, its test for having
/// been assigned, and the host value of "$value" as "$type".
struct LastValueFixTemplate {
  std::string Pack;
  std::string Holder;  ///< the tensor type to declare
  std::string Keep;    ///< "$value" kept: detached, its own copy
  std::string Defined; ///< whether "$value" was ever assigned
  std::string Read;    ///< "$value" on the host as "$type"
};

/// How a pack's API spells the branch-to-select fix (docs/fixes.md).
struct SelectFixTemplate {
  std::string Pack;
  /// The one-element "$value" as a zero-dimensional tensor of "$dtype" on
  /// the device of "$other".
  std::string Condition;
  /// A tensor "$value" converted to "$dtype".
  std::string Convert;
  /// The select of "$then" or "$else" by "$condition".
  std::string Select;
  /// C++ arithmetic types (as Clang prints the canonical type: "float",
  /// "long") to the pack's dtypes.
  std::vector<std::pair<std::string, std::string>> Dtypes;
  /// Ops that may run in a branch not taken: element-wise, without side
  /// effects, keeping the shape of their one tensor ("operator*", "relu").
  std::vector<std::string> Ops;
};

struct RulePack {
  std::string Name;
  int FormatVersion = 1;
  std::string Path; ///< where it was loaded from, for messages

  // Types.
  std::vector<std::string> TensorTypes;
  std::vector<std::string> DeviceLikeTypes; ///< Device, TensorOptions, ...
  std::vector<std::string> HostRecordTypes; ///< fields hold host tensors
  std::vector<std::string> ModuleTypes;     ///< nn.Module-like bases
  std::vector<std::string> ModuleHolders;   ///< wrappers forwarding to T
  std::vector<std::string> LibraryNamespaces;

  // Triggers.
  std::vector<TriggerRule> Triggers;
  std::vector<std::string> Metadata; ///< never sync, never break

  // Residency.
  std::vector<std::string> HostDeviceNames;   ///< kCPU, "cpu"
  std::vector<std::string> DeviceDeviceNames; ///< kCUDA, "cuda", kAccel
  std::vector<std::string> ToHostMethods;     ///< cpu
  std::vector<std::string> ToDeviceMethods;   ///< cuda
  std::vector<std::string> MoveMethods;       ///< to
  std::vector<std::string> Factories;         ///< host unless given a device
  std::vector<std::string> LikeFactories;     ///< follow their first tensor
  std::vector<std::string> BoolProducers;     ///< gt, lt, isnan, ...
  std::vector<std::string> BoolDtypeNames;    ///< kBool
  /// Factories whose tensors live on the device unless given the host.
  std::vector<std::string> DeviceFactories;
  std::vector<ConstructorRule> Constructors;
  std::vector<PlacementDefault> Defaults;

  // Regions and hot paths.
  std::vector<std::string> RegionAnnotations; ///< "seam.compiled"
  std::vector<std::string> CompileFunctions;  ///< seam::rt::compile
  std::vector<CaptureMarker> CaptureSpans;
  std::vector<std::string> HotMethods; ///< "forward" on ModuleTypes
  /// Functions that call a callable argument once per element, like a loop
  /// body: std::for_each, at::parallel_for.
  std::vector<std::string> LoopFunctions;
  /// Functions returning a callable that runs their callable argument
  /// (`grad(f)`, `vmap(f)`): calling the result calls the argument.
  std::vector<std::string> Transforms;
  /// Functions that call their callable argument once, at the call, and
  /// return (`vjp(f, primals, cotangents)`, `jvp`, `std::invoke`).
  std::vector<std::string> InvokeFunctions;

  // Op classes for the cost model: name -> class.
  std::vector<OpRule> Ops;
  /// Pointwise ops that compute a transcendental function per element
  /// (`tanh`, `exp`): on a device without hardware for them (seam::rt's
  /// host CPU) they run longer than their memory traffic.
  std::vector<std::string> TranscendentalOps;
  /// Library ops whose result is the matrix product of their two operands
  /// (`matmul`, `mm`): [n, k] x [k, m] gives [n, m], batch dims broadcast.
  std::vector<std::string> MatmulOps;
  /// Ops whose result swaps two dims of their operand (`transpose(0, 1)`,
  /// `t()`); their class comes from the other lists (a view when none).
  std::vector<std::string> TransposeOps;
  // Element sizes in bytes by dtype name; "default" for tensors made
  // without a dtype.
  std::vector<std::pair<std::string, double>> DtypeBytes;

  // Fixes: how this API spells the rewrites of lib/Fixes (one per pack).
  std::vector<AccumulationFixTemplate> AccumulationFixes;
  std::vector<CopyFixTemplate> CopyFixes;
  std::vector<ScalarOperandFixTemplate> ScalarOperandFixes;
  std::vector<SelectFixTemplate> SelectFixes;
  std::vector<LastValueFixTemplate> LastValueFixes;
};

/// Parses one pack from JSON text; \p Path names it in errors.
llvm::Expected<RulePack> parseRulePack(llvm::StringRef Json,
                                       llvm::StringRef Path);
/// Reads and parses the pack at \p Path.
llvm::Expected<RulePack> loadRulePack(llvm::StringRef Path);

/// Appends every list of \p From to \p Into (packs compose by union).
void mergeRulePack(RulePack &Into, const RulePack &From);

} // namespace seam

#endif
