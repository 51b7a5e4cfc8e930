#!/usr/bin/env python3
"""Scaffolds a new Seam rule, as clang-tidy's add_new_check.py does.

  scripts/add-rule.py seam-print-in-loop "Printing a device tensor in a loop."

Creates or edits the five files a rule is made of (docs/architecture.md,
"Adding a rule"):
  lib/Rules/<id>.cpp       the rule: what it selects, severity, message, traits
  lib/Rules/Registry.cpp   one declaration and one entry in the list
  lib/CMakeLists.txt       the source file
  docs/rules/<id>.md       its page: embedded as SARIF help, `seam explain`
  test/<id>/<id>.cpp       a lit test (test/CMakeLists.txt finds the folder)
The clang-tidy plugin registers every rule of the registry, --list-checks and
SARIF list it, and `seam explain` shows it: nothing else names a rule.
"""
import os
import re
import sys

if len(sys.argv) != 3 or not re.fullmatch(r"seam-[a-z0-9]+(-[a-z0-9]+)*",
                                          sys.argv[1]):
    sys.exit("usage: add-rule.py seam-<name> '<one-line summary>'")
rule_id, summary = sys.argv[1], sys.argv[2].strip()
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
words = rule_id[len("seam-"):].split("-")
pascal = "".join(w.capitalize() for w in words)
func = words[0] + "".join(w.capitalize() for w in words[1:]) + "Rule"


def path(*parts):
    return os.path.join(repo, *parts)


def create(rel, text):
    p = path(rel)
    if os.path.exists(p):
        sys.exit("add-rule: %s exists already" % rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)
    print("created  " + rel)


def edit(rel, anchor, text, before=False):
    p = path(rel)
    s = open(p, encoding="utf-8").read()
    if anchor not in s:
        sys.exit("add-rule: %s has no '%s' to add after" % (rel, anchor.strip()))
    s = s.replace(anchor, text + anchor if before else anchor + text, 1)
    with open(p, "w", encoding="utf-8") as f:
        f.write(s)
    print("edited   " + rel)


title = "//===- %s.cpp - %s " % (rule_id, summary.rstrip("."))
title = (title[:76] if len(title) > 76 else title.ljust(76, "-")) + "===//"
create("lib/Rules/%s.cpp" % rule_id, """%s
//
// Selects: FIXME, the sites this rule reports. Severity: warning. Docs:
// docs/rules/%s.md; tests: test/%s/.
//
//===----------------------------------------------------------------------===//
#include "Rules/Rule.h"

namespace seam {
namespace {

class %sRule : public Rule {
public:
  const RuleInfo &info() const override {
    // Its prose is docs/rules/%s.md.
    static const RuleInfo Info =
        withTraits({"%s", "%s", "%s", Level::Warning, /*Selectable=*/true},
                   Hazard::HostSync, /*Validated=*/false);
    return Info;
  }

  bool check(const RuleInput &In, Finding &F) const override {
    // FIXME: select the sites this rule is about. This scaffold reports a
    // host read of device data inside a loop, as a starting point.
    if (!maySync(In.Site.Where) || In.Where.LocalLoops.empty())
      return false;
    F.Severity = Level::Warning;
    F.Message = "%s: " + actionPhrase(In.Site);
    addRuleSource(In.Site, F.Details);
    F.Path = toNotes(In.SM, In.LO, In.Where.HotPath);
    F.HotReason = hotReason(In.Where.HotPath);
    return true;
  }
};

} // namespace

const Rule &%s() {
  static const %sRule R;
  return R;
}

} // namespace seam
""" % (title, rule_id, rule_id, pascal, rule_id, rule_id, pascal, summary,
       rule_id[len("seam-"):].replace("-", " "), func, pascal))

edit("lib/Rules/Registry.cpp", "// One line per rule, defined in lib/Rules/<rule id>.cpp.\n",
     "const Rule &%s(); // %s.cpp\n" % (func, rule_id))
edit("lib/Rules/Registry.cpp", "};\n  return Rules;", ", &%s()" % func,
     before=True)
edit("lib/CMakeLists.txt", "  Rules/RuleSupport.cpp\n", "  Rules/%s.cpp\n" % rule_id)
create("docs/rules/%s.md" % rule_id, """# %s

**Default severity:** warning. **Properties:** `trigger`, `residency`.

## What it finds

%s FIXME: the calls and contexts it selects, with an example.

## Why it costs

FIXME: what the device and the host do, in the cost model's terms
([cost-model.md](../cost-model.md)).

## How to fix

FIXME: the rewrite, and when to silence it with `// NOLINT(%s)`.

## Before

```cpp
FIXME: code this rule reports
```

## After

```cpp
FIXME: the same code, fixed
```
""" % (rule_id, summary, rule_id))
create("test/%s/%s.cpp" % (rule_id, rule_id), """// %s
// RUN: not %%seam check %%s --checks='-*,%s' -- %%mock | FileCheck %%s --implicit-check-not='[seam-'
#include <torch/torch.h>

float loop(torch::Tensor x) {
  float s = 0;
  for (int i = 0; i < 10; ++i)
    s += x.sum().item<float>();
  // CHECK: :[[@LINE-1]]:18: warning: %s: '.item()' reads 'x.sum()' on the host{{.*}} [%s]
  return s;
}
""" % (summary, rule_id, rule_id[len("seam-"):].replace("-", " "), rule_id))
print("next: write the FIXMEs, build, and run lit on test/%s" % rule_id)
