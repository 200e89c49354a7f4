//! Scalar offset fields that hold more than an SGPR (issue 48 item 3): MUBUF/MTBUF's 8-bit
//! SOFFSET (gfx9, gfx10, gfx11) is a scalar source, so it holds inline constants and special
//! values; Triton's buffer ops put the constant 0 (0x80) there throughout. SMEM's and gfx12's
//! 7-bit SOFFSET name registers only, and gfx9's SMEM adds one when SOE is set. Each case is
//! an encoding made with `llvm-mc-22 -show-encoding` (one field varied) and the text
//! `llvm-mc-22 --disassemble` (llvm-objdump-22's disassembler) printed for it.

use shadersim_codeobj::decode::decode;

/// `(processor, dwords, LLVM's text)`. Left out on purpose: gfx9's code 125 (LLVM 22 prints
/// `null`, which its own assembler refuses on gfx9: the decoder keeps `src_125` and the
/// reader refuses it), 254 (`src_lds_direct`, which LLVM marks invalid in SOFFSET) and 255
/// (no literal follows a MUBUF).
const CASES: &[(&str, [u32; 2], &str)] = &[
    (
        "gfx90a",
        [0xe0501000, 0x05050107],
        "buffer_load_dword v1, v7, s[20:23], s5 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0x7c050107],
        "buffer_load_dword v1, v7, s[20:23], m0 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0x80050107],
        "buffer_load_dword v1, v7, s[20:23], 0 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0xc1050107],
        "buffer_load_dword v1, v7, s[20:23], -1 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0xd0050107],
        "buffer_load_dword v1, v7, s[20:23], -16 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0xeb050107],
        "buffer_load_dword v1, v7, s[20:23], src_shared_base offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0xf2050107],
        "buffer_load_dword v1, v7, s[20:23], 1.0 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0xf8050107],
        "buffer_load_dword v1, v7, s[20:23], 0.15915494 offen",
    ),
    (
        "gfx90a",
        [0xe0501000, 0xfd050107],
        "buffer_load_dword v1, v7, s[20:23], src_scc offen",
    ),
    (
        "gfx90a",
        [0xc0024041, 0x0a000010],
        "s_load_dword s1, s[2:3], s5 offset:0x10",
    ),
    (
        "gfx90a",
        [0xc0024041, 0xf8000010],
        "s_load_dword s1, s[2:3], m0 offset:0x10",
    ),
    (
        "gfx942",
        [0xe0501000, 0x05050107],
        "buffer_load_dword v1, v7, s[20:23], s5 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0x7c050107],
        "buffer_load_dword v1, v7, s[20:23], m0 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0x80050107],
        "buffer_load_dword v1, v7, s[20:23], 0 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0xc1050107],
        "buffer_load_dword v1, v7, s[20:23], -1 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0xd0050107],
        "buffer_load_dword v1, v7, s[20:23], -16 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0xeb050107],
        "buffer_load_dword v1, v7, s[20:23], src_shared_base offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0xf2050107],
        "buffer_load_dword v1, v7, s[20:23], 1.0 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0xf8050107],
        "buffer_load_dword v1, v7, s[20:23], 0.15915494 offen",
    ),
    (
        "gfx942",
        [0xe0501000, 0xfd050107],
        "buffer_load_dword v1, v7, s[20:23], src_scc offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0x05050107],
        "tbuffer_load_format_x v1, v7, s[20:23], s5 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0x7c050107],
        "tbuffer_load_format_x v1, v7, s[20:23], m0 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0x80050107],
        "tbuffer_load_format_x v1, v7, s[20:23], 0 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0xc1050107],
        "tbuffer_load_format_x v1, v7, s[20:23], -1 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0xd0050107],
        "tbuffer_load_format_x v1, v7, s[20:23], -16 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0xeb050107],
        "tbuffer_load_format_x v1, v7, s[20:23], src_shared_base offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0xf2050107],
        "tbuffer_load_format_x v1, v7, s[20:23], 1.0 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0xf8050107],
        "tbuffer_load_format_x v1, v7, s[20:23], 0.15915494 offen",
    ),
    (
        "gfx942",
        [0xe8081000, 0xfd050107],
        "tbuffer_load_format_x v1, v7, s[20:23], src_scc offen",
    ),
    (
        "gfx942",
        [0xc0024041, 0x0a000010],
        "s_load_dword s1, s[2:3], s5 offset:0x10",
    ),
    (
        "gfx942",
        [0xc0024041, 0xf8000010],
        "s_load_dword s1, s[2:3], m0 offset:0x10",
    ),
    (
        "gfx1030",
        [0xe0301000, 0x05050107],
        "buffer_load_dword v1, v7, s[20:23], s5 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0x7c050107],
        "buffer_load_dword v1, v7, s[20:23], m0 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0x7d050107],
        "buffer_load_dword v1, v7, s[20:23], null offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0x80050107],
        "buffer_load_dword v1, v7, s[20:23], 0 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0xc1050107],
        "buffer_load_dword v1, v7, s[20:23], -1 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0xd0050107],
        "buffer_load_dword v1, v7, s[20:23], -16 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0xeb050107],
        "buffer_load_dword v1, v7, s[20:23], src_shared_base offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0xf2050107],
        "buffer_load_dword v1, v7, s[20:23], 1.0 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0xf8050107],
        "buffer_load_dword v1, v7, s[20:23], 0.15915494 offen",
    ),
    (
        "gfx1030",
        [0xe0301000, 0xfd050107],
        "buffer_load_dword v1, v7, s[20:23], src_scc offen",
    ),
    (
        "gfx1030",
        [0xf4000041, 0x0a000010],
        "s_load_dword s1, s[2:3], s5 offset:0x10",
    ),
    (
        "gfx1030",
        [0xf4000041, 0xf8000010],
        "s_load_dword s1, s[2:3], m0 offset:0x10",
    ),
    (
        "gfx1030",
        [0xf4000041, 0xfa000010],
        "s_load_dword s1, s[2:3], 0x10",
    ),
    (
        "gfx1100",
        [0xe0500000, 0x05450107],
        "buffer_load_b32 v1, v7, s[20:23], s5 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0x7c450107],
        "buffer_load_b32 v1, v7, s[20:23], null offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0x7d450107],
        "buffer_load_b32 v1, v7, s[20:23], m0 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0x80450107],
        "buffer_load_b32 v1, v7, s[20:23], 0 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0xc1450107],
        "buffer_load_b32 v1, v7, s[20:23], -1 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0xd0450107],
        "buffer_load_b32 v1, v7, s[20:23], -16 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0xeb450107],
        "buffer_load_b32 v1, v7, s[20:23], src_shared_base offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0xf2450107],
        "buffer_load_b32 v1, v7, s[20:23], 1.0 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0xf8450107],
        "buffer_load_b32 v1, v7, s[20:23], 0.15915494 offen",
    ),
    (
        "gfx1100",
        [0xe0500000, 0xfd450107],
        "buffer_load_b32 v1, v7, s[20:23], src_scc offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0x05450107],
        "tbuffer_load_format_x v1, v7, s[20:23], s5 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0x7c450107],
        "tbuffer_load_format_x v1, v7, s[20:23], null offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0x7d450107],
        "tbuffer_load_format_x v1, v7, s[20:23], m0 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0x80450107],
        "tbuffer_load_format_x v1, v7, s[20:23], 0 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0xc1450107],
        "tbuffer_load_format_x v1, v7, s[20:23], -1 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0xd0450107],
        "tbuffer_load_format_x v1, v7, s[20:23], -16 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0xeb450107],
        "tbuffer_load_format_x v1, v7, s[20:23], src_shared_base offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0xf2450107],
        "tbuffer_load_format_x v1, v7, s[20:23], 1.0 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0xf8450107],
        "tbuffer_load_format_x v1, v7, s[20:23], 0.15915494 offen",
    ),
    (
        "gfx1100",
        [0xe8080000, 0xfd450107],
        "tbuffer_load_format_x v1, v7, s[20:23], src_scc offen",
    ),
    (
        "gfx1100",
        [0xf4000041, 0x0a000010],
        "s_load_b32 s1, s[2:3], s5 offset:0x10",
    ),
    (
        "gfx1100",
        [0xf4000041, 0xf8000010],
        "s_load_b32 s1, s[2:3], 0x10",
    ),
    (
        "gfx1100",
        [0xf4000041, 0xfa000010],
        "s_load_b32 s1, s[2:3], m0 offset:0x10",
    ),
    (
        "gfx1200",
        [0xf4000041, 0x0a000010],
        "s_load_b32 s1, s[2:3], s5 offset:0x10",
    ),
    (
        "gfx1200",
        [0xf4000041, 0xfa000010],
        "s_load_b32 s1, s[2:3], m0 offset:0x10",
    ),
    (
        "gfx1200",
        [0xf4000041, 0xf8000010],
        "s_load_b32 s1, s[2:3], 0x10",
    ),
];

