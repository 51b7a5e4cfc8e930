#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the expected code.

Usage: expect_exit.py CODE CMD [ARGS...]; the command's stdout and stderr
pass through, so the output can still be piped into FileCheck."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expect_exit: wanted exit %d, got %d\n" % (want, got))
    sys.exit(1)
