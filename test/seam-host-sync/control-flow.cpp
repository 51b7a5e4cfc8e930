// Control flow comes from Clang's CFG: macros built on do/while(0) are not
// loops, paths that leave do not flow on, loop back edges carry state, and
// switch, goto, try/catch and ?: are followed as they run.
// RUN: not %seam check %s -- %mock | FileCheck %s --implicit-check-not='[seam-'
#include <torch/torch.h>

#define MY_CHECK(c)                                                            \
  do {                                                                         \
    if (!(c))                                                                  \
      throw 1;                                                                 \
  } while (0)
#define LOG_ONCE(x)                                                            \
  while (false) {                                                              \
    (void)(x);                                                                 \
  }

void may_throw();

// A do/while(0) macro outside a loop is one-off code: no result.
void setup(torch::Tensor w) {
  MY_CHECK(w.max().item<float>() < 10);
  LOG_ONCE(w.min().item<float>());
}

// The same macro inside a real loop runs every iteration.
void check_each(torch::Tensor w) {
  for (int i = 0; i < 10; ++i)
    MY_CHECK(w.max().item<float>() < 10);
  // CHECK: :[[@LINE-1]]:22: warning: {{.*}} [seam-host-sync]
  // CHECK: :[[@LINE-3]]:3: note: inside this loop, which runs it every iteration
}

// The device branch returns: the loop only ever sees the host tensor.
int early_return(bool gpu) {
  auto x = torch::zeros({4});
  if (gpu) {
    x = x.cuda();
    return 0;
  }
  float acc = 0;
  for (int i = 0; i < 10; ++i)
    acc += x.sum().item<float>();
  return acc;
}

// Without the return, the device value reaches the loop.
int no_return(bool gpu) {
  auto x = torch::zeros({4});
  if (gpu)
    x = x.cuda();
  float acc = 0;
  for (int i = 0; i < 10; ++i)
    acc += x.sum().item<float>();
  // CHECK: :[[@LINE-1]]:20: warning: {{.*}} [seam-host-sync]
  return acc;
}

// Thrown and continued paths end where they leave, too.
void throw_and_continue(bool gpu) {
  auto x = torch::zeros({4});
  if (gpu) {
    x = x.cuda();
    throw 1;
  }
  for (int i = 0; i < 10; ++i) {
    auto y = torch::ones({2});
    if (i % 2) {
      y = y.cuda();
      continue;
    }
    x.sum().item<float>();
    y.sum().item<float>();
  }
}

// A move at the end of an iteration reaches the next one.
void loop_carried() {
  auto x = torch::zeros({4});
  for (int i = 0; i < 10; ++i) {
    x.sum().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
    x = x.cuda();
  }
}

// `break` carries a device value out of the inner loop; the sync before
// the move never sees it.
void break_out() {
  for (int e = 0; e < 3; ++e) {
    auto h = torch::zeros({2});
    for (int i = 0; i < 4; ++i) {
      h.sum().item<float>();
      if (i == 2) {
        h = h.cuda();
        break;
      }
    }
    h.sum().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
  }
}

// switch: a case that moves and breaks joins the others; one that returns
// does not.
float by_mode(int mode) {
  auto a = torch::zeros({2});
  auto b = torch::zeros({2});
  switch (mode) {
  case 0:
    a = a.cuda();
    break;
  case 1:
    b = b.cuda();
    return 0;
  default:
    break;
  }
  float s = 0;
  for (int i = 0; i < 4; ++i) {
    s += a.sum().item<float>();
    // CHECK: :[[@LINE-1]]:18: warning: {{.*}} [seam-host-sync]
    s += b.sum().item<float>();
  }
  return s;
}

// A loop made with goto is a loop.
void goto_loop(torch::Tensor t) {
  int n = 0;
again:
  t.sum().item<float>();
  // CHECK: :[[@LINE-1]]:11: warning: {{.*}} [seam-host-sync]
  // CHECK: :[[@LINE-3]]:1: note: inside this loop, which runs it every iteration
  if (++n < 10)
    goto again;
}

// A catch handler may start from any point of its try block.
void catches() {
  for (int i = 0; i < 4; ++i) {
    auto x = torch::zeros({2});
    try {
      x = x.cuda();
      may_throw();
    } catch (...) {
      x.sum().item<float>();
      // CHECK: :[[@LINE-1]]:15: warning: {{.*}} [seam-host-sync]
    }
    auto h = torch::zeros({2});
    try {
      may_throw();
    } catch (...) {
      h.sum().item<float>();
    }
  }
}

// The conditional operator and short-circuit operators join their arms.
void conditional(bool gpu) {
  auto x = torch::zeros({2});
  auto host = torch::zeros({2});
  for (int i = 0; i < 4; ++i) {
    auto y = gpu ? x.cuda() : x;
    y.sum().item<float>();
    // CHECK: :[[@LINE-1]]:13: warning: {{.*}} [seam-host-sync]
    auto z = gpu ? host.cpu() : host;
    z.sum().item<float>();
    bool ok = gpu && (x = x.cuda()).defined();
    (void)ok;
  }
}

// Code after an infinite loop or a return never runs.
void dead_code(torch::Tensor t) {
  for (int i = 0; i < 3; ++i) {
    continue;
    t.sum().item<float>();
  }
}

// A for-init runs before the loop, not in it; a sync followed by `break`
// is in the loop but runs at most once per loop: neither is made hot by
// that loop (at-most-once.cpp has more).
void once(torch::Tensor t) {
  for (float v = t.sum().item<float>(); v > 0; v -= 1)
    (void)v;
  for (int i = 0; i < 4; ++i) {
    if (t.defined()) {
      t.max().item<float>();
      break;
    }
  }
}

// Inside an outer loop the same line runs once per outer iteration, and is
// costed at most once per run of the inner loop.
void once_each(torch::Tensor t) {
  for (int e = 0; e < 2; ++e) {
    for (int i = 0; i < 4; ++i) {
      if (t.defined()) {
        t.max().item<float>();
        // CHECK: :[[@LINE-1]]:17: warning: {{.*}}; ~{{[0-9.]+}} us device idle per execution, once per loop (profile h100) [seam-host-sync]
        // CHECK: note: ~{{[0-9.]+}} us device idle per 8 iterations of the loop
        // CHECK: :[[@LINE-6]]:3: note: inside this loop, which runs it every iteration
        break;
      }
    }
  }
}
