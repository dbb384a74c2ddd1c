#!/usr/bin/env python3
"""json_schema.py [--lines] SCHEMA FILE...: validate each JSON document
(with --lines, each line of each file, as JSON Lines) against SCHEMA, a
JSON Schema of draft 2020-12 (schema/*.schema.json), with
python3-jsonschema. Prints one line per error, naming the file (and the
line), the key's path and what is wrong, and exits 1 if there is any; 0
when all are valid. --check SCHEMA... only checks that each schema is a
valid draft 2020-12 schema. Exit 77, saying why, where jsonschema or its
draft 2020-12 validator is missing (tests/lib.sh skips then)."""
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print('python3-jsonschema with draft 2020-12 is not installed')
    sys.exit(77)


def where(error):
    return ''.join('[%d]' % p if isinstance(p, int) else '.' + str(p)
                   for p in error.absolute_path) or '(the document)'


def documents(path, lines):
    with open(path, encoding='utf-8') as f:
        if not lines:
            yield path, json.load(f)
            return
        for n, line in enumerate(f, 1):
            yield '%s:%d' % (path, n), json.loads(line)


def main(argv):
    lines = check = False
    while argv and argv[0].startswith('--'):
        lines |= argv[0] == '--lines'
        check |= argv[0] == '--check'
        argv = argv[1:]
    if check:
        for path in argv:
            with open(path, encoding='utf-8') as f:
                Draft202012Validator.check_schema(json.load(f))
        return 0
    if len(argv) < 2:
        sys.exit(__doc__)
    with open(argv[0], encoding='utf-8') as f:
        validator = Draft202012Validator(json.load(f))
    bad = 0
    for path in argv[1:]:
        count = 0
        for name, doc in documents(path, lines):
            count += 1
            for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
                bad += 1
                print('%s: %s: %s' % (name, where(e), e.message[:300]))
        if count == 0:
            bad += 1
            print('%s: no JSON document' % path)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
