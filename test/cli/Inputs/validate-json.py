"""Checks the shape of `seam validate --format json` (docs/runtime.md)."""
import json
import sys

doc = json.load(sys.stdin)
assert doc["version"] == 1, doc
assert doc["verdict"] in ("pass", "fail", "unchecked"), doc["verdict"]
assert isinstance(doc["program"], list) and doc["program"], doc["program"]
assert set(doc["profile"]) == {"name", "source"}, doc["profile"]
assert "device_idle_us" in doc["runtime_totals"], doc["runtime_totals"]
for site in doc["sites"]:
    for key in ("file", "line", "kind", "rule", "predicted", "measured",
                "status", "outside", "idle_ratio"):
        assert key in site, (key, site)
    assert site["kind"] in ("site", "region"), site
    assert site["status"] in ("match", "outside", "unpredicted", "never-ran",
                              "unchecked"), site
    if site["predicted"] is not None:
        assert "executions" in site["predicted"], site
    if site["measured"] is not None:
        for key in ("executions", "syncs", "graph_breaks", "pieces",
                    "recompiles", "host_wait_us", "device_idle_us",
                    "idle_per_execution_us"):
            assert key in site["measured"], (key, site)
# One line per site, each named once.
lines = [(s["file"], s["line"], s["kind"]) for s in doc["sites"]]
assert len(lines) == len(set(lines)), lines
for site in doc["sites"]:
    print("%s:%d %s %s pred=%s meas=%s %s" % (
        site["file"].rsplit("/", 1)[-1], site["line"], site["kind"],
        ",".join(site["rule"]),
        site["predicted"] and site["predicted"]["executions"],
        site["measured"] and site["measured"]["executions"],
        site["status"] if site["status"] != "outside" or
        site["outside"] != ["idle_per_execution_us"] else "idle-only"))
print("verdict", doc["verdict"])
