#!/usr/bin/env python3
"""Generate crates/codeobj/tests/data/decode_cases.tsv: single encodings and the text LLVM's
disassembler prints for them, which crates/codeobj/tests/decode_cases.rs checks the decoder
against (issue 47 items 14 and 17-20, issue 48: the operand kinds the fixtures did not cover).

Input: scripts/isa/decode_cases.in, one case a line: `processor<TAB>what`, where `what` is an
assembly line (encoded by `llvm-mc-22 -show-encoding`) or `hex:` and space-separated dwords
(an encoding LLVM's assembler cannot write, such as a field that must be zero). Each encoding is
then disassembled by `llvm-mc-22 -disassemble` (llvm-objdump-22's disassembler) with the
attributes scripts/isa/gen_encodings.py reads each family with (gfx10+ wave32, gfx12 real
true16). Output columns: processor; dwords (hex, space-separated); LLVM's text, or `invalid`
when LLVM calls the encoding invalid (the decoder must refuse it).

usage: gen_decode_cases.py [--check]   (--check: compare with the committed file, exit 1 if stale)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IN = os.path.join(ROOT, "scripts/isa/decode_cases.in")
OUT = os.path.join(ROOT, "crates/codeobj/tests/data/decode_cases.tsv")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")


def attrs(cpu):
    """gen_encodings.py's GENERATIONS attributes, by processor."""
    if cpu.startswith("gfx12"):
        return "+wavefrontsize32,+real-true16"
    if cpu.startswith(("gfx10", "gfx11")):
        return "+wavefrontsize32"
    return ""


def mc(cpu, args, text):
    cmd = [LLVM_MC, "-arch=amdgcn", f"-mcpu={cpu}"] + args
    if attrs(cpu):
        cmd.append(f"-mattr={attrs(cpu)}")
    return subprocess.run(cmd, input=text + "\n", capture_output=True, text=True)


