//===- LoopVariable.h - A local variable a loop updates in one place ------===//
//
// What the fix kinds that move work out of a loop must prove about the
// variable the loop updates (a sum, a list of copies): it is a local of this
// function, declared by a statement of its own before the loop; the loop
// uses it only in the statement the fix rewrites (and, where the kind
// allows it, inside one guarded block); and no reference, pointer or lambda
// made before the loop can reach it while the loop runs. The loop is the
// outermost one around that statement that does not hold the declaration:
// after it, the variable's value is read by whatever follows.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_FIXES_LOOPVARIABLE_H
#define SEAM_FIXES_LOOPVARIABLE_H

#include "Basic/Finding.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace seam {

struct LoopVariable {
  const clang::VarDecl *Var = nullptr;
  const clang::DeclStmt *Decl = nullptr;
  const clang::Stmt *Loop = nullptr;
  /// The one `if` inside the loop whose braced then-branch holds every
  /// other use of the variable in the loop (only when allowed).
  const clang::IfStmt *Guard = nullptr;
  /// Every name declared or used in the function, for fresh names.
  llvm::StringSet<> Names;
};

/// Proves the above for \p Var, updated by \p Update (whose own references
/// to it are \p Own) in function \p FD. \p What names the variable's role in
/// reasons ("the sum"). Returns the reason when it does not hold.
std::variant<LoopVariable, std::string>
loopVariable(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
             const clang::VarDecl *Var, const clang::Stmt *Update,
             llvm::ArrayRef<const clang::DeclRefExpr *> Own,
             llvm::StringRef What, bool AllowGuard);

/// \p Base, or \p Base with a number, that names nothing in the function,
/// nor at file scope, nor in \p Taken (what earlier rewrites declare).
std::string freshName(clang::ASTContext &Ctx, const LoopVariable &V,
                      const std::string &Base, const llvm::StringSet<> &Taken);

/// Where the \p Slot-th rewrite anchored at the same place inserts its line
/// \p Line: right after \p After (slot 0), or at the start of the next line
/// when \p After ends its line (slot 1); none for later slots.
std::optional<TextEdit> lineInsert(clang::ASTContext &Ctx,
                                   clang::SourceLocation After, unsigned Slot,
                                   const std::string &Indent,
                                   const std::string &Line);

/// The edit that declares a new variable with statement \p Line on a line of
/// its own after \p V's declaration, in slot \p Slot (see lineInsert), or
/// none. A variable updated in two loops gets a declaration for each.
std::optional<TextEdit> declareAfter(clang::ASTContext &Ctx,
                                     const LoopVariable &V, unsigned Slot,
                                     const std::string &Line);

/// The line number of \p L, for reasons.
std::string lineOf(clang::ASTContext &Ctx, clang::SourceLocation L);

} // namespace seam

#endif
