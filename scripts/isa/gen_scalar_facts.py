#!/usr/bin/env python3
"""Rebuild crates/isa/data/scalar_facts.tsv from crates/isa/data/instructions.tsv.

For the scalar ALU mnemonics whose arithmetic the trace reasons about (trip counts of loops:
crates/trace/src/tripcount.rs), what each computes: add, sub, mov or cmp, the compare's
condition, signedness, and whether the second operand is the instruction's 16-bit immediate
(SOPK forms). The mnemonic grammar lives here, and only here; the Rust crates read the table.

The grammar (mnemonic split at '_'):
  s_add[_co]_(i32|u32) | s_sub[_co]_(i32|u32)  op add/sub, 32-bit, wrapping (gfx12 spells them _co)
  s_addk_i32 | s_addk_co_i32                  op add, immediate 16-bit (sign-extended)
  s_mov_b32 | s_mov_b64                       op mov (bits 64: a register pair, e.g. a 64-bit
                                              offset counter whose low half a loop compares)
  s_movk_i32                                  op mov, immediate 16-bit (sign-extended)
  s_lshl_b32 | s_lshr_b32                     op lshl/lshr: dst = a shifted by b & 31 (logical)
  s_ashr_i32                                  op ashr: dst = a shifted right by b & 31 (arithmetic)
  s_mul_i32                                   op mul: dst = a * b (low 32 bits)
  s_and_b32 | s_and_b64                       op and: dst = a & b (bits 64: a lane mask, e.g.
                                              `s_and_b64 vcc, exec, s[0:1]`, a loop's exit flag)
  s_cmp_COND_(i32|u32)                        op cmp; COND in eq lg gt ge lt le
  s_cmpk_COND_(i32|u32)                       op cmp, immediate 16-bit (sign-extended for i32,
                                              zero-extended for u32)
  s_cbranch_scc(0|1)                          op branch_scc0/branch_scc1: taken when SCC is 0/1
  s_cbranch_vcc(n)z                           op branch_vccz/branch_vccnz: taken when VCC is zero/not zero
  s_cmp_(eq|lg)_u64                           op cmp, bits 64: a register pair against a pair or a
                                              constant (a 64-bit loop counter's exit test)
  v_cmp[x]_COND_(i32|u32|i64|u64)             op cmp, per lane into a lane mask (VCC, an SGPR
                                              pair, or EXEC for v_cmpx); COND in eq ne gt ge lt le, ne written lg
                                              (the vector loops' exit tests: lane counters
                                              against a bound); bits 64 for the 64-bit forms
Other scalar mnemonics (float compares, carries in) are not described: no row.

Usage:  python3 scripts/isa/gen_scalar_facts.py [--check]
        --check: regenerate into memory and fail if the committed file differs.
"""
import argparse
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "crates", "isa", "data")
TABLE = os.path.join(DATA, "instructions.tsv")
OUT = os.path.join(DATA, "scalar_facts.tsv")

COLUMNS = ["mnemonic", "op", "cond", "sign", "imm16", "bits"]
CONDS = ["eq", "lg", "gt", "ge", "lt", "le"]


def facts(name):
    m = re.fullmatch(r"s_(add|sub)(?:_co)?_([iu])32", name)
    if m:
        return [m.group(1), "-", m.group(2), "-"]
    if name in ("s_addk_i32", "s_addk_co_i32"):
        return ["add", "-", "i", "k"]
    if name == "s_mov_b32":
        return ["mov", "-", "-", "-"]
    if name == "s_mov_b64":
        return ["mov", "-", "-", "-", "64"]
    if name == "s_movk_i32":
        return ["mov", "-", "i", "k"]
    # A loop's exit flag: `s_and_b64 vcc, exec, s[0:1]` before `s_cbranch_vccnz` (a condition
    # kept in a register pair and tested later, Rodinia hotspot's `break`).
    if name == "s_and_b32":
        return ["and", "-", "u", "-"]
    if name == "s_and_b64":
        return ["and", "-", "u", "-", "64"]
    m = re.fullmatch(r"s_(lshl|lshr)_b32", name)
    if m:
        return [m.group(1), "-", "u", "-"]
    if name == "s_ashr_i32":
        return ["ashr", "-", "i", "-"]
    if name == "s_mul_i32":
        return ["mul", "-", "i", "-"]
    m = re.fullmatch(r"s_cbranch_vcc(n?)z", name)
    if m:
        return ["branch_vcc" + m.group(1) + "z", "-", "-", "-"]
    m = re.fullmatch(r"s_cbranch_scc([01])", name)
    if m:
        return ["branch_scc" + m.group(1), "-", "-", "-"]
    m = re.fullmatch(r"s_cmp(k?)_([a-z]+)_([iu])32", name)
    if m and m.group(2) in CONDS:
        return ["cmp", m.group(2), m.group(3), "k" if m.group(1) else "-"]
    m = re.fullmatch(r"s_cmp_(eq|lg)_u64", name)
    if m:
        return ["cmp", m.group(1), "u", "-", "64"]
    m = re.fullmatch(r"v_cmpx?_([a-z]+)_([iu])(32|64)", name)
    if m:
        cond = "lg" if m.group(1) == "ne" else m.group(1)
        if cond in CONDS:
            return ["cmp", cond, m.group(2), "-", m.group(3)]
    return None


def build():
    rows = []
    for line in open(TABLE):
        if not line.strip() or line.startswith("#"):
            continue
        name = line.split("\t")[0].strip()
        row = facts(name)
        if row is not None:
            rows.append([name] + row + ["32"] * (5 - len(row)))
    rows.sort(key=lambda r: r[0])
    return rows


HEADER = """\
# shadersim scalar facts: the arithmetic of the scalar ALU mnemonics the trace reasons about
# (loop trip counts). GENERATED by scripts/isa/gen_scalar_facts.py from instructions.tsv --
# do not edit; the grammar that decides every column is in that script.
#
# Columns (tab separated; sorted by mnemonic; '-' = none):
#   mnemonic  as in instructions.tsv.
#   op        add sub mov cmp (32-bit, wrapping; s_cmp sets SCC, v_cmp a lane mask); lshl lshr ashr (shift the first
#             operand by the second's low 5 bits); mul (low 32 bits of the product); and (bitwise);
#             branch_scc0/branch_scc1: a conditional branch taken when SCC is 0/1;
#             branch_vccz/branch_vccnz: taken when VCC is zero/not zero.
#   cond      for cmp: eq lg gt ge lt le (first operand against second).
#   sign      i (signed) or u (unsigned): how cmp compares and how a 16-bit immediate extends.
#   imm16     k: the second operand (the only one for movk) is the 16-bit immediate (SOPK).
#   bits      32, or 64 for a move, and or compare of register pairs.
"""


def render(rows):
    out = [HEADER, "# " + "\t".join(COLUMNS) + "\n"]
    out += ["\t".join(r) + "\n" for r in rows]
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = render(build())
    if args.check:
        old = open(OUT).read() if os.path.exists(OUT) else ""
        if old != text:
            sys.exit(f"{os.path.relpath(OUT, ROOT)} is out of date: run scripts/isa/gen_scalar_facts.py")
        print(f"{os.path.relpath(OUT, ROOT)} is up to date")
        return
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
