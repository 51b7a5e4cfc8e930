#!/usr/bin/env python3
"""Runs a command with a standard input that stays open and empty (a pipe
nobody writes to), as a terminal or a CI step's stdin can be, and fails if the
command does not finish within 60 s (it blocked reading its stdin). The
command's output and exit status pass through.

Usage: open_stdin.py CMD [ARGS...]"""
import subprocess
import sys

p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE)
try:
    sys.exit(p.wait(timeout=60))
except subprocess.TimeoutExpired:
    p.kill()
    sys.stderr.write("open_stdin: the command blocked on its standard input\n")
    sys.exit(124)
