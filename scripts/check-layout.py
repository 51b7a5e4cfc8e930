#!/usr/bin/env python3
"""Checks that Seam's source layout is the one docs/architecture.md states.

1. The stage table of docs/architecture.md names each folder of lib/ once,
   and no other folder.
2. Data flows one way: a file in lib/<Stage> includes only headers of its
   own stage and of stages listed above it in the table ("lib/Runtime",
   seam::rt, includes no analysis stage and none includes it but the
   driver, which runs programs on it).

Usage: check-layout.py [REPO]   (exit 1 and one line per problem)
"""
import os
import re
import sys

repo = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
doc = open(os.path.join(repo, "docs", "architecture.md"), encoding="utf-8").read()
section = doc.split("## Stages", 1)[1].split("\n## ", 1)[0]
order = []
for line in section.splitlines():
    m = re.match(r"\|\s*\d+\s*\|[^|]*\|\s*`lib/(\w+)`", line)
    if m:
        order.append(m.group(1))
problems = []
lib = os.path.join(repo, "lib")
folders = sorted(d for d in os.listdir(lib)
                 if os.path.isdir(os.path.join(lib, d)))
for d in folders:
    if d not in order:
        problems.append("lib/%s is not in docs/architecture.md's stage table" % d)
for d in order:
    if order.count(d) > 1:
        problems.append("lib/%s is in the stage table twice" % d)
    if d not in folders:
        problems.append("the stage table names lib/%s, which does not exist" % d)
rank = {d: i for i, d in enumerate(order)}
include = re.compile(r'^\s*#\s*include\s+"(\w+)/[^"]+"', re.M)
for d in folders:
    if d not in rank:
        continue
    for root, _, files in os.walk(os.path.join(lib, d)):
        for f in sorted(files):
            if not f.endswith((".h", ".cpp", ".def", ".inc")):
                continue
            path = os.path.join(root, f)
            text = open(path, encoding="utf-8", errors="replace").read()
            for m in include.finditer(text):
                to = m.group(1)
                if to not in rank or to == d:
                    continue  # clang/, llvm/, seam/ (the runtime's API), ...
                if to == "Runtime" or d == "Runtime":
                    if not (d == "Driver" and to == "Runtime"):
                        problems.append("%s includes %s/ (seam::rt is "
                                        "separate from the analysis)" %
                                        (os.path.relpath(path, repo), to))
                    continue
                if rank[to] > rank[d]:
                    problems.append("%s includes %s/, a later stage than %s/"
                                    % (os.path.relpath(path, repo), to, d))
for p in problems:
    print("check-layout: " + p)
if not order:
    print("check-layout: no stage table found in docs/architecture.md")
    sys.exit(1)
sys.exit(1 if problems else 0)
