//! Listing-shaped inputs: the fuzzer's bytes pick lines from the shapes the
//! readers know (bare ACO listings and their repeats, RGA headers, objdump
//! variants, LLVM metadata, register-count expressions, calls), so that
//! mutation explores their combinations rather than random bytes. The
//! reader returns a file or an error, the CFG a graph or an error; the
//! driver statistics parser takes any text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shadersim_asm::{parse_driver_statistics, read_program_text, ReadOptions};

const LINES: &[&str] = &[
    "BB0:",
    "BB1:",
    "\ts_nop 0 ; bf800000",
    "\tv_mov_b32_e32 v1, 0 ; 7e020280",
    "\t(then repeated 3 times)",
    "\t(then repeated 65536 times)",
    "\ts_cbranch_scc1 BB1 ; bf850001",
    "\ts_endpgm ; bf810000",
    "disasm:",
    "workgroup-size: 256, 1, 1",
    "shared-size: 8192",
    "shader main",
    "  asic(GFX10.3)",
    "  type(CS)",
    "  vgpr_count(8)",
    "label_0004:",
    "  s_branch label_0004 // 000000000000: BF82FFFF",
    "end",
    "; SGPRs: 16 out of 104 used",
    "0000000000001900 <k>:",
    "<k>:",
    "000000000000196c <L0>:",
    "\ts_cbranch_scc0 L0 // 000000001994: BFA1FFF5",
    "\t\t0000000000000140:  R_AMDGPU_REL32_LO\thelper+0x4",
    "; ./x.cl:28",
    "\t.type\tk,@function",
    "\t.type\thelper,@function",
    "k:",
    "helper:",
    "\ts_getpc_b64 s[8:9]",
    "\ts_add_u32 s8, s8, helper@rel32@lo+4",
    "\ts_swappc_b64 s[30:31], s[8:9]",
    "\ts_setpc_b64 s[30:31]",
    "\t.file 0 \"/d\" \"x.cl\"",
    "\t.loc 0 3 5",
    "\t.set k.num_vgpr, max(3, helper.num_vgpr)",
    "\t.set helper.num_vgpr, k.num_vgpr + 1",
    "\t.amdhsa_kernel k",
    "\t.amdhsa_next_free_vgpr max(totalnumvgprs(0, k.num_vgpr), 1, 0)",
    "\t.end_amdhsa_kernel",
    "\t.amdgpu_metadata",
    "amdhsa.kernels:",
    "  - .name: k",
    "    .reqd_workgroup_size: [ 64, 1, 1 ]",
    "    .reqd_workgroup_size:",
    "      - 4294967295",
    "\t.end_amdgpu_metadata",
    "[[executable]]",
    "stages = \"compute\"",
    "\"VGPRs\" = 20  # x",
];

fuzz_target!(|data: &[u8]| {
    let text: String = data
        .iter()
        .map(|&b| LINES[usize::from(b) % LINES.len()])
        .collect::<Vec<_>>()
        .join("\n");
    if let Ok(file) = read_program_text("fuzz.s", &text, &ReadOptions::default()) {
        for p in &file.programs {
            let _ = shadersim_cfg::Cfg::build(p);
        }
    }
    let _ = parse_driver_statistics(&text);
});
