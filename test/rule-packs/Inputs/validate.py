"""Validates rule packs against rules/pack.schema.json.

Usage: validate.py SCHEMA PACK... ; prints 'ok PACK' or 'invalid PACK: why'
for each, and exits 1 if any pack is invalid."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))),
                    key=lambda e: list(e.absolute_path))
    name = path.rsplit("/", 1)[-1]
    if errors:
        bad += 1
        where = "/".join(str(p) for p in errors[0].absolute_path)
        print("invalid %s: %s: %s" % (name, where, errors[0].message))
    else:
        print("ok " + name)
sys.exit(1 if bad else 0)
