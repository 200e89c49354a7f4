#!/usr/bin/env python3
"""Rebuild crates/isa/data/operand_counts.tsv with llvm-mc as the oracle.

For every mnemonic of instructions.tsv and the probe processors of each
generation it names (CONFIGS; a processor that lacks the mnemonic is
skipped), the script

* grows an operand list one operand at a time: it tries each probe token
  (v0, s[0:1], 0, off, a0, attr0.x, hwreg(...), ...) after the list so far
  and keeps the first that llvm-mc does not refuse ("too few operands for
  instruction" or success; VGPRs come first, which never strain the constant
  bus). The list ends when llvm-mc accepts the line, bare or with one of the
  MODIFIERS after it (a buffer op with a VGPR address needs `offen`, a
  gfx10+ image op `dim:`); its length is the number of operands that form
  needs;
* for a name that one-token-at-a-time growth cannot complete (a wrong
  first guess, such as `v0` where an atomic's non-returning form wants
  its `v[0:1]` address, is never undone), searches again breadth-first
  (search(): up to BEAM lists per length, grown from GROW, also past
  whole-line errors such as `instruction must use glc` or `missing dim
  operand`, and tried with TAILS too: return modifiers, wider dmasks,
  `::` and a second VOPD half); a modifier word a processor reads as a
  register (gfx90a: `a16` is AGPR 16) is not tried on that processor;
* then puts every token in place of each operand of that whole form: a kind
  is taken at that position when some token of it (any width) is not
  refused at its own column. (Incomplete lines are no use for this: llvm-mc
  refuses `v_add_f32 v0, s0` at the s0 although `v_add_f32 v0, s0, v1` is
  fine.) Where the form also takes a VGPR before its operands with a
  return modifier (an atomic's returning form), the kinds of that longer
  form are added position by position, so the positions shifted by the
  destination are never judged narrower than llvm-mc.

The table keeps, per mnemonic, the smallest count over every probe (so a
reader never refuses a form that some generation accepts; a mnemonic some
probe could not complete is left out) and, per position below that count,
the union of the kinds over every probe.

Kinds: v VGPR (any width), a AGPR, s SGPR or a named scalar register (vcc,
exec, m0, null, ...), i a number (inline constant or literal), o `off`
(llvm-mc also reads a bare `off` as a symbol, so VALU sources take it).
Special operands (attr0.x, hwreg(...), sendmsg(...), mrt0) are probed so the
list can grow past them but are no kind. The kinds come from one whole form
per processor, so they are exact for register files but not for numbers and
`off`, which depend on the other operands (`global_load_dword v0, v0, off`
is refused where `v0, v[0:1], off` is not); the reader only judges register
files.

Usage:  python3 scripts/isa/gen_operand_counts.py [--llvm-mc llvm-mc-22] [--only-missing]

--only-missing probes only the mnemonics of instructions.tsv that have neither a row nor a
`# left out` line yet, and merges them into the committed files (the rows of the others are
kept as they are: a full run also re-probes mnemonics that only gained a generation).
"""
import argparse
import collections
import multiprocessing
import os
import re
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "crates", "isa", "data")
CORPUS = os.path.join(ROOT, "crates", "asm", "tests", "data", "llvm_forms.tsv")
# The processors probed per generation: each generation's usual one, plus
# the ones whose operands differ (gfx90a: AGPRs and aligned tuples; gfx942: the gfx940
# matrix and memory spellings; gfx1010
# keeps ops gfx1030 dropped; gfx1150: gfx11.5's SALU float ops).
CONFIGS = {6: ["tahiti"], 7: ["hawaii"], 8: ["gfx803"], 9: ["gfx906", "gfx90a", "gfx942"],
           10: ["gfx1010", "gfx1030"], 11: ["gfx1100", "gfx1150"], 12: ["gfx1200"]}
