#!/usr/bin/env python3
"""Overwrites COUNT random 8-byte spots of each FILE, keeping its size and
modification time, as bit rot or a bad cache restore would.

Usage: corrupt_in_place.py COUNT FILE..."""
import os
import random
import sys

rng = random.Random(7)
count = int(sys.argv[1])
for path in sys.argv[2:]:
    st = os.stat(path)
    with open(path, "r+b") as f:
        for _ in range(count):
            f.seek(rng.randrange(max(1, st.st_size - 8)))
            f.write(bytes(rng.randrange(256) for _ in range(8)))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
