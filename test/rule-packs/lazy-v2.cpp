// Rule packs of format 2 on a lazy, device-by-default API (Inputs/lazy):
// overloads by result type, operand types, conversions, constructors,
// materialising calls, placement by argument, scope and set-default call,
// device-default factories, compile functions and transforms reached
// through any callable form, and method rules scoped to their own pack.
// RUN: %seam check %s --no-default-rules --rules %S/../Inputs/lazy/lazy.json --rules %S/../Inputs/lazy/other.json --fail-on=none -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --implicit-check-not='[seam-'
// RUN: %seam pack check %S/../Inputs/lazy/lazy.json --no-default-rules --against %s -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --check-prefix=PACK
// PACK: lazy.json: valid rule pack 'lazy' (format 2, 6 triggers, 1 tensor types)
// PACK-NEXT: 18 of 18 entries matched in 1 file
#include "lazy.h"
#include <iostream>

std::vector<lz::array> step(const std::vector<lz::array> &in);
lz::array loss_fn(const lz::array &x) {
  if (x.item<float>() > 0)
  // CHECK: :[[@LINE-1]]:9: warning: host sync: '.item()'{{.*}} [seam-host-sync]
    return x;
  return x + x;
}

void run(int steps, std::function<std::vector<lz::array>(
                        const std::vector<lz::array> &)> body) {
  auto compiled = lz::compile(body);
  auto g = lz::grad(loss_fn);
  for (int i = 0; i < steps; ++i) {
    auto a = lz::zeros({4});
    auto b = lz::sum(a, 0);           // an array: no read
    float s = lz::sum<float>(a);      // a host value
    // CHECK: :[[@LINE-1]]:19: warning: host sync: 'sum()'{{.*}} [seam-host-sync]
    auto shifted = a << b;            // a bit shift, not a print
    std::cout << a;
    // CHECK: :[[@LINE-1]]:15: warning: host sync: printing 'a' with '<<'{{.*}} [seam-host-sync]
    if (a)
    // CHECK: :[[@LINE-1]]:9: warning: host sync: conversion to 'bool'{{.*}} [seam-host-sync]
      s += float(b);
    // CHECK: :[[@LINE-1]]:18: warning: host sync: conversion to 'float'{{.*}} [seam-host-sync]
    lz::array half(0.5f);
    s += half.item<float>();          // made on the host
    lz::eval(a);
    // CHECK: :[[@LINE-1]]:9: warning: host sync: 'eval()'{{.*}} [seam-host-sync]
    s += a.item<float>();             // already evaluated
    s += lz::sum<float>(a);           // so is this
    lz::async_eval(b);                // starts b; returns at once
    s += b.item<float>();             // still waits for b
    // CHECK: :[[@LINE-1]]:12: warning: host sync: '.item()'{{.*}} [seam-host-sync]
    auto c = lz::add(a, b, lz::Device::cpu);
    s += c.item<float>();             // computed on the host
    {
      lz::StreamContext ctx(lz::Device::cpu);
      auto z = lz::zeros({2});
      s += z.item<float>();           // made on the host in this scope
    }
    auto d = lz::ones({2});
    s += d.item<float>();
    // CHECK: :[[@LINE-1]]:12: warning: host sync: '.item()'{{.*}} [seam-host-sync]
    auto e = lz::ones({2}) + d;
    lz::synchronize();
    // CHECK: :[[@LINE-1]]:9: warning: host sync: 'synchronize()'{{.*}} [seam-host-sync]
    s += e.item<float>();             // every array is ready after it
    compiled({a});
    g(a);
    other::Vec v;
    s += v.item();                    // another pack's type: not this rule
  }
}

void host_only(int steps) {
  lz::set_default_device(lz::Device::cpu);
  for (int i = 0; i < steps; ++i) {
    auto z = lz::zeros({2});
    float s = z.item<float>();
    (void)s;
  }
}

void with_pointer(int steps) {
  auto f = &step;
  auto c = lz::compile(f);
  (void)c;
}

std::vector<lz::array> step(const std::vector<lz::array> &in) {
  std::cout << in[0];
  // CHECK: :[[@LINE-1]]:13: warning: graph break: printing 'in[0]'{{.*}} [seam-graph-break]
  // CHECK: :[[@LINE-2]]:13: warning: host sync: printing 'in[0]'{{.*}} [seam-host-sync]
  return in;
}

// A lambda reaching compile() through run()'s std::function parameter.
void caller() {
  run(3, [](const std::vector<lz::array> &in) {
    std::cout << in[1];
    // CHECK: :[[@LINE-1]]:15: warning: graph break: printing 'in[1]'{{.*}} [seam-graph-break]
    // CHECK: :[[@LINE-2]]:15: warning: host sync: printing 'in[1]'{{.*}} [seam-host-sync]
    return in;
  });
}

// A function pointer handed to a loop function runs once per element.
void visit(int i) {
  auto z = lz::zeros({i});
  float s = z.item<float>();
  // CHECK: :[[@LINE-1]]:15: warning: host sync: '.item()'{{.*}} [seam-host-sync]
  (void)s;
}
void batches() { lz::for_each_batch(8, &visit); }
