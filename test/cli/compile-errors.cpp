// A TU with compile errors is still analyzed where clang recovered, as
// clang-tidy does; the errors are 'clang-diagnostic-error' results and the
// exit status is 2.
// RUN: %expect_exit 2 %seam check %s -- %mock > %t.out 2> %t.err
// RUN: FileCheck %s --implicit-check-not='[seam-' < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %expect_exit 2 %seam check --format sarif -o %t.sarif %s -- %mock
// RUN: %python %inputs/check_sarif.py %t.sarif %inputs/sarif-schema-2.1.0.json | FileCheck %s --check-prefix=SARIF
// RUN: %expect_exit 2 %seam check --checks=-*,seam-capture-sync %s -- %mock | FileCheck %s --check-prefix=ALWAYS
#include <torch/torch.h>

void broken(torch::Tensor x) {
  auto y = x.no_such_method();
  // CHECK: compile-errors.cpp:[[@LINE-1]]:14: error: no member named 'no_such_method' in 'at::Tensor' [clang-diagnostic-error]
  // ALWAYS: [clang-diagnostic-error]
  undeclared_call(x);
  // CHECK: compile-errors.cpp:[[@LINE-1]]:3: error: use of undeclared identifier 'undeclared_call' [clang-diagnostic-error]
}

void fine(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
  // CHECK: compile-errors.cpp:[[@LINE-1]]:7: warning: host sync: {{.*}} [seam-host-sync]
}

// ERR: seam: error: '{{.*}}compile-errors.cpp' does not compile (2 errors, reported as clang-diagnostic-error); it was analyzed where clang recovered
// SARIF: result: clang-diagnostic-error error test/cli/compile-errors.cpp:13:14
// SARIF: result: clang-diagnostic-error error test/cli/compile-errors.cpp:16:3
// SARIF: result: seam-host-sync warning test/cli/compile-errors.cpp:22:7
