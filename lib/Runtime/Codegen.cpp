//===- Codegen.cpp - LLVM IR for fused groups, compiled with ORC LLJIT ----===//
//
// Each fused group becomes one function with a counted loop over elements;
// values inside the group stay in registers. The module is optimized at O3
// for the host CPU so the loops vectorize, then handed to one process-wide
// LLJIT.
//
//===----------------------------------------------------------------------===//

#include "Fusion.h"
#include "Settings.h"
#include "Telemetry.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

namespace seam::rt::detail {

namespace {

template <typename T> T orThrow(llvm::Expected<T> V, const char *What) {
  if (!V)
    throw Error(std::string("seam::rt: JIT ") + What + ": " +
                llvm::toString(V.takeError()));
  return std::move(*V);
}

void orThrow(llvm::Error E, const char *What) {
  if (E)
    throw Error(std::string("seam::rt: JIT ") + What + ": " +
                llvm::toString(std::move(E)));
}

/// The process-wide JIT; LLVM's native target is initialized once here.
class Jit {
public:
  static Jit &get() {
    static Jit *J = new Jit();
    return *J;
  }

  llvm::TargetMachine &targetMachine() { return *TM; }

  /// Optimizes M, adds it to the JIT and resolves Names.
  std::vector<KernelFn> add(std::unique_ptr<llvm::LLVMContext> Ctx,
                            std::unique_ptr<llvm::Module> M,
                            const std::vector<std::string> &Names) {
    optimize(*M);
    // SEAM_RT_DUMP_IR=1 shows the optimized kernels (e.g. to check that the
    // loops vectorized).
    if (settings().DumpIR)
      M->print(llvm::errs(), nullptr);
    orThrow(LLJ->addIRModule(
                llvm::orc::ThreadSafeModule(std::move(M), std::move(Ctx))),
            "add module");
    std::vector<KernelFn> Fns;
    for (const std::string &N : Names)
      Fns.push_back(orThrow(LLJ->lookup(N), "lookup").toPtr<KernelFn>());
    return Fns;
  }

  std::string freshName() { return "seam_k" + std::to_string(Counter++); }

private:
  Jit() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto JTMB = orThrow(llvm::orc::JITTargetMachineBuilder::detectHost(),
                        "detect host");
    JTMB.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    TM = orThrow(JTMB.createTargetMachine(), "target machine");
    LLJ = orThrow(
        llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(JTMB).create(),
        "create");
    // Kernels compute exp, log, tanh, sigmoid and gelu themselves; what the
    // target lowers to a library call is found in the host process.
    LLJ->getMainJITDylib().addGenerator(
        orThrow(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                    LLJ->getDataLayout().getGlobalPrefix()),
                "process symbols"));
  }

  void optimize(llvm::Module &M) {
    llvm::LoopAnalysisManager LAM;
    llvm::FunctionAnalysisManager FAM;
    llvm::CGSCCAnalysisManager CGAM;
    llvm::ModuleAnalysisManager MAM;
    llvm::PassBuilder PB(TM.get());
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    llvm::ModulePassManager MPM =
        PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    MPM.run(M, MAM);
  }

  std::unique_ptr<llvm::TargetMachine> TM;
  std::unique_ptr<llvm::orc::LLJIT> LLJ;
  unsigned Counter = 0;
};

/// Emits one fused group as `void Name(ptr Bufs, ptr Scalars, i64 Begin,
/// i64 End)` around a body whose buffer pointers are noalias.
class GroupEmitter {
public:
  GroupEmitter(llvm::Module &M, const Graph &G, const RegionPlan &P,
               const FusedGroup &Grp)
      : M(M), Ctx(M.getContext()), B(Ctx), G(G), P(P), Grp(Grp) {}

