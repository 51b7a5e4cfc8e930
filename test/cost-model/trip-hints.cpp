// --trips NAME=COUNT (and Trips in .seam.yaml): a loop whose bound reads a
// variable, parameter or member by that name runs COUNT times, so its
// execution count and total are known; without the hint they are not.
// RUN: not %seam check --summary %s -- %mock | FileCheck %s --check-prefix=NONE
// NONE: loop train {{.*}} ? -
// RUN: not %seam check --summary --trips num_steps=1000 --trips epochs=3 --trips loader=50 %s -- %mock | FileCheck %s --check-prefix=HINT
// HINT: trip-hints.cpp:23:12: warning: host sync
// HINT: note: ~30.6 ms device idle per 3000 iterations of the loop
// HINT: trip-hints.cpp:27:{{[0-9]+}}: warning: host sync
// HINT: note: ~{{[0-9]+}} us device idle per 50 iterations of the loop
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/t.cpp && printf 'Trips:\n  num_steps: 1000\n  epochs: 3\n' > %t/.seam.yaml
// RUN: not %seam check --no-cache --summary %t/t.cpp -- %mock | FileCheck %s --check-prefix=CONFIG
// CONFIG: note: ~30.6 ms device idle per 3000 iterations of the loop
// RUN: %expect_exit 2 %seam check --trips 'num_steps=many' %s -- %mock 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: seam: error: invalid --trips 'num_steps=many': expected a whole number of iterations after '='
#include <memory>
#include <torch/torch.h>
#include <vector>
struct Config { int epochs() const; };
void train(const Config &cfg, int num_steps, torch::Tensor loss) {
  for (int e = 0; e < cfg.epochs(); ++e)
    for (int i = 0; i < num_steps; ++i)
      loss.item<float>();
}
void batches(std::shared_ptr<std::vector<torch::Tensor>> loader) {
  for (auto &b : *loader)
    b.sum().item<float>();
}
