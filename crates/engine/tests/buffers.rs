//! Every buffer its own address range (issue 27 item 2), on kernels real compilers made: the
//! buffers found from the program reach the caches as separate streams. Expected numbers
//! follow from the gfx900 model (it inherits crates/arch/data/gcn.toml's [cache]: a 16 KB
//! 4-way vector L1 of 64-byte lines, a 16 KB scalar cache of 64-byte lines, a 4 MB 16-way L2 of
//! 64-byte lines, then DRAM; each request walks the levels of its path and allocates).

use shadersim_asm::{read_program_text, Program, ReadOptions};
use shadersim_engine::{SimStats, Simulation};
use shadersim_testkit::sim::model;
use shadersim_trace::BUFFER_SPACING;

fn read(name: &str, text: &str, program: &str) -> Program {
    let opts = ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    read_program_text(name, text, &opts)
        .unwrap()
        .programs
        .into_iter()
        .find(|p| p.name == program)
        .unwrap_or_else(|| panic!("no program {program} in {name}"))
}

/// `program` on the gfx900 model with `hints`.
fn prepare(program: &Program, hints: &str) -> Simulation {
    shadersim_testkit::sim::prepare(program, model("gfx900", &[]), hints)
}

fn level<'a>(s: &'a SimStats, name: &str) -> &'a shadersim_engine::LevelReport {
    s.cache.iter().find(|l| l.name == name).unwrap()
}

/// The instruction index of the first instruction on `line`.
fn at_line(sim: &Simulation, line: u32) -> usize {
    sim.program().indices_at_line(line)[0]
}

/// `vadd.cl` (`c[i] = a[i] + b[i]`) as clang-22 compiles it for gfx900
/// (tests/data/README.md has the command).
fn vadd() -> Program {
    read("vadd_gfx900.s", include_str!("data/vadd_gfx900.s"), "vadd")
}

#[test]
fn vector_adds_three_buffers_miss_independently() {
    // The listing: the kernel arguments are read by `s_load_dwordx4 s[0:3], s[4:5], 0x0`
    // (line 16: a in s[0:1], b in s[2:3]) and `s_load_dwordx2 s[6:7], s[4:5], 0x10` (line 17:
    // c), s[4:5] being the kernel-argument segment pointer at entry; the loads at lines 23
    // and 27 and the store at line 33 add the 64-bit index to them.
    let sim = prepare(
        &vadd(),
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 500\n",
    );
    let buffer = |line| sim.buffers().buffer_of(at_line(&sim, line)).unwrap();
    let (a, b, c) = (buffer(23), buffer(27), buffer(33));
    assert_eq!(a.origin, "loaded at line 16 from s4 at entry + 0x0");
    assert_eq!(b.origin, "loaded at line 16 from s4 at entry + 0x8");
    assert_eq!(c.origin, "loaded at line 17 from s4 at entry + 0x10");
    // The segment itself is buffer 1 (its first reader, line 10, comes first); a, b, c are
    // 2, 3, 4 at k x 2^40 + k x 3 x 64 bytes.
    assert_eq!(buffer(10).id, 1);
    assert_eq!((a.id, b.id, c.id), (2, 3, 4));
    assert_eq!(b.base, 3 * BUFFER_SPACING + 3 * 192);
    let s = sim.run().unwrap();
    // Each of the 3 ops is a linear DWORD access: 64 lanes x 4 bytes = 256 bytes = 4 lines of
    // 64 bytes per execution; the default wave stride is that footprint, so wave w covers
    // bytes 256w .. 256w + 255 of its own buffer: no line is touched twice, by any wave or
    // any other buffer. L1: 500 waves x 3 ops x 4 lines = 6000 requests, 0 hits (before
    // buffers had their own ranges, b and c read a's lines: 4000 hits, 66.7%).
    let l1 = level(&s, "l1");
    assert_eq!((l1.requests, l1.hits), (6000, 0));
    for line in [23, 27, 33] {
        let op = &s.op_cache[sim.op_of_instruction(at_line(&sim, line))];
        assert_eq!((op.requests, op.first_level_hits), (2000, 0), "line {line}");
    }
    // The scalar loads (lines 10, 16, 17) read 0x24, 0x0 and 0x10 of the segment: one 64-byte
    // line (the base is a multiple of 64), missed once: 1500 requests, 1499 hits.
    let sc = level(&s, "scalar");
    assert_eq!((sc.requests, sc.hits), (1500, 1499));
    // L2 sees the 6000 vector misses and the 1 scalar miss, all first touches; DRAM serves
    // them: 6001 x 64 bytes = 500 waves x 64 lanes x 4 bytes x 3 buffers + one 64-byte line
    // of kernel arguments = 384,064 bytes (128,064 before: a's lines only).
    let l2 = level(&s, "l2");
    assert_eq!((l2.requests, l2.hits), (6001, 0));
    let dram = level(&s, "dram");
    assert_eq!(dram.bytes, 500 * 64 * 4 * 3 + 64);
}