# Probed only for the mnemonics of their generation no processor of CONFIGS
# has (gfx900: the v_mad_mix ops gfx906 replaced by v_fma_mix).
FALLBACK = {9: ["gfx900"]}
CPU_GEN = {c: g for d in (CONFIGS, FALLBACK) for g, cs in d.items() for c in cs}
# (token, kind); kind None: a special operand that only lets the list grow.
TOKENS = [("v0", "v"), ("v[0:1]", "v"), ("v[0:3]", "v"), ("s0", "s"), ("s[0:1]", "s"),
          ("s[0:3]", "s"), ("s[0:7]", "s"), ("0", "i"), ("off", "o"), ("vcc", "s"),
          ("vcc_lo", "s"), ("exec", "s"), ("m0", "s"), ("v[0:2]", "v"), ("v[0:7]", "v"),
          ("s[0:15]", "s"), ("v[0:15]", "v"), ("null", "s"), ("exec_lo", "s"), ("s[0:2]", "s"),
          ("v[0:4]", "v"), ("v[0:5]", "v"), ("v[0:8]", "v"), ("v[0:10]", "v"), ("v[0:11]", "v"),
          ("1.0", "i"), ("0x3039", "i"), ("a0", "a"), ("a[0:1]", "a"), ("a[0:3]", "a"),
          ("a[0:15]", "a"), ("a[0:7]", "a"), ("a[0:31]", "a"), ("v[0:31]", "v"), ("attr0.x", None), ("mrt0", None), ("hwreg(HW_REG_MODE)", None),
          ("sendmsg(MSG_INTERRUPT)", None), ("0x10", "i"), ("p0", None)]
MODIFIERS = ["offen", "idxen", "dim:SQ_RSRC_IMG_1D", "dmask:0x1", "dmask:0x1 dim:SQ_RSRC_IMG_1D",
             "a16", "a16 dim:SQ_RSRC_IMG_1D", "glc", "gds"]
# The second pass (search): the tokens it grows lists from (the registers
# of every width an image, atomic or matrix op wants, no specials), the
# lists it keeps per length, and the modifiers it tries besides MODIFIERS
# (return forms of atomics per generation, wider dmasks, gfx10+ image dims).
GROW = ["v0", "v[0:1]", "v[0:3]", "s0", "s[0:1]", "s[0:3]", "s[0:7]", "0", "off", "null",
        "vcc", "v[0:2]", "v[0:7]", "v[0:15]", "v[0:4]", "v[0:5]", "v[0:8]", "v[0:10]",
        "v[0:11]", "a0", "a[0:1]", "a[0:3]", "a[0:7]", "a[0:15]", "s[0:15]", "s[0:2]"]
BEAM = 16
REFUSED = 100
TAILS = ["sc0", "th:TH_ATOMIC_RETURN", "glc dmask:0x1", "dmask:0x3", "dmask:0xf",
         "dmask:0x3 dim:SQ_RSRC_IMG_1D", "dmask:0xf dim:SQ_RSRC_IMG_1D",
         "glc dmask:0x1 dim:SQ_RSRC_IMG_1D", "th:TH_ATOMIC_RETURN dmask:0x1 dim:SQ_RSRC_IMG_1D",
         "dmask:0x1 dim:SQ_RSRC_IMG_1D r128", "dmask:0x1 a16 dim:SQ_RSRC_IMG_1D",
         ":: v_dual_mov_b32 v1, v1", "lds"]
RETURNS = ["glc", "sc0", "th:TH_ATOMIC_RETURN"]
# Destinations of an atomic's returning form: one register, or a pair for 64-bit data.
RETURN_DESTINATIONS = ["v0", "v[0:1]"]
KIND_ORDER = "vasio"
MAX_OPERANDS = 8
LINE_RE = re.compile(r"^[^:]+:(\d+):(\d+): error: (.*)$")
LACKS = ("instruction not supported on this GPU", "invalid instruction")


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


def run_at(llvm_mc, cpu, lines, mattr=None):
    """The first error of each line as (column, message) (None: accepted)."""
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
            errors[int(m.group(1))] = (int(m.group(2)), m.group(3))
    return [errors.get(i + 1) for i in range(len(lines))]


def run(llvm_mc, cpu, lines, mattr=None):
    """The error message of each line (None: accepted)."""
    return [e and e[1] for e in run_at(llvm_mc, cpu, lines, mattr)]