  void emit(const std::string &Name) {
    llvm::Type *Ptr = B.getPtrTy();
    llvm::Type *I64 = B.getInt64Ty();
    size_t NB = Grp.Inputs.size() + Grp.Outputs.size();
    std::vector<llvm::Type *> BodyParams(NB, Ptr);
    BodyParams.push_back(Ptr);
    BodyParams.push_back(I64);
    BodyParams.push_back(I64);
    auto *BodyTy = llvm::FunctionType::get(B.getVoidTy(), BodyParams, false);
    Body = llvm::Function::Create(BodyTy, llvm::Function::InternalLinkage,
                                  Name + ".body", M);
    for (size_t I = 0; I < NB; ++I)
      Body->addParamAttr(I, llvm::Attribute::NoAlias);
    Body->addFnAttr(llvm::Attribute::AlwaysInline);
    setTargetAttrs(*Body);
    emitBody();

    auto *WrapTy =
        llvm::FunctionType::get(B.getVoidTy(), {Ptr, Ptr, I64, I64}, false);
    auto *Wrap = llvm::Function::Create(WrapTy, llvm::Function::ExternalLinkage,
                                        Name, M);
    setTargetAttrs(*Wrap);
    B.SetInsertPoint(llvm::BasicBlock::Create(Ctx, "entry", Wrap));
    std::vector<llvm::Value *> Args;
    for (size_t I = 0; I < NB; ++I)
      Args.push_back(
          B.CreateLoad(Ptr, B.CreateConstGEP1_64(Ptr, Wrap->getArg(0), I)));
    Args.push_back(Wrap->getArg(1));
    Args.push_back(Wrap->getArg(2));
    Args.push_back(Wrap->getArg(3));
    B.CreateCall(Body, Args);
    B.CreateRetVoid();
  }

private:
  void setTargetAttrs(llvm::Function &F) {
    llvm::TargetMachine &TM = Jit::get().targetMachine();
    F.addFnAttr("target-cpu", TM.getTargetCPU());
    F.addFnAttr("target-features", TM.getTargetFeatureString());
    F.addFnAttr(llvm::Attribute::NoUnwind);
    // Divisions that allow it (arcp: the sigmoid's and tanh's) use the
    // hardware's reciprocal estimate refined by one Newton step (about 23
    // bits) instead of a full divide.
    F.addFnAttr("reciprocal-estimates", "divf:1,vec-divf:1");
  }

  llvm::Type *regTy(DType T) {
    switch (T) {
    case kFloat:
      return B.getFloatTy();
    case kLong:
      return B.getInt64Ty();
    case kBool:
      return B.getInt1Ty();
    }
    return nullptr;
  }
  llvm::Type *memTy(DType T) { return T == kBool ? B.getInt8Ty() : regTy(T); }

  llvm::Value *convert(llvm::Value *V, DType From, DType To) {
    if (From == To)
      return V;
    if (From == kBool)
      return To == kFloat ? B.CreateUIToFP(V, B.getFloatTy())
                          : B.CreateZExt(V, B.getInt64Ty());
    if (From == kLong)
      return To == kFloat ? B.CreateSIToFP(V, B.getFloatTy())
                          : B.CreateICmpNE(V, B.getInt64(0));
    return To == kLong
               ? B.CreateFPToSI(V, B.getInt64Ty())
               : B.CreateFCmpUNE(V, llvm::ConstantFP::get(B.getFloatTy(), 0));
  }

  llvm::Value *load(llvm::Value *Base, llvm::Value *Idx, DType T) {
    llvm::Value *V = B.CreateLoad(memTy(T), B.CreateGEP(memTy(T), Base, Idx));
    return T == kBool ? B.CreateICmpNE(V, B.getInt8(0)) : V;
  }

  void store(llvm::Value *V, llvm::Value *Base, llvm::Value *Idx, DType T) {
    if (T == kBool)
      V = B.CreateZExt(V, B.getInt8Ty());
    B.CreateStore(V, B.CreateGEP(memTy(T), Base, Idx));
  }

  llvm::Value *intrinsic(llvm::Intrinsic::ID ID, llvm::Value *X) {
    return B.CreateUnaryIntrinsic(ID, X);
  }

  llvm::Value *fconst(double V) {
    return llvm::ConstantFP::get(B.getFloatTy(), V);
  }

  llvm::Value *horner(llvm::Value *X, std::initializer_list<double> Coeffs) {
    // Highest power first.
    llvm::Value *Acc = nullptr;
    for (double C : Coeffs)
      Acc = Acc ? B.CreateFAdd(B.CreateFMul(Acc, X), fconst(C)) : fconst(C);
    return Acc;
  }

  // The transcendental functions as straight-line float code, so that the
  // loop vectorizer turns them into vector code (llvm.exp and libm calls
  // stay scalar without a vector math library). Within 2 ulp of libm on
  // normal inputs; infinities, NaN and the ends of the range as libm.

