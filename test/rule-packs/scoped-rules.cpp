// Rules cover their own pack's tensor types: with the default packs and a
// pack that only declares other::Vec a tensor, LibTorch's and seam::rt's
// '.item()' and '<<' rules do not fire on a Vec; the lazy pack's do on its
// arrays.
// RUN: %seam check %s --rules %S/../Inputs/lazy/other.json --rules %S/../Inputs/lazy/lazy.json --fail-on=none -- -std=c++17 -I%S/../Inputs/lazy | FileCheck %s --implicit-check-not='[seam-'
#include "lazy.h"
#include <iostream>

float loop(int n, const other::Vec &v, const lz::array &a) {
  float s = 0;
  for (int i = 0; i < n; ++i) {
    s += v.item();
    std::cout << v;
    s += a.item<float>();
    // CHECK: :[[@LINE-1]]:12: warning: host sync: '.item()'{{.*}} [seam-host-sync]
    std::cout << a;
    // CHECK: :[[@LINE-1]]:15: warning: host sync: printing 'a'{{.*}} [seam-host-sync]
  }
  return s;
}
