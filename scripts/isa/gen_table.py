#!/usr/bin/env python3
"""Rebuild crates/isa/data/instructions.tsv (and aliases.tsv) with llvm-mc-19 as the oracle.

Inputs (all under crates/isa/data/sources/):
  aco_opcodes.tsv        Mesa ACO opcode list (format, ACO class, gens) -- the class/encoding source
  llvm19_mnemonics.txt   LLVM 19 AMDGPU AsmMatcher mnemonic table    -- candidate names only
  extra_candidates.txt   hand-kept extra candidates and the llvm21 section

Steps:
  1. candidates = ACO names (ACO's _e64 suffix stripped) + LLVM mnemonic table (suffixes
     _e32/_e64/_sdwa/_dpp/_dpp8 stripped) + systematic rename variants of both + extras.
  2. probe: ONE llvm-mc-19 process per CPU with one bare mnemonic per line; a line is VALID
     on that CPU when llvm-mc reports no error, "too few operands for instruction" or
     "invalid operand ..."; "instruction not supported on this GPU" = known, not on this
     GPU; "invalid instruction" = unknown.  VOPD names are also probed in the Y slot
     ("v_dual_mov_b32 v0, v1 :: NAME"), where Y-only ops such as v_dual_add_nc_u32 live.
     A generation is valid when any of its CPUs accepts (gfx9 = gfx900|gfx906|gfx90a|gfx942,
     gfx10 = gfx1010|gfx1030, gfx7 = bonaire|hawaii).
  3. alias check: every (name, CPU) pair is assembled with operand templates until one
     is accepted, and the mnemonic LLVM prints back is compared with the name.
  4. class/encoding/data/flags rules (below), sorted, deterministic output.

Usage:  python3 scripts/isa/gen_table.py [--llvm-mc llvm-mc-19] [--check]
        --check: regenerate into memory and fail if the committed files differ.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "crates", "isa", "data")
SRC = os.path.join(DATA, "sources")

GEN_CPUS = collections.OrderedDict([
    (6, ["tahiti"]),
    (7, ["bonaire", "hawaii"]),
    (8, ["gfx803"]),
    # gfx90a (CDNA 2) and gfx942 (CDNA 3; gfx940/gfx941 take the same mnemonics in LLVM 19) bring
    # the matrix-core (v_mfma_*, v_smfmac_*), AGPR, packed-FP32 and gfx940 memory mnemonics; the
    # processors of gfx9 that lack them are listed by gen_processor_gaps.py.
    (9, ["gfx900", "gfx906", "gfx90a", "gfx942"]),
    (10, ["gfx1010", "gfx1030"]),
    (11, ["gfx1100"]),
    (12, ["gfx1200"]),
])
ALL_CPUS = [c for cs in GEN_CPUS.values() for c in cs]
CPU_GEN = {c: g for g, cs in GEN_CPUS.items() for c in cs}
SUFFIX_RE = re.compile(r"_(e32|e64|sdwa|dpp8|dpp)$")
VALID_MSGS = ("too few operands for instruction", "invalid operand")

# --------------------------------------------------------------------------------------
# inputs


def read_aco():
    """name -> dict(fmt, cls, gens:set, atomic); ACO's X and X_e64 entries are merged."""
    out = collections.OrderedDict()
    for line in open(os.path.join(SRC, "aco_opcodes.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        name, fmt, cls, gens, flags = line.rstrip("\n").split("\t")
        e64 = name.endswith("_e64")
        base = name[:-4] if e64 else name
        g = parse_gens(gens)
        ent = {"fmt": fmt, "cls": cls, "gens": g, "atomic": flags == "is_atomic", "e64": e64}
        if base in out:
            old = out[base]
            # base format wins (VOP1/VOP2/VOPC over VOP3); class of the entry covering more gens
            keep_fmt = old["fmt"] if not old["e64"] else fmt
            keep_cls = old["cls"] if len(old["gens"]) >= len(g) else cls
            if old["cls"] != cls:
                ACO_CONFLICTS.append((base, old["cls"], cls, keep_cls))
            out[base] = {"fmt": keep_fmt, "cls": keep_cls, "gens": old["gens"] | g,
                         "atomic": old["atomic"] or ent["atomic"], "e64": False}
        else:
            out[base] = ent
    return out


ACO_CONFLICTS = []
OVERRIDES = {}  # name -> (encoding, class) for accepted names no ACO entry or name rule covers


def read_list(fn):
    out = []
    for line in open(os.path.join(SRC, fn)):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def read_extras():
    """extra_candidates.txt: plain names are candidates; lines after '[llvm21]' are
    'name<TAB>class' entries added with gens 12 and flag llvm21 (not probed)."""
    cands, llvm21 = [], []
    section = None
    OVERRIDES.clear()
    for line in open(os.path.join(SRC, "extra_candidates.txt")):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[llvm21]":
            name, enc, cls, data = line.split()
            llvm21.append((name, enc, cls, data))
        elif section == "[overrides]":
            name, enc, cls = line.split()
            OVERRIDES[name] = (enc, cls)
            cands.append(name)
        else:
            cands.append(line)
    return cands, llvm21


def parse_gens(s):
    out = set()
    if s == "-":
        return out
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        else:
            out.add(int(part))
    return out


def fmt_gens(gens):
    gens = sorted(gens)
    out, i = [], 0
    while i < len(gens):
        j = i
        while j + 1 < len(gens) and gens[j + 1] == gens[j] + 1:
            j += 1
        out.append(str(gens[i]) if i == j else "%d-%d" % (gens[i], gens[j]))
        i = j + 1
    return ",".join(out)


# --------------------------------------------------------------------------------------
# systematic rename variants (ACO / pre-gfx11 spelling <-> gfx11/gfx12 LLVM spelling)

MEM_TOKENS = [("dwordx16", "b512"), ("dwordx8", "b256"), ("dwordx4", "b128"), ("dwordx3", "b96"),
              ("dwordx2", "b64"), ("dword", "b32"), ("ubyte", "u8"), ("sbyte", "i8"),
              ("ushort", "u16"), ("sshort", "i16"), ("short", "b16"), ("byte", "b8")]
ATOMIC_OPS = [("swap", "swap_b32", "swap_b64"), ("cmpswap", "cmpswap_b32", "cmpswap_b64"),
              ("add", "add_u32", "add_u64"), ("sub", "sub_u32", "sub_u64"),
              ("smin", "min_i32", "min_i64"), ("umin", "min_u32", "min_u64"),
              ("smax", "max_i32", "max_i64"), ("umax", "max_u32", "max_u64"),
              ("and", "and_b32", "and_b64"), ("or", "or_b32", "or_b64"),
              ("xor", "xor_b32", "xor_b64"), ("inc", "inc_u32", "inc_u64"),
              ("dec", "dec_u32", "dec_u64"), ("fcmpswap", "cmpswap_f32", "cmpswap_f64"),
              ("fmin", "min_f32", "min_f64"), ("fmax", "max_f32", "max_f64"),
              ("csub", "csub_u32", None), ("rsub", "rsub_u32", "rsub_u64")]
IMAGE_ATOMIC_GFX12 = [("add", "add_uint"), ("sub", "sub_uint"), ("smin", "min_int"),
                      ("umin", "min_uint"), ("smax", "max_int"), ("umax", "max_uint"),
                      ("inc", "inc_uint"), ("dec", "dec_uint"), ("fmin", "min_num_flt"),
                      ("fmax", "max_num_flt"), ("fmin", "min_flt"), ("fmax", "max_flt")]
DS_RENAMES = [("read2st64", "load_2addr_stride64"), ("write2st64", "store_2addr_stride64"),
              ("wrxchg2st64", "storexchg_2addr_stride64"), ("read2", "load_2addr"),
              ("write2", "store_2addr"), ("wrxchg2", "storexchg_2addr"), ("wrxchg", "storexchg"),
              ("read", "load"), ("write", "store"), ("cmpst", "cmpstore")]
WHOLE_RENAMES = [  # (old, new) full-name renames, both directions generated
    ("v_cvt_pkrtz_f16_f32", "v_cvt_pk_rtz_f16_f32"), ("v_cvt_rpi_i32_f32", "v_cvt_nearest_i32_f32"),
    ("v_cvt_flr_i32_f32", "v_cvt_floor_i32_f32"), ("v_ffbh_u32", "v_clz_i32_u32"),
    ("v_ffbl_b32", "v_ctz_i32_b32"), ("v_ffbh_i32", "v_cls_i32"),
    ("v_mad_u64_u32", "v_mad_co_u64_u32"), ("v_mad_i64_i32", "v_mad_co_i64_i32"),
    ("v_add_u32", "v_add_nc_u32"), ("v_sub_u32", "v_sub_nc_u32"), ("v_subrev_u32", "v_subrev_nc_u32"),
    ("v_add_u16", "v_add_nc_u16"), ("v_sub_u16", "v_sub_nc_u16"), ("v_add_i16", "v_add_nc_i16"),
    ("v_sub_i16", "v_sub_nc_i16"), ("v_add_i32", "v_add_nc_i32"), ("v_sub_i32", "v_sub_nc_i32"),
    ("v_addc_co_u32", "v_add_co_ci_u32"), ("v_subb_co_u32", "v_sub_co_ci_u32"),
    ("v_subbrev_co_u32", "v_subrev_co_ci_u32"), ("v_addc_co_u32", "v_addc_u32"),
    ("v_subb_co_u32", "v_subb_u32"), ("v_subbrev_co_u32", "v_subbrev_u32"),
    ("v_add_co_u32", "v_add_i32"), ("v_sub_co_u32", "v_sub_i32"), ("v_subrev_co_u32", "v_subrev_i32"),
    ("v_add_co_u32", "v_add_u32"), ("v_sub_co_u32", "v_sub_u32"), ("v_subrev_co_u32", "v_subrev_u32"),
    ("v_fmac_legacy_f32", "v_fmac_dx9_zero_f32"), ("v_mul_legacy_f32", "v_mul_dx9_zero_f32"),
    ("v_fma_legacy_f32", "v_fma_dx9_zero_f32"), ("v_dot2c_f32_f16", "v_dot2acc_f32_f16"),
    ("v_dot2c_f32_f16", "v_dot2_f32_f16"), ("v_dot4c_i32_i8", "v_dot4_i32_i8"),
    ("v_cvt_pknorm_i16_f16", "v_cvt_pk_norm_i16_f16"), ("v_cvt_pknorm_u16_f16", "v_cvt_pk_norm_u16_f16"),
    ("v_cvt_pknorm_i16_f32", "v_cvt_pk_norm_i16_f32"), ("v_cvt_pknorm_u16_f32", "v_cvt_pk_norm_u16_f32"),
    ("v_fma_mix_f32", "v_mad_mix_f32"), ("v_fma_mixlo_f16", "v_mad_mixlo_f16"),
    ("v_fma_mixhi_f16", "v_mad_mixhi_f16"),
    ("v_interp_p10_f32_inreg", "v_interp_p10_f32"), ("v_interp_p2_f32_inreg", "v_interp_p2_f32"),
    ("v_interp_p10_f16_f32_inreg", "v_interp_p10_f16_f32"), ("v_interp_p2_f16_f32_inreg", "v_interp_p2_f16_f32"),
    ("v_interp_p10_rtz_f16_f32_inreg", "v_interp_p10_rtz_f16_f32"),
    ("v_interp_p2_rtz_f16_f32_inreg", "v_interp_p2_rtz_f16_f32"),
    ("s_ff1_i32_b32", "s_ctz_i32_b32"), ("s_ff1_i32_b64", "s_ctz_i32_b64"),
    ("s_flbit_i32_b32", "s_clz_i32_u32"), ("s_flbit_i32_b64", "s_clz_i32_u64"),
    ("s_flbit_i32", "s_cls_i32"), ("s_flbit_i32_i64", "s_cls_i32_i64"),
    ("s_inst_prefetch", "s_set_inst_prefetch_distance"),
    ("s_add_u32", "s_add_co_u32"), ("s_add_i32", "s_add_co_i32"), ("s_sub_u32", "s_sub_co_u32"),
    ("s_sub_i32", "s_sub_co_i32"), ("s_addc_u32", "s_add_co_ci_u32"), ("s_subb_u32", "s_sub_co_ci_u32"),
    ("s_addk_i32", "s_addk_co_i32"), ("s_add_u64", "s_add_nc_u64"), ("s_sub_u64", "s_sub_nc_u64"),
    ("s_mul_u64", "s_mul_u64"), ("s_andn2_wrexec_b32", "s_and_not1_wrexec_b32"),
    ("lds_param_load", "ds_param_load"), ("lds_direct_load", "ds_direct_load"), ("exp", "export"),
    ("buffer_atomic_csub", "buffer_atomic_sub_clamp_u32"), ("global_atomic_csub", "global_atomic_sub_clamp_u32"),
    ("flat_atomic_csub_u32", "flat_atomic_sub_clamp_u32"), ("ds_cond_sub_rtn", "ds_cond_sub_rtn_u32"),
    ("global_load_dword_addtid", "global_load_addtid_b32"), ("global_store_dword_addtid", "global_store_addtid_b32"),
    ("v_cmp_class_f32", "v_cmp_class_f32"),
]
SALU_TOKENS = [("andn2", "and_not1"), ("orn2", "or_not1"), ("andn1", "and_not0"), ("orn1", "or_not0")]
NUM_RE = re.compile(r"^(v_(min|max|min3|max3|med3|maxmin|minmax|pk_min|pk_max|dual_min|dual_max)|ds_(min|max)|"
                    r"(buffer|global|flat)_atomic_(min|max))_")
MEM_PREFIXES = ("buffer_", "tbuffer_", "global_", "flat_", "scratch_", "s_load_", "s_buffer_load_",
                "s_store_", "s_buffer_store_", "s_scratch_", "ds_", "s_atomic_", "s_buffer_atomic_")


def d16_reorder(name):
    """buffer_load_ubyte_d16_hi -> buffer_load_d16_hi_ubyte; format_d16_x -> d16_format_x."""
    m = re.match(r"^((?:buffer|tbuffer|global|flat|scratch)_(?:load|store))_(.*?)_?(d16(?:_hi)?)(_.*)?$", name)
    if not m:
        return name
    head, mid, d16, tail = m.group(1), m.group(2), m.group(3), m.group(4) or ""
    rest = (mid + tail).strip("_")
    return "%s_%s_%s" % (head, d16, rest) if rest else name


def variants(name):
    """Spellings LLVM may use for an op named `name` (forward and backward renames)."""
    out = {name}
    toks = name.split("_")
    if name.startswith(MEM_PREFIXES):
        for old, new in MEM_TOKENS:
            out.add("_".join(new if t == old else t for t in toks))
            out.add("_".join(old if t == new else t for t in toks))
        for v in list(out):
            t = v.split("_")
            out.add("_".join(dict(MEM_TOKENS).get(x, x) for x in t))
        for v in list(out):
            out.add(d16_reorder(v))
    if name.startswith("ds_"):
        for v in list(out):
            for old, new in DS_RENAMES:
                if v.startswith("ds_" + old + "_"):
                    out.add("ds_" + new + v[3 + len(old):])
                if v.startswith("ds_" + new + "_"):
                    out.add("ds_" + old + v[3 + len(new):])
    m = re.match(r"^(buffer|global|flat|s|s_buffer)_atomic_(.*)$", name)
    if m:
        pre, op = m.group(1), m.group(2)
        for old, n32, n64 in ATOMIC_OPS:
            if op == old:
                out.add("%s_atomic_%s" % (pre, n32))
            if op == old + "_x2" and n64:
                out.add("%s_atomic_%s" % (pre, n64))
            if op == n32:
                out.add("%s_atomic_%s" % (pre, old))
            if n64 and op == n64:
                out.add("%s_atomic_%s_x2" % (pre, old))
    m = re.match(r"^image_atomic_(.*)$", name)
    if m:
        for old, new in IMAGE_ATOMIC_GFX12:
            if m.group(1) == old:
                out.add("image_atomic_" + new)
            if m.group(1) == new:
                out.add("image_atomic_" + old)
    if name.startswith("s_"):
        for v in list(out):
            t = v.split("_")
            out.add("_".join(dict(SALU_TOKENS).get(x, x) for x in t))
            out.add("_".join({b: a for a, b in SALU_TOKENS}.get(x, x) for x in t))
    for old, new in WHOLE_RENAMES:
        if name == old:
            out.add(new)
        if name == new:
            out.add(old)
    for v in list(out):
        if NUM_RE.match(v):
            if "_num_" in v:
                out.add(v.replace("_num_", "_", 1))
            else:
                m2 = NUM_RE.match(v)
                out.add(v[:m2.end()] + "num_" + v[m2.end():])
    m = re.match(r"^v_cmp(s?x?)_(lg|tru|ne|t)_([iu]\d+)$", name)
    if m:
        alt = {"lg": "ne", "ne": "lg", "tru": "t", "t": "tru"}[m.group(2)]
        out.add("v_cmp%s_%s_%s" % (m.group(1), alt, m.group(3)))
    m = re.match(r"^v_cmp(s?x?)_(tru|t)_(f\d+)$", name)
    if m:
        out.add("v_cmp%s_%s_%s" % (m.group(1), {"tru": "t", "t": "tru"}[m.group(2)], m.group(3)))
    return out


# --------------------------------------------------------------------------------------
# llvm-mc probing


def run_mc(llvm_mc, cpu, lines, want_output=False):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        r = subprocess.run([llvm_mc, "-triple=amdgcn", "-mcpu=" + cpu, path, "-o", "-" if want_output else os.devnull],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    errs = {}
    for line in r.stderr.splitlines():
        m = re.match(r"^.*?:(\d+):(\d+): error: (.*)$", line)
        if m:
            errs.setdefault(int(m.group(1)), m.group(3))
    return errs, r.stdout


def is_valid(msg):
    return msg is None or msg.startswith(VALID_MSGS)


def probe(llvm_mc, names):
    """-> name -> set(cpus) where llvm-mc accepts the bare mnemonic."""
    acc = collections.defaultdict(set)
    for cpu in ALL_CPUS:
        errs, _ = run_mc(llvm_mc, cpu, names)
        for i, n in enumerate(names, 1):
            if is_valid(errs.get(i)):
                acc[n].add(cpu)
    # VOPD: Y-only ops (v_dual_add_nc_u32, ...) are not accepted as the first mnemonic. They are
    # probed in the Y slot behind a valid X, with operands: a bare Y mnemonic there says "too few
    # operands" even on a GPU that lacks it, so only a fully assembled line counts.
    vopd = [n for n in names if n.startswith("v_dual_")]
    for cpu in sorted(acc.get("v_dual_mov_b32", ())):
        todo = [n for n in vopd if cpu not in acc[n]]
        for ops in ("v3, v4, v5", "v3, v4", "v3, v4, v5, 0x1234", "v3, v4, 0x1234, v5", "v3, v4, v5, vcc_lo"):
            errs, _ = run_mc(llvm_mc, cpu, ["v_dual_mov_b32 v0, v1 :: %s %s" % (n, ops) for n in todo])
            for i, n in enumerate(todo, 1):
                if i not in errs:
                    acc[n].add(cpu)
    return acc


# operand templates for the alias round trip: first one LLVM accepts wins
TEMPLATES = [
    "", "v0, v1", "v0, v1, v2", "v0, v1, v2, v3", "v0, s0", "s0, v0", "s0, v0, s1", "v0, s0, s1", "s0, v0, 0", "v0, s0, 0",
    "vcc, v0, v1", "s[0:1], v0, v1", "v0, vcc, v1, v2", "v0, vcc, v1, v2, vcc", "v0, s[0:1], v1, v2, s[2:3]",
    "v0, s0, v1, v2, s1", "v0, vcc_lo, v1, v2, vcc_lo", "v0, vcc_lo, v1, v2", "v0, s0, v1, v2",
    "v[0:1], v[2:3]", "v[0:1], v[2:3], v[4:5]", "v[0:1], v[2:3], v[4:5], v[6:7]", "v0, v[2:3]", "v[0:1], v2",
    "v[0:1], v2, v[4:5]", "v[0:1], v[2:3], v4", "v0, v[2:3], v4",
    "v[0:1], s[0:1], v2, v3, v[4:5]", "v[0:1], s0, v2, v3, v[4:5]", "v[0:1], vcc, v[2:3], v[4:5], v[6:7]",
    "v[0:1], vcc_lo, v[2:3], v[4:5], v[6:7]", "v0, vcc, v1, v2, v3", "v0, vcc_lo, v1, v2, v3",
    "v0, v1, 0x1234", "v0, v1, 0x1234, v2", "v0, v1, v2, 0x1234", "v0, 0x1234, v1", "v[0:1], v[2:3], v4, v[6:7]",
    "v[0:3], v[4:5], v6, v[8:11]", "v[0:1], v2, v3, v[4:5]",
    "v0, v1, attr0.x", "v0, p10, attr0.x", "v0, v1, attr0.x, v2", "v0, v1, v2, v3 wait_exp:0",
    "s0, s1", "s0, s1, s2", "s[0:1], s[2:3]", "s[0:1], s[2:3], s[4:5]", "s0, s[0:1]", "s[0:1], s0",
    "s[0:1], s[2:3], s0", "s[0:1], s0, s1", "s0, s1, s2, s3", "s0, s1, 0x1234", "s0, 0x1234, s1",
    "s0, 0x1234", "0", "0x1", "s0", "s[0:1]", "s[0:1], 0", "null, 0", "s0, 0", "hwreg(HW_REG_MODE), s0",
    "s0, hwreg(HW_REG_MODE)", "hwreg(HW_REG_MODE), 0x1234", "s0, gpr_idx(SRC0)", "gpr_idx(SRC0)", "-1",
    "s0, sendmsg(MSG_RTN_GET_DOORBELL)", "s[0:1], sendmsg(MSG_RTN_GET_REALTIME)", "sendmsg(MSG_INTERRUPT)",
    "mrt0 v0, v0, v0, v0", "s[0:1], 0x1234",
    "s0, s[0:1], 0", "s[0:1], s[0:1], 0", "s[0:2], s[0:1], 0", "s[0:3], s[0:1], 0", "s[0:7], s[0:1], 0",
    "s[0:15], s[0:1], 0", "s0, s[0:3], 0", "s[0:1], s[0:3], 0", "s[0:2], s[0:3], 0", "s[0:3], s[0:3], 0",
    "s[0:7], s[0:3], 0", "s[0:15], s[0:3], 0", "0, s[0:1], 0", "0, s[0:3], 0",
    "s[0:1], 0, s0, 0", "s[0:3], 0, s0, 0", "s[0:1], 0, null, 0", "s[0:3], 0, null, 0", "0, s0, 0", "0, null, 0",
    "v0 offset:4", "v0, v1 offset:4", "v1, v[2:3]", "v1, v[2:3], v[4:5]", "v[0:1], v1", "v[0:2], v1", "v[0:3], v1",
    "v1, v[2:4]", "v1, v[2:5]", "v[0:1], v1, v[2:3]", "v[0:1], v1, v[2:3], v[4:5]", "v[0:3], v1, v[2:3], v[4:5]",
    "v[0:1], v1, v2, v3",
    "v0 gds", "v0 offset:0 gds", "gds", "v0, v1 gds", "v[0:1], v2 offset:0 gds", "v0, v1, v2, v[3:6]", "v0, attr0.x",
    "v0, v1, v[2:5], v[6:7]", "v[0:1], v1, v[2:5], v[6:9]",
    "v0, off, s[0:3], s0", "v[0:1], off, s[0:3], s0", "v[0:2], off, s[0:3], s0", "v[0:3], off, s[0:3], s0",
    "off, s[0:3], s0", "s[0:3], s0 lds", "v0, off, s[0:3], s0 lds", "off, s[0:3], s0 lds",
    "v0, off, s[0:3], s0 format:[BUF_FMT_32_FLOAT]", "v[0:1], off, s[0:3], s0 format:[BUF_FMT_32_32_FLOAT]",
    "v[0:2], off, s[0:3], s0 format:[BUF_FMT_32_32_32_FLOAT]", "v[0:3], off, s[0:3], s0 format:[BUF_FMT_32_32_32_32_FLOAT]",
    "v0, v[2:3], off", "v[0:1], v[2:3], off", "v[0:2], v[2:3], off", "v[0:3], v[2:3], off", "v[2:3], v0, off",
    "v[2:3], v[0:1], off", "v[2:3], v[4:6], off", "v[2:3], v[4:7], off", "v0, v[2:3], v1, off",
    "v[0:1], v[2:3], v[4:5], off", "v[0:1], v[2:3], v[4:7], off", "v0, v[2:3], v[4:5], off", "v[2:3], v[4:5], off",
    "v0, v[2:3]", "v[0:1], v[2:3]", "v[0:2], v[2:3]", "v[0:3], v[2:3]", "v[2:3], v0", "v[2:3], v[0:1]",
    "v[2:3], v[4:6]", "v[2:3], v[4:7]", "v0, v[2:3], v1", "v[0:1], v[2:3], v[4:5]", "v[0:1], v[2:3], v[4:7]",
    "v0, v[2:3], v[4:5]",
    "v0, v1, off", "v[0:1], v1, off", "v[0:2], v1, off", "v[0:3], v1, off", "v1, v0, off", "v1, v[2:3], off",
    "v1, v[2:4], off", "v1, v[2:5], off",
    "v0, off", "off, v0", "v[0:1], off", "off, v[0:1]", "v[0:2], off", "off, v[0:2]", "v[0:3], off", "off, v[0:3]",
    "v0, v1, s[0:1]", "v0, v1, s[0:1] offset:4", "v0, v1, v2, s[0:1]", "v[0:1], v1, s[0:1]", "v[0:3], v1, s[0:1]",
    "v1, v[2:3], s[0:1]", "v1, v[2:5], s[0:1]", "v[0:1], v1, v[2:3], s[0:1]", "v1, v[2:3], v[4:5], s[0:1]",
    "v1, v0, s[0:1]", "off, s[0:1]",
    "v0, v1, s[0:1] offset:4 glc", "v0, v1, v2, s[0:1] glc", "v0, v[2:3], v1, off glc", "v0, v1, off glc",
    "v0, v1, v2, off glc",
]
for _dim in ["", " dim:SQ_RSRC_IMG_1D"]:
    for _d, _dm in [("v[0:3]", "0xf"), ("v0", "0x1"), ("v[0:1]", "0x3"), ("v[0:3]", "0x1")]:
        for _a in ["v4", "v[4:5]", "v[4:6]", "v[4:7]", "v[4:8]", "v[4:9]", "v[4:10]", "v[4:11]", "[v4, v5]",
                   "[v4, v5, v6]", "[v4, v5, v6, v7]", "[v4, v5, v6, v7, v8]", "[v4, v5, v6, v7, v8, v9]"]:
            TEMPLATES.append("%s, %s, s[0:7] dmask:%s%s" % (_d, _a, _dm, _dim))
            TEMPLATES.append("%s, %s, s[0:7], s[8:11] dmask:%s%s" % (_d, _a, _dm, _dim))
TEMPLATES += ["v[0:3], v[4:14], s[0:3]", "v[0:3], v[4:15], s[0:3]",
              "v[0:3], [v4, v5, v[6:8], v[9:11], v[12:14]], s[0:3]",
              "v[0:3], [v[4:5], v6, v[7:9], v[10:12], v[13:15]], s[0:3]"]


def printed_names(llvm_mc, acc):
    """(name, cpu) -> mnemonic LLVM prints back (suffix stripped), for pairs a template matched."""
    result = {}
    for cpu in ALL_CPUS:
        todo = sorted(n for n, cs in acc.items() if cpu in cs and not n.startswith("v_dual_"))
        for t in TEMPLATES:
            if not todo:
                break
            lines = []
            for i, n in enumerate(todo):
                lines.append("m%d:" % i)
                lines.append(n + (" " + t if t else ""))
            _, out = run_mc(llvm_mc, cpu, lines, want_output=True)
            cur, got = None, {}
            for line in out.splitlines():
                m = re.match(r"^m(\d+):", line)
                if m:
                    cur = int(m.group(1))
                    continue
                s = line.strip()
                if cur is not None and s and not s.startswith((".", ";")):
                    got[todo[cur]] = SUFFIX_RE.sub("", s.split()[0])
                    cur = None
            for n, p in got.items():
                result[(n, cpu)] = p
            todo = [n for n in todo if n not in got]
    # VOPD: X-slot names behind "... :: v_dual_mov_b32 v3, v4", Y-slot names after
    # "v_dual_mov_b32 v0, v1 :: "; the printed half at the same slot is compared.
    xops = ["v0, v1, v2", "v0, v1", "v0, v1, v2, 0x1234", "v0, v1, 0x1234, v2", "v0, v1, v2, vcc_lo"]
    yops = ["v3, v4, v5", "v3, v4", "v3, v4, v5, 0x1234", "v3, v4, 0x1234, v5", "v3, v4, v5, vcc_lo"]
    for cpu in ALL_CPUS:
        todo = sorted(n for n, cs in acc.items() if cpu in cs and n.startswith("v_dual_"))
        for slot in (0, 1):
            for ops in (xops if slot == 0 else yops):
                if not todo:
                    break
                lines = []
                for i, n in enumerate(todo):
                    lines.append("m%d:" % i)
                    if slot == 0:
                        lines.append("%s %s :: v_dual_mov_b32 v3, v4" % (n, ops))
                    else:
                        lines.append("v_dual_mov_b32 v0, v1 :: %s %s" % (n, ops))
                _, out = run_mc(llvm_mc, cpu, lines, want_output=True)
                cur, got = None, {}
                for line in out.splitlines():
                    m = re.match(r"^m(\d+):", line)
                    if m:
                        cur = int(m.group(1))
                        continue
                    s = line.strip()
                    if cur is not None and "::" in s:
                        half = s.split("::")[slot].split()
                        got[todo[cur]] = half[0]
                        cur = None
                for n, p in got.items():
                    result[(n, cpu)] = p
                todo = [n for n in todo if n not in got]
    return result


# --------------------------------------------------------------------------------------
# classification


def key(name):
    """Normalise a spelling towards ACO's so LLVM-only spellings find their ACO entry."""
    for v in sorted(variants(name)):
        if v in ACO:
            return v
    return None


ACO = {}

# The 32x32->64 multiply-adds: ACO classes them valu64 (its 64-bit ALU class, valu.b64), but LLVM's
# scheduling models charge them as the 32-bit integer multiply (SISchedule.td WriteIntMul, the
# quarter-rate class): llvm-mca-22 -mcpu=gfx900 gives v_mad_u64_u32 the latency of v_mul_lo_u32 (4),
# -mcpu=gfx1030/gfx1100 8 (v_mul_lo_u32 8, v_lshlrev_b64 6). The vkpeak INT32 points
# (validation/points/) measure the quarter rate, not the 64-bit ALU's half rate.
CLASS_OVERRIDE = {n: "valu.quarter" for n in ("v_mad_u64_u32", "v_mad_i64_i32", "v_mad_co_u64_u32",
                                               "v_mad_co_i64_i32")}

ACO_VALU = {"valu32": "valu", "valu_convert32": "valu", "valu_fma": "valu", "valu64": "valu.b64",
            "valu_quarter_rate32": "valu.quarter", "valu_transcendental32": "valu.trans",
            "valu_pseudo_scalar_trans": "valu.trans", "valu_double": "valu.f64",
            "valu_double_add": "valu.f64_add", "valu_double_convert": "valu.f64_conv",
            "valu_double_transcendental": "valu.f64_trans", "wmma": "valu.wmma"}

WAITS = {"s_waitcnt": "wait.cnt", "s_waitcnt_vmcnt": "wait.vmcnt", "s_waitcnt_expcnt": "wait.expcnt",
         "s_waitcnt_lgkmcnt": "wait.lgkmcnt", "s_waitcnt_vscnt": "wait.vscnt",
         "s_wait_loadcnt": "wait.loadcnt", "s_wait_storecnt": "wait.storecnt",
         "s_wait_samplecnt": "wait.samplecnt", "s_wait_bvhcnt": "wait.bvhcnt", "s_wait_kmcnt": "wait.kmcnt",
         "s_wait_dscnt": "wait.dscnt", "s_wait_loadcnt_dscnt": "wait.loadcnt_dscnt",
         "s_wait_storecnt_dscnt": "wait.storecnt_dscnt", "s_wait_expcnt": "wait.expcnt",
         "s_waitcnt_depctr": "wait.depctr", "s_wait_alu": "wait.depctr", "s_delay_alu": "wait.delay_alu",
         "s_wait_idle": "wait.idle", "s_wait_event": "wait.event"}
HINTS = {"s_clause", "s_inst_prefetch", "s_set_inst_prefetch_distance", "s_code_end", "s_ttracedata",
         "s_ttracedata_imm", "s_icache_inv", "s_version", "s_denorm_mode", "s_round_mode", "s_singleuse_vdst",
         "s_setkill", "s_sethalt", "s_incperflevel", "s_decperflevel"}
BRANCH_COND = {"s_cbranch_scc0", "s_cbranch_scc1", "s_cbranch_vccz", "s_cbranch_vccnz", "s_cbranch_execz",
               "s_cbranch_execnz", "s_cbranch_cdbgsys", "s_cbranch_cdbguser", "s_cbranch_cdbgsys_or_user",
               "s_cbranch_cdbgsys_and_user", "s_cbranch_g_fork", "s_cbranch_i_fork",
               "s_subvector_loop_begin", "s_subvector_loop_end"}
BRANCH_IND = {"s_setpc_b64", "s_cbranch_join", "s_rfe_b64", "s_rfe_restore_b64"}
VMEM_CACHE = {"buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbinvl1_sc", "buffer_gl0_inv", "buffer_gl1_inv",
              "global_wb", "global_inv", "global_wbinv", "buffer_wbl2", "buffer_invl2", "buffer_inv"}
GDS = {"ds_ordered_count", "ds_add_gs_reg_rtn", "ds_sub_gs_reg_rtn"}
TRANS_RE = re.compile(r"^v_(rcp|rsq|sqrt|log|exp|sin|cos)(_clamp|_legacy|_iflag)?_f(16|32|64)$")
WIDTH = {"b32": 1, "u32": 1, "i32": 1, "f32": 1, "dword": 1, "b64": 2, "u64": 2, "i64": 2, "f64": 2,
         "dwordx2": 2, "x2": 2, "b96": 3, "dwordx3": 3, "b128": 4, "dwordx4": 4, "b256": 8, "dwordx8": 8,
         "b512": 16, "dwordx16": 16}
SUBDWORD = {"u8", "i8", "b8", "u16", "i16", "b16", "ubyte", "sbyte", "byte", "ushort", "sshort", "short",
            }
FORMAT_W = {"x": 1, "xy": 2, "xyz": 3, "xyzw": 4}
DS_ATOMIC_OPS = {"add", "sub", "rsub", "inc", "dec", "min", "max", "and", "or", "xor", "mskor", "wrxchg",
                 "wrxchg2", "wrxchg2st64", "storexchg", "cmpst", "cmpstore", "condxchg32", "wrap", "pk",
                 "cond", "append", "consume"}


def encoding_of(name, aco):
    if aco:
        fmt = aco["fmt"]
        return {"VINTERP_INREG": "VINTERP"}.get(fmt, fmt)
    if name.startswith("v_dual_"):
        return "VOPD"
    if name.startswith(("v_cmp_", "v_cmpx_", "v_cmps_", "v_cmpsx_")):
        return "VOPC"
    if name.startswith(("v_pk_", "v_dot", "v_wmma", "v_swmmac", "v_fma_mix", "v_mad_mix", "v_mfma", "v_smfmac",
                        "v_accvgpr_read", "v_accvgpr_write")):
        return "VOP3P"
    if name == "v_accvgpr_mov_b32":
        return "VOP1"
    if name.startswith(("s_load", "s_buffer_load", "s_store", "s_buffer_store", "s_atomic", "s_buffer_atomic",
                        "s_scratch", "s_dcache", "s_prefetch", "s_buffer_prefetch")):
        return "SMEM"
    if name.startswith("ds_"):
        return "DS"
    if name.startswith("buffer_"):
        return "MUBUF"
    if name.startswith("tbuffer_"):
        return "MTBUF"
    if name.startswith("image_"):
        return "MIMG"
    if name.startswith("global_"):
        return "GLOBAL"
    if name.startswith("scratch_"):
        return "SCRATCH"
    if name.startswith("flat_"):
        return "FLAT"
    return None  # resolved from sources/overrides via extra_candidates / manual


def class_of(name, enc, aco):
    if name in ("exp", "export"):
        return "export"
    if name in WAITS:
        return WAITS[name]
    if name in HINTS:
        return "hint"
    if name == "s_nop":
        return "nop"
    if name in ("s_sleep", "s_sleep_var"):
        return "sleep"
    if name == "s_setprio":
        return "setprio"
    if name.startswith("s_sendmsg"):
        return "sendmsg"
    if name.startswith("s_endpgm"):
        return "endpgm"
    if name == "s_trap":
        return "trap"
    if name == "s_branch":
        return "branch"
    if name in BRANCH_COND:
        return "branch.cond"
    if name in BRANCH_IND:
        return "branch.indirect"
    if name in ("s_call_b64", "s_swappc_b64"):
        return "call"
    if name.startswith("s_barrier") or name in ("s_wakeup_barrier", "s_get_barrier_state"):
        return "barrier"
    if enc == "SMEM" or name in ("s_memtime", "s_memrealtime", "s_get_waveid_in_workgroup", "s_gl1_inv"):
        return "smem"
    if name.startswith("s_"):
        return "salu"
    if enc == "VOPD":
        return "valu.dual"
    if enc == "VINTRP" or name in ("v_interp_p1ll_f16", "v_interp_p1lv_f16", "v_interp_p2_f16",
                                   "v_interp_p2_legacy_f16"):
        return "valu.interp"
    if name.startswith("v_"):
        if name in CLASS_OVERRIDE:
            return CLASS_OVERRIDE[name]
        if aco:
            return ACO_VALU.get(aco["cls"], "valu")
        if name.startswith(("v_wmma", "v_swmmac")):
            return "valu.wmma"
        if name.startswith(("v_mfma", "v_smfmac")):
            return "valu.mfma"
        if name.startswith(("v_cmp", "v_cmpx")) and name.endswith("_f64"):
            return "valu.f64"
        if name.startswith(("v_cmp", "v_cmpx")) and re.search(r"_[iu]64$", name):
            return "valu.b64"
        m = TRANS_RE.match(name)
        if m:
            return "valu.f64_trans" if m.group(3) == "64" else "valu.trans"
        if name.startswith("v_s_"):
            return "valu.trans"
        return "valu"
    if name in ("lds_param_load", "lds_direct_load", "ds_param_load", "ds_direct_load"):
        return "lds.param"
    if name.startswith("ds_bvh_stack"):
        return "lds.bvh_stack"
    if name.startswith("ds_gws_") or name in GDS:
        return "gds"
    if name.startswith("ds_"):
        return "lds"
    if name in VMEM_CACHE:
        return "vmem.cache"
    if name.startswith("image_"):
        if name.startswith("image_sample"):
            return "vmem.image.sample"
        if name.startswith("image_gather4"):
            return "vmem.image.gather4"
        if name.startswith("image_bvh"):
            return "vmem.image.bvh"
        if name.startswith("image_atomic"):
            return "vmem.image.atomic"
        if name.startswith("image_store"):
            return "vmem.image.store"
        return "vmem.image.load"
    fam = {"MUBUF": "buffer", "MTBUF": "buffer", "GLOBAL": "global", "FLAT": "flat", "SCRATCH": "scratch"}.get(enc)
    if fam:
        if "_atomic_" in name:
            return "vmem.%s.atomic" % fam
        if "_load" in name:
            return "vmem.%s.load" % fam
        if "_store" in name:
            return "vmem.%s.store" % fam
    return None


# Mesa ACO's is_dual_issue_capable (aco_statistics.cpp, gfx11+; rdna-model.md 2.4): VALU ops that run
# a wave64 in ONE pass. DPP forms never do; that is decided at parse time (the table holds base names).
W64_SINGLE_RE = re.compile(
    r"^v_(?:"
    r"(?:fma|fmac|fmaak|fmamk|mul|add|sub|subrev)_(?:legacy_)?f(?:32|16)"
    r"|(?:fmac|mul)_legacy_f32|fma_legacy_f32"
    r"|mov_b32|mov_b16|movrel[sd]?\w*_b32|cndmask_b(?:32|16)|writelane_b32"
    r"|(?:max|min)(?:_num)?_f(?:32|16)"
    r"|(?:max|min)_[iu]16|(?:add|sub)_[iu]16|(?:add|sub)_nc_[iu]16|mad_[iu]16|mul_lo_u16"
    r"|(?:not|and|or|xor)_b16|(?:lshlrev|lshrrev)_b16|ashrrev_i16"
    r"|dot2\w*_(?:f16|bf16)"
    r"|fma_mix\w*"
    r"|dual_\w+"
    r")$")


def data_and_flags(name, enc, cls):
    toks = name.split("_")
    flags = set()
    data = "-"
    is_mem = cls.startswith(("vmem.buffer", "vmem.global", "vmem.flat", "vmem.scratch", "lds", "gds")) or \
        (cls == "smem" and name.startswith(("s_load", "s_buffer_load", "s_store", "s_buffer_store",
                                            "s_scratch_load", "s_scratch_store", "s_atomic", "s_buffer_atomic")))
    atomic = "_atomic_" in name or name.startswith(("s_atomic_",))
    if cls == "lds" or cls == "gds":
        op = toks[1]
        if op in DS_ATOMIC_OPS or "src2" in toks:
            atomic = True
    if atomic and (is_mem or cls == "vmem.image.atomic"):
        flags.add("atomic")
    if "rtn" in toks:
        flags.add("rtn")
    if "lds" in toks and name.startswith(("buffer_load", "global_load", "scratch_load")):
        flags.add("lds")
    if "d16" in toks:
        flags.add("d16")
    if is_mem and cls not in ("gds",) and name not in ("ds_nop",):
        w = None
        sub = False
        for t in toks:
            if t in WIDTH:
                w = WIDTH[t]
            elif t in SUBDWORD:
                w, sub = 1, True
        if "block" in toks:
            w = 32  # gfx12 global/scratch_load/store_block: v[N:N+31]
        if "format" in toks:
            fw = FORMAT_W.get(toks[-1])
            if fw:
                if "d16" in toks:
                    w, sub = (fw + 1) // 2, fw % 2 == 1
                else:
                    w = fw
        if "d16" in toks and "format" not in toks:
            w, sub = 1, True
        if w is None and (cls == "lds.param"):
            w = 1
        if w is None and name.startswith(("ds_append", "ds_consume", "ds_swizzle", "ds_permute", "ds_bpermute",
                                          "ds_ordered_count")):
            w = 1
        if w is None and atomic:
            w = 2 if "x2" in toks else 1
        if w is not None:
            # two data operands: 2addr forms, compare-swap, mask-or, exchange-2
            if cls.startswith(("lds", "gds")) and any(t in ("read2", "write2", "read2st64", "write2st64", "2addr",
                                                             "wrxchg2", "wrxchg2st64", "mskor", "cmpst", "cmpstore")
                                                      for t in toks):
                w *= 2
            if "cmpswap" in toks or "fcmpswap" in toks:
                w *= 2
            if name.startswith("ds_bvh_stack"):
                w = 8 if "push8" in toks else 4
            data = str(w)
            if sub:
                flags.add("subdword")
    if name.startswith("ds_bvh_stack"):
        data = "8" if "push8" in toks else "4"
    if name.startswith("v_") and (name.startswith(("v_cmp_", "v_cmpx_", "v_cmps_", "v_cmpsx_", "v_readlane",
                                                   "v_readfirstlane", "v_s_", "v_div_scale", "v_mad_u64_u32",
                                                   "v_mad_i64_i32", "v_mad_co_"))
                                  or re.match(r"^v_(add|sub|subrev)_co_(ci_)?u32$", name)
                                  or re.match(r"^v_(addc|subb|subbrev)_(co_)?u32$", name)):
        flags.add("scalar_dst")
    if name.startswith(("v_cmpx_", "v_cmpsx_")) or re.match(r"^s_\w+_(saveexec|wrexec)_b(32|64)$", name):
        flags.add("writes_exec")
    if cls in ("valu", "valu.dual") and W64_SINGLE_RE.match(name):
        flags.add("w64_single")
    return data, flags


# --------------------------------------------------------------------------------------


def printed_any(printed, n):
    return any(k[0] == n for k in printed)


def build(llvm_mc):
    global ACO
    ACO = read_aco()
    table = [SUFFIX_RE.sub("", n) for n in read_list("llvm19_mnemonics.txt")]
    extras, llvm21 = read_extras()
    table_set = set(table)
    cands = set(ACO) | table_set | set(extras)
    for n in list(cands):
        cands |= variants(n)
    cands = sorted(c for c in cands if re.match(r"^[a-z][a-z0-9_]*$", c))
    acc = probe(llvm_mc, cands)
    accepted = sorted(n for n in cands if acc.get(n))
    printed = printed_names(llvm_mc, {n: acc[n] for n in accepted})

    # per-generation validity and alias status
    rows, aliases, notes = [], [], []
    unresolved = []
    for n in accepted:
        gens = sorted({CPU_GEN[c] for c in acc[n]})
        alias_gens, canon = set(), set()
        for g in gens:
            outs = {printed.get((n, c)) for c in GEN_CPUS[g] if c in acc[n]} - {None}
            if outs and n not in outs:
                alias_gens.add(g)
                canon |= outs
            elif not outs and n not in table_set and not (n.startswith("v_dual_") and printed_any(printed, n)):
                alias_gens.add(g)  # not in the matcher table: only a MnemonicAlias can accept it
        aco = ACO.get(n) or ACO.get(key(n) or "")
        # an LLVM-only canonical spelling inherits the ACO entry of the alias that prints it
        if aco is None:
            for (a, c), p in printed.items():
                if p == n and a in ACO:
                    aco = ACO[a]
                    break
        enc = encoding_of(n, aco)
        cls = class_of(n, enc, aco)
        if n in OVERRIDES:
            enc, cls = OVERRIDES[n]
        if enc is None or cls is None:
            unresolved.append(n)
            continue
        data, flags = data_and_flags(n, enc, cls)
        if alias_gens and alias_gens == set(gens):
            flags.add("alias")
        if alias_gens:
            aliases.append((n, fmt_gens(alias_gens), ",".join(sorted(canon)) or "?"))
        rows.append((n, enc, cls, data, fmt_gens(gens), ",".join(sorted(flags)) or "-", aco is not None))
    have = {r[0] for r in rows}
    for name, enc, cls, data in llvm21:
        if name in have:
            continue
        rows.append((name, enc, cls, data, "12", "llvm21" + (",rtn" if "_rtn" in name else ""), True))
    rows.sort()
    return rows, aliases, unresolved, acc, printed


HEADER = """\
# shadersim instruction table: every mnemonic LLVM 19's AMDGPU assembler (llvm-mc-19) accepts
# on gfx6 (tahiti) gfx7 (bonaire, hawaii) gfx8 (gfx803) gfx9 (gfx900|gfx906|gfx90a|gfx942) gfx10 (gfx1010|gfx1030)
# gfx11 (gfx1100) gfx12 (gfx1200), plus an llvm21 section. GENERATED by scripts/isa/gen_table.py -- do not edit.
# Sources: Mesa ACO aco_opcodes.py (MIT, Copyright (c) 2018 Valve Corporation) for format and class,
# llvm-mc-19 for the names and generations. See crates/isa/data/README.md.
#
# Columns (tab separated; one line per mnemonic, sorted by mnemonic -- the llvm21 section at the end is
# sorted on its own; '-' = none):
#   mnemonic  base name as LLVM prints/accepts it; the reader strips _e32/_e64/_sdwa/_dpp/_dpp8 first.
#   encoding  ACO format of the base instruction: SOP1 SOP2 SOPK SOPP SOPC SMEM VOP1 VOP2 VOPC VOP3 VOP3P
#             VOPD VINTRP VINTERP DS LDSDIR MUBUF MTBUF MIMG EXP FLAT GLOBAL SCRATCH. A VOP1/VOP2/VOPC op
#             that also has a VOP3 form gets the base format (so v_readlane_b32, VOP3-only since gfx8, and
#             v_add_f64, VOP2 only on gfx12, read VOP2); VOP3-only ops read VOP3. gfx12 VBUFFER/VSAMPLE/
#             VIMAGE/VFLAT/VGLOBAL/VSCRATCH/VDS/VEXPORT keep the older family names.
#   class     exactly one of:
#             salu salu.alloc_vgpr smem branch branch.cond branch.indirect call
#             valu valu.quarter valu.trans valu.b64 valu.f64 valu.f64_add valu.f64_conv valu.f64_trans
#             valu.dual valu.wmma valu.mfma valu.interp
#             vmem.buffer.{load,store,atomic} vmem.global.{load,store,atomic} vmem.flat.{load,store,atomic}
#             vmem.scratch.{load,store} vmem.image.{load,store,atomic,sample,gather4,bvh} vmem.cache
#             lds lds.bvh_stack lds.param gds export
#             wait.cnt wait.vmcnt wait.expcnt wait.lgkmcnt wait.vscnt wait.loadcnt wait.storecnt
#             wait.samplecnt wait.bvhcnt wait.kmcnt wait.dscnt wait.loadcnt_dscnt wait.storecnt_dscnt
#             wait.depctr wait.delay_alu wait.idle wait.event
#             barrier nop sleep setprio hint sendmsg endpgm trap
#             VALU classes follow ACO's InstrClass: valu32/valu_convert32/valu_fma -> valu,
#             valu_quarter_rate32 -> valu.quarter, valu_transcendental32 and valu_pseudo_scalar_trans ->
#             valu.trans, valu64 -> valu.b64, valu_double -> valu.f64, valu_double_add -> valu.f64_add,
#             valu_double_convert -> valu.f64_conv, valu_double_transcendental -> valu.f64_trans,
#             wmma -> valu.wmma (so v_div_scale_f32/v_div_fmas_f32/v_div_fixup_f32 are valu, as in ACO);
#             except the 32x32->64 multiply-adds (v_mad_[iu]64_[iu]32, v_mad_co_*), valu64 in ACO, which
#             are valu.quarter as in LLVM's scheduling models (SISchedule.td WriteIntMul).
#             Names ACO lacks get the class of the ACO op LLVM renamed (e.g. v_min_num_f32 = v_min_f32),
#             else a name rule (v_cmp*_f64 -> valu.f64, v_cmp*_[iu]64 -> valu.b64, v_{rcp,rsq,sqrt,log,
#             exp,sin,cos}* -> valu.trans / valu.f64_trans, v_mfma*/v_smfmac* (CDNA matrix cores, which ACO
#             does not know) -> valu.mfma, everything else valu).
#             Borderline decisions: s_icache_inv, s_setkill, s_sethalt, s_ttracedata(_imm), s_version,
#             s_round_mode, s_denorm_mode, s_singleuse_vdst, s_incperflevel/s_decperflevel,
#             s_clause, s_code_end, s_inst_prefetch/s_set_inst_prefetch_distance -> hint (no data, no
#             counter); s_dcache_wb/_inv/_discard, s_gl1_inv, s_memtime, s_memrealtime, s_atc_probe*,
#             s_get_waveid_in_workgroup, s_prefetch_* -> smem (they go through the scalar cache and
#             lgkmcnt/kmcnt); s_subvector_loop_begin/end -> branch.cond (ACO Branch); s_wakeup,
#             s_set_gpr_idx_*, s_setvskip, s_getreg/s_setreg -> salu; s_wakeup_barrier,
#             s_get_barrier_state -> barrier (ACO Barrier); v_nop -> valu; v_interp_p1ll_f16,
#             v_interp_p1lv_f16, v_interp_p2_f16, v_interp_p2_legacy_f16 (VOP3-encoded, read LDS
#             params through M0 like VINTRP) -> valu.interp; gfx11+ VINTERP (v_interp_p10_f32 ...) -> valu.
#             Same spelling, different op on different generations (one line can only carry one
#             meaning; the reader must special-case these if it cares): v_interp_p2_f32 is VINTRP
#             (valu.interp) on gfx6-10 but the VINTERP in-register op (valu) on gfx11-12; v_add_i32,
#             v_sub_i32, v_subrev_i32 are VOP2 carry-out adds (= gfx9 v_*_co_u32) on gfx6-7 but VOP3
#             no-carry signed adds on gfx9+; v_add_u32/v_sub_u32/v_subrev_u32 carry out on gfx8,
#             not on gfx9, and are aliases of v_*_nc_u32 on gfx11-12; gfx12 exp prints as export.
#   data      memory ops: data dwords moved per lane (loads: returned, stores: written, atomics: data
#             operand: x2/b64 = 2, cmpswap = 2 and its 64-bit form 4; ds two-data forms (2addr/read2/write2,
#             cmpst/cmpstore, mskor, wrxchg2) double; sub-dword rounded up to 1 with flag subdword; d16
#             format_x/xy/xyz/xyzw = 1/1/2/2; smem x8/b256 = 8, x16/b512 = 16; ds_bvh_stack = pushed dwords);
#             image ops and everything else '-' (image width comes from dmask at parse time).
#   gens      generations where llvm-mc-19 accepts the bare mnemonic, as ranges (6-9,12).
#   flags     comma-separated subset of: atomic rtn subdword d16 lds scalar_dst writes_exec w64_single llvm21 alias
#             atomic: read-modify-write memory op (names with 'atomic', ds RMW ops incl. src2/append/consume);
#             rtn: the NAME says it returns (…_rtn…); glc/sc0/th:..RETURN forms are decided at parse time.
#             lds: loads into LDS (buffer/global/scratch_load_lds_*). d16: 16-bit (d16) data forms.
#             scalar_dst: VALU op writing an SGPR/VCC (v_cmp*/v_cmpx*/v_cmps*, v_readlane, v_readfirstlane,
#             v_s_*, carry-out ops v_*_co_*/v_addc/v_subb*, v_div_scale_*, v_mad_[iu]64_*).
#             writes_exec: v_cmpx*/v_cmpsx*, s_*_saveexec_*, s_*_wrexec_* (by name only).
#             w64_single: VALU op a gfx11+ SIMD runs for a wave64 in one pass (Mesa ACO is_dual_issue_capable:
#             f32/f16 fma/mul/add/sub, moves, cndmask, writelane, min/max, 16-bit integer ops, dot2, fma_mix).
#             llvm21: RDNA4 name added after LLVM 19 (not accepted by llvm-mc-19; kept for RGA/LLVM-21 dumps).
#             alias: accepted but printed differently on EVERY generation in gens (details and the
#             partial cases, e.g. buffer_load_dword on gfx11+, are listed in aliases.tsv).
# mnemonic	encoding	class	data	gens	flags
"""


def render(rows, aliases):
    out = [HEADER]
    main = [r for r in rows if "llvm21" not in r[5]]
    l21 = [r for r in rows if "llvm21" in r[5]]
    for r in main:
        out.append("\t".join(r[:6]) + "\n")
    out.append("#\n# --- llvm21: RDNA4 (gfx12) names that LLVM 21 added and llvm-mc-19 rejects ---\n")
    for r in l21:
        out.append("\t".join(r[:6]) + "\n")
    al = ["# Spellings llvm-mc-19 accepts but prints differently (MnemonicAlias / renamed ops).\n"
          "# GENERATED by scripts/isa/gen_table.py. Columns: mnemonic, generations where it is an alias,\n"
          "# name(s) LLVM prints instead ('?' = no operand template matched; judged an alias because the\n"
          "# name is absent from LLVM's matcher table).\n"
          "# mnemonic\talias_gens\tprinted_as\n"]
    for a in sorted(aliases):
        al.append("\t".join(a) + "\n")
    return "".join(out), "".join(al)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-19")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--report", action="store_true", help="print summary counts")
    args = ap.parse_args()
    rows, aliases, unresolved, acc, printed = build(args.llvm_mc)
    if unresolved:
        sys.exit("unclassified accepted names (add a rule): %s" % " ".join(unresolved))
    text, altext = render(rows, aliases)
    paths = [(os.path.join(DATA, "instructions.tsv"), text), (os.path.join(DATA, "aliases.tsv"), altext)]
    if args.check:
        bad = [p for p, t in paths if not os.path.exists(p) or open(p).read() != t]
        if bad:
            sys.exit("out of date: %s" % " ".join(bad))
        print("up to date")
    else:
        for p, t in paths:
            with open(p, "w") as f:
                f.write(t)
    if args.report or not args.check:
        pergen = collections.Counter()
        percls = collections.Counter()
        for r in rows:
            percls[r[2]] += 1
            for g in parse_gens(r[4]):
                pergen[g] += 1
        print("mnemonics:", len(rows))
        print("per gen:", " ".join("gfx%d=%d" % (g, pergen[g]) for g in sorted(pergen)))
        print("per class:", " ".join("%s=%d" % kv for kv in sorted(percls.items())))
        print("no ACO entry (class by name rule):", " ".join(r[0] for r in rows if not r[6]))
        print("ACO X/X_e64 class conflicts:", ACO_CONFLICTS)


if __name__ == "__main__":
    main()
