#!/usr/bin/env python3
"""Rebuild crates/isa/data/operand_counts.tsv with llvm-mc as the oracle.

For every mnemonic of instructions.tsv and one CPU per generation it names, the
script grows an operand list one operand at a time: it tries each probe token
(v0, s[0:1], 0, off, vcc, ...) after the list so far and keeps the first that
llvm-mc does not refuse as a wrong operand ("too few operands for instruction"
or success). The list ends when llvm-mc accepts the line; its length is the
number of operands that form needs. The table keeps, per mnemonic, the
smallest count over every generation (so a reader never refuses a form that
some generation accepts). A mnemonic for which some generation gives no count
is left out (the reader then checks nothing for it).

Usage:  python3 scripts/isa/gen_operand_counts.py [--llvm-mc llvm-mc-22]
"""
import argparse
import collections
import os
import re
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "crates", "isa", "data")
GEN_CPU = {6: "tahiti", 7: "hawaii", 8: "gfx803", 9: "gfx906", 10: "gfx1030", 11: "gfx1100", 12: "gfx1200"}
TOKENS = ["v0", "v[0:1]", "v[0:3]", "s0", "s[0:1]", "s[0:3]", "s[0:7]", "0", "off", "vcc",
          "vcc_lo", "exec", "m0", "v[0:2]", "v[0:7]", "s[0:15]", "v[0:15]", "null"]
MAX_OPERANDS = 8
LINE_RE = re.compile(r"^[^:]+:(\d+):\d+: error: (.*)$")


def gens_of(spec):
    out = set()
    for part in spec.split(","):
        part = part.strip()
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        elif part.isdigit():
            out.add(int(part))
    return out


def run(llvm_mc, cpu, lines, mattr=None):
    """The error of each line (None: accepted)."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    cmd = [llvm_mc, "-arch=amdgcn", f"-mcpu={cpu}", path, "-o", os.devnull]
    if mattr:
        cmd.append(f"-mattr={mattr}")
    p = subprocess.run(cmd, capture_output=True, text=True)
    os.unlink(path)
    errors = {}
    for l in p.stderr.splitlines():
        m = LINE_RE.match(l)
        if m and int(m.group(1)) not in errors:
            errors[int(m.group(1))] = m.group(2)
    return [errors.get(i + 1) for i in range(len(lines))]


def counts_for(llvm_mc, cpu, names):
    return {n: len(ops) for n, ops in forms_for(llvm_mc, cpu, names).items()}


def forms_for(llvm_mc, cpu, names):
    """The shortest operand list llvm-mc accepts for each name it can reach."""
    prefix = {n: [] for n in names}
    done = {}
    for _ in range(MAX_OPERANDS + 1):
        active = [n for n in prefix if n not in done]
        if not active:
            break
        # Does the list so far already form a whole instruction?
        first = run(llvm_mc, cpu, [f"{n} {', '.join(prefix[n])}".strip() for n in active])
        still = []
        for n, err in zip(active, first):
            if err is None:
                done[n] = len(prefix[n])
            elif "too few operands" in err:
                still.append(n)
            else:
                done[n] = None
        if not still:
            break
        lines, owners = [], []
        for n in still:
            for t in TOKENS:
                lines.append(f"{n} {', '.join(prefix[n] + [t])}")
                owners.append((n, t))
        errs = run(llvm_mc, cpu, lines)
        chosen = {}
        for (n, t), err in zip(owners, errs):
            if n in chosen:
                continue
            if err is None or "too few operands" in err:
                chosen[n] = t
        for n in still:
            if n in chosen:
                prefix[n].append(chosen[n])
            else:
                done[n] = None
    return {n: prefix[n] for n, c in done.items() if c is not None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    args = ap.parse_args()
    by_gen = collections.defaultdict(list)
    for line in open(os.path.join(DATA, "instructions.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        name, gens = cols[0], cols[4]
        for g in gens_of(gens):
            if g in GEN_CPU:
                by_gen[g].append(name)
    best = {}
    missing = set()
    for g, names in sorted(by_gen.items()):
        found = counts_for(args.llvm_mc, GEN_CPU[g], names)
        for n in names:
            if n in found:
                best[n] = min(best.get(n, found[n]), found[n])
            else:
                # The probe tokens did not reach a whole form on this
                # generation (v_interp's attr0.x, say): its count is unknown,
                # and the minimum over generations with it.
                missing.add(n)
    for n in missing:
        best.pop(n, None)
    out = os.path.join(DATA, "operand_counts.tsv")
    with open(out, "w") as f:
        f.write("# Fewest operands each mnemonic takes in any generation (modifiers such as offen\n")
        f.write("# or glc not counted). GENERATED by scripts/isa/gen_operand_counts.py from\n")
        f.write(f"# {args.llvm_mc} -- do not edit.\n")
        for n in sorted(best):
            f.write(f"{n}\t{best[n]}\n")
    print(f"{len(best)} mnemonics written to {out}")


if __name__ == "__main__":
    main()
