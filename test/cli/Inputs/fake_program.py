#!/usr/bin/env python3
"""Writes PROGRAM, a shell script that writes REPORT (a seam::rt site report
as a program under `seam validate` would) to $SEAM_RT_REPORT and exits 0.

Usage: fake_program.py PROGRAM REPORT"""
import os
import shlex
import sys

path, report = sys.argv[1], sys.argv[2]
with open(path, "w") as f:
    f.write("#!/bin/sh\nprintf '%%s\\n' %s > \"$SEAM_RT_REPORT\"\n" % shlex.quote(report))
os.chmod(path, 0o755)
