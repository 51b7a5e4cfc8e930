//===- ConstantValue.cpp - The value of an expression the compiler folds --===//
#include "Basic/ConstantValue.h"

#include "llvm/ADT/APFloat.h"

using namespace clang;

namespace seam {

std::optional<int64_t> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().tryExtValue(); // none when it needs > 64 bits
}

std::optional<double> constantNumber(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx))
    return std::nullopt;
  const APValue &V = R.Val;
  if (V.isInt() && V.getInt().getSignificantBits() <= 64)
    return double(V.getInt().getExtValue());
  if (!V.isFloat())
    return std::nullopt;
  llvm::APFloat F = V.getFloat();
  bool Lost = false;
  F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &Lost);
  return F.convertToDouble();
}

} // namespace seam
