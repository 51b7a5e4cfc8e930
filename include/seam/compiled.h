//===- seam/compiled.h - Mark a function as a compiled region for Seam ----===//
//
// Put SEAM_COMPILED before a function or method to tell `seam check` that
// it runs as one compiled region, the way a graph-capturing compiler would
// run it. It expands to a Clang annotation and to nothing for other
// compilers, so it never changes generated code. For a lambda, write it
// before the parameter list (`[&] SEAM_COMPILED (Tensor x) {...}`; Clang
// accepts that as a C++23 extension), or pass the lambda to a compile
// function named in the rule pack, or name it with --region.
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