  /// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln 2 / 2, exp(r)
  /// by its Taylor series to degree 7 (error below 6e-9). 2^n is applied as
  /// two halves, so that results down to the denormals need no other path.
  llvm::Value *fastExp(llvm::Value *X) {
    // Selects, not minnum/maxnum: one instruction each on x86 (NaN is
    // handled at the end).
    llvm::Value *C =
        B.CreateSelect(B.CreateFCmpOGT(X, fconst(88.72)), fconst(88.72), X);
    C = B.CreateSelect(B.CreateFCmpOLT(C, fconst(-104.0)), fconst(-104.0), C);
    llvm::Value *N = B.CreateUnaryIntrinsic(
        llvm::Intrinsic::rint, B.CreateFMul(C, fconst(1.4426950408889634)));
    llvm::Value *R = B.CreateFSub(C, B.CreateFMul(N, fconst(0.693359375)));
    R = B.CreateFSub(R, B.CreateFMul(N, fconst(-2.12194440e-4)));
    llvm::Value *P = horner(R, {1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24,
                                1.0 / 6, 0.5, 1.0, 1.0});
    llvm::Value *Ni = B.CreateFPToSI(N, B.getInt32Ty());
    llvm::Value *Half = B.CreateAShr(Ni, 1);
    auto Pow2 = [&](llvm::Value *E) {
      return B.CreateBitCast(B.CreateShl(B.CreateAdd(E, B.getInt32(127)), 23),
                             B.getFloatTy());
    };
    llvm::Value *Y =
        B.CreateFMul(B.CreateFMul(P, Pow2(Half)), Pow2(B.CreateSub(Ni, Half)));
    // Beyond the clamp: exp overflows to inf or underflows to 0.
    Y = B.CreateSelect(B.CreateFCmpOGT(X, fconst(88.7228394)), fconst(INFINITY),
                       Y);
    Y = B.CreateSelect(B.CreateFCmpOLT(X, fconst(-104.0)), fconst(0.0), Y);
    return B.CreateSelect(B.CreateFCmpUNO(X, X), X, Y);
  }

  /// log(x) = e ln 2 + log(m), m in [sqrt(1/2), sqrt(2)), log(m) = 2
  /// atanh(s), s = (m - 1) / (m + 1), by its series to s^11.
  llvm::Value *fastLog(llvm::Value *X) {
    // Denormals: scale into the normal range first.
    llvm::Value *Tiny = B.CreateFCmpOLT(X, fconst(1.17549435e-38));
    llvm::Value *Xs =
        B.CreateSelect(Tiny, B.CreateFMul(X, fconst(8388608.0)), X); // 2^23
    llvm::Value *Bits = B.CreateBitCast(Xs, B.getInt32Ty());
    llvm::Value *E = B.CreateSub(B.CreateLShr(Bits, 23), B.getInt32(127));
    llvm::Value *M =
        B.CreateBitCast(B.CreateOr(B.CreateAnd(Bits, B.getInt32(0x7fffff)),
                                   B.getInt32(0x3f800000)),
                        B.getFloatTy());
    llvm::Value *Big = B.CreateFCmpOGT(M, fconst(1.41421356));
    M = B.CreateSelect(Big, B.CreateFMul(M, fconst(0.5)), M);
    E = B.CreateAdd(E, B.CreateZExt(Big, B.getInt32Ty()));
    llvm::Value *Ef =
        B.CreateFSub(B.CreateSIToFP(E, B.getFloatTy()),
                     B.CreateSelect(Tiny, fconst(23.0), fconst(0.0)));
    llvm::Value *S = B.CreateFDiv(B.CreateFSub(M, fconst(1.0)),
                                  B.CreateFAdd(M, fconst(1.0)));
    llvm::Value *S2 = B.CreateFMul(S, S);
    llvm::Value *P =
        horner(S2, {2.0 / 11, 2.0 / 9, 2.0 / 7, 2.0 / 5, 2.0 / 3, 2.0});
    llvm::Value *Y = B.CreateFAdd(B.CreateFMul(Ef, fconst(0.6931471805599453)),
                                  B.CreateFMul(P, S));
    // log(0) = -inf, log(x < 0) = NaN, log(inf) = inf, log(NaN) = NaN.
    Y = B.CreateSelect(B.CreateFCmpOEQ(X, fconst(0.0)), fconst(-INFINITY), Y);
    Y = B.CreateSelect(B.CreateFCmpOLT(X, fconst(0.0)), fconst(NAN), Y);
    Y = B.CreateSelect(B.CreateFCmpOEQ(X, fconst(INFINITY)), X, Y);
    return B.CreateSelect(B.CreateFCmpUNO(X, X), X, Y);
  }

