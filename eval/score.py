#!/usr/bin/env python3
"""Scores `seam check` against the labelled corpora in this folder.

Usage: python3 eval/score.py [--seam build/bin/seam] [corpus-a corpus-b ...]

Each corpus folder holds LibTorch sources and labels.json: file -> {"args":
[extra seam flags], "expected": [{"rule", "line", "column"}]}. A result
matches a label when file, rule and line agree; columns are compared
separately. Needs Debian's libtorch-dev headers. This is an accuracy
evaluation, not a test: it takes ~10 s per file. See eval/README.md."""
import argparse
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BASE = ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include",
        "-I" + os.path.join(REPO, "include")]
CUDA = ["-isystem", os.path.join(REPO, "test", "Inputs", "cuda-stub")]
RULES = ["seam-graph-break", "seam-host-sync", "seam-capture-sync"]


def run(seam, path, args):
    src = open(path).read()
    flags = BASE + (CUDA if any(h in src for h in
                                ("ATen/cuda", "c10/cuda", "cuda_runtime"))
                    else [])
    p = subprocess.run([seam, "check", "--format", "json"] + args + [path,
                       "--"] + flags, capture_output=True, text=True)
    if p.returncode == 2 or not p.stdout.strip():
        return None, p.stderr.strip().splitlines()[-1:] or ["exit 2"]
    doc = json.loads(p.stdout)
    return [(r["ruleId"], r["location"]["line"], r["location"]["column"])
            for r in doc["results"] if r["level"] != "note"], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seam", default=os.path.join(REPO, "build", "bin", "seam"))
    ap.add_argument("corpora", nargs="*", default=["corpus-a", "corpus-b"])
    opts = ap.parse_args()
    counts = collections.defaultdict(lambda: [0, 0, 0])  # tp, fp, fn
    misses, colmiss, errors = [], 0, 0
    for corpus in opts.corpora:
        folder = os.path.join(HERE, corpus)
        labels = json.load(open(os.path.join(folder, "labels.json")))
        for name, spec in sorted(labels.items()):
            got, err = run(opts.seam, os.path.join(folder, name), spec["args"])
            if got is None:
                errors += 1
                misses.append("ERROR %s/%s: %s" % (corpus, name, err[0]))
                continue
            want = [(e["rule"], e["line"], e["column"]) for e in spec["expected"]]
            left = list(got)
            for rule, line, col in want:
                hit = next((g for g in left if g[0] == rule and g[1] == line), None)
                if hit:
                    left.remove(hit)
                    counts[rule][0] += 1
                    if hit[2] != col:
                        colmiss += 1
                        misses.append("COL %s/%s:%d: labelled column %d, "
                                      "reported %d %s" % (corpus, name, line,
                                                          col, hit[2], rule))
                else:
                    counts[rule][2] += 1
                    misses.append("FN %s/%s:%d:%d %s" % (corpus, name, line, col, rule))
            for rule, line, col in left:
                counts[rule][1] += 1
                misses.append("FP %s/%s:%d:%d %s" % (corpus, name, line, col, rule))
    print("%-20s %5s %5s %5s %9s %7s" % ("rule", "TP", "FP", "FN", "precision", "recall"))
    total = [0, 0, 0]
    for rule in RULES + ["all"]:
        tp, fp, fn = total if rule == "all" else counts[rule]
        if rule != "all":
            total = [a + b for a, b in zip(total, counts[rule])]
        prec = tp / (tp + fp) if tp + fp else 1.0
        rec = tp / (tp + fn) if tp + fn else 1.0
        print("%-20s %5d %5d %5d %9.3f %7.3f" % (rule, tp, fp, fn, prec, rec))
    print("column mismatches among matches: %d; files not analyzed: %d" % (colmiss, errors))
    for m in misses:
        print("  " + m)


if __name__ == "__main__":
    sys.exit(main())
