#!/usr/bin/env python3
"""Rebuild crates/isa/data/memory_facts.tsv from crates/isa/data/instructions.tsv.

For every vector memory mnemonic of the instruction table (class vmem.*), the facts the coalescing
model (crates/mem) charges by: the instruction family (path), load/store/atomic, what kind of
access it is, and the data one lane moves (channels x bits, whether a format conversion, d16).
The mnemonic grammar that decides them lives here, and only here: it runs once, its output is
committed, and the Rust crates read the table (consumers ask the table, never the spelling).

The grammar (mnemonic split at '_'):
  buffer-like := PATH "_" ("load" | "store") "_" data-words | PATH "_atomic_" op-words
  PATH        := buffer | tbuffer | global | flat | scratch
  data-words, in any order, exactly one of
    width   := dword (32) dwordx2 (64) dwordx3 (96) dwordx4 (128)
               ubyte sbyte byte u8 i8 b8 (8)  ushort sshort short u16 i16 b16 (16)  b32 b64 b96 b128
    format  := "format" and a channel list x | xy | xyz | xyzw  (32-bit channels, 16 with d16:
               the memory format is in the descriptor or the instruction's format field)
  plus any of the modifiers d16, hi, lds, addtid, tr.
  op-words    := an atomic operation; 64 bits when a word is x2, b64, u64, i64 or f64, else 32.
  image       := image_sample mods (gradients with a "d" or "cd" word) | image_gather4[h] mods
               | image_load mods | image_msaa_load mods | image_store mods | image_atomic_ op-words
  Rows the coalescing model does not describe get op '-' and say why in `kind`: cache (cache
  control: buffer_wbinvl1, buffer_gl0_inv, global_inv ...), query (image_get_resinfo,
  image_get_lod), bvh4 bvh8 bvh4x2 (ray intersection: the ray-tracing model charges them by the
  nodes tested), block (gfx12
  global/scratch _block: 32 VGPRs per lane, not in seed 001's rules).
A vmem mnemonic the grammar does not understand makes the script fail: add a rule here.

Usage:  python3 scripts/isa/gen_memory_facts.py [--check]
        --check: regenerate into memory and fail if the committed file differs.
Deterministic (sorted by mnemonic, no timestamps); runs in well under a second.
"""
import argparse
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "crates", "isa", "data")
TABLE = os.path.join(DATA, "instructions.tsv")
OUT = os.path.join(DATA, "memory_facts.tsv")

PATHS = {"buffer", "tbuffer", "global", "flat", "scratch"}
WIDTHS = {
    "dword": 32, "dwordx2": 64, "dwordx3": 96, "dwordx4": 128,
    "ubyte": 8, "sbyte": 8, "byte": 8, "u8": 8, "i8": 8, "b8": 8,
    "ushort": 16, "sshort": 16, "short": 16, "u16": 16, "i16": 16, "b16": 16,
    "b32": 32, "b64": 64, "b96": 96, "b128": 128,
}
SWIZZLES = {"x": 1, "xy": 2, "xyz": 3, "xyzw": 4}
DATA_MODIFIERS = {"d16", "hi", "lds", "addtid", "tr"}
ATOMIC_WORDS = {
    "swap", "cmpswap", "add", "sub", "rsub", "smin", "umin", "smax", "umax", "min", "max", "and",
    "or", "xor", "inc", "dec", "fcmpswap", "fadd", "fmin", "fmax", "csub", "pk", "cond", "clamp",
    "num", "rtn", "u32", "i32", "f32", "f16", "bf16", "b32", "ordered", "uint", "int", "flt",
}
ATOMIC_64_WORDS = {"x2", "b64", "u64", "i64", "f64"}
SAMPLE_MODIFIERS = {"c", "d", "cd", "l", "b", "lz", "cl", "o", "g16"}
LOAD_STORE_MODIFIERS = {"mip", "pck", "sgn", "nomip"}

COLUMNS = ["mnemonic", "path", "op", "kind", "channels", "bits", "format", "d16"]


class GrammarError(Exception):
    pass


def atomic_bits(words):
    if not words:
        raise GrammarError("an atomic names its operation")
    for w in words:
        if w not in ATOMIC_WORDS and w not in ATOMIC_64_WORDS:
            raise GrammarError(f"unknown atomic word `{w}`")
    return 64 if any(w in ATOMIC_64_WORDS for w in words) else 32


def lane_data(words):
    """(channels, bits per channel, format, d16) of load/store data words."""
    width = None
    fmt = False
    channels = None
    for w in words:
        if w in SWIZZLES:
            if channels is not None:
                raise GrammarError("two channel lists")
            channels = SWIZZLES[w]
        elif w == "format":
            if fmt:
                raise GrammarError("`format` twice")
            fmt = True
        elif w in WIDTHS:
            if width is not None:
                raise GrammarError("two data sizes")
            width = WIDTHS[w]
        elif w not in DATA_MODIFIERS:
            raise GrammarError(f"unknown word `{w}`")
    d16 = "d16" in words
    if fmt:
        if width is not None or channels is None:
            raise GrammarError("a format op takes a channel list and no data size")
        return channels, 16 if d16 else 32, True, d16
    if channels is not None:
        raise GrammarError("channels without `format`")
    if width is None:
        raise GrammarError("no data size")
    return 1, width, False, d16


def d16_column(words, d16):
    if not d16:
        return "-"
    return "d16_hi" if "hi" in words else "d16"


