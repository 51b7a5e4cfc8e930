// More of what a pack author can say (docs/rule-packs.md):
// - a type pattern with a reference suffix tells copy assignment
//   (`const tensor&`) from move assignment (`tensor&&`);
// - `regions.invokeFunctions` names a function that runs its callable once,
//   at the call (`vjp`): called in a loop, it makes the callable hot;
// - an element built in place (`v.emplace_back(args...)`) lives where the
//   pack's constructor rule for those arguments puts it;
// - a `constructor` trigger: building a host buffer from a device array
//   copies it, from a host array or from a size it does not.
// RUN: %seam check %s --no-default-rules --rules %S/../Inputs/lazy/lazy.json --rules %S/Inputs/pack-authors-2.json --fail-on=none -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --implicit-check-not='[seam-'
// RUN: %seam pack check %S/Inputs/pack-authors-2.json --no-default-rules --against %s -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --check-prefix=PACK
// PACK: pack-authors-2.json: valid rule pack 'authors-2' (format 2, 2 triggers, 1 tensor types)
// PACK-NEXT: 5 of 5 entries matched in 1 file
// RUN: not %seam pack check %S/Inputs/bad-const-pattern.json --no-default-rules 2>&1 | FileCheck %s --check-prefix=CONST
// CONST: seam: error: invalid rule pack: {{.*}}bad-const-pattern.json: 'triggers[0].params[0]': 'const tensor': a top-level const is ignored; 'const P&' is a reference to const
#include "lazy.h"

#include <utility>
#include <vector>

namespace lz {
std::vector<array>
vjp(const std::function<std::vector<array>(const std::vector<array> &)> &fun,
    const std::vector<array> &primals, const std::vector<array> &cotangents);
class host_buffer {
public:
  explicit host_buffer(const array &a);
  explicit host_buffer(int n);
  float operator[](int i) const;
};
} // namespace lz

std::vector<lz::array> loss_named(const std::vector<lz::array> &p) {
  float l = p[0].item<float>();
  // CHECK: :[[@LINE-1]]:18: warning: host sync: '.item()' reads 'p[0]'{{.*}} [seam-host-sync]
  return {p[0] + p[0]};
}

// Called through vjp once, from a function nobody calls in a loop: cold.
std::vector<lz::array> once_named(const std::vector<lz::array> &p) {
  float l = p[0].item<float>();
  return {p[0]};
}
void once(const std::vector<lz::array> &x) { lz::vjp(once_named, x, x); }

void train(int steps, const std::vector<lz::array> &x,
           const std::vector<float> &data, const std::vector<int> &shape) {
  // Defined before the loop; vjp runs it in every iteration.
  auto loss_fn = [](const std::vector<lz::array> &p) {
    float l = p[0].item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: host sync: '.item()' reads 'p[0]'{{.*}} [seam-host-sync]
    return std::vector<lz::array>{p[0]};
  };
  std::vector<lz::array> dev;
  dev.emplace_back(data, shape); // the constructor rule: on the device
  std::vector<lz::array> host;
  host.emplace_back(1.0f); // lazy.json's scalar constructor: on the host
  lz::array a = lz::zeros({4}), b = lz::zeros({4});
  for (int i = 0; i < steps; ++i) {
    lz::vjp(loss_fn, x, x);
    lz::vjp(loss_named, x, x);
    a = b;
    // CHECK: :[[@LINE-1]]:7: warning: host sync: '=' waits for the device{{.*}} [seam-host-sync]
    a = std::move(b);
    a = lz::zeros({4});
    float d = dev[0].item<float>();
    // CHECK: :[[@LINE-1]]:22: warning: host sync: '.item()' reads 'dev[0]'{{.*}} [seam-host-sync]
    float h = host[0].item<float>();
    lz::host_buffer copied(a);
    // CHECK: :[[@LINE-1]]:21: warning: host sync: constructing a 'lz::host_buffer' copies 'a' to the host{{.*}} [seam-host-sync]
    lz::host_buffer from_host(lz::array(2.0f));
    lz::host_buffer sized(16);
  }
}
