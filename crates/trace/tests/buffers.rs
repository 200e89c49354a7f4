//! Buffer provenance (issue 27 item 2): each memory op's address or resource registers walked
//! back to a root, each root its own buffer, and the `[[memory]] buffer` / `base` hints.

use shadersim_asm::{read_program_text, Program, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_isa::InstrTable;
use shadersim_testkit::program;
use shadersim_trace::{
    find_buffers, memory_facts, memory_roots, BufferFound, BufferMap, Hints, Root, BUFFER_SPACING,
    FORWARDING,
};

/// The root of each memory op, by line.
fn roots(text: &str) -> Vec<(u32, Option<Root>)> {
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let mut v: Vec<(u32, Option<Root>)> = memory_roots(&p, &cfg)
        .into_iter()
        .map(|(i, (r, _))| (p.instructions[i].pos.line, r))
        .collect();
    v.sort();
    v
}

fn entry(sgpr: u16) -> Root {
    Root::Entry { sgpr }
}

fn loaded(base: Root, offset: i64) -> Root {
    Root::Loaded {
        base: Box::new(base),
        offset,
    }
}

/// The buffers of a program under hints, or the rendered error.
fn buffers(text: &str, hints: &str) -> Result<(Program, BufferMap), String> {
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let h = Hints::parse(hints).map_err(|e| e.render("h.toml", hints))?;
    let facts = memory_facts(&p, &h).map_err(|e| e.render("h.toml", hints))?;
    let map = find_buffers(&p, &cfg, &facts).map_err(|e| e.render("h.toml", hints))?;
    Ok((p, map))
}

/// clang's gfx900 vector add (`c[i] = a[i] + b[i]`), cut to its address arithmetic: three
/// pointers loaded from the kernel-argument segment (s[8:9] at entry), each added to the
/// same 64-bit index through a carry pair; s[8:9] is moved on after the loads.
const VADD: &str = "\
s_load_dwordx4 s[36:39], s[8:9], 0x0
s_load_dwordx2 s[34:35], s[8:9], 0x10
s_add_u32 s8, s8, 24
s_addc_u32 s9, s9, 0
v_lshlrev_b64 v[0:1], 2, v[0:1]
v_mov_b32_e32 v3, s37
v_add_co_u32_e32 v2, vcc, s36, v0
v_addc_co_u32_e32 v3, vcc, v3, v1, vcc
global_load_dword v4, v[2:3], off
v_mov_b32_e32 v3, s39
v_add_co_u32_e32 v2, vcc, s38, v0
v_addc_co_u32_e32 v3, vcc, v3, v1, vcc
global_load_dword v2, v[2:3], off
v_mov_b32_e32 v3, s35
v_add_co_u32_e32 v0, vcc, s34, v0
v_addc_co_u32_e32 v1, vcc, v3, v1, vcc
s_waitcnt vmcnt(0)
v_add_f32_e32 v2, v4, v2
global_store_dword v[0:1], v2, off
s_endpgm
";

#[test]
fn vector_add_pointers_are_three_kernel_arguments() {
    // a, b, c are DWORDs 0-1, 2-3 of the x4 load at 0x0 and DWORDs 0-1 of the x2 load at
    // 0x10: byte offsets 0x0, 0x8, 0x10 of the segment s[8:9] points to at entry (the
    // s_add_u32 s8 after the loads does not reach them). The index v[0:1] is a shift: not a
    // pointer, so the adds take the other source.
    let kernarg = entry(8);
    assert_eq!(
        roots(VADD),
        vec![
            (1, Some(kernarg.clone())),
            (2, Some(kernarg.clone())),
            (9, Some(loaded(kernarg.clone(), 0x0))),
            (13, Some(loaded(kernarg.clone(), 0x8))),
            (19, Some(loaded(kernarg, 0x10))),
        ]
    );
    let (_, map) = buffers(VADD, "").unwrap();
    // Program order of first use: the segment (line 1), a (9), b (13), c (19); buffer 0 (the
    // default) is unused.
    let ids: Vec<(u32, Vec<u32>)> = map
        .buffers
        .iter()
        .map(|b| (b.id, b.lines.clone()))
        .collect();
    assert_eq!(
        ids,
        vec![
            (0, vec![]),
            (1, vec![1, 2]),
            (2, vec![9]),
            (3, vec![13]),
            (4, vec![19])
        ]
    );
    assert_eq!(
        map.buffers[3].origin,
        "loaded at line 1 from s8 at entry + 0x8"
    );
    assert_eq!(map.buffers[3].found, BufferFound::Program);
    // The scalar load at 0x10 starts 0x10 into the segment.
    assert_eq!(map.of_instr[&1].offset, 0x10);
}

#[test]
fn default_bases_are_spaced_and_staggered() {
    let (_, mut map) = buffers(VADD, "").unwrap();
    // 3 lines of 64 bytes: buffer k at k x 2^40 + k x 192.
    map.set_default_bases(192);
    let bases: Vec<u64> = map.buffers.iter().map(|b| b.base).collect();
    assert_eq!(
        bases,
        vec![
            0,
            BUFFER_SPACING + 192,
            2 * BUFFER_SPACING + 384,
            3 * BUFFER_SPACING + 576,
            4 * BUFFER_SPACING + 768
        ]
    );
    // The scalar load at line 2 reads 0x10 past its buffer's base.
    assert_eq!(map.base_of(1), Some(BUFFER_SPACING + 192 + 0x10));
    assert!(map.sentences()[0].starts_with("4 buffers found"));
}

#[test]
fn saddr_resource_and_descriptor_roots() {
    // Global with saddr (vaddr is an offset), a buffer op's resource, an image op's resource
    // (its sampler is not the buffer), a scalar buffer load through a descriptor, and scratch.
    let text = "\
s_load_dwordx2 s[2:3], s[4:5], 0x8
s_load_dwordx8 s[8:15], s[0:1], 0x20
s_load_dwordx4 s[16:19], s[0:1], 0x40
s_load_dwordx4 s[20:23], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
global_load_dword v1, v0, s[2:3]
buffer_load_dword v2, v0, s[16:19], 0 offen
image_sample v[4:7], v[0:1], s[8:15], s[20:23] dmask:0xf
s_buffer_load_dword s24, s[16:19], 0x4
scratch_load_dword v3, v0, off
s_endpgm
";
    let r = roots(text);
    let desc = |o| Some(loaded(entry(0), o));
    assert_eq!(r[4], (6, Some(loaded(entry(4), 0x8))));
    assert_eq!(r[5], (7, desc(0x40)));
    assert_eq!(r[6], (8, desc(0x20)));
    assert_eq!(r[7], (9, desc(0x40)));
    assert_eq!(r[8], (10, Some(Root::Scratch)));
    // The buffer op and the scalar buffer load read one buffer.
    let (_, map) = buffers(text, "").unwrap();
    assert_eq!(map.of_instr[&6].buffer, map.of_instr[&8].buffer);
    assert_eq!(map.of_instr[&8].offset, 4);
}

#[test]
fn definitions_that_disagree_give_no_root() {
    // An if/else picks one of two pointers: the root is unknown and the op gets the default
    // buffer 0; a pointer bumped in a loop keeps its root (the update is neutral).
    let text = "\
s_load_dwordx4 s[4:7], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
s_cmp_eq_u32 s2, 0
s_cbranch_scc1 .Lelse
s_mov_b32 s8, s4
s_branch .Ljoin
.Lelse:
s_mov_b32 s8, s6
.Ljoin:
global_load_dword v1, v0, s[8:9]
s_mov_b32 s10, s6
.Lloop:
global_load_dword v2, v0, s[10:11]
s_add_u32 s10, s10, 64
s_addc_u32 s11, s11, 0
s_sub_u32 s3, s3, 1
s_cmp_lg_u32 s3, 0
s_cbranch_scc1 .Lloop
s_endpgm
";
    let r = roots(text);
    assert_eq!(r[1], (10, None));
    assert_eq!(r[2], (13, Some(loaded(entry(0), 0x8))));
    let (_, map) = buffers(text, "").unwrap();
    assert_eq!(map.of_instr[&7].buffer, 0);
    assert_eq!(map.buffers[0].lines, vec![10]);
    assert!(map.sentences()[1].contains("default buffer 0 at address 0: line 10"));
}

#[test]
fn a_vgpr_at_entry_is_not_a_pointer() {
    // flat_load through v[0:1] as the program starts: lane data, unknown.
    assert_eq!(
        roots("flat_load_dword v2, v[0:1]\ns_endpgm\n"),
        vec![(1, None)]
    );
}

#[test]
fn hints_name_and_place_buffers() {
    // Line 9 (a) and line 19 (c) named "io" share a buffer at the given base; line 13 keeps
    // its found root; an unhinted op of a named op's root joins the name.
    let (_, mut map) = buffers(
        VADD,
        "[[memory]]\nline = 9\nbuffer = \"io\"\nbase = 4096\n[[memory]]\nline = 19\nbuffer = \"io\"\n",
    )
    .unwrap();
    map.set_default_bases(192);
    let io = map.of_instr[&8].buffer;
    assert_eq!(map.of_instr[&18].buffer, io);
    let b = &map.buffers[io as usize];
    assert_eq!(
        (b.name.as_deref(), b.base, b.found),
        (Some("io"), 4096, BufferFound::Hint)
    );
    assert_ne!(map.of_instr[&12].buffer, io);
    // A base alone: its own range at that address.
    let (_, map) = buffers(VADD, "[[memory]]\nline = 13\nbase = 0x10000\n").unwrap();
    let b = &map.buffers[map.of_instr[&12].buffer as usize];
    assert_eq!((b.base, b.explicit_base), (0x10000, true));
}

#[test]
fn hint_errors_point_at_the_key() {
    let err = buffers(
        VADD,
        "[[memory]]\nline = 9\nbuffer = \"io\"\nbase = 4096\n[[memory]]\nline = 19\nbuffer = \"io\"\nbase = 8192\n",
    )
    .unwrap_err();
    assert!(
        err.contains("h.toml:8:8")
            && err.contains("buffer `io` has base 0x1000 (line 9); line 19 gives 0x2000"),
        "{err}"
    );
    let err = buffers(VADD, "[[memory]]\nline = 9\nbuffer = \"\"\n").unwrap_err();
    assert!(
        err.contains("h.toml:3:10") && err.contains("must not be empty"),
        "{err}"
    );
    let lds = "ds_read_b32 v1, v0\ns_endpgm\n";
    let err = buffers(lds, "[[memory]]\nline = 1\nbuffer = \"x\"\n").unwrap_err();
    assert!(err.contains("`buffer` does not apply to an LDS"), "{err}");
}

#[test]
fn forwarding_mnemonics_are_table_names() {
    // The list is matched against the table's mnemonic: a name the table does not know would
    // never match.
    let table = InstrTable::builtin();
    for (m, sources) in FORWARDING {
        assert!(
            table.lookup(m).is_some_and(|i| i.mnemonic == *m),
            "{m} is not in the table"
        );
        assert!(!sources.is_empty());
    }
}

#[test]
fn a_null_offset_reads_as_zero() {
    // gfx11+ listings print `null` for a scalar load without an SGPR offset (RADV's vertex
    // buffer descriptors: `s_load_b128 s[12:15], s[8:9], null`).
    let opts = ReadOptions {
        target: Some("gfx1100".parse().unwrap()),
        ..Default::default()
    };
    let text = "s_load_b128 s[12:15], s[8:9], null\ns_waitcnt lgkmcnt(0)\nbuffer_load_b32 v1, v0, s[12:15], 0 idxen\ns_endpgm\n";
    let p = read_program_text("t.s", text, &opts)
        .unwrap()
        .programs
        .remove(0);
    let cfg = Cfg::build(&p).unwrap();
    let r = memory_roots(&p, &cfg);
    assert_eq!(r[&2].0, Some(loaded(entry(8), 0)));
    assert_eq!(r[&0].1, Some(0));
}

#[test]
fn the_hints_template_says_what_was_found() {
    let p = program(VADD);
    let cfg = Cfg::build(&p).unwrap();
    let t =
        shadersim_trace::hints_template("t.s", &p, &cfg, shadersim_trace::ModelFigures::default());
    assert!(
        t.contains(
            "# buffer = \"b13\"              # found: loaded at line 1 from s8 at entry + 0x8"
        ),
        "{t}"
    );
    assert!(t.contains("# base = 0x10000000000"), "{t}");
    // Commented out: the template still parses to no memory facts.
    let h = Hints::parse(&t).unwrap();
    assert!(h
        .memory
        .iter()
        .all(|m| m.buffer.is_none() && m.base.is_none()));
}