def facts(name, cls):
    """The row of one vmem mnemonic (without the mnemonic), from its spelling and table class."""
    words = name.split("_")
    if cls == "vmem.cache":
        return [words[0], "-", "cache", "-", "-", "-", "-"]
    if words[0] == "image":
        rest = words[1:]
        if cls == "vmem.image.bvh":
            # The node each op tests: image_bvh8_* one 8-wide node (RDNA 4), image_bvh_dual_*
            # two 4-wide nodes (RDNA 4), image_bvh_* and image_bvh64_* one 4-wide node.
            if rest[0] == "bvh8":
                shape = "bvh8"
            elif rest[0] == "bvh" and rest[1] == "dual":
                shape = "bvh4x2"
            else:
                shape = "bvh4"
            return ["image", "-", shape, "-", "-", "-", "-"]
        if rest and rest[0] == "get":
            return ["image", "-", "query", "-", "-", "-", "-"]

        def check(mods, allowed):
            bad = [m for m in mods if m not in allowed]
            if bad:
                raise GrammarError(f"unknown image modifier `{bad[0]}`")

        if rest[0] == "sample":
            check(rest[1:], SAMPLE_MODIFIERS)
            grad = any(m in ("d", "cd") for m in rest[1:])
            lod = any(m in ("l", "lz") for m in rest[1:])
            kind = "sample_d" if grad else "sample_l" if lod else "sample"
            return ["image", "load", kind, "-", "-", "-", "-"]
        if rest[0] in ("gather4", "gather4h"):
            check(rest[1:], SAMPLE_MODIFIERS)
            return ["image", "load", "gather4", "-", "-", "-", "-"]
        if rest[0] == "load" or rest[:2] == ["msaa", "load"]:
            check(rest[1:] if rest[0] == "load" else rest[2:], LOAD_STORE_MODIFIERS)
            return ["image", "load", "load", "-", "-", "-", "-"]
        if rest[0] == "store":
            check(rest[1:], LOAD_STORE_MODIFIERS)
            return ["image", "store", "store", "-", "-", "-", "-"]
        if rest[0] == "atomic":
            atomic_bits(rest[1:])
            return ["image", "atomic", "atomic", "-", "-", "-", "-"]
        raise GrammarError("unknown image instruction")
    if words[0] not in PATHS or len(words) < 3:
        raise GrammarError("not a buffer-like mnemonic")
    op = words[1]
    if "block" in words[2:] and op in ("load", "store"):
        return [words[0], "-", "block", "-", "-", "-", "-"]
    if op == "atomic":
        bits = atomic_bits(words[2:])
        return [words[0], "atomic", "data", "1", str(bits), "-", "-"]
    if op in ("load", "store"):
        channels, bits, fmt, d16 = lane_data(words[2:])
        return [words[0], op, "data", str(channels), str(bits),
                "format" if fmt else "-", d16_column(words[2:], d16)]
    raise GrammarError(f"`{op}`: expected load, store or atomic")


def consistent(name, data, row):
    """The table's data DWORDs agree with the bits found here (a check of the grammar)."""
    path, op, kind, channels, bits = row[:5]
    if kind != "data" or data == "-":
        return True
    dwords = -(-int(channels) * int(bits) // 32)
    if op == "atomic" and ({"cmpswap", "fcmpswap"} & set(name.split("_"))):
        dwords *= 2
    return dwords == int(data)


def build():
    rows = []
    errors = []
    for line in open(TABLE):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        name, cls, data = cols[0], cols[2], cols[3]
        if not cls.startswith("vmem."):
            continue
        try:
            row = facts(name, cls)
        except GrammarError as e:
            errors.append(f"{name}: {e}")
            continue
        if not consistent(name, data, row):
            errors.append(f"{name}: the table says {data} data dwords, the grammar {row[3]} x {row[4]} bits")
        rows.append([name] + row)
    if errors:
        sys.exit("gen_memory_facts.py: add a rule for:\n  " + "\n  ".join(errors))
    rows.sort(key=lambda r: r[0])
    return rows


HEADER = """\
# shadersim memory facts: what the coalescing model charges by, for every vector memory mnemonic
# (class vmem.*) of instructions.tsv. GENERATED by scripts/isa/gen_memory_facts.py from
# instructions.tsv -- do not edit; the grammar that decides every column is in that script.
#
# Columns (tab separated; sorted by mnemonic; '-' = none):
#   mnemonic  as in instructions.tsv.
#   path      buffer tbuffer global flat scratch image (the instruction family).
#   op        load store atomic; '-' for rows the coalescing model does not describe (see kind).
#   kind      data (buffer-like ops: the lane data below), sample, sample_d (sample with user
#             gradients: _d/_cd forms), sample_l (explicit LOD: _l/_lz forms), gather4, load, store, atomic (image ops: texel format and
#             filter come from hints, not the mnemonic); without an op: cache (cache control),
#             query (image_get_*), bvh4 bvh8 bvh4x2 (ray intersection testing one 4-wide node, one
#             8-wide node, two 4-wide nodes), block (gfx12 _block, 32 VGPRs).
#   channels  values per lane: 1, or 2-4 for a multi-channel format conversion.
#   bits      bits of one channel (single channel: 8 16 32 64 96 128; multi-channel: 16 or 32).
#             Atomics: 64 for x2/b64/u64/i64/f64 forms, else 32 (the memory word, not the data
#             operand: cmpswap moves one word per lane).
#   format    format: a format conversion (format_x..format_xyzw; 32-bit channels in memory are
#             assumed, 16 with d16: the memory format is in the descriptor, not the mnemonic).
#   d16       d16 or d16_hi: 16-bit register data (low or high halves); the memory size is in bits.
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
            sys.exit(f"{os.path.relpath(OUT, ROOT)} is out of date: run scripts/isa/gen_memory_facts.py")
        print(f"{os.path.relpath(OUT, ROOT)} is up to date")
        return
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