#[test]
fn global_atomics_do_not_hit_another_buffers_lines() {
    // tests/fixtures/llvm/gfx900/global_atomics.s (clang-19): `vals` is loaded at line 23
    // (kernel argument 0x0), `atomic_max(&counters[2], v)` is line 94 (0x8) and
    // `atomic_xchg(&slot[gid & 63])` line 100 (0x18). Atomics walk the model's `[cache] atomic`
    // path, from the L2 on (they bypass the L1), so the L2 is their first level. (With every
    // buffer at address 0 they would read `vals`' lines.) An atomic on lines a load of the SAME
    // buffer just brought in still hits the L2: the `atomic_cmpxchg` at line 127 follows the
    // load of `fsum` at line 121.
    let text = include_str!("../../../tests/fixtures/llvm/gfx900/global_atomics.s");
    let sim = prepare(
        &read("global_atomics.s", text, "global_atomics"),
        "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 100\n",
    );
    let s = sim.run().unwrap();
    let hits = |line| {
        let op = &s.op_cache[sim.op_of_instruction(at_line(&sim, line))];
        (op.requests, op.first_level_hits)
    };
    // Line 94's address is read from the code (issue 33): `counters + 8` for every lane and
    // wave (pattern uniform, wave stride 0): one line per wave, 100 requests, the first wave's
    // a miss and the other 99 hits on the line it brought in. Line 100's index is `gid & 63`:
    // the mask keeps it in 64 x 4 = 256 bytes of `slot` (a region from the code), 4 of the
    // 64-byte lines, which every wave's 64 lanes cover: the first wave's 4 requests miss, the
    // other 99 x 4 = 396 hit.
    assert_eq!(hits(94), (100, 99));
    assert_eq!(hits(100), (400, 396));
    let id = |line| sim.buffers().buffer_of(at_line(&sim, line)).unwrap().id;
    let ids = [id(23), id(94), id(100), id(121)];
    for (i, x) in ids.iter().enumerate() {
        assert!(!ids[i + 1..].contains(x), "{ids:?}");
    }
    assert_eq!(id(121), id(127));
}

#[test]
fn radv_descriptors_are_separate_buffers() {
    // RADV's tile_matmul compute shader (vega10): the storage buffers A, B and C are the
    // descriptors at 0x0, 0x10 and 0x20 of the set s[2:3] points to at entry (lines 1311,
    // 1312 and 1756 load them); their loads and stores get three buffers, and the descriptor
    // loads themselves a fourth (the set).
    let text = include_str!("../../../tests/fixtures/radv/vega10/tile_matmul.txt");
    let sim = prepare(&read("tile_matmul.txt", text, "Compute Shader"), "");
    let buffer = |line| sim.buffers().buffer_of(at_line(&sim, line)).unwrap();
    let (a, b, c) = (buffer(1319), buffer(1328), buffer(1764));
    assert_eq!(a.origin, "loaded at line 1311 from s2 at entry + 0x0");
    assert_eq!(b.origin, "loaded at line 1312 from s2 at entry + 0x10");
    assert_eq!(c.origin, "loaded at line 1756 from s2 at entry + 0x20");
    let set = buffer(1311);
    assert_eq!(set.origin, "s2 at entry");
    let ids = [a.id, b.id, c.id, set.id];
    for (i, x) in ids.iter().enumerate() {
        assert!(!ids[i + 1..].contains(x), "{ids:?}");
    }
    // The four `offset:` loads of one descriptor share its buffer.
    assert_eq!(buffer(1327).id, a.id);
    assert_eq!(buffer(1331).id, b.id);
}