# VOPD ops LLVM only takes as the second half (`v_dual_add_nc_u32`): each
# is probed after this X half, which writes an odd VGPR (the Y half's v0 is
# in the other bank) and reads v2 (a bank apart from the Y half's v0).
Y_PREFIX = "v_dual_mov_b32 v1, v2 :: "
# The names of this process's processor that are Y-only (set by probe_cpu).
Y_ONLY = set()


def line_of(name, ops):
    head = Y_PREFIX + name if name in Y_ONLY else name
    return f"{head} {', '.join(ops)}".strip()


def modifiers_on(llvm_mc, cpu, mods):
    """The modifiers none of whose words is a register on this processor:
    gfx90a reads `a16` as AGPR 16 (`flat_atomic_add v[0:1] a16` is its
    `flat_atomic_add v[0:1], a16`), an operand, not the modifier."""
    words = sorted({w for m in mods for w in m.split() if re.fullmatch(r"a\d+", w)})
    regs = {w for w, e in zip(words, run(llvm_mc, cpu, [f"v_accvgpr_write_b32 {w}, v0" for w in words]))
            if e is None}
    return [m for m in mods if not regs & set(m.split())]


def probe(llvm_mc, cpu, names):
    """For each name it can complete: (operand list of its shortest whole
    form, the modifier that form needs or '')."""
    prefix = {n: [] for n in names}
    done = {}
    for _ in range(MAX_OPERANDS + 1):
        active = [n for n in prefix if n not in done]
        if not active:
            break
        # Does the list so far form a whole instruction, bare or with a
        # modifier after it? Operands need no commas between them, so a
        # bare-word modifier (offen) could be read as a symbol operand:
        # one only counts when a made-up word there is refused.
        tails = [""] + modifiers_on(llvm_mc, cpu, MODIFIERS) + ["zzq"]
        lines = [line_of(n, prefix[n]) + (f" {m}" if m else "") for n in active for m in tails]
        errs = run_at(llvm_mc, cpu, lines)
        still = []
        for i, n in enumerate(active):
            mine = dict(zip(tails, errs[i * len(tails):(i + 1) * len(tails)]))
            ok = [m for m in tails[:-1] if mine[m] is None and (m == "" or mine["zzq"] is not None)]
            if ok:
                done[n] = (list(prefix[n]), ok[0])
            elif len(prefix[n]) < MAX_OPERANDS:
                still.append(n)
        if not still:
            break
        lines, owners = [], []
        for n in still:
            for t, _ in TOKENS:
                lines.append(line_of(n, prefix[n] + [t]))
                owners.append((n, t))
        errs = run_at(llvm_mc, cpu, lines)
        chosen = {}
        for (n, t), err in zip(owners, errs):
            if n not in chosen and (err is None or "too few operands" in err[1]):
                chosen[n] = t
        for n in still:
            if n in chosen:
                prefix[n].append(chosen[n])
            else:
                done[n] = None
    failed = [n for n, f in done.items() if f is None] + [n for n in prefix if n not in done]
    found = {n: f for n, f in done.items() if f is not None}
    found.update(search(llvm_mc, cpu, failed))
    found.update(by_template(llvm_mc, cpu, [n for n in failed if n not in found]))
    return found


