#!/usr/bin/env bash
# What the latency-tolerance search costs `shadersim analyze`.
#
# For each program of a representative set, times `analyze --format json`
# with and without `--no-latency-search` (runs alternated, repeated) and
# prints the ratio of their CPU times (user + system of the process, the
# least of the repeats: on a shared machine the load inflates a run's CPU
# time too, never shrinks it; wall time, the median, beside it), the
# search's simulation count (`runs`) and the work its probes spent
# (`work_runs`, in runs: load-independent measures), its bracket
# (`clocks` passes, `fails_at` fails) and its width relative to `clocks`
# (`-`: no failing end reached), and at the end the distribution of the
# ratios, the widths and the ends' ratio (fails_at / clocks). With a
# second binary (BEFORE) it prints the same for
# that binary and compares the passing ends.
#
# usage: scripts/bench-latency-search.sh [NEW [BEFORE]]
#   NEW     default target/release/shadersim
#   BEFORE  optional; e.g. a copy of the binary built from main
#   REPEAT=N (default 3) timed runs per variant; FILTER=REGEX to pick programs;
#   PRECISION=P adds `--latency-precision P` to the runs with the search;
#   ALL_LLVM=1 every tests/fixtures/llvm/*/*.s (default: gfx900 and gfx1100)
#   ALL=1 instead every program `shadersim batch tests/fixtures` finds (each
#     function of a multi-program file: about 260, several minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
NEW=${1:-target/release/shadersim}
BEFORE=${2:-}
REPEAT=${REPEAT:-3}
FILTER=${FILTER:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The issue's "64-iteration matmul kernel": matmul_tile's k-loop (its
# header at line 35) run 64 times.
printf '[[loop]]\nline = 35\niterations = 64\n' > "$tmp/matmul64.toml"

# One program per line: name, then analyze's arguments (split on spaces, or
# a JSON list when a function's name has spaces, as RADV's stages do).
{
    echo "lighting_ps examples/lighting_ps.txt --arch gfx900 --hints examples/lighting_ps.toml"
    echo "matmul64/gfx900 tests/fixtures/llvm/gfx900/matmul_tile.s --hints $tmp/matmul64.toml"
    if [ -n "${ALL:-}" ]; then
        "$NEW" batch tests/fixtures -o "$tmp/all.jsonl" 2>/dev/null
        python3 - "$tmp/all.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("error"):
        continue
    f, fn = j["file"], j.get("function")
    name = f.split("tests/fixtures/")[-1] + ("|" + fn.replace(" ", "_") if fn else "")
    print(json.dumps([name, f] + (["--function", fn] if fn else [])))
PY
    else
        if [ -n "${ALL_LLVM:-}" ]; then
            files=$(ls tests/fixtures/llvm/*/*.s)
        else
            files=$(ls tests/fixtures/llvm/gfx900/*.s tests/fixtures/llvm/gfx1100/*.s)
        fi
        for f in $files; do
            d=$(basename "$(dirname "$f")")
            echo "llvm/$d/$(basename "$f" .s) $f"
        done
        for f in radv/vega10/lighting.txt radv/vega10/tile_matmul.txt radv/navi21/blur.txt \
            radv/gfx1100/many_lights.txt aco/vega10/lighting.ps.s aco/navi21/lds_tile.cs.s \
            aco/gfx1100/skinning.ps.s; do
            echo "${f%.*} tests/fixtures/$f"
        done
    fi
} | grep -E -- "$FILTER" > "$tmp/programs"

python3 - "$tmp/programs" "$NEW" "$BEFORE" "$REPEAT" "${PRECISION:-}" <<'EOF'
import json, resource, statistics, subprocess, sys, time

programs, new, before, repeat = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
precision = sys.argv[5]
bins = [("new", new)] + ([("old", before)] if before else [])

def run(binary, args, search):
    cmd = [binary, "analyze", *args, "--format", "json"]
    if not search:
        cmd.append("--no-latency-search")
    elif precision and binary == new:
        cmd += ["--latency-precision", precision]
    # Wall time, and CPU time (user + system of the child: what a loaded
    # machine distorts least, though it does not credit the two probes
    # running at once).
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        return dt, cpu, None
    return dt, cpu, json.loads(p.stdout).get("latency_tolerance")

def fmt(l, key):
    if l is None:
        return "-"
    v = l.get(key)
    return "none" if v is None else str(v)

def width(l):
    """The bracket's width relative to its passing end (None: no failing
    end, or no search)."""
    if not l or l.get("fails_at") is None or l.get("clocks") is None:
        return None
    return (l["fails_at"] - l["clocks"]) / max(l["clocks"], 1)

def quantiles(v):
    v = sorted(v)
    q = lambda f: v[min(len(v) - 1, int(f * len(v)))]
    return f"min {v[0]:.2f}, p25 {q(.25):.2f}, median {statistics.median(v):.2f}, p75 {q(.75):.2f}, p90 {q(.9):.2f}, max {v[-1]:.2f}"

head = f"{'program':32} " + " ".join(
    f"{b+' with':>9} {b+' w/o':>9} {b+' x':>6} {b+' cpu x':>8} {b+' runs':>8} {b+' work':>8} {b+' clocks':>10} {b+' fails':>8} {b+' width':>8}"
    for b, _ in bins)
print(head)
ratios = {b: [] for b, _ in bins}
widths = {b: [] for b, _ in bins}
open_ends = {b: 0 for b, _ in bins}
cpu_ratios = {b: [] for b, _ in bins}
differ = []
for line in open(programs):
    name, *args = json.loads(line) if line.startswith("[") else line.split()
    times = {(b, s): [] for b, _ in bins for s in (True, False)}
    cpus = {(b, s): [] for b, _ in bins for s in (True, False)}
    lat = {}
    # Alternate the variants so load changes hit them alike.
    for _ in range(repeat):
        for b, binary in bins:
            for s in (True, False):
                dt, cpu, l = run(binary, args, s)
                times[(b, s)].append(dt)
                cpus[(b, s)].append(cpu)
                if s:
                    lat[b] = l
    cols = []
    for b, _ in bins:
        w = statistics.median(times[(b, True)])
        wo = statistics.median(times[(b, False)])
        cw = min(cpus[(b, True)])
        cwo = max(min(cpus[(b, False)]), 1e-3)
        ratios[b].append(w / wo)
        cpu_ratios[b].append(cw / cwo)
        wd = width(lat[b])
        if wd is None:
            open_ends[b] += lat[b] is not None
        else:
            widths[b].append(wd)
        cols.append(f"{w:9.3f} {wo:9.3f} {w / wo:6.2f} {cw / cwo:8.2f} "
                    f"{fmt(lat[b], 'runs'):>8} {fmt(lat[b], 'work_runs'):>8} {fmt(lat[b], 'clocks'):>10} "
                    f"{fmt(lat[b], 'fails_at'):>8} {'-' if wd is None else f'{wd:.3f}':>8}")
    print(f"{name:32} " + " ".join(cols), flush=True)
    if before and fmt(lat["new"], "clocks") != fmt(lat["old"], "clocks"):
        differ.append(name)
for b, _ in bins:
    r = ratios[b]
    c = cpu_ratios[b]
    print(f"{b}: ratio with/without search: wall max {max(r):.2f}, median {statistics.median(r):.2f}; "
          f"cpu max {max(c):.2f}, median {statistics.median(c):.2f}")
    print(f"{b}: cpu ratios: {quantiles(c)}; above 3: {sum(x > 3 for x in c)}, above 2: {sum(x > 2 for x in c)} of {len(c)}")
    print(f"{b}: wall ratios: {quantiles(r)}; above 3: {sum(x > 3 for x in r)}, above 2: {sum(x > 2 for x in r)} of {len(r)}")
    if widths[b]:
        wd = widths[b]
        print(f"{b}: bracket widths (fails_at - clocks) / clocks: {quantiles(wd)}; "
              f"within 1/64: {sum(x <= 1 / 64 for x in wd)}, within 10%: {sum(x <= .1 for x in wd)}, "
              f"within 25%: {sum(x <= .25 for x in wd)} of {len(wd)}; no failing end: {open_ends[b]}")
        # Issue 45's measure: how far apart the ends are (fails_at /
        # clocks, the passing end taken as 1 when it is 0, the base).
        rt = [x + 1 for x in wd]
        print(f"{b}: bracket ends apart (fails_at / clocks): {quantiles(rt)}; "
              f"within 2x: {sum(x <= 2 for x in rt)}, within 4x: {sum(x <= 4 for x in rt)} of {len(rt)}")
if before:
    print(f"answers differing from BEFORE: {len(differ)}: {' '.join(differ)}")
EOF
