//===- seam/compiled.h - Mark a function as a compiled region for Seam ----===//
//
// Put SEAM_COMPILED before a function (or after a lambda's parameter list)
// to tell `seam check` that it runs as one compiled region, the way a
// graph-capturing compiler would run it. It expands to a Clang annotation
// and to nothing for other compilers, so it never changes generated code.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_COMPILED_H
#define SEAM_COMPILED_H

#if defined(__clang__)
#define SEAM_COMPILED [[clang::annotate("seam.compiled")]]
#else
#define SEAM_COMPILED
#endif

#endif
