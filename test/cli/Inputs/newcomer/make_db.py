#!/usr/bin/env python3
"""Writes a CMake-style compile_commands.json into DIR/build: "directory" is
the build folder, "file" absolute, "command" with -o CMakeFiles/... and
output-writing flags a real build may carry.

Usage: make_db.py DIR INPUTS [EXTRA-FLAG...]"""
import json
import os
import sys

root, inputs, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
build = os.path.join(root, "build")
os.makedirs(build, exist_ok=True)
entries = []
for name in ("train.cpp", "eval.cpp", "clean.cpp"):
    src = os.path.join(root, "src", name)
    flags = ["-std=c++17", "-isystem", inputs, "-I" + os.path.join(root, "include")]
    entries.append({
        "directory": build,
        "file": src,
        "command": " ".join(["/usr/bin/c++"] + flags + extra +
                            ["-o", "CMakeFiles/app.dir/src/%s.o" % name,
                             "-c", src]),
    })
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    json.dump(entries, f, indent=1)
