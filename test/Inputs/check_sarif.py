#!/usr/bin/env python3
"""Validates a SARIF file against the SARIF 2.1.0 schema and Seam's own
promises, then prints one summary line per result for FileCheck."""
import json
import re
import sys

import jsonschema

sarif_path, schema_path = sys.argv[1], sys.argv[2]
doc = json.load(open(sarif_path))
schema = json.load(open(schema_path))
validator = jsonschema.validators.validator_for(schema)
validator.check_schema(schema)
validator(schema).validate(doc)

run = doc["runs"][0]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
assert ids == ["seam-graph-break", "seam-host-sync", "seam-capture-sync",
               "clang-diagnostic-error", "seam-nolint"], ids
# What GitHub code scanning reads.
assert run["columnKind"] == "utf16CodeUnits", run["columnKind"]
for r in rules:
    for key in ("shortDescription", "fullDescription", "help"):
        assert r[key]["text"], (r["id"], key)
    assert r["help"]["markdown"].startswith("# " + r["id"]), r["id"]
    # A link only where a reviewer can open it (never a file:// path of the
    # machine that ran Seam).
    if "helpUri" in r:
        assert r["helpUri"].startswith(("https://", "http://")), r["helpUri"]
        assert r["helpUri"].endswith("/rules/%s.md" % r["id"]), r["helpUri"]
    assert r["defaultConfiguration"]["level"] in ("warning", "error")
print("rules:", " ".join("%s=%s" % (r["id"], r["defaultConfiguration"]["level"]) for r in rules))

for res in run["results"]:
    assert ids[res["ruleIndex"]] == res["ruleId"]
    loc = res["locations"][0]["physicalLocation"]
    region = loc["region"]
    props = res["properties"]
    fp = res["partialFingerprints"]["seam/v1"]
    assert len(fp) == 16 and int(fp, 16) >= 0, fp
    related = res.get("relatedLocations", [])
    links = [int(m) for m in re.findall(r"(?<!\\)\[[^\]]*\]\((\d+)\)", res["message"]["text"])]
    assert sorted(links) == sorted(r["id"] for r in related), (links, related)
    if res["ruleId"] in ("clang-diagnostic-error", "seam-nolint"):
        print("result: %s %s %s:%d:%d" % (res["ruleId"], res["level"],
              loc["artifactLocation"]["uri"], region.get("startLine", 0),
              region.get("startColumn", 0)))
        continue
    assert props["trigger"] in ("scalar-read", "host-copy", "print",
                                "dynamic-shape", "explicit-sync"), props
    assert props["residency"] in ("device", "unknown", "host"), props
    if res["ruleId"] == "seam-graph-break":
        assert props["region"], props
    cost = props["cost"]
    for key, types in (("profile", str), ("regionPieces", int),
                       ("opsPerPiece", list), ("fusionGroupsCut", int),
                       ("extraLaunches", int), ("idleMicrosPerExecution", (int, float)),
                       ("bytesMaterialized", (int, float, type(None))),
                       ("tripCount", (int, float, type(None))),
                       ("idleMicrosTotal", (int, float, type(None)))):
        assert isinstance(cost[key], types), (key, cost)
    assert 0 <= res["rank"] <= 100 and res["rank"] == cost["rank"], res
    flows = res.get("codeFlows", [])
    steps = len(flows[0]["threadFlows"][0]["locations"]) if flows else 0
    print("result: %s %s %s:%d:%d-%d trigger=%s residency=%s region=%s related=%d flow=%d rank=%d" % (
        res["ruleId"], res["level"], loc["artifactLocation"]["uri"],
        region["startLine"], region["startColumn"], region.get("endColumn", 0),
        props["trigger"], props["residency"], props.get("region", "-"),
        len(related), steps, res["rank"]))
    for r in related:
        print("  related: %d:%d %s" % (
            r["physicalLocation"]["region"]["startLine"],
            r["physicalLocation"]["region"]["startColumn"], r["message"]["text"]))
print("valid: %d results" % len(run["results"]))
