#!/usr/bin/env python3
"""Checks the shipped CI examples: the GitHub workflow's shards, merge and
upload, and that the pre-commit hook's entry runs Seam on a file."""
import os
import shlex
import subprocess
import sys

import yaml

repo, seam_bindir, source, flags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

wf = yaml.safe_load(open(os.path.join(repo, "examples/ci/github-actions.yml")))
analyze = wf["jobs"]["analyze"]
shards = analyze["strategy"]["matrix"]["shard"]
runs = "\n".join(s.get("run", "") for s in analyze["steps"])
assert "--shard ${{ matrix.shard }}/%d" % len(shards) in runs, runs
assert "--format sarif" in runs
report = wf["jobs"]["report"]
assert report["needs"] == "analyze"
assert any("seam merge" in s.get("run", "") for s in report["steps"])
upload = [s for s in report["steps"] if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
assert upload and upload[0]["with"]["category"], upload
print("workflow: %d shards, merge, upload-sarif category=%s" % (len(shards), upload[0]["with"]["category"]))

hooks = yaml.safe_load(open(os.path.join(repo, ".pre-commit-hooks.yaml")))
hook = [h for h in hooks if h["id"] == "seam"][0]
assert hook["language"] == "system"
import re
assert re.search(hook["files"], "src/train.cpp") and not re.search(hook["files"], "README.md")
env = dict(os.environ, PATH=seam_bindir + os.pathsep + os.environ["PATH"])
# pre-commit runs: entry + args + the changed files.
cmd = shlex.split(hook["entry"]) + [source, "--"] + flags
p = subprocess.run(cmd, env=env, capture_output=True, text=True)
print("pre-commit entry: exit %d" % p.returncode)
sys.stdout.write(p.stdout)