def image_templates(name, gen):
    """Whole image-op forms, shortest first: the data (one channel, or four
    with dmask 0x1 for gather4's one channel per texel, or 0xf), every
    address size a dim and argument list can need (1-16 registers; on
    gfx10+ also the NSA `[v0, v1, ...]` list, the only multi-register
    address gfx12 takes), the resource, the sampler when the op samples,
    and `dim:` on gfx10+ (2D MSAA for image_msaa_load)."""
    samples = "sample" in name or "gather4" in name
    addrs = []
    for k in range(1, 17):
        addrs.append(["v0" if k == 1 else f"v[0:{k - 1}]"])
        if gen >= 10 and 2 <= k <= 13:
            addrs.append(["[" + ", ".join(f"v{i}" for i in range(k)) + "]"])
        # gfx12 has four address operands (VSAMPLE) or five (VIMAGE):
        # the components past them go in the last, a register range.
        if gen >= 12 and k > 4:
            addrs.append([f"[v0, v1, v2, v[3:{k - 1}]]"])
        if gen >= 12 and k > 5:
            addrs.append([f"[v0, v1, v2, v3, v[4:{k - 1}]]"])
    dim = ""
    if gen >= 10:
        dim = " dim:SQ_RSRC_IMG_2D_MSAA" if "msaa" in name else " dim:SQ_RSRC_IMG_1D"
    out = []
    for addr in addrs:
        for data, dmask in [("v0", "0x1"), ("v[0:3]", "0x1"), ("v[0:3]", "0xf")]:
            ops = [data] + addr + ["s[0:7]"] + (["s[0:3]"] if samples else [])
            out.append((ops, f"dmask:{dmask}{dim}"))
    return out


def templates(name, gen):
    """Hand-made whole forms for what neither growing nor the search
    reaches (their first operands lead llvm-mc's "too few" down a dead
    end, or the address is a register list): tried in order, the first
    accepted is the form."""
    if name.startswith("image_bvh"):
        wide = name.startswith(("image_bvh8", "image_bvh_dual"))
        dst = "v[0:9]" if wide else "v[0:3]"
        lists = ["[v[0:1], v[2:3], v[4:6], v[7:9], v10]",
                 "[v[0:1], v[2:3], v[4:6], v[7:9], v[10:11]]",
                 "[v0, v1, v[2:4], v[5:7], v[8:10]]",
                 "[v[0:1], v1, v[2:4], v[5:7], v[8:10]]"] if gen >= 12 else []
        return [([dst, f"v[0:{k}]", "s[0:3]"], "") for k in (7, 8, 10, 11)] + \
            [([dst, a, "s[0:3]"], "") for a in lists]
    if name.startswith("image_"):
        return image_templates(name, gen)
    if name.endswith("_f64") and name.startswith(("v_fma", "v_div")):
        four = ["v[0:1]"] * 4
        if name == "v_div_scale_f64":
            return [(["v[0:1]", sc] + ["v[0:1]"] * 3, "") for sc in ("vcc", "vcc_lo", "s[0:1]")]
        return [(four, "")]
    if name == "v_mov_b16":
        return [(["v0.l", "v1.l"], "")]
    if name.startswith("v_mad_mix"):
        return [(["v0", "v1", "v2", "v3"], "")]
    if name.startswith("v_dual_"):
        return [(["v0", "v0", "v0"], ""), (["v0", "v0"], "")]
    return []


def by_template(llvm_mc, cpu, names):
    """The first of templates() llvm-mc accepts whole, per name."""
    lines, owners = [], []
    for n in names:
        for ops, mod in templates(n, CPU_GEN[cpu]):
            lines.append(line_of(n, ops) + (f" {mod}" if mod else ""))
            owners.append((n, ops, mod))
    found = {}
    for (n, ops, mod), err in zip(owners, run_at(llvm_mc, cpu, lines)):
        if err is None and n not in found:
            found[n] = (list(ops), mod)
    return found


