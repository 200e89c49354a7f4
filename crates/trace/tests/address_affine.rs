//! Address patterns read from the code (issue 33 item 3): on the fixture kernels whose
//! addresses are `get_global_id(0)`-indexed, the derived lane pattern, wave stride and
//! iteration stride equal what a person would write in a `[[memory]]` hint.
//!
//! How a person derives them: a kernel reading `a[gid]` with `gid = group x size + local id x`
//! has `address = a + e x local id x + e x size x group id` for elements of `e` bytes; lane
//! `i` of a wave is work-item `i` of its run of consecutive ids, so the lanes are `e` bytes
//! apart (`linear` for an element the op's own width), and consecutive waves `e` x wave size
//! bytes apart. A pointer the loop moves by `c` bytes per iteration has iteration stride `c`;
//! one the loop does not move has 0 (every iteration reuses it).

use shadersim_asm::{read_program_bytes, Program, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_trace::{derive_address_patterns, DerivedAddress};

/// The named function of a fixture (the file's first kernel when `None`).
fn fixture(rel: &str, function: Option<&str>) -> Program {
    let path = format!("{}/../../tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    let file = read_program_bytes(rel, &bytes, &ReadOptions::default()).unwrap();
    file.program(function).unwrap().clone()
}

/// The derived facts of the op at `line`: pattern (or why none), wave stride, iteration
/// stride (`None`: the op is in no loop).
#[allow(clippy::type_complexity)]
fn at(
    d: &[DerivedAddress],
    line: u32,
) -> (
    Result<String, String>,
    Result<u64, String>,
    Option<Result<u64, String>>,
) {
    let a = d
        .iter()
        .find(|a| a.line == line)
        .unwrap_or_else(|| panic!("no vector memory op at line {line}: {d:#?}"));
    (
        a.pattern
            .as_ref()
            .map(|p| p.to_string())
            .map_err(Clone::clone),
        a.wave_stride.clone(),
        a.iteration_stride.clone(),
    )
}

fn derived(rel: &str, function: Option<&str>) -> Vec<DerivedAddress> {
    let p = fixture(rel, function);
    let cfg = Cfg::build(&p).unwrap();
    // The wave size the file declares (gfx900: 64; clang's gfx1100 default: 32).
    let wave = p.wave_size().map_or(64, |w| w.0);
    // One-dimensional workgroups of 64 work-items, the engine's default.
    derive_address_patterns(&p, &cfg, wave, [64, 1, 1])
}

#[test]
fn if_else_reads_and_writes_one_float_per_work_item() {
    // `x = a[gid]`, `s = sel[gid]`, `out[gid] = r`: 4-byte elements at 4 x gid, on gfx900
    // wave64: lanes 4 B apart (linear for a dword), waves 4 x 64 = 256 B apart; no loop.
    let d = derived("llvm/gfx900/if_else.s", None);
    for line in [24, 27, 102] {
        assert_eq!(
            at(&d, line),
            (Ok("linear".into()), Ok(256), None),
            "line {line}"
        );
    }
    assert_eq!(d.len(), 3);
    // The same kernel for gfx1100 (wave32): waves 4 x 32 = 128 B apart.
    let d = derived("llvm/gfx1100/if_else.s", None);
    for line in [29, 30, 105] {
        assert_eq!(
            at(&d, line),
            (Ok("linear".into()), Ok(128), None),
            "line {line}"
        );
    }
}

#[test]
fn doubles_and_float4s_are_linear_in_their_own_width() {
    // f64_math: `double` elements, 8 x gid: linear for a dwordx2, waves 8 x 64 = 512 B.
    let d = derived("llvm/gfx900/f64_math.s", None);
    assert_eq!(at(&d, 23), (Ok("linear".into()), Ok(512), None));
    assert_eq!(at(&d, 101), (Ok("linear".into()), Ok(512), None));
    // transcendentals: `float4` elements, 16 x gid: linear for a dwordx4, waves 16 x 64 = 1024 B.
    let d = derived("llvm/gfx900/transcendentals.s", None);
    assert_eq!(at(&d, 24), (Ok("linear".into()), Ok(1024), None));
    assert_eq!(at(&d, 123), (Ok("linear".into()), Ok(1024), None));
    // int_mul: `a[gid]`, `b[gid]`, `out32[gid]` are uints (4 B), `out64[gid]` ulongs (8 B).
    let d = derived("llvm/gfx900/int_mul.s", None);
    for line in [23, 26, 57] {
        assert_eq!(
            at(&d, line),
            (Ok("linear".into()), Ok(256), None),
            "line {line}"
        );
    }
    assert_eq!(at(&d, 62), (Ok("linear".into()), Ok(512), None));
}

#[test]
fn a_loop_stride_from_a_kernel_argument_is_not_guessed() {
    // loop_sum: `acc += in[gid + i * stride]`: lanes 4 B apart, waves 256 B, but the loop
    // moves the pointer by 4 x `stride`, a kernel argument: no number, the default stays.
    let d = derived("llvm/gfx900/loop_sum.s", None);
    let (p, w, i) = at(&d, 32);
    assert_eq!((p, w), (Ok("linear".into()), Ok(256)));
    assert!(
        i.as_ref()
            .is_some_and(|i| i.as_ref().is_err_and(|e| e.contains("unknown uniform"))),
        "{i:?}"
    );
    assert_eq!(at(&d, 44), (Ok("linear".into()), Ok(256), None));
    // loop_break_continue: `keys[gid * n + i]`: lanes 4 x n bytes apart, n a kernel argument:
    // no lane pattern; the loop moves the address by 4 B.
    let d = derived("llvm/gfx900/loop_break_continue.s", None);
    let (p, _, i) = at(&d, 41);
    assert!(p.is_err_and(|e| e.contains("lane stride is an unknown uniform value")));
    assert_eq!(i, Some(Ok(4)));
}

#[test]
fn the_1d_convolution_moves_4_bytes_per_tap() {
    // conv1d, gfx900 wave64: `in[gid + t]` is `in + 4 x gid + 4 x t`: lanes 4 B apart
    // (linear), waves 256 B apart, and each iteration 4 B further: iteration stride 4 B.
    // `w[t]` is a scalar load here (restrict, uniform): no vector op. `out[gid]` after the
    // loop: linear, 256 B.
    let d = derived("llvm/gfx900/conv1d.s", Some("conv1d"));
    assert_eq!(at(&d, 29), (Ok("linear".into()), Ok(256), Some(Ok(4))));
    assert_eq!(at(&d, 44), (Ok("linear".into()), Ok(256), None));
    assert_eq!(d.len(), 2);
    // gfx1100 (wave32): the same, waves 4 x 32 = 128 B apart.
    let d = derived("llvm/gfx1100/conv1d.s", Some("conv1d"));
    assert_eq!(at(&d, 30), (Ok("linear".into()), Ok(128), Some(Ok(4))));
    assert_eq!(at(&d, 46), (Ok("linear".into()), Ok(128), None));
}

#[test]
fn the_aliasing_convolution_reads_one_tap_for_every_lane() {
    // conv1d_alias: `w[t]` may alias `out`, so it is a vector load at `w + 4 x t` for every
    // lane: uniform, wave stride 0 (every wave the same tap), iteration stride 4 B. `out[gid]`
    // is stored every iteration at the same place: iteration stride 0 (reuse).
    let d = derived("llvm/gfx900/conv1d.s", Some("conv1d_alias"));
    assert_eq!(at(&d, 211), (Ok("linear".into()), Ok(256), None));
    assert_eq!(at(&d, 221), (Ok("linear".into()), Ok(256), Some(Ok(4))));
    assert_eq!(at(&d, 222), (Ok("uniform".into()), Ok(0), Some(Ok(4))));
    assert_eq!(at(&d, 231), (Ok("linear".into()), Ok(256), Some(Ok(0))));
    let d = derived("llvm/gfx1100/conv1d.s", Some("conv1d_alias"));
    assert_eq!(at(&d, 229), (Ok("linear".into()), Ok(128), Some(Ok(4))));
    assert_eq!(at(&d, 230), (Ok("uniform".into()), Ok(0), Some(Ok(4))));
    assert_eq!(at(&d, 240), (Ok("linear".into()), Ok(128), Some(Ok(0))));
}

#[test]
fn a_gather_is_data_dependent() {
    // gather: `idx[gid]` linear; `data[idx[gid]]`'s address is the loaded index: data-dependent,
    // the default stays and the reason names the load.
    for (rel, idx_line, data_line, mnemonic) in [
        ("llvm/gfx900/gather.s", 23, 30, "global_load_dword"),
        ("llvm/gfx1100/gather.s", 24, 34, "global_load_b32"),
    ] {
        let d = derived(rel, None);
        assert_eq!(at(&d, idx_line).0, Ok("linear".into()));
        let (p, w, _) = at(&d, data_line);
        let why =
            format!("data-dependent: the address comes from the `{mnemonic}` at line {idx_line}");
        assert_eq!(p, Err(why.clone()));
        assert_eq!(w, Err(why));
    }
}

#[test]
fn a_device_functions_vgprs_are_arguments() {
    // `__clang_ocl_kern_imp_conv1d` takes its pointers in VGPRs: no work-item id there.
    let d = derived("llvm/gfx900/conv1d.s", Some("__clang_ocl_kern_imp_conv1d"));
    assert!(d.iter().all(|a| a.pattern.is_err()), "{d:#?}");
}

#[test]
fn the_workgroup_id_sgprs_follow_the_user_sgprs() {
    // gfx900 conv1d: `.amdhsa_user_sgpr_count 6`, only workgroup id x enabled: s6 (the
    // `v_mov_b32 v2, s6` feeding `v_mad_u64_u32`). gfx1100: 15 user SGPRs (clang-22 preloads
    // kernel arguments): s15 (`v_mad_u64_u32 v[2:3], null, s2, s15, v[0:1]`).
    let p = fixture("llvm/gfx900/conv1d.s", Some("conv1d"));
    assert_eq!(p.declared.workgroup_id_sgprs(), [Some(6), None, None]);
    let p = fixture("llvm/gfx1100/conv1d.s", Some("conv1d"));
    assert_eq!(p.declared.workgroup_id_sgprs(), [Some(15), None, None]);
    // The reason names it: `gid = group id x size + local id`, size the dispatch packet's
    // 16-bit workgroup size (`s_and_b32 s0, s0, 0xffff` at line 16).
    let d = derived("llvm/gfx900/conv1d.s", Some("conv1d"));
    let load = d.iter().find(|a| a.line == 29).unwrap();
    assert_eq!(
        load.pattern_reason,
        "linear: address = base + 4 x work-item id (x) + 4 x workgroup id (x) x `s_and_b32` at \
         line 16 + 4 x iteration of the loop at line 29"
    );
    assert!(load
        .wave_stride_reason
        .contains("the workgroup id's factor taken to be the workgroup's size"));
    assert_eq!(
        load.iteration_stride_reason,
        "iteration stride 4 B: the loop adds 4 to the address each iteration"
    );
}

#[test]
fn a_scaled_index_sign_extended_by_a_64_bit_shift_is_followed() {
    // gfx12's `found[gid] = result` builds the byte offset as
    // `v_mov_b32 v2, 0; v_ashrrev_i64 v[2:3], 30, v[2:3]`: the pair is
    // (gid : 0), shifted right by 30, whose low DWORD is gid << 2 = 4 x gid.
    // So both stores are linear 4-byte accesses, waves 4 x 32 = 128 B apart.
    let d = derived("llvm/gfx1200/loop_break_continue.s", None);
    for line in [82, 83] {
        let (pattern, wave, iteration) = at(&d, line);
        assert_eq!(pattern.as_deref(), Ok("linear"), "line {line}");
        assert_eq!(wave, Ok(128), "line {line}");
        assert_eq!(iteration, None, "line {line}");
    }
}

#[test]
fn gfx940s_64_bit_shift_add_is_followed() {
    // gfx940 indexes a buffer with one `v_lshl_add_u64 vD, index, 2, base`:
    // (v0 << 2) + s[0:1] = base + 4 x work-item id (x) (the low DWORD of
    // the 64-bit index is the id), so a dword load is linear and waves are
    // 4 x 64 = 256 B apart (wave64). clang-22 writes this for gfx942 kernels.
    let p = shadersim_testkit::program_for(
        "gfx942",
        "v_mov_b32_e32 v1, 0\n\
         v_lshl_add_u64 v[2:3], v[0:1], 2, s[0:1]\n\
         global_load_dword v4, v[2:3], off\n\
         s_waitcnt vmcnt(0)\n\
         s_endpgm\n",
    );
    let cfg = Cfg::build(&p).unwrap();
    let d = derive_address_patterns(&p, &cfg, 64, [64, 1, 1]);
    let (pattern, wave, iteration) = at(&d, 3);
    assert_eq!(pattern.as_deref(), Ok("linear"));
    assert_eq!(wave, Ok(256));
    assert_eq!(iteration, None);
}

#[test]
fn gfx90as_packed_move_copies_each_dword_by_its_op_sel() {
    // `v_pk_mov_b32 vD[0:1], a, b op_sel:[x,y]` writes DWORD 0 from a's DWORD x and DWORD 1
    // from b's DWORD y; clang-22 copies a 64-bit pointer with `op_sel:[0,1]` and a = b on
    // gfx90a (AMD's yAx exercise 5). Here v[2:3] = s[0:1] + 8 x id: the copy v[4:5] is that
    // address, so a dwordx2 load is linear in 8-byte elements and waves are 8 x 64 = 512 B
    // apart. The same move with op_sel:[1,1] takes DWORD 0 from v3 (the address's high
    // DWORD, from the 64-bit shift's high half): not an address this reader follows.
    let load = |op_sel: &str| {
        let p = shadersim_testkit::program_for(
            "gfx90a",
            &format!(
                "v_mov_b32_e32 v1, 0\n\
                 v_lshlrev_b64 v[2:3], 3, v[0:1]\n\
                 v_mov_b32_e32 v6, s1\n\
                 v_add_co_u32_e32 v2, vcc, s0, v2\n\
                 v_addc_co_u32_e32 v3, vcc, v6, v3, vcc\n\
                 v_pk_mov_b32 v[4:5], v[2:3], v[2:3] {op_sel}\n\
                 global_load_dwordx2 v[8:9], v[4:5], off\n\
                 s_waitcnt vmcnt(0)\n\
                 s_endpgm\n"
            ),
        );
        let cfg = Cfg::build(&p).unwrap();
        let d = derive_address_patterns(&p, &cfg, 64, [64, 1, 1]);
        at(&d, 7)
    };
    let (pattern, wave, _) = load("op_sel:[0,1]");
    assert_eq!(pattern.as_deref(), Ok("linear"));
    assert_eq!(wave, Ok(512));
    let (pattern, _, _) = load("op_sel:[1,1]");
    assert!(pattern.is_err(), "{pattern:?}");
}
