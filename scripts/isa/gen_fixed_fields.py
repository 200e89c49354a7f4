#!/usr/bin/env python3
"""Generate crates/codeobj/data/fixed_fields.tsv: per family, format, opcode and processor, the
bits LLVM's disassembler requires to hold one value (issue 47 item 14: encodings llvm-objdump-22
refuses because a field that must be zero is not, which the decoder used to print).

LLVM's disassembler tables fix the bits of a field an instruction does not have (a VOP3 integer
op's abs/neg/omod, a ds_read's data fields, s_barrier's simm16, an image load's sampler: zero;
a FLAT op's SADDR: `off`, 0x7C on gfx11), and an encoding where one differs is "invalid
instruction encoding". Nothing here is typed by hand: for every form of
crates/asm/tests/data/llvm_forms.tsv (encoded by llvm-mc-22 as scripts/isa/gen_encodings.py
encodes it), each bit of its format that is neither an identification bit, an opcode bit, nor a
bit of a field its row prints as an operand is flipped alone and the result disassembled with
llvm-mc-22 -disassemble (llvm-objdump-22's disassembler); the bits whose flip LLVM refuses are
the row's fixed bits, their values the form's. Bits of printed operand fields are left out
because their refusals depend on the value (a register number past the file:
shadersim_isa::refused). Where several forms give one row, a bit is kept only when every form
refuses its flip and all hold the same value there.

Output columns: family; format (`.rtn` as the decoder's returning-atomic rows); opcode;
the processors (the table's: gfx900, gfx906, gfx90a, gfx942, gfx1010, gfx1030, gfx1100, gfx1200)
sharing these bits; the fixed bits (hex mask over the format's bits); the value they must hold
(hex, within the mask). Rows without fixed bits are left out.

usage: gen_fixed_fields.py [--check]   (--check: compare with the committed file, exit 1 if stale)
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_encodings as enc  # noqa: E402  (the forms, formats and llvm-mc runs)

OUT = os.path.join(enc.OUT_DIR, "fixed_fields.tsv")
RETURNING = ("FLAT", "GLOBAL", "SCRATCH")


def printed_fields():
    """(family, format, opcode, processor) -> the fields its row prints (None: a printer of
    its own, `special`, whose fields are all operands)."""
    out = {}
    with open(os.path.join(enc.OUT_DIR, "encodings.tsv")) as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            family, fmt, op, _mn, cpus, template = line.rstrip("\n").split("\t")
            if template == "special":
                fields = None
            elif template == "-":
                fields = set()
            else:
                fields = {t.split(":")[0] for t in template.split(",") if not t.startswith("=")}
            for cpu in cpus.split(","):
                out[(family, fmt, int(op), cpu)] = fields
    return out


def refused_at_start(cpu, attrs, encodings):
    """Indices of the encodings whose first instruction LLVM's disassembler refuses (a warning
    at column 1 of the encoding's line: one line per encoding keeps the mapping exact)."""
    cmd = [enc.LLVM_MC, "-arch=amdgcn", f"-mcpu={cpu}", "-disassemble"]
    if attrs:
        cmd.append(f"-mattr={attrs}")
    text = "\n".join(" ".join(f"0x{b:02x}" for w in ws for b in w.to_bytes(4, "little")) for ws in encodings)
    p = subprocess.run(cmd, input=text + "\n", capture_output=True, text=True)
    return {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):1: (?:warning|error)", p.stderr, re.M)}


def row_key(family, fmt, words, fields, rows, cpu):
    """The decoder's row key of an encoding: a returning atomic (GLC / gfx12 TH bit 0 set) reads
    the `.rtn` row when there is one, as decode/mod.rs's `row` does."""
    op = enc.opcode(words, fields)
    if fmt in RETURNING:
        bit = "th" if family == "gfx12" else "glc"
        lo, w = next(((lo, w) for n, lo, w in fields if n == bit), (None, None))
        if lo is not None and enc.field_value(words, lo, w) & 1 and (family, fmt + ".rtn", op, cpu) in rows:
            return fmt + ".rtn", op
    return fmt, op