  /// Divides by \p D, allowing a refined reciprocal estimate.
  llvm::Value *recipDiv(llvm::Value *N, llvm::Value *D) {
    llvm::Value *Q = B.CreateFDiv(N, D);
    if (auto *I = llvm::dyn_cast<llvm::Instruction>(Q))
      I->setHasAllowReciprocal(true);
    return Q;
  }

  /// tanh(x) = 1 - 2 / (exp(2x) + 1); below 0.3, its series to x^13 (no
  /// cancellation).
  llvm::Value *fastTanh(llvm::Value *X) {
    llvm::Value *E = fastExp(B.CreateFMul(X, fconst(2.0)));
    llvm::Value *Far = B.CreateFSub(
        fconst(1.0), recipDiv(fconst(2.0), B.CreateFAdd(E, fconst(1.0))));
    llvm::Value *X2 = B.CreateFMul(X, X);
    llvm::Value *Near = B.CreateFMul(
        X, horner(X2, {21844.0 / 6081075, -1382.0 / 155925, 62.0 / 2835,
                       -17.0 / 315, 2.0 / 15, -1.0 / 3, 1.0}));
    llvm::Value *Abs = B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X);
    return B.CreateSelect(B.CreateFCmpOLT(Abs, fconst(0.3)), Near, Far);
  }

  /// gelu(x) = x * Phi(x), Phi(x) = erfc(-x / sqrt 2) / 2, with erfc from
  /// the Chebyshev fit of Numerical Recipes' erfcc (relative error below
  /// 1.2e-7 for every argument, so the far negative tail keeps its digits):
  /// erfc(z) = t * exp(-z^2 + P(t)), t = 1 / (1 + z/2), z >= 0. z^2 is
  /// split into an exact part and a small one, and exp is taken of each.
  /// Straight line code, like the others, so that it vectorizes (libm's erff
  /// does not). Beyond z = 9.4 erfc underflows: 0, and +inf -> +inf, -inf ->
  /// NaN as x * (1 + erf(x / sqrt 2)) / 2 gives.
  llvm::Value *fastGelu(llvm::Value *X) {
    llvm::Value *Z =
        B.CreateFMul(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X),
                     fconst(0.70710678118654752));
    // A true division: an estimate's 2^-22 would be one more error term.
    llvm::Value *T = B.CreateFDiv(
        fconst(1.0), B.CreateFAdd(fconst(1.0), B.CreateFMul(Z, fconst(0.5))));
    llvm::Value *P = horner(
        T, {0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
            -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223});
    // z^2 = x^2 / 2 from x itself (z rounded to float is 6e-8 off, which
    // exp(-z^2) turns into 8e-6 at z = 8): Ah, |x| to 12 significant bits,
    // squares exactly; x^2 = Ah^2 + (|x| - Ah)(|x| + Ah).
    llvm::Value *A = B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X);
    llvm::Value *Ah = B.CreateBitCast(
        B.CreateAnd(B.CreateBitCast(A, B.getInt32Ty()), B.getInt32(0xFFFFF000)),
        B.getFloatTy());
    llvm::Value *Lo = B.CreateFMul(
        B.CreateFMul(B.CreateFSub(A, Ah), B.CreateFAdd(A, Ah)), fconst(0.5));
    // erfc(z) / 2 = Near * Far; the tiny factor exp(-Ah^2 / 2) is multiplied
    // in last, so that nothing before the result itself is subnormal.
    llvm::Value *Near = B.CreateFMul(B.CreateFMul(T, fconst(0.5)),
                                     fastExp(B.CreateFSub(P, Lo)));
    llvm::Value *Far =
        fastExp(B.CreateFMul(B.CreateFMul(Ah, Ah), fconst(-0.5)));
    llvm::Value *Huge = B.CreateFCmpOGT(Z, fconst(9.4));
    // x < 0: x * erfc(z) / 2; else x * (1 - erfc(z) / 2).
    llvm::Value *Neg = B.CreateFMul(B.CreateFMul(X, Near), Far);
    llvm::Value *Half = B.CreateFMul(Near, Far);
    llvm::Value *Pos = B.CreateFMul(X, B.CreateFSub(fconst(1.0), Half));
    llvm::Value *Tail = B.CreateSelect(Huge, B.CreateFMul(X, fconst(0.0)), Neg);
    return B.CreateSelect(B.CreateFCmpOLT(X, fconst(0.0)), Tail,
                          B.CreateSelect(Huge, X, Pos));
  }

  /// Operand I of node Id, converted to the node's compute type.
  llvm::Value *operand(int Id, size_t I, DType To) {
    const Node &N = G.Nodes[Id];
    int A = N.Args[I];
    if (A >= 0)
      return convert(Vals.at(A), G.Nodes[A].Ty, To);
    size_t K = 0;
    for (size_t J = 0; J < I; ++J)
      K += N.Args[J] < 0;
    llvm::Value *S = ScalarVals.at({Id, K});
    if (To == kFloat)
      return B.CreateFPTrunc(S, B.getFloatTy());
    if (To == kLong)
      return B.CreateFPToSI(S, B.getInt64Ty());
    return B.CreateFCmpUNE(S, llvm::ConstantFP::get(B.getDoubleTy(), 0));
  }

  llvm::Value *compute(int Id) {
    const Node &N = G.Nodes[Id];
    DType CT = N.ComputeTy;
    bool F = CT == kFloat;
    if (N.Kind == Op::Where)
      return B.CreateSelect(operand(Id, 0, kBool), operand(Id, 1, CT),
                            operand(Id, 2, CT));
    llvm::Value *X = operand(Id, 0, CT);
    switch (N.Kind) {
    case Op::Reshape:
      return X;
    case Op::Neg:
      return F ? B.CreateFNeg(X) : B.CreateNeg(X);
    case Op::Relu: {
      llvm::Value *Zero = llvm::Constant::getNullValue(X->getType());
      llvm::Value *C = F ? B.CreateFCmpOGT(X, Zero) : B.CreateICmpSGT(X, Zero);
      return B.CreateSelect(C, X, Zero);
    }
    case Op::Abs: {
      llvm::Value *Zero = llvm::Constant::getNullValue(X->getType());
      llvm::Value *C = F ? B.CreateFCmpOLT(X, Zero) : B.CreateICmpSLT(X, Zero);
      return B.CreateSelect(C, F ? B.CreateFNeg(X) : B.CreateNeg(X), X);
    }
    case Op::Exp:
      return fastExp(X);
    case Op::Log:
      return fastLog(X);
    case Op::Sqrt:
      return intrinsic(llvm::Intrinsic::sqrt, X);
    case Op::Tanh:
      return fastTanh(X);
    case Op::Sigmoid:
      return recipDiv(fconst(1.0),
                      B.CreateFAdd(fconst(1.0), fastExp(B.CreateFNeg(X))));
    case Op::Gelu:
      return fastGelu(X);
    default:
      break;
    }
    llvm::Value *Y = operand(Id, 1, CT);
    switch (N.Kind) {
    case Op::Add:
      return F ? B.CreateFAdd(X, Y) : B.CreateAdd(X, Y);
    case Op::Sub:
      return F ? B.CreateFSub(X, Y) : B.CreateSub(X, Y);
    case Op::Mul:
      return F ? B.CreateFMul(X, Y) : B.CreateMul(X, Y);
    case Op::Div:
      return B.CreateFDiv(X, Y);
    case Op::Gt:
      return F ? B.CreateFCmpOGT(X, Y) : B.CreateICmpSGT(X, Y);
    case Op::Lt:
      return F ? B.CreateFCmpOLT(X, Y) : B.CreateICmpSLT(X, Y);
    case Op::Ge:
      return F ? B.CreateFCmpOGE(X, Y) : B.CreateICmpSGE(X, Y);
    case Op::Le:
      return F ? B.CreateFCmpOLE(X, Y) : B.CreateICmpSLE(X, Y);
    case Op::Eq:
      return F ? B.CreateFCmpOEQ(X, Y) : B.CreateICmpEQ(X, Y);
    default:
      fail(std::string("internal: cannot generate code for ") + opName(N.Kind));
    }
  }

  /// How many vectors one iteration of the kernel's loop works on. The
  /// vectorizer keeps one by default, and a transcendental is a long chain
  /// of dependent instructions (fastExp: about 20): with two or more in a
  /// row, one iteration is longer than the out-of-order window can overlap
  /// with the next, and the loop runs at the chain's latency, not the
  /// units' throughput (three nested sigmoids over 4M floats: 4.9x one
  /// sigmoid's time, 2.6x with four vectors per iteration; bench_rt 2d).
  /// 0: the vectorizer's choice.
  unsigned interleaveCount() const {
    unsigned Chains = 0;
    for (int Id : Grp.Nodes)
      switch (G.Nodes[Id].Kind) {
      case Op::Exp:
      case Op::Log:
      case Op::Tanh:
      case Op::Sigmoid:
      case Op::Gelu: // erfc's fit and an exp, independent of each other
        ++Chains;
        break;
      default:
        break;
      }
    return Chains == 0 ? 0 : Chains == 1 ? 2 : 4;
  }

  void emitBody() {
    llvm::BasicBlock *Entry = llvm::BasicBlock::Create(Ctx, "entry", Body);
    llvm::BasicBlock *Loop = llvm::BasicBlock::Create(Ctx, "loop", Body);
    llvm::BasicBlock *Exit = llvm::BasicBlock::Create(Ctx, "exit", Body);
    size_t NIn = Grp.Inputs.size();
    llvm::Value *ScalarArr =
        Body->getArg(Grp.Inputs.size() + Grp.Outputs.size());
    llvm::Value *Begin =
        Body->getArg(Grp.Inputs.size() + Grp.Outputs.size() + 1);
    llvm::Value *End = Body->getArg(Grp.Inputs.size() + Grp.Outputs.size() + 2);
    B.SetInsertPoint(Entry);

    // Scalars and broadcast inputs are loop-invariant: load them once.
    std::vector<int> WithScalars = Grp.Preamble;
    WithScalars.insert(WithScalars.end(), Grp.Nodes.begin(), Grp.Nodes.end());
    for (int Id : WithScalars) {
      const Node &N = G.Nodes[Id];
      size_t K = 0;
      for (int A : N.Args)
        if (A < 0) {
          llvm::Value *Slot = B.CreateConstGEP1_64(B.getDoubleTy(), ScalarArr,
                                                   P.ScalarOffset[Id] + K);
          ScalarVals[{Id, K}] = B.CreateLoad(B.getDoubleTy(), Slot);
          ++K;
        }
    }
    std::vector<bool> Bcast(NIn);
    for (size_t I = 0; I < NIn; ++I) {
      const Node &In = G.Nodes[Grp.Inputs[I]];
      Bcast[I] = In.numel() == 1 && Grp.Numel != 1;
      if (Bcast[I])
        Vals[Grp.Inputs[I]] = load(Body->getArg(I), B.getInt64(0), In.Ty);
    }

    for (int Id : Grp.Preamble)
      Vals[Id] = compute(Id);

    const Node *Red =
        Grp.EndsInReduction ? &G.Nodes[Grp.Nodes.back()] : nullptr;
    llvm::Value *Init = nullptr;
    if (Red) {
      bool F = Red->ComputeTy == kFloat;
      switch (Red->Kind) {
      case Op::Max:
        Init = F ? fconst(-INFINITY) : B.getInt64(INT64_MIN);
        break;
      case Op::Min:
        Init = F ? fconst(INFINITY) : B.getInt64(INT64_MAX);
        break;
      default:
        Init = llvm::Constant::getNullValue(regTy(Red->ComputeTy));
      }
    }
    B.CreateCondBr(B.CreateICmpSLT(Begin, End), Loop, Exit);

    B.SetInsertPoint(Loop);
    llvm::PHINode *Idx = B.CreatePHI(B.getInt64Ty(), 2, "i");
    Idx->addIncoming(Begin, Entry);
    llvm::PHINode *Acc = nullptr;
    if (Red) {
      Acc = B.CreatePHI(Init->getType(), 2, "acc");
      Acc->addIncoming(Init, Entry);
    }
    for (size_t I = 0; I < NIn; ++I)
      if (!Bcast[I])
        Vals[Grp.Inputs[I]] =
            load(Body->getArg(I), Idx, G.Nodes[Grp.Inputs[I]].Ty);
    size_t NPoint = Grp.Nodes.size() - (Red ? 1 : 0);
    for (size_t K = 0; K < NPoint; ++K)
      Vals[Grp.Nodes[K]] = compute(Grp.Nodes[K]);
    for (size_t O = 0; O < Grp.Outputs.size(); ++O) {
      int V = Grp.Outputs[O];
      if (Red && V == Grp.Nodes.back())
        continue;
      store(Vals.at(V), Body->getArg(NIn + O), Idx, G.Nodes[V].Ty);
    }
    llvm::Value *Next = nullptr;
    if (Red) {
      int A = Red->Args[0];
      llvm::Value *X = convert(Vals.at(A), G.Nodes[A].Ty, Red->ComputeTy);
      bool F = Red->ComputeTy == kFloat;
      // Reassociation lets the vectorizer keep partial sums per lane; the
      // result stays within float tolerance of the reference.
      llvm::FastMathFlags FMF;
      FMF.setAllowReassoc();
      FMF.setNoSignedZeros();
      if (Red->Kind == Op::Max || Red->Kind == Op::Min)
        FMF.setNoNaNs();
      llvm::IRBuilderBase::FastMathFlagGuard Guard(B);
      B.setFastMathFlags(FMF);
      switch (Red->Kind) {
      case Op::Max:
        Next = F ? B.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, Acc, X)
                 : B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, Acc, X);
        break;
      case Op::Min:
        Next = F ? B.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, Acc, X)
                 : B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, Acc, X);
        break;
      default:
        Next = F ? B.CreateFAdd(Acc, X) : B.CreateAdd(Acc, X);
      }
      Acc->addIncoming(Next, Loop);
    }
    llvm::Value *IdxNext = B.CreateAdd(Idx, B.getInt64(1), "", false, true);
    Idx->addIncoming(IdxNext, Loop);
    llvm::BranchInst *Latch =
        B.CreateCondBr(B.CreateICmpSLT(IdxNext, End), Loop, Exit);
    if (unsigned IC = interleaveCount()) {
      llvm::Metadata *Count[] = {
          llvm::MDString::get(Ctx, "llvm.loop.interleave.count"),
          llvm::ConstantAsMetadata::get(B.getInt32(IC))};
      llvm::Metadata *Ops[] = {nullptr, llvm::MDNode::get(Ctx, Count)};
      llvm::MDNode *LoopID = llvm::MDNode::getDistinct(Ctx, Ops);
      LoopID->replaceOperandWith(0, LoopID);
      Latch->setMetadata(llvm::LLVMContext::MD_loop, LoopID);
    }

    B.SetInsertPoint(Exit);
    if (Red) {
      llvm::PHINode *Final = B.CreatePHI(Init->getType(), 2, "acc.final");
      Final->addIncoming(Init, Entry);
      Final->addIncoming(Next, Loop);
      llvm::Value *R = Final;
      if (Red->Kind == Op::Mean)
        R = B.CreateFDiv(R, fconst(double(Grp.Numel)));
      R = convert(R, Red->ComputeTy, Red->Ty);
      size_t O =
          std::find(Grp.Outputs.begin(), Grp.Outputs.end(), Grp.Nodes.back()) -
          Grp.Outputs.begin();
      store(R, Body->getArg(NIn + O), B.getInt64(0), Red->Ty);
    }
    B.CreateRetVoid();
  }

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  llvm::IRBuilder<> B;
  const Graph &G;
  const RegionPlan &P;
  const FusedGroup &Grp;
  llvm::Function *Body = nullptr;
  std::map<int, llvm::Value *> Vals;
  std::map<std::pair<int, size_t>, llvm::Value *> ScalarVals;
};

} // namespace

void compileKernels(const Graph &G, RegionPlan &Plan) {
  Jit &J = Jit::get();
  auto Ctx = std::make_unique<llvm::LLVMContext>();
  auto M = std::make_unique<llvm::Module>("seam_region", *Ctx);
  llvm::TargetMachine &TM = J.targetMachine();
  M->setDataLayout(TM.createDataLayout());
  M->setTargetTriple(TM.getTargetTriple().str());
  std::vector<std::string> Names;
  std::vector<Step *> Fused;
  for (Step &S : Plan.Steps) {
    if (!S.IsFused)
      continue;
    Names.push_back(J.freshName());
    Fused.push_back(&S);
    GroupEmitter(*M, G, Plan, S.Group).emit(Names.back());
  }
  if (Names.empty())
    return;
  std::string Err;
  llvm::raw_string_ostream OS(Err);
  if (llvm::verifyModule(*M, &OS))
    throw Error("seam::rt: internal: generated invalid IR: " + OS.str());
  std::vector<KernelFn> Fns = J.add(std::move(Ctx), std::move(M), Names);
  for (size_t I = 0; I < Fused.size(); ++I)
    Fused[I]->Fn = Fns[I];
}

} // namespace seam::rt::detail
