#!/usr/bin/env python3
"""Generate crates/codeobj/data/encodings.tsv (the decoder's opcode table) and
crates/codeobj/data/formats.tsv (the field layouts it decodes with) from LLVM's own assembler.

For every line of crates/asm/tests/data/llvm_forms.tsv (one whole instruction per mnemonic and
generation that llvm-mc-22 assembles) of the generations below, and for its `_e32`/`_e64`
spellings, this runs `llvm-mc-22 -arch=amdgcn -mcpu=<p> -show-encoding` for each processor of
the generation and records what LLVM printed (the mnemonic as llvm-objdump prints it), the
encoding format (recognised by the identification bits of FORMATS) and the opcode bits. Then it
re-assembles the line with one operand changed at a time (another register, `off` -> an SGPR
pair, an immediate -> another value) and records which field of the format the changed bits
fall in: that is the operand's field. Nothing about an opcode is typed by hand.

The field layouts (FORMATS) are ISA facts from the ISA guides' "Microcode Formats" chapters:
  gfx9:  AMD "Vega" Instruction Set Architecture Reference Guide (2017), chapter 12;
         gfx90a/gfx942: AMD Instinct MI200 / CDNA3 ISA guides, chapter "Microcode Formats"
         (the same layouts; FLAT/MUBUF bit 55 (gfx9 NV) is ACC, gfx942 renames glc/slc/bit 25 as
         sc0/nt/sc1).
  gfx10: "RDNA 2" Instruction Set Architecture Reference Guide (2020), chapter 13 (gfx1010's
         RDNA 1 guide has the same layouts).
  gfx11: "RDNA3" Instruction Set Architecture Reference Guide (2023), chapter 16.
  gfx12: "RDNA4" Instruction Set Architecture Reference Guide (2025), chapter "Microcode
         Formats" (SMEM, VGLOBAL/VFLAT/VSCRATCH and VBUFFER are 96-bit there; VOP*, DS as gfx11).
Each format's identification bits are checked against LLVM: a form whose encoding matches no
format, or matches a format whose printed mnemonic family disagrees, is reported and skipped.

usage: gen_encodings.py [--check]   (--check: compare with the committed files, exit 1 if stale)
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORMS = os.path.join(ROOT, "crates/asm/tests/data/llvm_forms.tsv")
EXTRA_FORMS = os.path.join(ROOT, "scripts/isa/extra_forms.tsv")
OUT_DIR = os.path.join(ROOT, "crates/codeobj/data")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")

# generation of llvm_forms.tsv -> (family, processors assembled for, extra llvm-mc attributes)
GENERATIONS = {
    9: ("gfx9", ["gfx900", "gfx906", "gfx90a", "gfx942"], ""),
    10: ("gfx10", ["gfx1010", "gfx1030"], "+wavefrontsize32"),
    11: ("gfx11", ["gfx1100"], "+wavefrontsize32"),
    # gfx12 as real true16 (16-bit VGPR halves `vN.l`/`vN.h`, what gfx11 is by default): the
    # hardware's reading of every 16-bit operand field (RDNA4 ISA, "VOP1"/"VOP2"/"VOPC": bit 7
    # of an 8-bit VGPR number picks the high half; VOP3's OP_SEL picks halves). Fake16 code
    # (clang-22's default for gfx12) never sets those bits, so it reads the same registers; its
    # listing prints `v4.l` where `llvm-objdump-22` without `--mattr=+real-true16` prints `v4`.
    12: ("gfx12", ["gfx1200"], "+wavefrontsize32,+real-true16"),
}

# Field layouts: family -> format -> (size in bits, [(name, lo, width)], identification).
# identification: (lo, width, value) triples that must all hold. Order matters: the first
# matching format wins, so longer prefixes come first. Field kinds (how a value prints) are
# named by the field: src* (9-bit scalar/vector/constant source), vdst/vsrc*/vaddr/vdata/
# addr/data*/vdst* (VGPR number), sdst/sdata/ssrc*/soffset (7/8-bit scalar), sbase (SGPR/2),
# srsrc/ssamp (SGPR/4), saddr (SGPR or off), simm16/offset* (immediates), op (opcode).
def f(name, lo, width):
    return (name, lo, width)

SOP = {
    "SOP1": (32, [f("op", 8, 8), f("sdst", 16, 7), f("ssrc0", 0, 8)], [(23, 9, 0b101111101)]),
    "SOPC": (32, [f("op", 16, 7), f("ssrc1", 8, 8), f("ssrc0", 0, 8)], [(23, 9, 0b101111110)]),
    "SOPP": (32, [f("op", 16, 7), f("simm16", 0, 16)], [(23, 9, 0b101111111)]),
    "SOPK": (32, [f("op", 23, 5), f("sdst", 16, 7), f("simm16", 0, 16)], [(28, 4, 0b1011)]),
    "SOP2": (32, [f("op", 23, 7), f("sdst", 16, 7), f("ssrc1", 8, 8), f("ssrc0", 0, 8)], [(30, 2, 0b10)]),
}
VOP_SHORT = {
    "VOPC": (32, [f("op", 17, 8), f("vsrc1", 9, 8), f("src0", 0, 9)], [(25, 7, 0b0111110)]),
    "VOP1": (32, [f("op", 9, 8), f("vdst", 17, 8), f("src0", 0, 9)], [(25, 7, 0b0111111)]),
    "VOP2": (32, [f("op", 25, 6), f("vdst", 17, 8), f("vsrc1", 9, 8), f("src0", 0, 9)], [(31, 1, 0)]),
}
VOP3_FIELDS = [f("op", 16, 10), f("clamp", 15, 1), f("op_sel", 11, 4), f("abs", 8, 3), f("sdst", 8, 7),
               f("vdst", 0, 8), f("src0", 32, 9), f("src1", 41, 9), f("src2", 50, 9), f("omod", 59, 2),
               f("neg", 61, 3)]
VOP3P_FIELDS = [f("op", 16, 7), f("clamp", 15, 1), f("op_sel_hi2", 14, 1), f("op_sel", 11, 3),
                f("neg_hi", 8, 3), f("vdst", 0, 8), f("src0", 32, 9), f("src1", 41, 9), f("src2", 50, 9),
                f("op_sel_hi", 59, 2), f("neg", 61, 3)]
DS_COMMON = [f("offset1", 8, 8), f("offset0", 0, 8), f("addr", 32, 8), f("data0", 40, 8),
             f("data1", 48, 8), f("vdst", 56, 8)]

FORMATS = {
    "gfx9": {
        **{k: v for k, v in SOP.items() if k != "SOP2"},
        "SMEM": (64, [f("op", 18, 8), f("imm", 17, 1), f("glc", 16, 1), f("soe", 14, 1),
                      f("sdata", 6, 7), f("sbase", 0, 6), f("offset", 32, 21), f("soffset", 57, 7)],
                 [(26, 6, 0b110000)]),
        "VOP3P": (64, VOP3P_FIELDS, [(23, 9, 0b110100111)]),
        "VOP3": (64, VOP3_FIELDS, [(26, 6, 0b110100)]),
        "DS": (64, [f("op", 17, 8), f("gds", 16, 1)] + DS_COMMON, [(26, 6, 0b110110)]),
        "FLAT": (64, [f("op", 18, 7), f("sc1", 25, 1), f("slc", 17, 1), f("glc", 16, 1), f("lds", 13, 1),
                      f("offset", 0, 12), f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7),
                      f("acc", 55, 1), f("vdst", 56, 8)], [(26, 6, 0b110111), (14, 2, 0)]),
        "SCRATCH": (64, [f("op", 18, 7), f("sc1", 25, 1), f("slc", 17, 1), f("glc", 16, 1), f("lds", 13, 1),
                         f("offset", 0, 13), f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7),
                         f("acc", 55, 1), f("vdst", 56, 8)], [(26, 6, 0b110111), (14, 2, 1)]),
        "GLOBAL": (64, [f("op", 18, 7), f("sc1", 25, 1), f("slc", 17, 1), f("glc", 16, 1), f("lds", 13, 1),
                        f("offset", 0, 13), f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7),
                        f("acc", 55, 1), f("vdst", 56, 8)], [(26, 6, 0b110111), (14, 2, 2)]),
        "MUBUF": (64, [f("op", 18, 7), f("sc1", 15, 1), f("slc", 17, 1), f("lds", 16, 1), f("glc", 14, 1),
                       f("idxen", 13, 1), f("offen", 12, 1), f("offset", 0, 12), f("vaddr", 32, 8),
                       f("vdata", 40, 8), f("srsrc", 48, 5), f("acc", 55, 1), f("soffset", 56, 8)],
                  [(26, 6, 0b111000)]),
        "MTBUF": (64, [f("op", 15, 4), f("nfmt", 23, 3), f("dfmt", 19, 4), f("glc", 14, 1),
                       f("idxen", 13, 1), f("offen", 12, 1), f("offset", 0, 12), f("vaddr", 32, 8),
                       f("vdata", 40, 8), f("srsrc", 48, 5), f("slc", 54, 1), f("acc", 55, 1),
                       f("soffset", 56, 8)], [(26, 6, 0b111010)]),
        # Vega ISA chapter 12, "MIMG" (bit 15 is R128 on gfx900, A16 from gfx906 on)
        "MIMG": (64, [f("op", 18, 7), f("dmask", 8, 4), f("unorm", 12, 1), f("glc", 13, 1), f("da", 14, 1),
                      f("a16", 15, 1), f("tfe", 16, 1), f("lwe", 17, 1), f("slc", 25, 1), f("vaddr", 32, 8),
                      f("vdata", 40, 8), f("srsrc", 48, 5), f("ssamp", 53, 5), f("d16", 63, 1)],
                 [(26, 6, 0b111100)]),
        "SOP2": SOP["SOP2"],
        **VOP_SHORT,
    },
    "gfx10": {
        **{k: v for k, v in SOP.items() if k != "SOP2"},
        "SMEM": (64, [f("op", 18, 8), f("glc", 16, 1), f("dlc", 14, 1), f("sdata", 6, 7), f("sbase", 0, 6),
                      f("offset", 32, 21), f("soffset", 57, 7)], [(26, 6, 0b111101)]),
        "VOP3P": (64, VOP3P_FIELDS, [(24, 8, 0b11001100)]),
        "VOP3": (64, VOP3_FIELDS, [(26, 6, 0b110101)]),
        "DS": (64, [f("op", 18, 8), f("gds", 17, 1)] + DS_COMMON, [(26, 6, 0b110110)]),
        "FLAT": (64, [f("op", 18, 7), f("slc", 17, 1), f("glc", 16, 1), f("lds", 13, 1), f("dlc", 12, 1),
                      f("offset", 0, 12), f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7),
                      f("vdst", 56, 8)], [(26, 6, 0b110111), (14, 2, 0)]),
        "SCRATCH": (64, [f("op", 18, 7), f("slc", 17, 1), f("glc", 16, 1), f("lds", 13, 1), f("dlc", 12, 1),
                         f("offset", 0, 12), f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7),
                         f("vdst", 56, 8)], [(26, 6, 0b110111), (14, 2, 1)]),
        "GLOBAL": (64, [f("op", 18, 7), f("slc", 17, 1), f("glc", 16, 1), f("lds", 13, 1), f("dlc", 12, 1),
                        f("offset", 0, 12), f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7),
                        f("vdst", 56, 8)], [(26, 6, 0b110111), (14, 2, 2)]),
        "MUBUF": (64, [f("op", 18, 7), f("op_hi", 25, 1), f("slc", 54, 1), f("lds", 16, 1), f("dlc", 15, 1), f("glc", 14, 1),
                       f("idxen", 13, 1), f("offen", 12, 1), f("offset", 0, 12), f("vaddr", 32, 8),
                       f("vdata", 40, 8), f("srsrc", 48, 5), f("tfe", 55, 1), f("soffset", 56, 8)],
                  [(26, 6, 0b111000)]),
        "MTBUF": (64, [f("op", 16, 3), f("op_hi", 53, 1), f("format", 19, 7), f("dlc", 15, 1), f("glc", 14, 1),
                       f("idxen", 13, 1), f("offen", 12, 1), f("offset", 0, 12), f("vaddr", 32, 8),
                       f("vdata", 40, 8), f("srsrc", 48, 5), f("slc", 54, 1), f("tfe", 55, 1),
                       f("soffset", 56, 8)], [(26, 6, 0b111010)]),
        # RDNA 2 ISA chapter 13, "MIMG": opcode bit 7 in bit 0; NSA [2:1] counts the extra dwords
        # of address VGPRs (one byte each) after the 64 bits.
        "MIMG": (64, [f("op", 18, 7), f("op_hi", 0, 1), f("nsa", 1, 2), f("dim", 3, 3), f("dlc", 7, 1),
                      f("dmask", 8, 4), f("unorm", 12, 1), f("glc", 13, 1), f("r128", 15, 1), f("tfe", 16, 1),
                      f("lwe", 17, 1), f("slc", 25, 1), f("vaddr", 32, 8), f("vdata", 40, 8), f("srsrc", 48, 5),
                      f("ssamp", 53, 5), f("a16", 62, 1), f("d16", 63, 1)], [(26, 6, 0b111100)]),
        "SOP2": SOP["SOP2"],
        **VOP_SHORT,
    },
    "gfx11": {
        **{k: v for k, v in SOP.items() if k != "SOP2"},
        "SMEM": (64, [f("op", 18, 8), f("glc", 14, 1), f("dlc", 13, 1), f("sdata", 6, 7), f("sbase", 0, 6),
                      f("offset", 32, 21), f("soffset", 57, 7)], [(26, 6, 0b111101)]),
        "VOP3P": (64, VOP3P_FIELDS, [(24, 8, 0b11001100)]),
        "VOP3": (64, VOP3_FIELDS, [(26, 6, 0b110101)]),
        "VOPD": (64, [f("opx", 22, 4), f("opy", 17, 5), f("vsrcx1", 9, 8), f("srcx0", 0, 9),
                      f("vdstx", 56, 8), f("vdsty", 49, 7), f("vsrcy1", 41, 8), f("srcy0", 32, 9)],
                 [(26, 6, 0b110010)]),
        "DS": (64, [f("op", 18, 8), f("gds", 17, 1)] + DS_COMMON, [(26, 6, 0b110110)]),
        "FLAT": (64, [f("op", 18, 7), f("slc", 15, 1), f("glc", 14, 1), f("dlc", 13, 1), f("offset", 0, 13),
                      f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7), f("sve", 55, 1),
                      f("vdst", 56, 8)], [(26, 6, 0b110111), (16, 2, 0)]),
        "SCRATCH": (64, [f("op", 18, 7), f("slc", 15, 1), f("glc", 14, 1), f("dlc", 13, 1), f("offset", 0, 13),
                         f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7), f("sve", 55, 1),
                         f("vdst", 56, 8)], [(26, 6, 0b110111), (16, 2, 1)]),
        "GLOBAL": (64, [f("op", 18, 7), f("slc", 15, 1), f("glc", 14, 1), f("dlc", 13, 1), f("offset", 0, 13),
                        f("addr", 32, 8), f("data", 40, 8), f("saddr", 48, 7), f("sve", 55, 1),
                        f("vdst", 56, 8)], [(26, 6, 0b110111), (16, 2, 2)]),
        "MUBUF": (64, [f("op", 18, 8), f("slc", 12, 1), f("glc", 14, 1), f("dlc", 13, 1), f("offset", 0, 12),
                       f("vaddr", 32, 8), f("vdata", 40, 8), f("srsrc", 48, 5), f("tfe", 53, 1),
                       f("offen", 54, 1), f("idxen", 55, 1), f("soffset", 56, 8)], [(26, 6, 0b111000)]),
        "MTBUF": (64, [f("op", 15, 4), f("format", 19, 7), f("slc", 12, 1), f("glc", 14, 1), f("dlc", 13, 1),
                       f("offset", 0, 12), f("vaddr", 32, 8), f("vdata", 40, 8), f("srsrc", 48, 5),
                       f("tfe", 53, 1), f("offen", 54, 1), f("idxen", 55, 1), f("soffset", 56, 8)],
                  [(26, 6, 0b111010)]),
        # RDNA3 ISA chapter 16, "MIMG": NSA [0] is one bit; the extra address dwords follow from
        # the number of address operands (one byte each).
        "MIMG": (64, [f("op", 18, 8), f("nsa", 0, 1), f("dim", 2, 3), f("unorm", 7, 1), f("dmask", 8, 4),
                      f("slc", 12, 1), f("dlc", 13, 1), f("glc", 14, 1), f("r128", 15, 1), f("a16", 16, 1),
                      f("d16", 17, 1), f("vaddr", 32, 8), f("vdata", 40, 8), f("srsrc", 48, 5), f("tfe", 53, 1),
                      f("lwe", 54, 1), f("ssamp", 58, 5)], [(26, 6, 0b111100)]),
        "SOP2": SOP["SOP2"],
        **VOP_SHORT,
    },
}

GFX12_VMEM = [f("op", 14, 8), f("saddr", 0, 7), f("vdst", 32, 8), f("sve", 49, 1), f("scope", 50, 2),
              f("th", 52, 3), f("data", 55, 8), f("addr", 64, 8), f("offset", 72, 24)]
FORMATS["gfx12"] = {
    **{k: v for k, v in SOP.items() if k != "SOP2"},
    "SMEM": (64, [f("op", 13, 8), f("scope", 21, 2), f("th", 23, 3), f("sdata", 6, 7), f("sbase", 0, 6),
                  f("offset", 32, 24), f("soffset", 57, 7)], [(26, 6, 0b111101)]),
    "VOP3P": (64, VOP3P_FIELDS, [(24, 8, 0b11001100)]),
    "VOP3": (64, VOP3_FIELDS, [(26, 6, 0b110101)]),
    "VOPD": FORMATS["gfx11"]["VOPD"],
    "DS": FORMATS["gfx11"]["DS"],
    "FLAT": (96, GFX12_VMEM, [(24, 8, 0b11101100)]),
    "SCRATCH": (96, GFX12_VMEM, [(24, 8, 0b11101101)]),
    "GLOBAL": (96, GFX12_VMEM, [(24, 8, 0b11101110)]),
    "MUBUF": (96, [f("op", 14, 8), f("soffset", 0, 7), f("tfe", 22, 1), f("vdata", 32, 8), f("rsrc", 41, 9),
                   f("scope", 50, 2), f("th", 52, 3), f("format", 55, 7), f("offen", 62, 1), f("idxen", 63, 1),
                   f("vaddr", 64, 8), f("offset", 72, 24)], [(26, 6, 0b110001)]),
    # RDNA4 ISA "VIMAGE" / "VSAMPLE": 96 bits, up to five address VGPRs (vaddr0..vaddr4) always
    # listed apart (no contiguous form); the resource is a 9-bit SGPR number.
    "VIMAGE": (96, [f("op", 14, 8), f("dim", 0, 3), f("r128", 4, 1), f("d16", 5, 1), f("a16", 6, 1),
                    f("dmask", 22, 4), f("vdata", 32, 8), f("rsrc", 41, 9), f("scope", 50, 2), f("th", 52, 3),
                    f("tfe", 55, 1), f("vaddr4", 56, 8), f("vaddr", 64, 8), f("vaddr1", 72, 8),
                    f("vaddr2", 80, 8), f("vaddr3", 88, 8)], [(26, 6, 0b110100)]),
    "VSAMPLE": (96, [f("op", 14, 8), f("dim", 0, 3), f("d16", 5, 1), f("a16", 6, 1), f("unorm", 13, 1),
                     f("dmask", 22, 4), f("vdata", 32, 8), f("rsrc", 41, 9), f("scope", 50, 2), f("th", 52, 3),
                     f("vaddr", 64, 8), f("vaddr1", 72, 8), f("vaddr2", 80, 8), f("vaddr3", 88, 8)],
                [(26, 6, 0b111001)]),
    "SOP2": SOP["SOP2"],
    **VOP_SHORT,
}

# Graphics-only encodings (exports and parameter interpolation), identified so a code object
# holding them gets an error naming the instruction (the decoder does not print them yet).
# EXP has no opcode (`op` is 0 bits wide). Vega ISA chapter 12 "EXP"/"VINTRP"; RDNA 2 ISA
# chapter 13 the same; RDNA3 ISA chapter 16 "EXP", "LDSDIR", "VINTERP" (RDNA4 the same bits).
EXP_FIELDS = [f("op", 0, 0), f("en", 0, 4), f("target", 4, 6), f("compr", 10, 1), f("done", 11, 1),
              f("vm", 12, 1), f("vsrc0", 32, 8), f("vsrc1", 40, 8), f("vsrc2", 48, 8), f("vsrc3", 56, 8)]
VINTRP_FIELDS = [f("vsrc", 0, 8), f("attrchan", 8, 2), f("attr", 10, 6), f("op", 16, 2), f("vdst", 18, 8)]
LDSDIR = (32, [f("vdst", 0, 8), f("attrchan", 8, 2), f("attr", 10, 6), f("wait", 16, 4), f("op", 20, 2)],
          [(24, 8, 0b11001110)])
VINTERP = (64, [f("vdst", 0, 8), f("wait", 8, 3), f("op_sel", 11, 4), f("clamp", 15, 1), f("op", 16, 7),
                f("src0", 32, 9), f("src1", 41, 9), f("src2", 50, 9), f("neg", 61, 3)], [(24, 8, 0b11001101)])
FORMATS["gfx9"]["EXP"] = (64, EXP_FIELDS, [(26, 6, 0b110001)])
FORMATS["gfx9"]["VINTRP"] = (32, VINTRP_FIELDS, [(26, 6, 0b110101)])
FORMATS["gfx10"]["EXP"] = (64, EXP_FIELDS, [(26, 6, 0b111110)])
FORMATS["gfx10"]["VINTRP"] = (32, VINTRP_FIELDS, [(26, 6, 0b110010)])
for fam in ("gfx11", "gfx12"):
    FORMATS[fam]["EXP"] = (64, EXP_FIELDS, [(26, 6, 0b111110)])
    FORMATS[fam]["LDSDIR"] = LDSDIR
    FORMATS[fam]["VINTERP"] = VINTERP
GRAPHICS_FORMATS = ("EXP", "VINTRP", "LDSDIR", "VINTERP")

# Fields that are modifiers, never a printed operand (the decoder prints them per format).
MODIFIERS = {"op", "op_hi", "opx", "opy", "clamp", "op_sel", "op_sel_hi", "op_sel_hi2", "abs", "neg", "neg_hi",
             "omod", "glc", "slc", "dlc", "sc1", "lds", "acc", "gds", "idxen", "offen", "tfe", "sve",
             "imm", "soe", "nfmt", "dfmt", "format", "th", "scope", "nsa", "dim", "dmask", "unorm", "da",
             "r128", "a16", "d16", "lwe", "en", "target", "compr", "done", "vm", "attrchan", "attr", "wait"}

# Mnemonics whose operand prints in a syntax of its own (the decoder has a printer per name).
SPECIAL = {"s_waitcnt", "s_delay_alu", "s_sendmsg", "s_sendmsghalt", "s_sendmsg_rtn_b32",
           "s_sendmsg_rtn_b64", "s_getreg_b32", "s_setreg_b32", "s_setreg_imm32_b32",
           "s_waitcnt_depctr", "s_version", "s_wait_alu"}


def field_value(words, lo, width):
    v = 0
    for i, w in enumerate(words):
        v |= w << (32 * i)
    return (v >> lo) & ((1 << width) - 1)


def opcode(words, fields):
    """The opcode: the `op` field, with `op_hi` (gfx10 MUBUF/MTBUF keep a bit apart) above it."""
    lo, w = next((lo, w) for n, lo, w in fields if n == "op")
    op = field_value(words, lo, w)
    hi = next(((lo2, w2) for n, lo2, w2 in fields if n == "op_hi"), None)
    if hi:
        op |= field_value(words, *hi) << w
    return op


def identify(family, words):
    for name, (size, fields, ident) in FORMATS[family].items():
        if size // 32 > len(words):
            continue
        if all(field_value(words, lo, w) == val for lo, w, val in ident):
            return name
    return None


def split_ops(text):
    """Mnemonic and top-level comma-separated operands of a printed line (modifier words after
    the last operand kept apart)."""
    text = text.strip()
    if " " not in text:
        return text, [], []
    mn, rest = text.split(" ", 1)
    parts, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    mods = []
    last = parts[-1].split()
    if len(last) > 1 and mn not in SPECIAL:
        parts[-1] = last[0]
        mods = last[1:]
    return mn, parts, mods


# A register operand: optional neg/abs, file, number or range, a true16 half (`.l`/`.h`), abs.
REG = re.compile(r"^(-?\|?)(v|s|a|ttmp)(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?(\|?)$")


def mutate(tok):
    """Other spellings of operand `tok` that move only its field, most likely first."""
    m = REG.match(tok)
    if m:
        pre, kind, one, lo, hi, half, post = m.groups()
        half = half or ""
        if one is not None:
            # +13 sets bits 0, 2 and 3: a 7-bit SGPR field sharing its low bits with a narrower
            # one (VOP3's sdst over abs) is told apart by the bit above.
            return [f"{pre}{kind}{int(one) + 13}{half}{post}", f"{pre}{kind}{int(one) + 4}{half}{post}",
                    f"{pre}{kind}{int(one) + 2}{half}{post}"]
        lo, hi = int(lo), int(hi)
        n = hi - lo + 1
        step = 8 if n <= 8 else 16
        return [f"{pre}{kind}[{lo + step}:{hi + step}]{post}"]
    m = re.fullmatch(r"attr(\d+)\.([xyzw])", tok)
    if m:  # an interpolation attribute and channel (gfx9 VOP3 v_interp_*_e64: src0's bits)
        return [f"attr{int(m.group(1)) + 4}.{m.group(2)}"]
    if tok in INTERP_SLOTS:  # p10 / p20 / p0 (v_interp_mov)
        return [INTERP_SLOTS[(INTERP_SLOTS.index(tok) + 1) % 3]]
    if tok == "off":
        return ["s[4:5]", "s4"]
    if tok in ("vcc", "exec"):
        return ["s[4:5]"]
    if tok == "null":  # a destination of any width (s_load_b96 null, ...)
        return ["s4", "s[4:5]", "s[4:6]", "s[4:7]", "s[8:15]", "s[16:31]"]
    if tok in ("vcc_lo", "exec_lo", "m0"):
        # An inline constant after the SGPR: where another SGPR source fills gfx9's constant
        # bus (v_writelane_b32's lane select beside its data), only a constant moves the field.
        return ["s4", "2"]
    if re.fullmatch(r"0x[0-9a-f]+|-?\d+", tok):
        v = int(tok, 0)
        return [hex(v + 4) if tok.startswith("0x") else str(v + 4)]
    return []


# v_interp_mov's parameter slots, by their encoding (0, 1, 2).
INTERP_SLOTS = ["p10", "p20", "p0"]


def kind_width(tok):
    """The kind a printed operand token shows (register file v/a/s, `attr` an interpolation
    attribute and channel, `pslot` a v_interp_mov slot, `i` an immediate) and its width."""
    if re.fullmatch(r"attr\d+\.[xyzw]", tok):
        return "attr", 0
    if tok in INTERP_SLOTS:
        return "pslot", 0
    m = REG.match(tok)
    if m:
        _, kind, one, lo, hi, _, _ = m.groups()
        return ("v" if kind == "v" else "a" if kind == "a" else "s"), (1 if one is not None else int(hi) - int(lo) + 1)
    if tok in ("vcc", "exec"):
        return "s", 2
    if tok in ("vcc_lo", "exec_lo", "null", "m0"):
        return "s", 1
    if tok == "off":
        return "s", 0
    return "i", 0


def run_mc(cpu, attrs, lines):
    """Assemble `lines`; return {index: (printed text, words)} for those LLVM accepts."""
    cmd = [LLVM_MC, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"]
    if attrs:
        cmd.append(f"-mattr={attrs}")
    p = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: error", p.stderr, re.M)}
    ok = [i for i in range(len(lines)) if i not in bad]
    outs = [l for l in p.stdout.splitlines() if "; encoding:" in l]
    if len(outs) != len(ok):
        sys.exit(f"{cpu}: llvm-mc printed {len(outs)} encodings for {len(ok)} accepted lines")
    res = {}
    for i, l in zip(ok, outs):
        text, enc = l.split("; encoding:")
        b = [int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", enc)]
        words = [int.from_bytes(bytes(b[j:j + 4]), "little") for j in range(0, len(b) - len(b) % 4, 4)]
        res[i] = (text.strip(), words)
    return res


def run_dis(cpu, attrs, encodings):
    """What LLVM's disassembler prints for each encoding (the mnemonic llvm-objdump shows, not
    an assembler alias such as v_mul_lo_i32); None where it prints nothing."""
    cmd = [LLVM_MC, "-arch=amdgcn", f"-mcpu={cpu}", "-disassemble"]
    if attrs:
        cmd.append(f"-mattr={attrs}")
    out = []
    for words in encodings:  # one run per encoding keeps the mapping exact; batched below
        out.append(" ".join(f"0x{b:02x}" for w in words for b in w.to_bytes(4, "little")))
    p = subprocess.run(cmd, input="\n".join(out) + "\n", capture_output=True, text=True)
    bad = {int(m.group(1)) - 1 for m in re.finditer(r"^<stdin>:(\d+):\d+: (?:warning|error)", p.stderr, re.M)}
    texts = [l.strip() for l in p.stdout.splitlines() if l.startswith("\t") and not l.strip().startswith(".")]
    ok = [i for i in range(len(encodings)) if i not in bad]
    if len(texts) != len(ok):
        return [None] * len(encodings)
    res = [None] * len(encodings)
    for i, t in zip(ok, texts):
        res[i] = t
    return res


def buffer_address(line):
    """A buffer op's form with `off` for its address (no VGPR): written with a VGPR and `offen`
    so the address operand's field is found (an `off` there cannot be moved); the decoder prints
    `off` when neither OFFEN nor IDXEN is set (issue 47 item 19: gfx12 buffer_load_b96)."""
    if not line.startswith("buffer_") or ", off, " not in line:
        return line
    return line.replace(", off, ", ", v10, ", 1) + " offen"


def valid_lines(cpu, attrs, lines):
    """`lines` with the forms llvm-mc-22 assembles into an encoding its own printer calls invalid
    (`v_s_rcp_f32 s0, v0` prints `v0/*Invalid register, operand has 'SReg_32' register class*/`:
    gfx12's scalar transcendentals take SGPRs) written with SGPRs for their VGPRs."""
    res = run_mc(cpu, attrs, lines)
    out = list(lines)
    for i, (text, _) in res.items():
        if "/*Invalid register" in text:
            out[i] = re.sub(r"\bv(\d+)\b", r"s\1", lines[i])
    return out


def spellings(mn, line):
    """The form and its _e32/_e64 spellings (VOP1/VOP2/VOPC ops have both encodings; carry
    operands are VCC in the short one and any SGPR (pair) in the long one). LLVM rejects the
    spellings that do not exist."""
    out = [line]
    if not mn.startswith("v_") or mn.startswith("v_dual") or mn.endswith(("_e32", "_e64", "_sdwa", "_dpp")):
        return out
    ops = [o.strip() for o in line[len(mn):].split(",")] if line != mn else []
    to_vcc = [{"s[0:1]": "vcc", "s0": "vcc_lo"}.get(o, o) for o in ops]
    to_sgpr = [{"vcc": "s[0:1]", "vcc_lo": "s0"}.get(o, o) for o in ops]
    ins = lambda reg: ([ops[0], reg] + ops[1:] + [reg]) if ops else []
    for suffix, ops_list in (("_e64", [ops, to_sgpr, to_sgpr + ["s[0:1]"], to_sgpr + ["s0"], ins("s0"), ins("s[0:1]")]),
                             ("_e32", [ops, to_vcc, [ops[0], "vcc"] + ops[1:] if ops else [],
                                       [ops[0], "vcc_lo"] + ops[1:] if ops else [],
                                       ([ops[0], "vcc"] + ops[1:] + ["vcc"]) if ops else [],
                                       ([ops[0], "vcc_lo"] + ops[1:] + ["vcc_lo"]) if ops else []])):
        for o in ops_list:
            out.append(f"{mn}{suffix} {', '.join(o)}".strip())
    return out


def vopd_rows(family, cpu, attrs, forms, rows):
    """VOPD (gfx11+ dual issue): each v_dual_* mnemonic as the X half (beside v_dual_mov_b32)
    and as the Y half, its opcode read from OPX/OPY and its operands' fields found by moving
    each register by 4 (VOPD's register-bank rules keep that legal)."""
    halves = {}
    for _, line in forms:
        if " :: " not in line:
            continue
        for half in line.split(" :: "):
            mn, rest = half.split(" ", 1)
            ops = [o.strip() for o in rest.split(",")]
            # the destination is v0 on both sides: even, unlike the partner's v1
            halves.setdefault(mn, ["v0"] + ops[1:])
    fmt = FORMATS[family]["VOPD"]
    fields = fmt[1]
    lines, meta = [], []
    for mn, ops in sorted(halves.items()):
        for side in ("X", "Y"):
            def build(o):
                me = f"{mn} {', '.join(o)}"
                return f"{me} :: v_dual_mov_b32 v1, v2" if side == "X" else f"v_dual_mov_b32 v1, v2 :: {me}"
            lines.append(build(ops))
            meta.append((mn, side, -1))
            for k, tok in enumerate(ops):
                m = REG.match(tok)
                if not m or m.group(3) is None:
                    continue
                new = ops[:k] + [f"v{int(m.group(3)) + 4}"] + ops[k + 1:]
                lines.append(build(new))
                meta.append((mn, side, k))
    res = run_mc(cpu, attrs, lines)
    base = {}
    for j, (mn, side, k) in enumerate(meta):
        if k == -1 and j in res:
            base[(mn, side)] = res[j]
    found = defaultdict(dict)
    for j, (mn, side, k) in enumerate(meta):
        if k < 0 or j not in res or (mn, side) not in base:
            continue
        a = field_value(base[(mn, side)][1][:2], 0, 64)
        b = field_value(res[j][1][:2], 0, 64)
        diff = a ^ b
        for n, lo, w in fields:
            if n not in MODIFIERS and diff and diff & ~(((1 << w) - 1) << lo) == 0:
                found[(mn, side)][k] = n
    for (mn, side), (text, words) in base.items():
        ops = halves[mn]
        opfield = "opx" if side == "X" else "opy"
        lo, w = next((lo, w) for n, lo, w in fields if n == opfield)
        op = field_value(words, lo, w)
        # the printed half (LLVM may print an implicit operand such as vcc_lo)
        printed = text.split(" :: ")[0 if side == "X" else 1]
        pops = [o.strip() for o in printed.split(" ", 1)[1].split(",")] if " " in printed else []
        items = []
        for k, tok in enumerate(pops):
            fld = found[(mn, side)].get(k)
            if fld is not None:
                items.append(f"{fld}:v:1")
            elif REG.match(tok) is None and re.fullmatch(r"0x[0-9a-f]+|-?\d+", tok):
                items.append("literal:hex:0")
            else:
                items.append("=" + tok)
        key = (family, "VOPD" + side, op, mn)
        rows.setdefault(key, {"template": ",".join(items) or "-", "cpus": []})
        if cpu not in rows[key]["cpus"]:
            rows[key]["cpus"].append(cpu)


def generate():
    forms = defaultdict(list)
    with open(FORMS) as fh:
        for l in fh:
            if l.startswith("#"):
                continue
            c = l.rstrip("\n").split("\t")
            forms[int(c[0])].append((c[1], c[3]))
    with open(EXTRA_FORMS) as fh:
        for l in fh:
            if l.startswith("#") or not l.strip():
                continue
            c = l.rstrip("\n").split("\t")
            forms[int(c[0])].append((c[1], c[3]))
    rows = {}  # (family, format, opcode key) -> {mnemonic, template, processors}
    problems = []
    for gen, (family, cpus, attrs) in GENERATIONS.items():
        lines = []
        for mn, line in forms[gen]:
            line = buffer_address(line)
            # gfx9 refuses a second SGPR beside v_writelane_b32's (the constant bus; its
            # lane select M0 or a constant is allowed), so the form's `s0, s0` cannot have one
            # operand moved: it is written with M0, whose field moves to a constant (`2`).
            if mn == "v_writelane_b32" and line.endswith(", s0, s0"):
                line = line[: -len(", s0, s0")] + ", s0, m0"
            lines.extend(spellings(mn, line))
            lines.extend(returning_atomics(mn, line))
        lines = list(dict.fromkeys(lines))
        for cpu in cpus:
            base = run_mc(cpu, attrs, valid_lines(cpu, attrs, lines))
            # second pass: one operand changed at a time
            variants, owners = [], []
            parsed = {}
            for i, (text, words) in base.items():
                mn, ops, mods = split_ops(text)
                parsed[i] = (mn, ops, mods)
                if mn in SPECIAL:
                    continue
                for k, tok in enumerate(ops):
                    for alt in mutate(tok):
                        new = ops[:k] + [alt] + ops[k + 1:]
                        variants.append(f"{mn} {', '.join(new)} {' '.join(mods)}".strip())
                        owners.append((i, k, alt))
            mutated = run_mc(cpu, attrs, variants)
            field_of = {}
            for j, (text, words) in mutated.items():
                i, k, alt = owners[j]
                if (i, k) in field_of:
                    continue
                btext, bwords = base[i]
                fmt = identify(family, bwords)
                if fmt is None or len(words) < FORMATS[family][fmt][0] // 32:
                    continue
                size, fields, _ = FORMATS[family][fmt]
                nwords = size // 32
                a = field_value(bwords[:nwords], 0, size)
                b = field_value(words[:nwords], 0, size)
                diff = a ^ b
                if diff == 0:
                    # only the dword after the instruction moved: a literal constant operand
                    # (v_fmaak_f32's K)
                    if words[nwords:] != bwords[nwords:]:
                        field_of[(i, k)] = ("literal", alt)
                    continue
                cands = [n for n, lo, w in fields if n not in MODIFIERS and diff & ~(((1 << w) - 1) << lo) == 0]
                if cands:
                    # the narrowest field holding every changed bit (abs/sdst overlap: sdst wins when wider bits moved)
                    field_of[(i, k)] = (min(cands, key=lambda n: next(w for m, _, w in fields if m == n)), alt)
            if "VOPD" in FORMATS[family]:
                vopd_rows(family, cpu, attrs, forms[gen], rows)
            order = list(base)
            shown = dict(zip(order, run_dis(cpu, attrs, [base[i][1] for i in order])))
            # A source the form wrote as an SGPR or constant: is it a 16-bit VGPR when it is
            # one? Disassemble with the field set to v1 (code 257) and look for `.l`.
            probes, owners16 = [], []
            for i, (text, words) in base.items():
                fmt = identify(family, words)
                if fmt not in ("VOP1", "VOP2", "VOPC", "VOP3"):
                    continue
                size, fields, _ = FORMATS[family][fmt]
                for k, tok in enumerate(parsed[i][1]):
                    fld = field_of.get((i, k), (None, None))[0]
                    if fld in ("src0", "src1", "src2") and kind_width(tok)[0] != "v":
                        lo, w = next((lo, w) for n, lo, w in fields if n == fld)
                        v = field_value(words, 0, 32 * len(words))
                        v = v & ~(((1 << w) - 1) << lo) | (257 << lo)
                        probes.append([(v >> (32 * j)) & 0xFFFFFFFF for j in range(len(words))])
                        owners16.append((i, k))
            half_sources = set()
            for (i, k), t in zip(owners16, run_dis(cpu, attrs, probes) if probes else []):
                sops = split_ops(t)[1] if t else []
                if k < len(sops) and re.fullmatch(r"-?\|?v1\.l\|?", sops[k]):
                    half_sources.add((i, k))
            int16_sources = int16_probe(family, cpu, attrs, base, parsed, field_of)
            for i, (text, words) in base.items():
                mn, ops, mods = parsed[i]
                # 16-bit VGPR operands: the disassembler (true16 on gfx11+) prints them as
                # vN.l / vN.h; the operand keeps kind `v16` when both texts list the same operands.
                half = set()
                if shown.get(i):
                    mn = shown[i].split()[0]
                    _, sops, _ = split_ops(shown[i])
                    if len(sops) == len(ops):
                        half = {k for k, t in enumerate(sops) if re.fullmatch(r"-?\|?v\d+\.[lh]\|?", t)}
                half |= {k for (j, k) in half_sources if j == i}
                fmt = identify(family, words)
                if fmt is None:
                    problems.append(f"{cpu}: no format matches `{text}` {[hex(w) for w in words]}")
                    continue
                size, fields, _ = FORMATS[family][fmt]
                if fmt == "VOPD":
                    continue  # VOPD pairs are decoded from their X and Y halves' own rows
                op = opcode(words, fields)
                if mn in SPECIAL:
                    template = "special"
                else:
                    items = []
                    for k, tok in enumerate(ops):
                        kind, width = kind_width(tok)
                        fld, alt = field_of.get((i, k), (None, None))
                        if tok in ("null", "off") and alt is not None:
                            kind, width = kind_width(alt)  # the width the SGPR spelling took
                        if fld is None:
                            items.append("=" + tok)
                        elif fld == "literal":
                            items.append("literal:hex:0")
                        elif k in half and fld in ("src0", "src1", "src2"):
                            items.append(f"{fld}:v16:1" + (":i16" if (i, k) in int16_sources else ""))
                        elif (i, k) in int16_sources:
                            items.append(f"{fld}:{kind if kind in 'vsa' else 's'}:{max(width, 1)}:i16")
                        elif kind in ("attr", "pslot"):
                            items.append(f"{fld}:{kind}:0")
                        elif kind == "i":
                            items.append(f"{fld}:{'hex' if tok.startswith('0x') else 'dec'}:0")
                        else:
                            if width == 0:  # `off`: the width the SGPR spelling took
                                width = 2 if fmt == "GLOBAL" else 1
                            items.append(f"{fld}:{'v16' if k in half and kind == 'v' else kind}:{width}")
                    # A BVH op's addresses: the widths LLVM lists them with (NSA), without|with A16.
                    if fmt in IMAGE_FORMATS and "bvh" in mn:
                        lists = nsa_address_lists(family, cpu, attrs, words)
                        items = [f"vaddr:nsa:{lists}" if it.startswith(("vaddr:", "=[")) else it
                                 for it in items]
                    template = ",".join(items) if items else "-"
                # A memory atomic that returns the old value (glc / sc0 / TH_ATOMIC_RETURN)
                # prints a destination first: its own template, under FORMAT.rtn.
                if "atomic" in mn and any(m in ("glc", "sc0", "th:TH_ATOMIC_RETURN") for m in mods):
                    fmt = fmt + ".rtn"
                key = (family, fmt, op, mn)
                rows.setdefault(key, {"template": template, "cpus": []})
                if cpu not in rows[key]["cpus"]:
                    rows[key]["cpus"].append(cpu)
    return rows, problems


IMAGE_FORMATS = ("MIMG", "VIMAGE", "VSAMPLE")


def int16_probe(family, cpu, attrs, base, parsed, field_of):
    """The sources LLVM reads as 16-bit integers: with the field set to inline constant 240
    (0.5), the disassembler prints the half-float's bits `0x3800` there, not `0.5` (issue 47
    item 19). Returns {(form index, operand index)}; the template marks them `:i16`."""
    probes, owners = [], []
    for i, (text, words) in base.items():
        fmt = identify(family, words)
        if fmt not in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P") or parsed[i][0].startswith(("v_mfma", "v_smfmac")):
            continue
        size, fields, _ = FORMATS[family][fmt]
        for k in range(len(parsed[i][1])):
            fld = field_of.get((i, k), (None, None))[0]
            if fld not in ("src0", "src1", "src2"):
                continue
            lo, w = next((lo, w) for n, lo, w in fields if n == fld)
            v = field_value(words, 0, 32 * len(words))
            v = v & ~(((1 << w) - 1) << lo) | (240 << lo)
            probes.append([(v >> (32 * j)) & 0xFFFFFFFF for j in range(len(words))])
            owners.append((i, k))
    out = set()
    for (i, k), t in zip(owners, run_dis(cpu, attrs, probes) if probes else []):
        sops = split_ops(t)[1] if t else []
        if k < len(sops) and re.fullmatch(r"-?\|?0x3800\|?", sops[k]):
            out.add((i, k))
    return out


def nsa_address_lists(family, cpu, attrs, words):
    """A BVH op's address operands as LLVM lists them apart (NSA: non-sequential addresses), as
    register widths, without and with A16: the encoding re-disassembled with NSA on (gfx10: NSA
    [2:1] = 1..3 extra dwords; gfx11: NSA [0] with 1..3 extra dwords; gfx12 always lists them)
    and with the A16 bit set (gfx10 bit 62, gfx11 bit 16, gfx12 bit 6)."""
    a16_bit = {"gfx10": 62, "gfx11": 16, "gfx12": 6}[family]
    out = []
    for a16 in (0, 1):
        base = list(words[:2])
        if a16:
            base[a16_bit // 32] |= 1 << (a16_bit % 32)
            if family == "gfx12":
                base[1] &= 0x00FFFFFF  # vaddr4: with A16 the directions share vaddr3
        tries = [list(words[:3]) if not a16 else base + list(words[2:3])] if family == "gfx12" else []
        if family != "gfx12":
            for k in (1, 2, 3):
                w = list(base)
                w[0] |= (k << 1) if family == "gfx10" else 1
                w += [0x04030201 + 0x04040404 * j for j in range(k)]
                tries.append(w)
        widths = None
        for w in tries:
            text = run_dis(cpu, attrs, [w])[0]
            m = re.search(r"\[(v[^\]]*(?:\][^\]]*)*?)\], s\[", text or "")
            if m:
                widths = [kind_width(t.strip())[1] for t in re.split(r",\s*(?![^\[]*\])", m.group(1))]
                break
        out.append(".".join(map(str, widths)) if widths else "")
    return "|".join(out)


def returning_atomics(mn, line):
    """A memory atomic's returning spellings: a destination (as wide as the data; half of it for
    cmpswap) first, and the return bit of each generation (issue 47 item 20: the 64-bit ones)."""
    if "atomic" not in mn or not mn.startswith(("global_", "flat_", "scratch_", "buffer_")):
        return []
    ops = line[len(mn):].strip()
    # The data operand: after the address for global/flat/scratch (whose address is one VGPR
    # when the form uses saddr, so it does not give the width), first for buffer ops.
    listed = [o.strip() for o in ops.split(",")]
    data = listed[1] if not mn.startswith("buffer_") and len(listed) > 1 else listed[0]
    m = REG.match(data)
    if not m:
        return []
    n = 1 if m.group(3) is not None else int(m.group(5)) - int(m.group(4)) + 1
    if "cmpswap" in mn:
        n = max(1, n // 2)
    dst = "v20" if n == 1 else f"v[20:{20 + n - 1}]"
    return [f"{mn} {dst}, {ops} {bit}" for bit in ("glc", "sc0", "th:TH_ATOMIC_RETURN")]


def write(check):
    rows, problems = generate()
    out = ["# Opcode table of the crates/codeobj decoder. GENERATED by scripts/isa/gen_encodings.py from",
           "# llvm-mc-22 -show-encoding of crates/asm/tests/data/llvm_forms.tsv -- do not edit.",
           "# Columns: family; format; opcode; mnemonic as LLVM prints it; processors it holds for;",
           "# operand template (field:kind:width per printed operand, kind v/s/a register file, v16 a",
           "# 16-bit half, dec/hex immediate, attr/pslot an interpolation attribute/slot; a fourth",
           "# `:i16` marks a source read as a 16-bit integer; =TEXT a fixed operand; `special` a",
           "# printer of its own; - none)."]
    for (family, fmt, op, mn), r in sorted(rows.items()):
        out.append(f"{family}\t{fmt}\t{op}\t{mn}\t{','.join(r['cpus'])}\t{r['template']}")
    fmts = ["# Field layouts per family and format (ISA guides' Microcode Formats chapters; see",
            "# scripts/isa/gen_encodings.py for the sections). GENERATED -- do not edit. Columns: family;",
            "# format; size in bits; identification (lo:width=value, all must hold); fields (name:lo:width)."]
    for family, formats in FORMATS.items():
        for name, (size, fields, ident) in formats.items():
            fmts.append(f"{family}\t{name}\t{size}\t{' '.join(f'{lo}:{w}={v}' for lo, w, v in ident)}\t"
                        f"{' '.join(f'{n}:{lo}:{w}' for n, lo, w in fields)}")
    files = {"encodings.tsv": "\n".join(out) + "\n", "formats.tsv": "\n".join(fmts) + "\n"}
    stale = False
    for name, text in files.items():
        path = os.path.join(OUT_DIR, name)
        if check:
            old = open(path).read() if os.path.exists(path) else ""
            if old != text:
                print(f"{path} is stale; run scripts/isa/gen_encodings.py")
                stale = True
        else:
            with open(path, "w") as fh:
                fh.write(text)
    for p in problems[:40]:
        print(p, file=sys.stderr)
    print(f"{len(rows)} rows, {len(problems)} forms matched no format", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(write("--check" in sys.argv))