def search(llvm_mc, cpu, names):
    """The second pass, for the names the first could not complete: a
    breadth-first search over operand lists, BEAM of them per name and
    length, cheapest first (a list costs the sum of its tokens' places in
    GROW). A token may extend a list when llvm-mc refuses the longer line
    only for too few operands or as a whole (at column 1: `instruction
    must use glc`, `missing dim operand`, `invalid atomic image dmask`),
    not at an operand. The first length at which some list is accepted,
    bare or with a modifier of MODIFIERS + TAILS, is that name's form, so
    its count is the smallest this search reaches."""
    tails = [""] + modifiers_on(llvm_mc, cpu, MODIFIERS + TAILS) + ["zzq"]
    grow = [t for t in GROW]
    frontier = {n: [((), 0)] for n in names}
    found = {}
    for _ in range(MAX_OPERANDS + 1):
        if not frontier:
            break
        lines = [line_of(n, list(ops)) + (f" {m}" if m else "")
                 for n, lists in frontier.items() for ops, _ in lists for m in tails]
        errs = iter(run_at(llvm_mc, cpu, lines))
        for n, lists in frontier.items():
            for ops, _ in lists:
                mine = dict(zip(tails, [next(errs) for _ in tails]))
                ok = [m for m in tails[:-1] if mine[m] is None and (m == "" or mine["zzq"] is not None)]
                if ok and n not in found:
                    found[n] = (list(ops), ok[0])
        frontier = {n: l for n, l in frontier.items() if n not in found}
        lines, owners = [], []
        for n, lists in frontier.items():
            for ops, cost in lists:
                if len(ops) >= MAX_OPERANDS:
                    continue
                for r, t in enumerate(grow):
                    lines.append(line_of(n, list(ops) + [t]))
                    owners.append((n, ops + (t,), cost + r))
        nxt, refused = collections.defaultdict(list), collections.defaultdict(list)
        for (n, ops, cost), err in zip(owners, run_at(llvm_mc, cpu, lines)):
            if err is None:
                nxt[n].append((ops, cost - REFUSED))  # whole already: keep it
            elif "too few operands" in err[1] or err[0] == 1:
                nxt[n].append((ops, cost))
            else:
                refused[n].append((ops, cost + REFUSED))
        # llvm-mc sometimes refuses a list one short at its last operand
        # rather than for too few (`v_add_f64 v[0:1], v[0:1]` at the second
        # v[0:1], while `v[0:1], v0` is too few and leads nowhere): the
        # beam also grows from those, after the others.
        frontier = {n: sorted(nxt[n] + refused[n], key=lambda x: x[1])[:BEAM]
                    for n in set(nxt) | set(refused)}
    return found


def kinds_of(llvm_mc, cpu, forms):
    """The kinds each position of each whole form takes: a kind is taken
    when some token of it (any width) in place of the form's operand is
    not refused at its column, with the form's modifier or any other (a
    buffer op's `off` address wants no `offen`)."""
    lines, owners = [], []
    for n, (ops, mod) in forms.items():
        others = [""] + modifiers_on(llvm_mc, cpu, MODIFIERS)
        tails = [mod] + ([m for m in others if m != mod] if mod else [])
        for i in range(len(ops)):
            # A true16 form (`v_mov_b16 v0.l, v1.l`) takes VGPR halves,
            # not whole VGPRs: try those at its positions too.
            halves = [("v0.l", "v"), ("v0.h", "v")] if re.fullmatch(r"v\d+\.[lh]", ops[i]) else []
            for t, k in TOKENS + halves:
                if k is None:
                    continue
                sub = ops[:i] + [t] + ops[i + 1:]
                col = len(line_of(n, ops[:i])) + (3 if i else 2)
                for m in tails:
                    lines.append(line_of(n, sub) + (f" {m}" if m else ""))
                    owners.append((n, i, k, col, m == mod))
    kinds = {n: [set() for _ in ops] for n, (ops, _) in forms.items()}
    for (n, i, k, col, own), err in zip(owners, run_at(llvm_mc, cpu, lines)):
        # With the form's own modifier an error elsewhere is not about the
        # token; with another modifier only a whole acceptance counts (the
        # error may be the modifier's).
        if err is None or (own and err[0] != col):
            kinds[n][i].add(k)
    return kinds


def forms_for(llvm_mc, cpu, names):
    """The shortest whole line llvm-mc accepts for each name it can reach."""
    return {n: line_of(n, ops) + (f" {m}" if m else "")
            for n, (ops, m) in probe(llvm_mc, cpu, names).items()}


