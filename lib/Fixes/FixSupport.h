//===- FixSupport.h - Source text and edits for the fix kinds -------------===//
#ifndef SEAM_FIXES_FIXSUPPORT_H
#define SEAM_FIXES_FIXSUPPORT_H

#include "Basic/Finding.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>

namespace seam {

/// The file range of \p S as written, or nullopt when any part of it comes
/// from a macro (Seam never rewrites through a macro).
std::optional<clang::CharSourceRange> fileRange(clang::ASTContext &Ctx,
                                                clang::SourceRange R);

/// The text of \p R (a file range).
std::string rangeText(clang::ASTContext &Ctx, clang::CharSourceRange R);

/// An edit replacing \p R (a file range) with \p Text.
TextEdit replaceEdit(clang::ASTContext &Ctx, clang::CharSourceRange R,
                     std::string Text);
/// An edit inserting \p Text at \p Loc (a file location).
TextEdit insertEdit(clang::ASTContext &Ctx, clang::SourceLocation Loc,
                    std::string Text);

/// The whitespace that starts \p Loc's line.
std::string indentOf(clang::ASTContext &Ctx, clang::SourceLocation Loc);

/// Whether only whitespace precedes \p Loc on its line.
bool startsLine(clang::ASTContext &Ctx, clang::SourceLocation Loc);

/// The location just past statement \p S's last token, and past a ';'
/// that ends it (an expression statement, a do-while).
clang::SourceLocation endOfStatement(clang::ASTContext &Ctx,
                                     const clang::Stmt *S);

/// \p S with implicit casts, parentheses and temporaries looked through.
const clang::Expr *bare(const clang::Expr *E);

/// The parent of \p S that is not an implicit node (casts, parentheses,
/// temporaries), or nullptr.
const clang::Stmt *parentOf(clang::ASTContext &Ctx, const clang::Stmt *S);

/// The C++ type of the scalar value \p Value as the user wrote it (the
/// template argument of `item<int64_t>()`), else as Clang prints it.
std::string writtenType(clang::ASTContext &Ctx, const clang::Expr *Value);

/// The scalar read at \p Read with a conversion call that follows it
/// (`E.item().toFloat()`), when the value is arithmetic; else nullptr.
const clang::Expr *scalarValue(clang::ASTContext &Ctx, const clang::Expr *Read);

/// The text of object \p Obj of member call \p Call, as an operand that
/// `.method()` can follow (`(*p)` for `p->item()`).
std::string objectText(clang::ASTContext &Ctx, const clang::Expr *Call,
                       clang::CharSourceRange Obj);

/// Whether \p T was spelled with a template parameter, or deduced (`auto`,
/// `decltype`): in a template instantiation, another instantiation may
/// give another type, and one rewrite must hold for all of them.
bool typeFromTemplate(clang::QualType T);

/// Whether the scalar value \p Value (a read, a conversion of it, a cast)
/// has a type spelled with a template parameter.
bool valueTypeFromTemplate(const clang::Expr *Value);

/// Replaces every "$name" of \p Values in \p Template.
std::string
instantiate(std::string Template,
            std::initializer_list<std::pair<const char *, std::string>> Values);

} // namespace seam

#endif
