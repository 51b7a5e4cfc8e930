// SARIF validates against the 2.1.0 schema and carries every property; the
// JSON format has its documented shape. Text is covered by the rule tests.
// RUN: not %seam check --profile %inputs/profiles/test.json --format sarif -o %t.sarif %s -- %mock
// RUN: %python %inputs/check_sarif.py %t.sarif %inputs/sarif-schema-2.1.0.json | FileCheck %s --check-prefix=SARIF
// RUN: not %seam check --profile %inputs/profiles/test.json --format json %s -- %mock > %t.json
// RUN: %python %inputs/check_json.py %t.json | FileCheck %s --check-prefix=JSON
// RUN: %expect_exit 2 %seam check --format sarif -o %t2.sarif %s %S/missing.cpp -- %mock
// RUN: %python %inputs/check_sarif.py %t2.sarif %inputs/sarif-schema-2.1.0.json | FileCheck %s --check-prefix=SARIF-ERR
// RUN: %expect_exit 2 %seam check --format json %s %S/missing.cpp -- %mock > %t2.json
// RUN: %python %inputs/check_json.py %t2.json | FileCheck %s --check-prefix=JSON-ERR
#include <iostream>
#include <torch/torch.h>

[[clang::annotate("seam.compiled")]] torch::Tensor step(torch::Tensor x) {
  std::cout << x;
  return x * 2;
}

float helper(const torch::Tensor &t) { return t.item<float>(); }

void train(int n) {
  auto x = torch::randn({4}, torch::kCUDA);
  for (int i = 0; i < n; ++i) {
    helper(x);
    auto c = x.cpu();
  }
}

// Results come costliest first (rank), URIs relative to the git top level.
// SARIF: rules: seam-graph-break=warning seam-host-sync=warning seam-capture-sync=error clang-diagnostic-error=error seam-nolint=error
// SARIF-NEXT: result: seam-host-sync warning test/report/formats.cpp:19:49-62 trigger=scalar-read residency=device region=- related=2 flow=3 rank=55
// SARIF-NEXT: related: 23:3 inside this loop, which runs the call every iteration
// SARIF-NEXT: related: 24:5 'helper' called here, from 'train'
// SARIF-NEXT: result: seam-host-sync warning test/report/formats.cpp:25:16-21 trigger=host-copy residency=device region=- related=1 flow=0 rank=55
// SARIF-NEXT: related: 23:3
// SARIF-NEXT: result: seam-host-sync warning test/report/formats.cpp:15:13-17 trigger=print residency=unknown region=- related=1 flow=0 rank=27
// SARIF-NEXT: related: 14:52
// SARIF-NEXT: result: seam-graph-break warning test/report/formats.cpp:15:13-17 trigger=print residency=unknown region=step related=1 flow=0 rank=22
// SARIF-NEXT: related: 14:52 compiled region 'step' begins here (annotated as a compiled region)
// SARIF: valid: 4 results

// JSON: result: seam-graph-break 15:13 print unknown region=step hot=region path=context
// JSON: result: seam-host-sync 19:49 scalar-read device region=None hot=loop path=context,call cost=test/20.0
// JSON: valid: 4 results, 2 summary rows

// SARIF-ERR: valid: 4 results
// JSON-ERR: error: no such file: '{{.*}}missing.cpp'
// JSON-ERR: valid: 4 results