/// gfx12's buffer ops are 96 bits; SOFFSET (bits 0-6) names an SGPR, M0 or null.
const CASES_GFX12: &[([u32; 3], &str)] = &[
    (
        [0xc4050005, 0x40802801, 0x00000007],
        "buffer_load_b32 v1, v7, s[20:23], s5 offen",
    ),
    (
        [0xc405007c, 0x40802801, 0x00000007],
        "buffer_load_b32 v1, v7, s[20:23], null offen",
    ),
    (
        [0xc405007d, 0x40802801, 0x00000007],
        "buffer_load_b32 v1, v7, s[20:23], m0 offen",
    ),
];

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn decoded(cpu: &str, words: &[u32]) -> String {
    let d = decode(cpu, &bytes(words), 0).unwrap_or_else(|e| panic!("{cpu} {words:x?}: {e:?}"));
    assert_eq!(d.len(), 1, "{cpu} {words:x?}: {d:?}");
    d[0].text.clone()
}

#[test]
fn every_scalar_offset_prints_as_llvm_objdump_does() {
    let mut bad = Vec::new();
    for (cpu, words, llvm) in CASES {
        let ours = decoded(cpu, words);
        if ours != *llvm {
            bad.push(format!("{cpu} {words:08x?}: `{ours}`, LLVM `{llvm}`"));
        }
    }
    for (words, llvm) in CASES_GFX12 {
        let ours = decoded("gfx1200", words);
        if ours != *llvm {
            bad.push(format!("gfx1200 {words:08x?}: `{ours}`, LLVM `{llvm}`"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn tritons_buffer_load_reads_with_soffset_zero() {
    // Triton's row softmax: `buffer_load_dword v1, v7, s[20:23], 0 offen` is E0501000
    // 80050107 on gfx942 (SOFFSET 0x80, the inline constant 0); llvm-mc-22 encodes the
    // gfx1100 form as E0500000 80450107. Before issue 48 it decoded as `s128`, which the
    // reader refused ("register `s128` is out of range").
    for (cpu, words, text) in [
        (
            "gfx942",
            [0xe050_1000, 0x8005_0107],
            "buffer_load_dword v1, v7, s[20:23], 0 offen",
        ),
        (
            "gfx1100",
            [0xe050_0000, 0x8045_0107],
            "buffer_load_b32 v1, v7, s[20:23], 0 offen",
        ),
    ] {
        assert_eq!(decoded(cpu, &words), text);
        // The listing line the decoder hands on reads: one VMEM load, no register past s23.
        let program = shadersim_testkit::program_for(cpu, &format!("k:\n\t{text}\n\ts_endpgm\n"));
        let load = &program.instructions[0].inst;
        assert_eq!(
            load.operands.last(),
            Some(&shadersim_isa::Operand::Imm(0)),
            "{cpu}: {load:?}"
        );
    }
}
