#!/usr/bin/env python3
"""Compares the results of two SARIF files (rule, place, level, message,
code flow), whatever their order. Exit 1 and the difference when they
differ."""
import json
import sys


def results(path):
    run = json.load(open(path))["runs"][0]
    out = []
    for r in run["results"]:
        loc = r["locations"][0]["physicalLocation"]
        out.append(json.dumps([r["ruleId"], r["level"], loc["artifactLocation"]["uri"],
                               loc["region"]["startLine"], loc["region"]["startColumn"],
                               r["message"]["text"], r.get("codeFlows"),
                               r["partialFingerprints"]], sort_keys=True))
    return sorted(out)


a, b = results(sys.argv[1]), results(sys.argv[2])
if a != b:
    for x in sorted(set(a) ^ set(b)):
        print(("only in first: " if x in a else "only in second: ") + x[:300])
    sys.exit(1)
print("same %d results" % len(a))
