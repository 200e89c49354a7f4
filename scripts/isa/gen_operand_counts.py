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

Usage:  python3 scripts/isa/gen_operand_counts.py [--llvm-mc llvm-mc-22]
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
# The processors probed per generation: each generation's usual one, plus
# the ones whose operands differ (gfx90a: AGPRs and aligned tuples; gfx1010
# keeps ops gfx1030 dropped; gfx1150: gfx11.5's SALU float ops).
CONFIGS = {6: ["tahiti"], 7: ["hawaii"], 8: ["gfx803"], 9: ["gfx906", "gfx90a"],
           10: ["gfx1010", "gfx1030"], 11: ["gfx1100", "gfx1150"], 12: ["gfx1200"]}
# (token, kind); kind None: a special operand that only lets the list grow.
TOKENS = [("v0", "v"), ("v[0:1]", "v"), ("v[0:3]", "v"), ("s0", "s"), ("s[0:1]", "s"),
          ("s[0:3]", "s"), ("s[0:7]", "s"), ("0", "i"), ("off", "o"), ("vcc", "s"),
          ("vcc_lo", "s"), ("exec", "s"), ("m0", "s"), ("v[0:2]", "v"), ("v[0:7]", "v"),
          ("s[0:15]", "s"), ("v[0:15]", "v"), ("null", "s"), ("exec_lo", "s"), ("s[0:2]", "s"),
          ("v[0:4]", "v"), ("v[0:5]", "v"), ("v[0:8]", "v"), ("v[0:10]", "v"), ("v[0:11]", "v"),
          ("1.0", "i"), ("0x3039", "i"), ("a0", "a"), ("a[0:1]", "a"), ("a[0:3]", "a"),
          ("a[0:15]", "a"), ("a[0:7]", "a"), ("a[0:31]", "a"), ("v[0:31]", "v"), ("attr0.x", None), ("mrt0", None), ("hwreg(HW_REG_MODE)", None),
          ("sendmsg(MSG_INTERRUPT)", None), ("0x10", "i")]
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
         ":: v_dual_mov_b32 v1, v1"]
RETURNS = ["glc", "sc0", "th:TH_ATOMIC_RETURN"]
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


def line_of(name, ops):
    return f"{name} {', '.join(ops)}".strip()


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
            for t, k in TOKENS:
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
    has = [n for n, e in zip(names, run(llvm_mc, cpu, names)) if e is None or e not in LACKS]
    forms = probe(llvm_mc, cpu, has)
    kinds = kinds_of(llvm_mc, cpu, forms)
    # An atomic's returning form puts a VGPR destination before the
    # operands of the shortest one (`global_atomic_add v[0:1], v2, off`,
    # `global_atomic_add v0, v[0:1], v2, off glc`), so each position also
    # takes what that longer form takes there.
    longer = {}
    lines, owners = [], []
    for n, (ops, mod) in forms.items():
        for r in RETURNS:
            lines.append(line_of(n, ["v0"] + ops) + f" {r}" + (f" {mod}" if mod else ""))
            owners.append((n, r))
    for (n, r), err in zip(owners, run_at(llvm_mc, cpu, lines)):
        if err is None and n not in longer:
            ops, mod = forms[n]
            longer[n] = (["v0"] + ops, f"{r} {mod}".strip())
    for n, more in kinds_of(llvm_mc, cpu, longer).items():
        for i in range(len(kinds[n])):
            kinds[n][i] |= more[i]
    return {n: (forms[n][0] if n in forms else None, kinds.get(n, [])) for n in has}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    args = ap.parse_args()
    by_gen = collections.defaultdict(list)
    order = []
    for line in open(os.path.join(DATA, "instructions.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        order.append(cols[0])
        for g in gens_of(cols[4]):
            if g in CONFIGS:
                by_gen[g].append(cols[0])
    jobs = [(args.llvm_mc, cpu, by_gen[g]) for g in sorted(CONFIGS) for cpu in CONFIGS[g]]
    with multiprocessing.Pool(2) as pool:
        results = pool.map(probe_cpu, jobs)
    counts = collections.defaultdict(list)  # name -> count per probe (None: no whole form)
    reached = collections.defaultdict(list)  # name -> kinds per position, per probe
    for res in results:
        for n, (ops, kinds) in res.items():
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
    out = os.path.join(DATA, "operand_counts.tsv")
    with open(out, "w") as f:
        f.write("# Operand shapes per mnemonic. GENERATED by scripts/isa/gen_operand_counts.py from\n")
        f.write(f"# {args.llvm_mc} -- do not edit. Probes: "
                + " ".join(f"gfx{g}={'+'.join(c)}" for g, c in sorted(CONFIGS.items())) + ".\n")
        f.write("# Columns: mnemonic; the fewest operands it takes on any probe (modifiers such as\n")
        f.write("# offen or glc not counted; mnemonics some probe found no whole form for are left\n")
        f.write("# out); the kinds each of those leading positions takes on some probe, space\n")
        f.write("# separated: v VGPR, a AGPR, s SGPR or named scalar register (vcc, exec, m0, null...),\n")
        f.write("# i number, o off; '.' = none of them (attr0.x, hwreg(..), mrt0 go there); '-' = no\n")
        f.write("# operands. Positions past the count are not checked.\n")
        for r in rows:
            f.write(r + "\n")
    print(f"{len(rows)} mnemonics written to {out}")


if __name__ == "__main__":
    main()