def generate():
    forms = defaultdict(list)
    for path in (enc.FORMS, enc.EXTRA_FORMS):
        with open(path) as fh:
            for l in fh:
                if l.startswith("#") or not l.strip():
                    continue
                c = l.rstrip("\n").split("\t")
                forms[int(c[0])].append((c[1], c[3]))
    rows = printed_fields()
    fixed_bits = {}  # (family, format key, opcode, cpu) -> (mask, value)
    for gen, (family, cpus, attrs) in enc.GENERATIONS.items():
        lines = []
        for mn, line in forms[gen]:
            line = enc.buffer_address(line)
            lines.extend(enc.spellings(mn, line))
            lines.extend(enc.returning_atomics(mn, line))
        lines = list(dict.fromkeys(lines))
        for cpu in cpus:
            base = list(enc.run_mc(cpu, attrs, enc.valid_lines(cpu, attrs, lines)).values())
            refused_base = refused_at_start(cpu, attrs, [w for _, w in base])
            flips, owners, value_of, forms_of = [], [], {}, defaultdict(list)
            for i, (_text, words) in enumerate(base):
                fmt = enc.identify(family, words)
                if i in refused_base or fmt is None or fmt == "VOPD":
                    continue
                size, fields, ident = enc.FORMATS[family][fmt]
                key = row_key(family, fmt, words, fields, rows, cpu)
                shown = rows.get((family, key[0], key[1], cpu), None)
                if shown is None:  # no row, or a printer of its own
                    continue
                fixed = 0
                for lo, w, _ in ident:
                    fixed |= ((1 << w) - 1) << lo
                for n, lo, w in fields:
                    # An image op's NSA bits give the count of its address dwords: a form with
                    # one address list refuses the others (the dwords then missing), not them.
                    if n in ("op", "op_hi", "nsa") or n in shown:
                        fixed |= ((1 << w) - 1) << lo
                v = enc.field_value(words, 0, 32 * len(words))
                value_of[i] = v & ((1 << size) - 1)
                forms_of[key].append(i)
                for b in range(size):
                    if fixed >> b & 1:
                        continue
                    nv = v ^ (1 << b)
                    flips.append([(nv >> (32 * j)) & 0xFFFFFFFF for j in range(len(words))])
                    owners.append((i, b))
            refused = refused_at_start(cpu, attrs, flips)
            refused_bits = defaultdict(int)
            for j in refused:
                i, b = owners[j]
                refused_bits[i] |= 1 << b
            for key, idx in forms_of.items():
                mask = -1
                for i in idx:
                    mask &= refused_bits[i]
                for i in idx:  # the forms must agree on the value
                    mask &= ~(value_of[i] ^ value_of[idx[0]])
                fixed_bits[(family, key[0], key[1], cpu)] = (mask, value_of[idx[0]] & mask)
    return fixed_bits


def write(check):
    fixed_bits = generate()
    out = ["# Fixed bits of the crates/codeobj decoder. GENERATED by scripts/isa/gen_fixed_fields.py from",
           "# llvm-mc-22 -disassemble of every form of crates/asm/tests/data/llvm_forms.tsv with one",
           "# unprinted bit flipped -- do not edit. Columns: family; format; opcode; processors; the bits",
           "# (hex mask over the format's bits) LLVM refuses changed; the value they must hold (hex)."]
    grouped = defaultdict(list)  # one line for the processors sharing a row's bits
    for (family, fmt, op, cpu), (m, v) in fixed_bits.items():
        if m:
            grouped[(family, fmt, op, m, v)].append(cpu)
    for (family, fmt, op, m, v), cpus in sorted(grouped.items()):
        out.append(f"{family}\t{fmt}\t{op}\t{','.join(sorted(cpus))}\t{m:x}\t{v:x}")
    text = "\n".join(out) + "\n"
    if check:
        old = open(OUT).read() if os.path.exists(OUT) else ""
        if old != text:
            print(f"{OUT} is stale; run scripts/isa/gen_fixed_fields.py")
            return 1
    else:
        with open(OUT, "w") as fh:
            fh.write(text)
    print(f"{len(out) - 4} rows with fixed bits", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(write("--check" in sys.argv))
