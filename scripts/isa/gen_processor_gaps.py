#!/usr/bin/env python3
"""Rebuild crates/isa/data/processor_gaps.tsv with llvm-mc as the oracle.

instructions.tsv says which *generations* have a mnemonic, but the processors
of one generation differ: gfx900 has no v_dot2_f32_f16 (gfx906 does), gfx940
dropped some gfx9 ops, gfx1250 is a different gfx12. For every processor
llvm-mc knows (PROCESSORS below) and every mnemonic the table lists for its
generation, the script asks llvm-mc about the bare mnemonic: a processor that
lacks it answers "instruction not supported on this GPU" (or "invalid
instruction"), one that has it complains about the missing operands instead.
A gap found so is confirmed with a whole operand list (the shortest form
gen_operand_counts.py grows on a processor that has the mnemonic) when one is
known: the processor must refuse that line the same way. A mnemonic that no
processor of the generation has is left out (that is the table's generations
disagreeing with this llvm-mc, not a processor difference), so every gap has
a processor of its generation that has the mnemonic.

Usage:  python3 scripts/isa/gen_processor_gaps.py [--llvm-mc llvm-mc-22]
"""
import argparse
import collections
import os
import subprocess

import gen_operand_counts
from gen_operand_counts import DATA, forms_for, gens_of, run

# Every gfxNNN processor llvm-mc-22 -mcpu=help lists for generations 6-12
# (the generic gfx9/gfx10-3/... targets are not processors a listing names;
# gfx940 and gfx941 are gone from LLVM 21 on, which would ignore them).
PROCESSORS = {
    6: ["gfx600", "gfx601", "gfx602"],
    7: ["gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705"],
    8: ["gfx801", "gfx802", "gfx803", "gfx805", "gfx810"],
    9: ["gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c",
        "gfx942", "gfx950"],
    10: ["gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032",
         "gfx1033", "gfx1034", "gfx1035", "gfx1036"],
    11: ["gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152",
         "gfx1153"],
    12: ["gfx1200", "gfx1201", "gfx1250", "gfx1251"],
}
LACKS = ("instruction not supported on this GPU", "invalid instruction")
# forms_for's templates are chosen by the probe processor's generation: every processor here is
# one (gfx908 takes the matrix mnemonics gfx90a/gfx942 brought into the gfx9 table).
gen_operand_counts.CPU_GEN.update({c: g for g, cs in PROCESSORS.items() for c in cs})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    args = ap.parse_args()
    by_gen = collections.defaultdict(list)
    for line in open(os.path.join(DATA, "instructions.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        for g in gens_of(cols[4]):
            by_gen[g].append(cols[0])
    for cpu in sum(PROCESSORS.values(), []):
        # An unknown -mcpu is only a warning to llvm-mc, which then probes
        # a generic GPU: a list of processors this llvm-mc lacks is an error.
        p = subprocess.run([args.llvm_mc, "-arch=amdgcn", f"-mcpu={cpu}", os.devnull,
                            "-o", os.devnull], capture_output=True, text=True)
        if "not a recognized processor" in p.stderr:
            raise SystemExit(f"{args.llvm_mc} does not know {cpu}")
    gaps = collections.defaultdict(list)  # mnemonic -> processors lacking it
    for g, names in sorted(by_gen.items()):
        lacking = collections.defaultdict(list)
        having = collections.defaultdict(list)
        duals = [n for n in names if n.startswith("v_dual_")]
        for cpu in PROCESSORS[g]:
            lacks = {n for n, err in zip(names, run(args.llvm_mc, cpu, names))
                     if err is not None and err in LACKS}
            # The VOPD Y-only ops (v_dual_add_nc_u32 ...) are only accepted
            # in the second slot: probe there too, and a dual op lacks only
            # when both slots refuse it.
            second = [f"v_dual_mov_b32 v0, v1 :: {n}" for n in duals]
            lacks -= {n for n, err in zip(duals, run(args.llvm_mc, cpu, second))
                      if err is None or err not in LACKS}
            for n in names:
                (lacking if n in lacks else having)[n].append(cpu)
        suspects = [n for n in names if lacking[n] and having[n]]
        # Confirm with a whole line, grown on a processor that has the
        # mnemonic (the first listed, so the run is the same every time).
        by_cpu = collections.defaultdict(list)
        for n in suspects:
            by_cpu[having[n][0]].append(n)
        forms = {}
        for cpu, ns in sorted(by_cpu.items()):
            forms.update(forms_for(args.llvm_mc, cpu, ns))
        for cpu in PROCESSORS[g]:
            ns = [n for n in suspects if cpu in lacking[n]]
            lines = [forms[n] for n in ns if n in forms]
            errs = dict(zip([n for n in ns if n in forms], run(args.llvm_mc, cpu, lines)))
            for n in ns:
                # No whole form known: the bare mnemonic's "not supported"
                # stands alone (llvm-mc checks the processor's features
                # before operands, so it is the same answer).
                if n not in errs or (errs[n] is not None and errs[n] in LACKS):
                    gaps[n].append(cpu)
    out = os.path.join(DATA, "processor_gaps.tsv")
    with open(out, "w") as f:
        f.write("# Processors that lack a mnemonic instructions.tsv lists for their generation\n")
        f.write("# (gfx900 has no v_dot2_f32_f16, gfx906 has). GENERATED by\n")
        f.write(f"# scripts/isa/gen_processor_gaps.py from {args.llvm_mc} -- do not edit.\n")
        f.write("# Lines 'processors GEN LIST': the processors probed per generation (others are\n")
        f.write("# not checked); lines 'lacks MNEMONIC LIST': the probed processors without it.\n")
        for g in sorted(PROCESSORS):
            f.write(f"processors\t{g}\t{','.join(PROCESSORS[g])}\n")
        for n in sorted(gaps):
            f.write(f"lacks\t{n}\t{','.join(gaps[n])}\n")
    print(f"{len(gaps)} mnemonics with gaps written to {out}")


if __name__ == "__main__":
    main()
