// What a pack author can say (docs/rule-packs.md): an explicit-sync rule
// fires whatever its operands hold, unless it names an "operand", whose
// residency then decides (a lazy API's eval of host data does nothing); and
// a rule that can match a call with no tensor object or argument is not
// reported for a local object, which `seam pack check --against` warns
// about.
// RUN: %seam check %s --no-default-rules --rules %S/../Inputs/lazy/lazy.json --rules %S/Inputs/pack-authors.json --fail-on=none -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --implicit-check-not='[seam-'
// RUN: %seam pack check %S/Inputs/pack-authors.json --no-default-rules --against %s -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --check-prefix=PACK
// RUN: not %seam pack check %S/Inputs/pack-authors.json --no-default-rules --strict --against %s -- -std=c++17 -I%S/../Inputs/lazy > /dev/null
// PACK: pack-authors.json: valid rule pack 'authors' (format 2, 2 triggers, 0 tensor types)
// PACK-NEXT: pack-authors.json: warning: 'triggers[1]': method 'item' of 'other::Vec' matched at pack-authors.cpp:{{[0-9]+}} a call with no tensor object or argument: it is reported only where that object's origin is unknown, never for a local one; give "operand" the argument whose residency decides
// PACK-NEXT: 2 of 2 entries matched in 1 file
// RUN: not %seam pack check %S/Inputs/bad-device-factory.json --no-default-rules 2>&1 | FileCheck %s --check-prefix=OPERATOR
// OPERATOR: seam: error: invalid rule pack: {{.*}}bad-device-factory.json: 'residency.deviceFactories[1]': 'lz::operator+' is an operator, not a factory: an operator's result lives where its operands do
#include "lazy.h"

#include <utility>

// `materialises` reaches names a structured binding made; binding them
// again (the next iteration) makes them unread again.
std::pair<lz::array, lz::array> loss_and_grad(const lz::array &x);

void bindings(int steps, const lz::array &x) {
  for (int i = 0; i < steps; ++i) {
    auto [loss, grad] = loss_and_grad(x);
    float l0 = loss.item<float>();
    // CHECK: :[[@LINE-1]]:21: warning: host sync: '.item()' reads 'loss'{{.*}} [seam-host-sync]
    lz::eval(loss);
    // CHECK: :[[@LINE-1]]:9: warning: host sync: 'eval()' waits for the device{{.*}} [seam-host-sync]
    float l = loss.item<float>();
    float g = grad.item<float>();
    // CHECK: :[[@LINE-1]]:20: warning: host sync: '.item()' reads 'grad'{{.*}} [seam-host-sync]
  }
}

void run(int steps, const other::Vec &v) {
  for (int i = 0; i < steps; ++i) {
    auto host = lz::array(1.0f);
    auto dev = lz::zeros({4});
    lz::async_eval(host);
    lz::async_eval(dev);
    // CHECK: :[[@LINE-1]]:9: warning: host sync: 'async_eval()' waits for the device{{.*}} [seam-host-sync]
    lz::eval(host);
    // CHECK: :[[@LINE-1]]:9: warning: host sync: 'eval()' waits for the device{{.*}} [seam-host-sync]
    // No tensor anywhere: a local object counts as on the host and is never
    // reported; one of unknown origin is.
    other::Vec local;
    float f = local.item();
    float g = v.item();
    // CHECK: :[[@LINE-1]]:17: warning: host sync: '.item()' reads 'v'{{.*}} [seam-host-sync]
  }
}
