#!/usr/bin/env python3
"""Check that every mnemonic in the real-compiler fixtures is in crates/isa/data/instructions.tsv
and valid there on the fixture's generation.

Usage: python3 scripts/isa/check_fixtures.py [FIXTURES_DIR]   (default: tests/fixtures)
Reads llvm/<gfx>/*.s, objdump/<gfx>/*.dis and the 'disasm:' blocks of radv/<family>/*.txt.
The first token of each instruction line (and the second VOPD half after '::') is taken,
_e32/_e64/_sdwa/_dpp/_dpp8 suffixes stripped. Exit status 1 when something is missing.
"""
import collections
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GEN = {"gfx600": 6, "gfx700": 7, "gfx803": 8, "polaris10": 8, "gfx900": 9, "vega10": 9,
       "gfx1030": 10, "navi21": 10, "gfx1100": 11, "gfx1200": 12}
PREFIX = ("s_", "v_", "ds_", "buffer_", "tbuffer_", "image_", "global_", "flat_", "scratch_", "lds_")
TOKEN = re.compile(r"^\s+([a-z][a-z0-9_]*)(?=\s|$)")
SUFFIX = re.compile(r"_(e32|e64|sdwa|dpp8|dpp)$")


def mnemonics_of_line(line):
    out = []
    m = TOKEN.match(line)
    if m and (m.group(1).startswith(PREFIX) or m.group(1) in ("exp", "export")):
        out.append(m.group(1))
        if "::" in line:
            m2 = re.search(r"::\s*([a-z][a-z0-9_]*)", line)
            if m2:
                out.append(m2.group(1))
    return [SUFFIX.sub("", SUFFIX.sub("", t)) for t in out]


def scan(fixtures):
    found = collections.defaultdict(set)  # (name, gen) -> files
    for kind in ("llvm", "objdump", "radv"):
        base = os.path.join(fixtures, kind)
        if not os.path.isdir(base):
            continue
        for tgt in sorted(os.listdir(base)):
            gen = GEN.get(tgt)
            for fn in sorted(os.listdir(os.path.join(base, tgt))):
                if not fn.endswith((".s", ".dis", ".txt")):
                    continue
                path = os.path.join(base, tgt, fn)
                in_disasm = kind != "radv"
                for line in open(path, errors="replace"):
                    if kind == "radv":
                        if "disasm:" in line:
                            in_disasm = True
                            continue
                        if in_disasm and (not line.strip() or (not line[0].isspace() and not re.match(r"^BB\d+:", line))):
                            in_disasm = False
                    if not in_disasm:
                        continue
                    for n in mnemonics_of_line(line):
                        found[(n, gen)].add("%s/%s/%s" % (kind, tgt, fn))
    return found


def main():
    fixtures = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "fixtures")
    table = {}
    for line in open(os.path.join(ROOT, "crates", "isa", "data", "instructions.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        gens = set()
        for part in f[4].split(","):
            a, _, b = part.partition("-")
            gens.update(range(int(a), int(b or a) + 1))
        table[f[0]] = gens
    found = scan(fixtures)
    names = {n for n, _ in found}
    missing = sorted(n for n in names if n not in table)
    wrong_gen = sorted((n, g) for n, g in found if n in table and g is not None and g not in table[n])
    print("fixture mnemonics: %d distinct (%d name/generation pairs)" % (len(names), len(found)))
    for n in missing:
        files = sorted(set().union(*[v for (m, g), v in found.items() if m == n]))
        print("MISSING  %s  (%s)" % (n, ", ".join(files[:3])))
    for n, g in wrong_gen:
        print("NOT-ON-GEN  %s gfx%d (table gens %s; %s)" % (n, g, sorted(table[n]), sorted(found[(n, g)])[0]))
    sys.exit(1 if missing or wrong_gen else 0)


if __name__ == "__main__":
    main()
