#!/bin/sh
# Runs `seam validate` on the runtime's examples and the validate probes,
# RUNS times each (default 5), and prints per line the predicted idle per
# execution, the measured median, their ratio, and whether the counts
# matched, with the range over the runs. Timings, not tests: see
# docs/cost-model.md ("Validation against seam::rt") for a measured table.
#
#   bench/validate/run.sh [BUILD_DIR] [RUNS]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$root/bench/validate/common.sh"
validate_each "$root" "$build" "$runs" "$out/"
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    doc = json.load(open(path))
    for s in doc["sites"]:
        p, m = s["predicted"], s["measured"]
        if not p or not m or s["kind"] != "site":
            continue
        key = (os.path.basename(s["file"]), s["line"])
        r = rows.setdefault(key, {"runs": m["executions"], "pred": [],
                                  "meas": [], "counts": True})
        r["counts"] &= not (set(s["outside"]) - {"idle_per_execution_us"})
        if p["idle_per_execution_us"] and m["idle_per_execution_us"]:
            r["pred"].append(p["idle_per_execution_us"])
            r["meas"].append(m["idle_per_execution_us"])
print("%-18s %5s %7s %17s %17s %13s %7s" % (
    "line", "runs", "counts", "predicted us", "measured us", "ratio", "in 25%"))
for (f, l), r in sorted(rows.items()):
    if not r["pred"]:
        continue
    ratios = [a / b for a, b in zip(r["pred"], r["meas"])]
    inside = sum(1 for x in ratios if abs(x - 1) <= 0.25)
    rng = lambda v: "%.1f-%.1f" % (min(v), max(v))
    print("%-18s %5d %7s %17s %17s %13s %4d/%d" % (
        "%s:%d" % (f, l), r["runs"], "exact" if r["counts"] else "DIFFER",
        rng(r["pred"]), rng(r["meas"]), "%.2f-%.2f" % (min(ratios), max(ratios)),
        inside, len(ratios)))
PY
