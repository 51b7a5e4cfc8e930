//===- ConstantValue.h - The value of an expression the compiler folds ----===//
//
// One place for "is this argument a constant, and which": trip counts,
// sizes and rule-pack argument values all ask it.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_BASIC_CONSTANTVALUE_H
#define SEAM_BASIC_CONSTANTVALUE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <cstdint>
#include <optional>

namespace seam {

/// \p E's value when Clang folds it to an integer that fits in 64 bits
/// (`1 << 14`, `kSteps`, `sizeof(T)`); none when \p E is null, depends on a
/// template parameter, or is not a constant.
std::optional<int64_t> constantInt(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

/// \p E's value as a number when Clang folds it to an integer (a bool as 0
/// or 1) or a floating-point constant; none otherwise, as constantInt.
std::optional<double> constantNumber(const clang::Expr *E,
                                     const clang::ASTContext &Ctx);

} // namespace seam

#endif // SEAM_BASIC_CONSTANTVALUE_H
