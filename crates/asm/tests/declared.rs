//! What files declare: workgroup sizes, LDS and register counts in every
//! form, calls into device functions of the same file, and debug lines.

use shadersim_asm::{read_program_bytes, read_program_text, ReadOptions};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> shadersim_asm::ProgramFile {
    let bytes = std::fs::read(root().join(path)).unwrap();
    read_program_bytes(path, &bytes, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn llvm_metadata_gives_the_required_workgroup_size_and_lds() {
    // matmul_tile.cl: reqd_work_group_size(TILE, TILE, 1), TILE = 16, and
    // two TILE x TILE float tiles in LDS (2 * 16 * 16 * 4 = 2048 bytes).
    let f = read("../../tests/fixtures/llvm/gfx900/matmul_tile.s");
    let d = &f.programs[0].declared;
    assert_eq!(d.workgroup_size, Some([16, 16, 1]));
    assert_eq!(d.lds_bytes, Some(2048));
    assert_eq!(d.wave_size, Some(64));
}

#[test]
fn radv_dumps_give_the_workgroup_size_and_shared_size() {
    // reduce.comp: local_size_x = 256 and `shared float partial[256]`;
    // the driver's statistics say "LDS size" = 1024.
    let f = read("../../tests/fixtures/radv/vega10/reduce.txt");
    let d = &f.programs[0].declared;
    assert_eq!(d.workgroup_size, Some([256, 1, 1]));
    assert_eq!(d.lds_bytes, Some(1024));
}

/// clang 20+ writes the register counts of kernels with calls as
/// expressions (the shape of its output; written for this test).
const EXPRESSIONS: &str = r#"	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.globl	k
	.type	k,@function
k:
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, f@rel32@lo+4
	s_addc_u32 s5, s5, f@rel32@hi+12
	s_swappc_b64 s[30:31], s[4:5]
	s_endpgm
.Lfunc_end0:
	.set k.num_vgpr, max(3, f.num_vgpr)
	.set k.num_agpr, max(0, f.num_agpr)
	.set k.numbered_sgpr, max(33, f.numbered_sgpr)
	.set k.uses_vcc, or(1, f.uses_vcc)
	.set k.uses_flat_scratch, or(0, f.uses_flat_scratch)
; NumVgprs: k.num_vgpr
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr max(totalnumvgprs(k.num_agpr, k.num_vgpr), 1, 0)
		.amdhsa_next_free_sgpr (max(k.numbered_sgpr+(extrasgprs(k.uses_vcc, k.uses_flat_scratch, 0)), 1, 0))-(extrasgprs(k.uses_vcc, k.uses_flat_scratch, 0))
		.amdhsa_wavefront_size32 1
	.end_amdhsa_kernel
	.text
	.type	f,@function
f:
	v_mov_b32 v40, 0
	s_setpc_b64 s[30:31]
.Lfunc_end1:
	.set f.num_vgpr, 41
	.set f.num_agpr, 0
	.set f.numbered_sgpr, 36
	.set f.uses_vcc, 0
	.set f.uses_flat_scratch, 0
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:           []
    .group_segment_fixed_size: 4096
    .name:           k
    .reqd_workgroup_size:
      - 128
      - 1
      - 1
    .vgpr_count:     41
    .wavefront_size: 32
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
"#;

#[test]
fn register_count_expressions_are_evaluated() {
    let f = read_program_text("k.s", EXPRESSIONS, &ReadOptions::default()).unwrap();
    let k = f.program(None).unwrap();
    assert_eq!(k.name, "k");
    // max(totalnumvgprs(0, max(3, 41)), 1, 0) = 41
    assert_eq!(k.declared.vgprs, Some(41));
    // max(max(33, 36) + 2, 1, 0) - 2 = 36 (VCC's 2 added and removed)
    assert_eq!(k.declared.sgprs, Some(36));
    assert_eq!(k.declared.workgroup_size, Some([128, 1, 1]));
    assert_eq!(k.declared.lds_bytes, Some(4096));
    assert_eq!(k.declared.wave_size, Some(32));
    // The call is followed: k's 5 instructions and f's 2.
    assert_eq!(k.instructions.len(), 7);
    assert!(f
        .programs
        .iter()
        .any(|p| p.name == "f" && p.device_function));
    assert!(f.warnings.is_empty(), "{:?}", f.formatted_warnings());
    // An expression over an unknown symbol is a warning, not a guess.
    let broken = EXPRESSIONS.replace("\t.set f.num_vgpr, 41\n", "");
    let f = read_program_text("k.s", &broken, &ReadOptions::default()).unwrap();
    assert_eq!(f.program(None).unwrap().declared.vgprs, Some(41)); // metadata .vgpr_count
    assert!(f.formatted_warnings()[0].contains("cannot evaluate `.amdhsa_next_free_vgpr"));
}

#[test]
fn calls_are_followed_into_device_functions_of_the_file() {
    let f = read("tests/data/calls_gfx900.s");
    let helper = f.program(Some("helper")).unwrap();
    assert!(helper.device_function);
    // Without --function the kernel is chosen, not the device function
    // printed first.
    let caller = f.program(None).unwrap();
    assert_eq!(caller.name, "caller");
    assert!(!caller.device_function);
    assert_eq!(caller.declared.workgroup_size, Some([64, 1, 1]));
    let in_helper = |line: u32| line >= helper.line && line < caller.line;
    let copied = caller
        .instructions
        .iter()
        .filter(|i| in_helper(i.pos.line))
        .count();
    // Two calls to helper: two copies of every helper instruction.
    assert_eq!(copied, 2 * helper.instructions.len());
    // get_global_id is not defined in the file: a warning names it.
    let w = f.formatted_warnings();
    assert!(
        w.iter()
            .any(|w| w
                .contains("call to `_Z13get_global_idj`, which is not a function of this file")),
        "{w:?}"
    );
    // Each helper return jumps back after its call.
    let returns: Vec<usize> = caller
        .instructions
        .iter()
        .enumerate()
        .filter(|(_, i)| i.inst.mnemonic == "s_setpc_b64")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(returns.len(), 2);
    for r in returns {
        assert_eq!(caller.branch_targets[r], Some(r + 1));
        assert!(!in_helper(caller.instructions[r + 1].pos.line));
    }
}

#[test]
fn debug_lines_map_instructions_to_source_lines() {
    let f = read("tests/data/calls_gfx900.s");
    assert_eq!(f.source_file(0), Some("./calls.cl"));
    let helper = f.program(Some("helper")).unwrap();
    let groups = helper.by_source_line();
    // The loop of calls.cl line 7 (`for (...) s += p[k] * p[k + 1];`)
    // holds most of helper's code.
    let lines: Vec<u32> = groups.iter().map(|((_, l), _)| *l).collect();
    assert!(lines.contains(&7), "{lines:?}");
    let (_, loop_instrs) = groups.iter().find(|((_, l), _)| *l == 7).unwrap();
    assert!(helper.instructions[loop_instrs[0]].source.unwrap().file == 0);
    // Every instruction after the first `.loc` has a line (line 0 = none).
    let with = helper
        .instructions
        .iter()
        .filter(|i| i.source.is_some())
        .count();
    assert!(with * 2 > helper.instructions.len());
}

/// Issue 35 item 3: RADV's flat varyings read one vertex's value with
/// `v_interp_mov_f32 vN, p0, attrM.c` (VINTRP's interpolation parameter
/// P0; P10 and P20 name the other vertices). `data/flat_color.txt` is
/// `shadersim compile crates/asm/tests/data/flat_color.frag --arch vega10
/// -o crates/asm/tests/data/flat_color.txt` (Mesa 22.3 RADV, null device):
/// the flat vec4 is 4 `v_interp_mov_f32`, the smooth vec2's x one p1/p2
/// pair. The parameter is accepted there and nowhere else.
#[test]
fn interpolation_parameters_are_operands_of_vintrp_only() {
    let f = read("tests/data/flat_color.txt");
    let p = &f.programs[0];
    let movs = p
        .instructions
        .iter()
        .filter(|i| i.inst.mnemonic.starts_with("v_interp_mov_f32"))
        .count();
    assert_eq!(movs, 4);
    let opts = ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..ReadOptions::default()
    };
    for param in ["p0", "p10", "p20"] {
        let text = format!("v_interp_mov_f32 v2, {param}, attr2.x\ns_endpgm\n");
        read_program_text("t.s", &text, &opts).unwrap_or_else(|e| panic!("{param}: {e}"));
    }
    let e = read_program_text("t.s", "v_add_f32 v2, p0, v1\ns_endpgm\n", &opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("t.s:1:15") && e.contains("unknown operand `p0`"),
        "{e}"
    );
    let e = read_program_text("t.s", "v_interp_mov_f32 v2, q0, attr2.x\ns_endpgm\n", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown operand `q0`"), "{e}");
}

#[test]
fn an_export_source_aco_left_undefined_reads_no_register() {
    // Issue 35: ACO prints `exp mrt0 v0, v128, off, off done` (f8000803
    // 80808000: en = 0x3, vsrc1 = 0x80, ACO's undefined operand) in gfx11
    // fragment shaders whose driver allocated 36 VGPRs; v128 made the
    // computed count 129 (v0..v128). Nothing writes v128, so it reads no
    // register: the count is 1 (v0 only), and the export still sends its
    // two enabled channels (2 x 32 bits).
    let opts = shadersim_asm::ReadOptions {
        target: Some("gfx1100".parse().unwrap()),
        ..Default::default()
    };
    let text = "\tv_mov_b32_e32 v0, 0 ; 7e000280\n\texp mrt0 v0, v128, off, off done ; f8000803 80808000\n\ts_endpgm ; bfb00000\n";
    let f = shadersim_asm::read_program_text("ps.s", text, &opts).unwrap();
    let p = &f.programs[0];
    assert_eq!(p.register_usage().computed_vgprs, 1);
    assert_eq!(p.instructions[1].inst.export_bits(), Some(64));
    assert!(p.instructions[1]
        .inst
        .reads()
        .iter()
        .all(|r| r.file != shadersim_isa::RegFile::Vgpr || r.first == 0));
    // A v128 the program writes is a real register and counts: v0..v128.
    let written = "\tv_mov_b32_e32 v128, 0 ; 7f000280\n\texp mrt0 v0, v128, off, off done ; f8000803 80808000\n\ts_endpgm ; bfb00000\n";
    let f = shadersim_asm::read_program_text("ps.s", written, &opts).unwrap();
    assert_eq!(f.programs[0].register_usage().computed_vgprs, 129);
}
