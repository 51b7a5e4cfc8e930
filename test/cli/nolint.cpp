// Suppression comments, with clang-tidy's semantics: NOLINT, NOLINTNEXTLINE
// and NOLINTBEGIN/NOLINTEND, each with an optional list of check globs.
// RUN: %expect_exit 1 %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <torch/torch.h>

void f(torch::Tensor x) {
  for (int i = 0; i < 3; ++i) {
    x.item<float>(); // NOLINT
    x.item<float>(); // NOLINT(seam-host-sync)
    x.item<float>(); // NOLINT(seam-*)
    x.item<float>(); // NOLINT(seam-graph-break)
    // CHECK: nolint.cpp:[[@LINE-1]]:7: warning: host sync: {{.*}} [seam-host-sync]
    x.item<float>(); // NOLINT(-*, seam-host-*)
    x.item<float>(); // NOLINT(*, -seam-host-sync)
    // CHECK: nolint.cpp:[[@LINE-1]]:7: warning: host sync: {{.*}} [seam-host-sync]
    // NOLINTNEXTLINE(seam-host-sync)
    x.item<float>();
    // NOLINTNEXTLINE(readability-*)
    x.item<float>();
    // CHECK: nolint.cpp:[[@LINE-1]]:7: warning: host sync: {{.*}} [seam-host-sync]
  }
}

// NOLINTBEGIN(seam-host-sync)
void g(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
}
// NOLINTEND(seam-host-sync)

// An END closes the BEGIN with the same list; BEGINs nest.
// NOLINTBEGIN(seam-*)
// NOLINTBEGIN(seam-graph-break)
void h(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
}
// NOLINTEND(seam-graph-break)
void k(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
}
// NOLINTEND(seam-*)

// A BEGIN without its END (the END names another list) suppresses nothing
// and is reported, as is the stray END.
// NOLINTBEGIN(seam-host-sync)
// CHECK: nolint.cpp:[[@LINE-1]]:4: error: unmatched '{{NOLINT}}BEGIN' comment without a subsequent '{{NOLINT}}END' comment [seam-nolint]
void m(torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    x.item<float>();
  // CHECK: nolint.cpp:[[@LINE-1]]:7: warning: host sync: {{.*}} [seam-host-sync]
}
// NOLINTEND(seam-*)
// CHECK: nolint.cpp:[[@LINE-1]]:4: error: unmatched '{{NOLINT}}END' comment without a previous '{{NOLINT}}BEGIN' comment [seam-nolint]