def encode(cpu, line):
    p = mc(cpu, ["-show-encoding"], line)
    m = re.search(r"; encoding: \[([^\]]*)\]", p.stdout)
    if not m or "error" in p.stderr:
        sys.exit(f"{cpu}: llvm-mc-22 does not assemble `{line}`: {p.stderr.strip()}")
    b = [int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", m.group(1))]
    return [int.from_bytes(bytes(b[j:j + 4]), "little") for j in range(0, len(b), 4)]


def disassemble(cpu, words):
    text = " ".join(f"0x{b:02x}" for w in words for b in w.to_bytes(4, "little"))
    p = mc(cpu, ["-disassemble"], text)
    if "invalid instruction encoding" in p.stderr:
        return "invalid"
    lines = [l.strip() for l in p.stdout.splitlines() if l.startswith("\t")]
    if len(lines) != 1:
        sys.exit(f"{cpu}: {words}: llvm-mc-22 printed {lines} {p.stderr}")
    return lines[0]


FORMS = os.path.join(ROOT, "crates/asm/tests/data/llvm_forms.tsv")
# `expand:buffer` on a processor: every buffer op llvm_forms.tsv lists for its generation, with
# each address form (none: `off`; `offen`; `idxen`; both, over a VGPR pair) and, for loads and
# stores, the generation's cache-policy bits (issue 47 item 19: "every address width of every
# buffer op", "cache-policy fields"). Forms llvm-mc-22 refuses are left out.
GENERATION = {"gfx900": "9", "gfx90a": "9", "gfx942": "9", "gfx1030": "10", "gfx1100": "11", "gfx1200": "12"}
POLICY = {"gfx900": "glc slc", "gfx90a": "glc slc", "gfx942": "sc0 sc1 nt", "gfx1030": "glc slc dlc",
          "gfx1100": "glc slc dlc", "gfx1200": None}


def buffer_forms(cpu):
    lines = []
    with open(FORMS) as fh:
        for l in fh:
            c = l.rstrip("\n").split("\t")
            if l.startswith("#") or c[0] != GENERATION[cpu] or not c[1].startswith("buffer_"):
                continue
            mn, rest = c[3].split(" ", 1) if " " in c[3] else (c[3], "")
            parts = [p.strip() for p in rest.split(",")]
            if len(parts) < 4:
                continue
            last = parts[3].split()
            mods = [m for m in last[1:] if m not in ("offen", "idxen")]
            ops = parts[:3] + [last[0]]
            for addr, flags in (("off", []), ("v4", ["offen"]), ("v4", ["idxen"]), ("v[4:5]", ["idxen", "offen"])):
                lines.append(f"{mn} {', '.join([ops[0], addr] + ops[2:])} {' '.join(flags + mods)}".strip())
            if "atomic" not in mn:
                policy = POLICY[cpu]
                if policy is None:
                    policy = "th:TH_LOAD_NT scope:SCOPE_DEV" if "load" in mn else "th:TH_STORE_NT scope:SCOPE_SE"
                lines.append(f"{mn} {', '.join([ops[0], 'v4'] + ops[2:])} offen offset:4095 {' '.join(mods + [policy])}".strip())
    return list(dict.fromkeys(lines))


def encode_all(cpu, lines):
    """llvm-mc-22's encodings of `lines` (one run), leaving out the lines it refuses."""
    p = mc(cpu, ["-show-encoding"], "\n".join(lines))
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: error", p.stderr, re.M)}
    outs = [l for l in p.stdout.splitlines() if "; encoding:" in l]
    ok = [i for i in range(len(lines)) if i not in bad]
    if len(ok) != len(outs):
        sys.exit(f"{cpu}: llvm-mc-22 printed {len(outs)} encodings for {len(ok)} lines")
    res = []
    for l in outs:
        b = [int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", l.split("; encoding:")[1])]
        res.append([int.from_bytes(bytes(b[j:j + 4]), "little") for j in range(0, len(b), 4)])
    return res


def disassemble_all(cpu, encodings):
    """What llvm-mc-22 -disassemble prints for each encoding (one line each), `invalid` where
    it refuses one."""
    text = "\n".join(" ".join(f"0x{b:02x}" for w in ws for b in w.to_bytes(4, "little")) for ws in encodings)
    p = mc(cpu, ["-disassemble"], text)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: warning", p.stderr, re.M)}
    outs = [l.strip() for l in p.stdout.splitlines() if l.startswith("\t") and not l.strip().startswith(".")]
    ok = [i for i in range(len(encodings)) if i not in bad]
    if len(ok) != len(outs):
        sys.exit(f"{cpu}: llvm-mc-22 -disassemble printed {len(outs)} lines for {len(ok)} encodings")
    res = ["invalid"] * len(encodings)
    for i, t in zip(ok, outs):
        res[i] = t
    return res


def generate():
    out = ["# Single encodings and what llvm-mc-22 -disassemble prints for them. GENERATED by",
           "# scripts/isa/gen_decode_cases.py from scripts/isa/decode_cases.in -- do not edit.",
           "# Columns: processor; dwords; LLVM's text (`invalid`: LLVM refuses the encoding)."]
    with open(IN) as fh:
        for l in fh:
            if l.startswith("#") or not l.strip():
                continue
            cpu, what = l.rstrip("\n").split("\t", 1)
            if what == "expand:buffer":
                words = encode_all(cpu, buffer_forms(cpu))
                for w, t in zip(words, disassemble_all(cpu, words)):
                    out.append(f"{cpu}\t{' '.join(f'{x:08X}' for x in w)}\t{t}")
                continue
            if what.startswith("hex:"):
                words = [int(w, 16) for w in what[4:].split()]
            else:
                words = encode(cpu, what)
            out.append(f"{cpu}\t{' '.join(f'{w:08X}' for w in words)}\t{disassemble(cpu, words)}")
    return "\n".join(out) + "\n"


def main():
    text = generate()
    if "--check" in sys.argv:
        old = open(OUT).read() if os.path.exists(OUT) else ""
        if old != text:
            print(f"{OUT} is stale; run scripts/isa/gen_decode_cases.py")
            return 1
        return 0
    with open(OUT, "w") as fh:
        fh.write(text)
    print(f"{text.count(chr(10)) - 3} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