def probe_cpu(job):
    llvm_mc, cpu, names = job
    # Only the mnemonics this processor has (a bare probe it refuses as
    # not supported is another processor's op; see gen_processor_gaps.py).
    bare = run(llvm_mc, cpu, names)
    has = [n for n, e in zip(names, bare) if e is None or e not in LACKS]
    # VOPD Y-only ops: known in the second slot only.
    duals = [n for n, e in zip(names, bare) if n.startswith("v_dual_") and e in LACKS]
    second = run(llvm_mc, cpu, [Y_PREFIX + n for n in duals])
    Y_ONLY.clear()
    Y_ONLY.update(n for n, e in zip(duals, second) if e is None or e not in LACKS)
    has += sorted(Y_ONLY)
    forms = probe(llvm_mc, cpu, has)
    kinds = kinds_of(llvm_mc, cpu, forms)
    # An atomic's returning form puts a VGPR destination before the
    # operands of the shortest one (`global_atomic_add v[0:1], v2, off`,
    # `global_atomic_add v0, v[0:1], v2, off glc`), so each position also
    # takes what that longer form takes there.
    # The destination is as wide as the data: a 64-bit atomic returns a
    # pair (`global_atomic_add_x2 v[0:1], v[0:1], v[2:3], off glc`), which
    # a `v0` destination never probed, leaving that position SGPR-only.
    longer = {}
    lines, owners = [], []
    for n, (ops, mod) in forms.items():
        for dst in RETURN_DESTINATIONS:
            for r in RETURNS:
                lines.append(line_of(n, [dst] + ops) + f" {r}" + (f" {mod}" if mod else ""))
                owners.append((n, r, dst))
    for (n, r, dst), err in zip(owners, run_at(llvm_mc, cpu, lines)):
        if err is None and n not in longer:
            ops, mod = forms[n]
            longer[n] = ([dst] + ops, f"{r} {mod}".strip())
    for n, more in kinds_of(llvm_mc, cpu, longer).items():
        for i in range(len(kinds[n])):
            kinds[n][i] |= more[i]
    return {n: (forms[n][0] if n in forms else None, kinds.get(n, []),
                line_of(n, forms[n][0]) + (f" {forms[n][1]}" if forms[n][1] else "") if n in forms else None)
            for n in has}


SPECIAL_WIDTH = {"vcc": 2, "exec": 2, "flat_scratch": 2, "xnack_mask": 2, "tba": 2, "tma": 2,
                 "vcc_lo": 1, "vcc_hi": 1, "exec_lo": 1, "exec_hi": 1, "m0": 1, "null": 1,
                 "scc": 1, "flat_scratch_lo": 1, "flat_scratch_hi": 1, "vccz": 1, "execz": 1}
REG_RE = re.compile(r"^-?(?:\||abs\(|neg\()?([vsa]|ttmp)(?:(\d+)(?:\.[lh])?|\[(\d+):(\d+)\])")


def operand_words(half):
    """The operands of one instruction text: split at top-level commas;
    the last piece's first word ends them (modifiers follow, unseparated)."""
    parts = half.split(None, 1)
    if len(parts) < 2:
        return []
    pieces, depth, cur = [], 0, ""
    for ch in parts[1]:
        depth += ch in "[(" and 1 or (-1 if ch in "])" else 0)
        if ch == "," and depth == 0:
            pieces.append(cur.strip())
            cur = ""
        else:
            cur += ch
    last = cur.strip()
    if last.startswith("["):
        pieces.append(last[:last.index("]") + 1] if "]" in last else last)
    elif last:
        pieces.append(last.split()[0])
    return pieces


def register_counts(line):
    """(VGPRs, SGPRs, AGPRs) the line names, 32-bit registers summed over
    its operands (a range counts its width, a named scalar register such as
    vcc its halves, ttmp as SGPR), over both VOPD halves: the numbers the
    corpus test expects shadersim's reader to count."""
    v = s_ = a = 0
    for half in line.split("::"):
        for op in operand_words(half.strip()):
            # A register list `[v0, v[1:2]]`: its elements (only the
            # outer brackets go; a range keeps its own).
            inner = op[1:-1] if op.startswith("[") and op.endswith("]") else None
            for tok in re.split(r",\s*", inner) if inner is not None else [op]:
                m = REG_RE.match(tok.strip())
                if m:
                    width = 1 if m.group(2) is not None else int(m.group(4)) - int(m.group(3)) + 1
                    if m.group(1) == "v":
                        v += width
                    elif m.group(1) == "a":
                        a += width
                    else:
                        s_ += width
                elif tok.strip() in SPECIAL_WIDTH:
                    s_ += SPECIAL_WIDTH[tok.strip()]
    return v, s_, a


