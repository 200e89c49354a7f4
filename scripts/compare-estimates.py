#!/usr/bin/env python3
"""Compare shadersim's one-wave clocks with two independent static estimates on RDNA fixtures.

* ACO's own "Latency" statistic (issue cycles plus stall cycles of one wave, Mesa's
  aco_statistics.cpp model), recorded for every RADV fixture shader in tests/fixtures/manifest.toml.
* llvm-mca-22 -mcpu=gfx1010|gfx1030|gfx1100 -iterations=1 "Total Cycles" on the straight-line LLVM
  fixtures (.s files llvm-mc reads directly) and on the RADV listings (ACO's syntax is close enough
  to LLVM's for most of them; listings llvm-mca rejects are skipped and counted).

These are estimates, not measurements: the script REPORTS ratios (shadersim / estimate), the
median per group and the largest differences; nothing is asserted. Only programs without loops
are compared (the estimates count one pass through straight-line code).

Usage: scripts/compare-estimates.py [--shadersim target/release/shadersim] [-o docs/estimates-rdna.md]
Needs: a release build of shadersim, and llvm-mca-22 (Debian package llvm-22) for the mca column.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIX = os.path.join(ROOT, "tests", "fixtures")
MODEL = {"gfx1010": "rdna1", "gfx1030": "rdna2", "gfx1100": "rdna3"}


def shadersim_wave_clocks(exe, path, model, function=None, wave_size=None, stage=None):
    args = [exe, "analyze", path, "--arch", model, "--format", "json", "--no-latency-search",
            "--set", "waves=1"]
    if function:
        args += ["--function", function]
    if wave_size:
        args += ["--set", f"wave_size={wave_size}"]
    if stage == "compute" and wave_size:
        # One wave: a workgroup of exactly one wave.
        args += ["--set", f"workgroup_size={wave_size}"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr else "failed"
    return json.loads(r.stdout)["wave_clocks"], None


def mca_cycles(mca, cpu, text):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        r = subprocess.run([mca, "-mtriple=amdgcn", f"-mcpu={cpu}", "-iterations=1", name], capture_output=True, text=True)
    finally:
        os.unlink(name)
    m = re.search(r"Total Cycles:\s+(\d+)", r.stdout)
    return int(m.group(1)) if r.returncode == 0 and m else None


def radv_listing_for_mca(path, header):
    """The disasm block of one shader in a RADV dump, as plain llvm-mc text."""
    lines = open(path).read().splitlines()
    out, inside = [], False
    for i, l in enumerate(lines):
        if l.strip() == "disasm:" and i > 0 and lines[i - 1].strip().rstrip(":") == header:
            inside = True
            continue
        if inside:
            if not l.strip():
                break
            s = l.split(";")[0].strip()
            if not s or s.endswith(":") or s.startswith("s_code_end"):
                continue
            out.append(s)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shadersim", default=os.path.join(ROOT, "target", "release", "shadersim"))
    ap.add_argument("--mca", default=shutil.which("llvm-mca-22") or "llvm-mca-22")
    ap.add_argument("-o", "--output", help="write the markdown report here (default: stdout)")
    a = ap.parse_args()
    if not os.path.exists(a.shadersim):
        sys.exit(f"compare-estimates: {a.shadersim} not found (cargo build --release)")
    have_mca = shutil.which(a.mca) is not None
    manifest = tomllib.load(open(os.path.join(FIX, "manifest.toml"), "rb"))
    rows = []
    skipped = []
    for f in manifest["fixture"]:
        target = f["target"]
        if target not in MODEL:
            continue
        model = MODEL[target]
        path = os.path.join(FIX, f["path"])
        if f["dialect"] == "radv":
            for s in f.get("shaders", []):
                if s.get("loops", 0) != 0:
                    continue
                header = s["disasm_header"]
                ours, err = shadersim_wave_clocks(a.shadersim, path, model, header, s["wave_size"],
                                                  s["stage"])
                if ours is None:
                    skipped.append(f"{f['path']} {header}: {err}")
                    continue
                mca = mca_cycles(a.mca, target, radv_listing_for_mca(path, header)) if have_mca else None
                rows.append(dict(name=f"{f['path']} ({s['stage']}, wave{s['wave_size']})", model=model,
                                 ours=ours, aco=s.get("latency"), mca=mca))
        elif f["dialect"] == "llvm" and f.get("loops", 0) == 0:
            ours, err = shadersim_wave_clocks(a.shadersim, path, model, None, None, f.get("stage"))
            if ours is None:
                skipped.append(f"{f['path']}: {err}")
                continue
            mca = mca_cycles(a.mca, target, open(path).read()) if have_mca else None
            rows.append(dict(name=f"{f['path']} ({f.get('stage')})", model=model, ours=ours, aco=None,
                             mca=mca))

    def ratios(key):
        return [(r["ours"] / r[key], r) for r in rows if r.get(key)]

    out = ["# shadersim vs ACO and llvm-mca on straight-line RDNA fixtures", "",
           "Generated by `scripts/compare-estimates.py` (one wave, the model's default latencies; "
           "ratio = shadersim / estimate). Estimates, not measurements: reported, never asserted.", ""]
    for key, label in (("aco", "ACO Latency"), ("mca", "llvm-mca-22 Total Cycles")):
        rs = ratios(key)
        if not rs:
            out.append(f"* {label}: no data" + ("" if have_mca or key == "aco" else " (llvm-mca-22 not found)"))
            continue
        med = statistics.median(x for x, _ in rs)
        out.append(f"* **{label}**: {len(rs)} programs, median ratio {med:.2f}, "
                   f"range {min(x for x, _ in rs):.2f} .. {max(x for x, _ in rs):.2f}")
    out += ["", "| program | model | shadersim clocks | ACO Latency | ratio | llvm-mca cycles | ratio |",
            "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        ra = f"{r['ours'] / r['aco']:.2f}" if r["aco"] else ""
        rm = f"{r['ours'] / r['mca']:.2f}" if r["mca"] else ""
        out.append(f"| {r['name']} | {r['model']} | {r['ours']:.0f} | {r['aco'] or ''} | {ra} | "
                   f"{r['mca'] or ''} | {rm} |")
    if skipped:
        out += ["", "Not compared (shadersim could not run them):", ""] + [f"* {s}" for s in skipped]
    text = "\n".join(out) + "\n"
    if a.output:
        open(a.output, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
