#!/usr/bin/env python3
"""Checks the shape of `seam check --format json` output (docs/cli.md) and
prints one summary line per result for FileCheck."""
import json
import sys

doc = json.load(open(sys.argv[1]))
assert doc["format"] == "seam-results" and doc["version"] == 1, doc
assert doc["tool"]["name"] == "seam"
assert isinstance(doc["rulePacks"], list) and doc["rulePacks"]
assert isinstance(doc["errors"], list)
LOC = {"file": str, "line": int, "column": int, "endLine": int, "endColumn": int}
def check_loc(l):
    assert set(l) == set(LOC), l
    for k, t in LOC.items():
        assert isinstance(l[k], t), (k, l)
KEYS = {"ruleId", "level", "message", "location", "trigger", "residency",
        "region", "function", "api", "hotPath", "path", "cost", "fingerprint", "details",
        "fix", "noFix", "suggestion"}
assert isinstance(doc["baselined"], int) and isinstance(doc["notes"], list)
assert set(doc["cache"]) == {"hits", "misses"}, doc["cache"]
for r in doc["results"]:
    assert set(r) == KEYS, set(r) ^ KEYS
    check_loc(r["location"])
    assert len(r["fingerprint"]) == 16, r["fingerprint"]
    assert r["level"] in ("note", "warning", "error")
    assert r["region"] is None or isinstance(r["region"], str)
    # A fix, or the reason there is none (errors have neither).
    if r["fix"] is not None:
        assert r["noFix"] is None, r
        f = r["fix"]
        assert set(f) == {"kind", "description", "effect", "edits"}, f
        assert f["edits"], f
        for e in f["edits"]:
            assert set(e) == {"file", "offset", "length", "line", "column",
                              "endLine", "endColumn", "text"}, e
    else:
        assert r["noFix"] is None or isinstance(r["noFix"], str), r
    for p in r["path"]:
        assert set(p) == {"message", "location", "kind"}
        assert p["kind"] in ("call", "context")
        check_loc(p["location"])
    c = r["cost"]
    print("result: %s %d:%d %s %s region=%s hot=%s path=%s cost=%s/%s" % (
        r["ruleId"], r["location"]["line"], r["location"]["column"],
        r["trigger"], r["residency"], r["region"], r["hotPath"],
        ",".join(p["kind"] for p in r["path"]), c["profile"],
        c["idleMicrosPerExecution"]))
for row in doc["summary"]:
    assert row["kind"] in ("region", "loop") and 0 <= row["rank"] <= 100, row
    check_loc(row["location"])
for e in doc["errors"]:
    assert set(e) == {"input", "message"}
    print("error: %s" % e["message"])
print("valid: %d results, %d summary rows" % (len(doc["results"]), len(doc["summary"])))
