// The shipped Thrust pack (rules/thrust.json) on Debian's real Thrust
// headers: algorithms that return to the host, element reads through a
// device_reference and copies into host memory; asynchronous algorithms
// and host_vector work stay silent.
// REQUIRES: thrust
// RUN: %seam check %s --rules thrust --fail-on=none -- %thrust | FileCheck %s --implicit-check-not='[seam-'
// RUN: %seam pack check %repo/rules/thrust.json --against %s -- %thrust | FileCheck %s --check-prefix=PACK
// PACK: thrust.json: valid rule pack 'thrust' (format 2, 27 triggers, 2 tensor types)
// PACK: 'triggers[4]': function 'thrust::inner_product' never matched
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <iostream>
#include <vector>

float train(int steps) {
  thrust::device_vector<float> d(1024, 1.0f);
  thrust::host_vector<float> h(1024, 2.0f);
  std::vector<float> out(1024);
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    thrust::transform(d.begin(), d.end(), d.begin(), thrust::negate<float>());
    thrust::sort(d.begin(), d.end());
    total += thrust::reduce(d.begin(), d.end());
    // CHECK: :[[@LINE-1]]:22: warning: host sync: 'reduce()'{{.*}} [seam-host-sync]
    total += thrust::reduce(thrust::device, d.begin(), d.end(), 0.0f);
    // CHECK: :[[@LINE-1]]:22: warning: host sync: 'reduce()'{{.*}} [seam-host-sync]
    total += thrust::reduce(h.begin(), h.end());  // host memory
    total += thrust::reduce(thrust::host, h.begin(), h.end(), 0.0f);
    total += thrust::count(d.begin(), d.end(), 1.0f);
    // CHECK: :[[@LINE-1]]:22: warning: host sync: 'count()'{{.*}} [seam-host-sync]
    auto it = thrust::max_element(d.begin(), d.end());
    // CHECK: :[[@LINE-1]]:23: warning: host sync: 'max_element()'{{.*}} [seam-host-sync]
    float first = d[0];
    // CHECK: :[[@LINE-1]]:19: warning: host sync: conversion to 'float'{{.*}} [seam-host-sync]
    float h0 = h[0];                              // a host element
    std::cout << d[1];
    // CHECK: :[[@LINE-1]]:15: warning: host sync: printing 'd[1]' with '<<'{{.*}} [seam-host-sync]
    thrust::copy(d.begin(), d.end(), h.begin());
    // CHECK: :[[@LINE-1]]:13: warning: host sync: 'copy()'{{.*}} [seam-host-sync]
    thrust::copy(d.begin(), d.end(), out.data());
    // CHECK: :[[@LINE-1]]:13: warning: host sync: 'copy()'{{.*}} [seam-host-sync]
    thrust::copy(h.begin(), h.end(), d.begin());  // host to device
    thrust::host_vector<float> back = d;
    // CHECK: :[[@LINE-1]]:39: warning: host sync: constructing a 'thrust::host_vector'{{.*}} [seam-host-sync]
    thrust::host_vector<float> again(h);          // host to host
    total += back[0] + again[0];
    total += first + h0 + (it - d.begin());
  }
  return total;
}
