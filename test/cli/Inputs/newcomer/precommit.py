#!/usr/bin/env python3
"""Runs a pre-commit hook of .pre-commit-hooks.yaml the way pre-commit does
(language: system): its entry, the args of a .pre-commit-config.yaml, then
the staged files, relative to the repository root, from the repository root.

Usage: precommit.py HOOKS-YAML HOOK-ID BINDIR ARGS... -- FILES..."""
import os
import re
import shlex
import subprocess
import sys

import yaml

hooks_yaml, hook_id, bindir = sys.argv[1:4]
rest = sys.argv[4:]
sep = rest.index("--")
args, files = rest[:sep], rest[sep + 1:]
hook = next(h for h in yaml.safe_load(open(hooks_yaml)) if h["id"] == hook_id)
files = [f for f in files if re.search(hook["files"], f)]
env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
sys.exit(subprocess.call(shlex.split(hook["entry"]) + args + files, env=env))
