#!/bin/sh
# How often `seam validate --tolerance 25%` gives each line the same status
# (match, outside, noisy) over N back-to-back validations, with --repeat R
# (the default 5) against --repeat 1 (one run, as before --repeat). Timings,
# not tests: docs/cost-model.md ("Validation against seam::rt") has a table.
#
#   bench/validate/stability.sh [BUILD_DIR] [N] [R]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
n=${2:-10}
repeat=${3:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$root/bench/validate/common.sh"
for r in 1 "$repeat"; do
  validate_each "$root" "$build" "$n" "$out/r$r." --repeat "$r" --tolerance 25%
done
python3 - "$out" "$repeat" <<'PY'
import collections, glob, json, os, sys
out, repeat = sys.argv[1], sys.argv[2]
for r in ["1", repeat]:
    lines = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(out, "r%s.*.json" % r))):
        for s in json.load(open(path))["sites"]:
            if s["kind"] != "site" or not s["measured"] or not s["predicted"]:
                continue
            lines[(os.path.basename(s["file"]), s["line"])].append(s["status"])
    print("--repeat %s: line, same status k of n, statuses" % r)
    for key in sorted(lines):
        st = lines[key]
        top, k = collections.Counter(st).most_common(1)[0]
        print("  %s:%d  %d/%d  %s" % (key[0], key[1], k, len(st),
                                     dict(collections.Counter(st))))
PY
