"""Prints, for each cost-model parameter of the profile given, whether it
was measured (a value of at least 0, a source and the command that
measured it), one line per parameter, sorted: for FileCheck."""
import json
import sys

profile = json.load(open(sys.argv[1]))
for name, p in sorted(profile["parameters"].items()):
    ok = (isinstance(p.get("value"), (int, float)) and p["value"] >= 0
          and p.get("source") and p.get("command"))
    print("%s: %s" % (name, "measured" if ok else "NOT MEASURED %r" % p))
