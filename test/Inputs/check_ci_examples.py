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

# Every job installs Seam with a script this repository has, checked out
# from SEAM_REPO into the folder the step names.
for name, job in wf["jobs"].items():
    checkouts = [s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout")
                 and s.get("with", {}).get("repository") == "${{ env.SEAM_REPO }}"]
    assert checkouts, name
    path = checkouts[0]["with"]["path"]
    installs = [s["run"] for s in job["steps"] if "install-seam.sh" in s.get("run", "")]
    assert installs, name
    script = shlex.split(installs[0])[0]
    assert script.startswith(path + "/"), (script, path)
    local = os.path.join(repo, script[len(path) + 1:])
    assert os.access(local, os.X_OK), local
    assert any(s.get("uses", "").startswith("actions/cache") for s in job["steps"]), name
    print("job %s: installs Seam with %s" % (name, script[len(path) + 1:]))
assert "SEAM_REPO" in wf["env"] and "SEAM_REF" in wf["env"]
out = subprocess.run(["bash", os.path.join(repo, "scripts/install-seam.sh"), "--help"],
                     capture_output=True, text=True)
assert out.returncode == 0 and "--deb" in out.stdout, out
assert any("status" in s.get("run", "") for s in report["steps"]), "no gate"

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
