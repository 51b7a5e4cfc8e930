// What GitHub code scanning reads from the SARIF: URIs relative to
// %SRCROOT% (--sarif-root), automationDetails from --sarif-category,
// partialFingerprints, and columns in UTF-16 code units on a line with
// non-ASCII text before the hazard.
// RUN: rm -rf %t && mkdir -p %t/repo/src && cp %s %t/repo/src/model.cpp
// RUN: cd %t && not %seam check --sarif-root %t/repo --sarif-category seam/cpu --format sarif -o %t/out.sarif %t/repo/src/model.cpp -- %mock
// RUN: %python %inputs/check_sarif.py %t/out.sarif %inputs/sarif-schema-2.1.0.json | FileCheck %s
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(r['automationDetails']['id'], r['originalUriBaseIds']['%%SRCROOT%%']['uri'].endswith('/repo/'), r['results'][0]['locations'][0]['physicalLocation']['artifactLocation']['uriBaseId']); print(r['results'][0]['message']['text'])" %t/out.sarif | FileCheck %s --check-prefix=FIELDS
// More than 5,000 results: the lowest-ranked are cut, with a notification.
// RUN: %python -c "print('#include <torch/torch.h>\nvoid f(torch::Tensor x) {\n  for (int i = 0; i < 2; ++i) {\n' + '    x.item<float>();\n' * 5003 + '  }\n}')" > %t/many.cpp
// RUN: not %seam check --format sarif -o %t/many.sarif %t/many.cpp -- %mock
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print(len(r['results'])); print(r['invocations'][0]['toolExecutionNotifications'][0]['message']['text'])" %t/many.sarif | FileCheck %s --check-prefix=CUT
// CUT: 5000
// CUT-NEXT: 3 lower-ranked results were left out: GitHub code scanning shows at most 5000 per run; the JSON format has them all
#include <torch/torch.h>

void train(torch::Tensor größe) {
  for (int i = 0; i < 10; ++i) {
    float v = größe.item<float>();
  }
}

// 'item' is at UTF-16 column 21 (and code point column 21), but at byte
// column 23: 'ö' and 'ß' take two bytes each.
// CHECK: result: seam-host-sync warning src/model.cpp:19:21-34
// CHECK-NEXT: related: 18:3 inside this loop
// FIELDS: seam/cpu/ True %SRCROOT%
// FIELDS-NEXT: host sync: '.item()' reads 'größe' {{.*}} (see [loop](1))

// Rule links: never a file:// path of the machine that ran Seam (a dead link
// in code review); the published docs when SEAM_DOCS_URL names them.
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; d=r['tool']['driver']; print('links:', sorted(set(u.split(':')[0] for u in [d.get('informationUri', 'https:')] + [x.get('helpUri', 'https:') for x in d['rules']])))" %t/out.sarif | FileCheck %s --check-prefix=NO-FILE-LINKS
// NO-FILE-LINKS: links: ['https']
// RUN: cd %t && env SEAM_DOCS_URL=https://docs.example.org/seam/ %seam check --fail-on=none --format sarif -o %t/web.sarif %t/repo/src/model.cpp -- %mock
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; d=r['tool']['driver']; print(d['informationUri']); print(d['rules'][1]['helpUri'])" %t/web.sarif | FileCheck %s --check-prefix=WEB-LINKS
// WEB-LINKS: https://docs.example.org/seam/getting-started.md
// WEB-LINKS-NEXT: https://docs.example.org/seam/rules/seam-host-sync.md