def encodings(llvm_mc, cpu, lines):
    """llvm-mc -show-encoding's bytes for each line (all must assemble)."""
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    p = subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding", path],
                       capture_output=True, text=True)
    os.unlink(path)
    enc = [m.group(1).replace("0x", "").replace(",", "")
           for m in re.finditer(r"; encoding: \[([^\]]*)\]", p.stdout)]
    if "error" in p.stderr or len(enc) != len(lines):
        raise SystemExit(f"{cpu}: the corpus lines do not all assemble:\n{p.stderr[:2000]}")
    return enc


def recount():
    """Rewrite the corpus' VGPR/SGPR/AGPR columns from its lines."""
    out = []
    for line in open(CORPUS):
        if line.startswith("#"):
            out.append(line)
            continue
        c = line.rstrip("\n").split("\t")
        c[4:7] = [str(x) for x in register_counts(c[3])]
        out.append("\t".join(c) + "\n")
    with open(CORPUS, "w") as f:
        f.writelines(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    ap.add_argument("--only-missing", action="store_true",
                    help="probe only mnemonics without a row or a left-out line and merge them")
    ap.add_argument("--recount", action="store_true",
                    help="only recompute the register columns of the corpus from its lines "
                         "(no llvm-mc; after a change to register_counts)")
    args = ap.parse_args()
    if args.recount:
        recount()
        return
    by_gen = collections.defaultdict(list)
    order = []
    # --only-missing: the committed rows, left-out lines and corpus lines stay.
    kept_rows, kept_left, kept_corpus = [], [], []
    if args.only_missing:
        for line in open(os.path.join(DATA, "operand_counts.tsv")):
            if line.startswith("# left out: "):
                kept_left.append(line.rstrip("\n"))
            elif not line.startswith("#") and line.strip():
                kept_rows.append(line.rstrip("\n"))
        for line in open(CORPUS):
            if not line.startswith("#") and line.strip():
                c = line.rstrip("\n").split("\t")
                kept_corpus.append((int(c[0]), c[1], c[2], c[3], int(c[4]), int(c[5]), int(c[6]), c[7]))
    known = {r.split("\t")[0] for r in kept_rows} | {l[len("# left out: "):].split(":")[0] for l in kept_left}
    for line in open(os.path.join(DATA, "instructions.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if cols[0] in known:
            continue
        order.append(cols[0])
        for g in gens_of(cols[4]):
            if g in CONFIGS:
                by_gen[g].append(cols[0])
    jobs = [(args.llvm_mc, cpu, by_gen[g]) for g in sorted(CONFIGS) for cpu in CONFIGS[g]]
    with multiprocessing.Pool(2) as pool:
        results = dict(zip([j[1] for j in jobs], pool.map(probe_cpu, jobs)))
    # The fallback processors, for what no processor of CONFIGS has.
    for g, cpus in sorted(FALLBACK.items()):
        for cpu in cpus:
            rest = [n for n in by_gen[g] if not any(n in results[c] for c in CONFIGS[g])]
            results[cpu] = probe_cpu((args.llvm_mc, cpu, rest))
    counts = collections.defaultdict(list)  # name -> count per probe (None: no whole form)
    reached = collections.defaultdict(list)  # name -> kinds per position, per probe
    for res in results.values():
        for n, (ops, kinds, _) in res.items():
            counts[n].append(None if ops is None else len(ops))
            reached[n].append(kinds)
    rows = []
    for n in sorted(set(order)):
        if n not in counts:
            continue
        cs = counts[n]
        count = "-" if None in cs else str(min(cs))
        # A probe without a whole form knows no kinds: nothing is checked.
        depth = 0 if None in cs else min(cs)
        cells = []
        for i in range(depth):
            union = set().union(*(k[i] for k in reached[n]))
            cells.append("".join(c for c in KIND_ORDER if c in union) or ".")
        if count == "-":
            continue
        rows.append(f"{n}\t{count}\t{' '.join(cells) if cells else '-'}")
    # The mnemonics left out, with why: per generation the table lists,
    # either no probe processor knows it or none took a whole form.
    left = []
    for n in sorted(set(order)):
        if n in counts and None not in counts[n]:
            continue
        why = []
        for g in sorted(by_gen):
            if n not in by_gen[g]:
                continue
            cpus = CONFIGS[g] + FALLBACK.get(g, [])
            if not any(n in results[c] for c in cpus):
                why.append(f"gfx{g}: no probe processor knows it")
            elif not any(results[c].get(n, (None,))[0] is not None for c in cpus):
                why.append(f"gfx{g}: no whole form found")
        left.append(f"# left out: {n}: {'; '.join(why)}")
    rows = sorted(rows + kept_rows, key=lambda r: r.split("\t")[0])
    left = sorted(left + kept_left)
    out = os.path.join(DATA, "operand_counts.tsv")
    with open(out, "w") as f:
        f.write("# Operand shapes per mnemonic. GENERATED by scripts/isa/gen_operand_counts.py from\n")
        f.write(f"# {args.llvm_mc} -- do not edit. Probes: "
                + " ".join(f"gfx{g}={'+'.join(c)}" for g, c in sorted(CONFIGS.items()))
                + " (" + " ".join(f"gfx{g}: {'+'.join(c)}" for g, c in sorted(FALLBACK.items()))
                + " only for what those lack).\n")
        f.write("# Columns: mnemonic; the fewest operands it takes on any probe (modifiers such as\n")
        f.write("# offen or glc not counted; mnemonics some probe found no whole form for are left\n")
        f.write("# out, listed at the end); the kinds each of those leading positions takes on some\n")
        f.write("# probe, space separated: v VGPR, a AGPR, s SGPR or named scalar register (vcc, exec,\n")
        f.write("# m0, null...), i number, o off; '.' = none of them (attr0.x, p0, hwreg(..), mrt0 go\n")
        f.write("# there); '-' = no operands. Positions past the count are not checked.\n")
        for r in rows:
            f.write(r + "\n")
        for r in left:
            f.write(r + "\n")
    print(f"{len(rows)} mnemonics written to {out}, {len(left)} left out")
    # The conformance corpus: per generation and mnemonic, the whole line
    # of the generation's first probe processor that has one.
    corpus = collections.defaultdict(list)
    for g in sorted(CONFIGS):
        for n in sorted(set(by_gen[g])):
            for cpu in CONFIGS[g] + FALLBACK.get(g, []):
                if results[cpu].get(n, (None, None, None))[2]:
                    corpus[cpu].append((g, n, results[cpu][n][2]))
                    break
    rows = []
    for cpu, items in corpus.items():
        for (g, n, line), enc in zip(items, encodings(args.llvm_mc, cpu, [i[2] for i in items])):
            v, s_, a = register_counts(line)
            rows.append((g, n, cpu, line, v, s_, a, enc))
    rows += kept_corpus
    rows.sort()
    with open(CORPUS, "w") as f:
        f.write("# Whole instruction lines llvm-mc-22 assembles, one per mnemonic of\n")
        f.write("# crates/isa/data/instructions.tsv and generation it is listed for. GENERATED by\n")
        f.write("# scripts/isa/gen_operand_counts.py -- do not edit. Columns: generation; mnemonic;\n")
        f.write("# processor (-mcpu); the line; VGPRs, SGPRs (named scalar registers and ttmp\n")
        f.write("# included) and AGPRs it names (32-bit registers, over both VOPD halves); the\n")
        f.write("# bytes of llvm-mc -show-encoding. Read by crates/asm/tests/llvm_forms.rs.\n")
        for g, n, cpu, line, v, s_, a, enc in rows:
            f.write(f"{g}\t{n}\t{cpu}\t{line}\t{v}\t{s_}\t{a}\t{enc}\n")
    print(f"{len(rows)} lines written to {CORPUS}")


if __name__ == "__main__":
    main()
