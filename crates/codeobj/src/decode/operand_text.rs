//! Operand lists that print in their own syntax: image ops' address lists, SDWA and DPP
//! selectors, message names, and register names.

use super::*;

/// An image instruction (MIMG on gfx9-gfx11, VIMAGE/VSAMPLE on gfx12) as LLVM prints it; the
/// extra NSA dwords (gfx10/gfx11: one byte per further address VGPR) are read with
/// `word_at(index)` and appended to `words`. Only the BVH ops are decoded: the address count
/// of the others depends on the dimension, A16 and the opcode's arguments, which the
/// generated table does not hold yet.
pub(super) fn image_text(
    family: &str,
    format: &Format,
    mut bits: u128,
    row: &Row,
    words: &mut Vec<u32>,
    word_at: impl Fn(usize) -> Option<u32>,
) -> Result<String, String> {
    let field = |bits: u128, name: &str| {
        format
            .field(name)
            .map_or(0, |f| ((bits >> f.lo) & ((1u128 << f.width) - 1)) as u64)
    };
    let mn = row.mnemonic.as_str();
    let Some((plain, a16_list)) = row.template.iter().find_map(|o| match o {
        Operand::Addresses { plain, a16 } => Some((plain, a16)),
        _ => None,
    }) else {
        return Err(format!(
            "{mn} ({}) is not decoded yet: only the BVH image ops are (an image op's address count depends on its dimension, A16 and arguments)",
            format.name
        ));
    };
    let a16 = field(bits, "a16") != 0;
    let widths = if a16 { a16_list } else { plain };
    if widths.is_empty() {
        return Err(format!("{mn} has no A16 form"));
    }
    // NSA dwords after the first two: gfx10 counts them in NSA [2:1]; gfx11's one NSA bit
    // means as many as the further addresses need (four bytes a dword).
    let nsa = field(bits, "nsa");
    let extra = match family {
        "gfx10" => nsa as usize,
        "gfx11" if nsa != 0 => (widths.len() - 1).div_ceil(4),
        _ => 0,
    };
    for _ in 0..extra {
        let i = words.len();
        let w = word_at(i).ok_or_else(|| format!("truncated NSA address list of {mn}"))?;
        bits |= u128::from(w) << (32 * i).min(96);
        words.push(w);
    }
    let byte = |k: usize| u64::from(words[2 + k / 4] >> (8 * (k % 4)) & 0xff);
    let listed = family == "gfx12" || nsa != 0;
    let addresses = if listed {
        let regs: Vec<String> = widths
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                let reg = match (family, i) {
                    (_, 0) => field(bits, "vaddr"),
                    ("gfx12", 4) => field(bits, "vaddr4"),
                    ("gfx12", _) => field(bits, &format!("vaddr{i}")),
                    _ => byte(i - 1),
                };
                vreg("v", reg, w)
            })
            .collect();
        format!("[{}]", regs.join(", "))
    } else {
        vreg("v", field(bits, "vaddr"), widths.iter().sum())
    };
    let vdata_width = row
        .template
        .iter()
        .find_map(|o| match o {
            Operand::Field { field, width, .. } if field == "vdata" => Some(*width),
            _ => None,
        })
        .unwrap_or(4);
    // gfx12's resource field is the SGPR number; earlier ones hold it divided by 4.
    let rsrc = match format.field("rsrc") {
        Some(_) => field(bits, "rsrc"),
        None => field(bits, "srsrc") * 4,
    };
    let mut text = format!(
        "{mn} {}, {addresses}, {}",
        vreg("v", field(bits, "vdata"), vdata_width),
        sreg(family, rsrc, 4)
    );
    if a16 {
        text.push_str(" a16");
    }
    Ok(text)
}

/// A matrix-core instruction (MFMA, SMFMAC) of CDNA.
pub(super) fn is_mai(mn: &str) -> bool {
    mn.starts_with("v_mfma") || mn.starts_with("v_smfmac")
}

/// A VOP1/VOP2 instruction in its SDWA form (Vega ISA 12.9 "SDWA": src0 [7:0], dst_sel [10:8],
/// dst_unused [12:11], clamp [13], omod [15:14] (gfx9), src0_sel [18:16], src0_sext [19],
/// src0_neg [20], src0_abs [21], s0 [23], src1_sel [26:24], src1_sext [27], src1_neg [28],
/// src1_abs [29], s1 [31]), as LLVM prints it.
pub(super) fn sdwa_text(family: &str, row: &Row, vdst: u64, vsrc1: u64, ext: u32) -> String {
    const SEL: [&str; 8] = [
        "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "?",
    ];
    const UNUSED: [&str; 4] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "?"];
    let e = u64::from(ext);
    let bit = |b: u32| e >> b & 1 != 0;
    let source = |reg: u64, sgpr: bool, neg: bool, abs: bool, sext: bool, width: u32| {
        let mut t = if sgpr {
            sreg(family, reg, width)
        } else {
            vreg("v", reg, width)
        };
        if sext {
            t = format!("sext({t})");
        }
        if abs {
            t = format!("|{t}|");
        }
        if neg {
            t = format!("-{t}");
        }
        t
    };
    let mn = row.mnemonic.strip_suffix("_e32").unwrap_or(&row.mnemonic);
    let mut ops = Vec::new();
    let mut has_src1 = false;
    for op in &row.template {
        match op {
            Operand::Fixed(f) => ops.push(f.clone()),
            Operand::Addresses { .. } => ops.push("?".into()),
            Operand::Field { field, width, .. } => ops.push(match field.as_str() {
                "vdst" => vreg("v", vdst, *width),
                "src0" => source(e & 0xff, bit(23), bit(20), bit(21), bit(19), *width),
                "vsrc1" => {
                    has_src1 = true;
                    source(vsrc1, bit(31), bit(28), bit(29), bit(27), *width)
                }
                _ => "?".into(),
            }),
        }
    }
    let mut text = format!("{mn}_sdwa {}", ops.join(", "));
    if bit(13) {
        text.push_str(" clamp");
    }
    if family == "gfx9" {
        match e >> 14 & 3 {
            1 => text.push_str(" mul:2"),
            2 => text.push_str(" mul:4"),
            3 => text.push_str(" div:2"),
            _ => {}
        }
    }
    text.push_str(&format!(
        " dst_sel:{} dst_unused:{} src0_sel:{}",
        SEL[(e >> 8 & 7) as usize],
        UNUSED[(e >> 11 & 3) as usize],
        SEL[(e >> 16 & 7) as usize]
    ));
    if has_src1 {
        text.push_str(&format!(" src1_sel:{}", SEL[(e >> 24 & 7) as usize]));
    }
    text
}

/// A VOP1/VOP2/VOPC instruction in its DPP form, as LLVM prints it. The first dword's source-0
/// code 250 is DPP16, whose second dword is src0 [7:0], DPP_CTRL [16:8], FI [18] (gfx10+),
/// BOUND_CTRL [19], src0_neg/abs [20]/[21], src1_neg/abs [22]/[23], BANK_MASK [27:24],
/// ROW_MASK [31:28] (Vega ISA chapter 12 and RDNA 2 ISA chapter 13, "DPP"); 233/234 (gfx10+)
/// is DPP8 with FI clear/set, whose second dword is src0 [7:0] and eight 3-bit lane selects
/// [31:8]. DPP_CTRL names are LLVM's (SIDefines.h `DppCtrl`). Neg/abs print on any source:
/// LLVM prints them only on operands that take float modifiers, the only ones compilers set.
pub(super) fn dpp_text(
    family: &str,
    cpu: &str,
    row: &Row,
    format: &Format,
    bits: u128,
    ext: u32,
) -> Result<String, String> {
    let field = |name: &str| {
        format
            .field(name)
            .map_or(0, |f| ((bits >> f.lo) & ((1u128 << f.width) - 1)) as u64)
    };
    let (src0, vdst, vsrc1) = (field("src0"), field("vdst"), field("vsrc1"));
    let row_is_vopc = format.name == "VOPC";
    let e = u64::from(ext);
    let bit = |b: u32| e >> b & 1 != 0;
    let dpp16 = src0 == 250;
    let mn = row.mnemonic.strip_suffix("_e32").unwrap_or(&row.mnemonic);
    let source = |reg: u64, neg: bool, abs: bool, kind: &str, width: u32| {
        // true16: bit 7 of the VGPR number picks the half, as in the 32-bit encodings.
        let mut t = if kind == "v16" {
            format!(
                "v{}.{}",
                reg & 0x7f,
                if reg >> 7 & 1 != 0 { 'h' } else { 'l' }
            )
        } else {
            vreg("v", reg, width)
        };
        if dpp16 && abs {
            t = format!("|{t}|");
        }
        if dpp16 && neg {
            t = format!("-{t}");
        }
        t
    };
    let mut ops = Vec::new();
    for op in &row.template {
        match op {
            Operand::Fixed(f) => ops.push(f.clone()),
            Operand::Addresses { .. } => ops.push("?".into()),
            Operand::Field {
                field, kind, width, ..
            } => ops.push(match field.as_str() {
                "vdst" => source(vdst, false, false, kind, *width),
                "src0" => source(e & 0xff, bit(20), bit(21), kind, *width),
                "vsrc1" => source(vsrc1, bit(22), bit(23), kind, *width),
                f => return Err(format!("{mn}: DPP form with a {f} operand is not decoded")),
            }),
        }
    }
    // LLVM prints gfx11+'s VOPC DPP forms without the `_dpp` suffix (it keeps it elsewhere).
    let vopc_gfx11 = matches!(family, "gfx11" | "gfx12") && row_is_vopc;
    let suffix = if vopc_gfx11 { "" } else { "_dpp" };
    let controls = dpp_controls(family, cpu, row, src0, ext).map_err(|m| format!("{mn}: {m}"))?;
    Ok(format!("{mn}{suffix} {}{controls}", ops.join(", ")))
}

/// The DPP controls LLVM prints after the operands: ` dpp8:[...]` (` fi:1`) for DPP8 (source 0
/// code 233/234), else the DPP_CTRL name, ` row_mask:` ` bank_mask:` and the set flags of the
/// DPP16 dword `ext` (layout at `dpp_text`).
pub(super) fn dpp_controls(
    family: &str,
    cpu: &str,
    row: &Row,
    src0: u64,
    ext: u32,
) -> Result<String, String> {
    let e = u64::from(ext);
    let bit = |b: u32| e >> b & 1 != 0;
    let mut text = String::new();
    if src0 != 250 {
        let sel: Vec<String> = (0..8).map(|i| (e >> (8 + 3 * i) & 7).to_string()).collect();
        text.push_str(&format!(" dpp8:[{}]", sel.join(",")));
        if src0 == 234 {
            text.push_str(" fi:1");
        }
        return Ok(text);
    }
    let ctrl = e >> 8 & 0x1ff;
    let gcn = family == "gfx9";
    // CDNA 2/3 (MI200 ISA "DPP"): 0x150-0x15f is ROW_NEWBCAST, the only control a 64-bit
    // (DP ALU) operand takes.
    let cdna = cpu == "gfx90a" || cpu == "gfx942";
    let wide = row
        .template
        .iter()
        .any(|o| matches!(o, Operand::Field { width, .. } if *width >= 2));
    if cdna && wide && !(0x150..=0x15f).contains(&ctrl) {
        return Err(format!(
            "a 64-bit DPP op with control 0x{ctrl:x} (only row_newbcast is valid)"
        ));
    }
    let name = match ctrl {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            ctrl & 3,
            ctrl >> 2 & 3,
            ctrl >> 4 & 3,
            ctrl >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", ctrl & 0xf),
        0x111..=0x11f => format!("row_shr:{}", ctrl & 0xf),
        0x121..=0x12f => format!("row_ror:{}", ctrl & 0xf),
        0x130 if gcn => "wave_shl:1".into(),
        0x134 if gcn => "wave_rol:1".into(),
        0x138 if gcn => "wave_shr:1".into(),
        0x13c if gcn => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 if gcn => "row_bcast:15".into(),
        0x143 if gcn => "row_bcast:31".into(),
        0x150..=0x15f if cdna => format!("row_newbcast:{}", ctrl & 0xf),
        0x150..=0x15f if !gcn => format!("row_share:{}", ctrl & 0xf),
        0x160..=0x16f if !gcn => format!("row_xmask:{}", ctrl & 0xf),
        _ => return Err(format!("DPP control 0x{ctrl:x} is not decoded")),
    };
    text.push_str(&format!(
        " {name} row_mask:0x{:x} bank_mask:0x{:x}",
        e >> 28 & 0xf,
        e >> 24 & 0xf
    ));
    if bit(19) {
        text.push_str(" bound_ctrl:1");
    }
    if !gcn && bit(18) {
        text.push_str(" fi:1");
    }
    Ok(text)
}

/// Message names of `s_sendmsg` (LLVM's SIDefines.h `ID_*`, the RDNA3 ISA's message table), per
/// family as llvm-mc-22 -disassemble names them (ids 1-15 of `s_sendmsg` on gfx900, gfx1030,
/// gfx1100 and gfx1200; the others print as numbers, and 3 on gfx9/gfx10 is MSG_GS_DONE with an
/// operation, not named here).
pub(super) fn msg_name(family: &str, id: u64) -> Option<&'static str> {
    let before_gfx11 = matches!(family, "gfx9" | "gfx10");
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 if !before_gfx11 => "MSG_HS_TESSFACTOR",
        3 if !before_gfx11 => "MSG_DEALLOC_VGPRS",
        5 if family != "gfx12" => "MSG_STALL_WAVE_GEN",
        6 if family != "gfx12" => "MSG_HALT_WAVES",
        7 if before_gfx11 => "MSG_ORDERED_PS_DONE",
        9 => "MSG_GS_ALLOC_REQ",
        10 if before_gfx11 => "MSG_GET_DOORBELL",
        128 => "MSG_RTN_GET_DOORBELL",
        129 => "MSG_RTN_GET_DDID",
        130 => "MSG_RTN_GET_TMA",
        131 => "MSG_RTN_GET_REALTIME",
        132 => "MSG_RTN_SAVE_WAVE",
        133 => "MSG_RTN_GET_TBA",
        _ => return None,
    })
}

/// `v7`, `v[2:3]` (or `a`).
pub(super) fn vreg(prefix: &str, n: u64, width: u32) -> String {
    if width <= 1 {
        format!("{prefix}{n}")
    } else {
        format!("{prefix}[{n}:{}]", n + u64::from(width) - 1)
    }
}

/// A scalar register operand by its encoding (SGPRs, VCC, EXEC, M0, TTMPs, null).
pub(super) fn sreg(family: &str, n: u64, width: u32) -> String {
    let pair = width >= 2;
    let named = |lo: &str, full: &str| {
        if pair {
            full.to_string()
        } else {
            lo.to_string()
        }
    };
    match n {
        0..=101 => vreg("s", n, width),
        102 | 103 if family == "gfx9" => match (n, pair) {
            (102, true) => "flat_scratch".into(),
            (102, false) => "flat_scratch_lo".into(),
            _ => "flat_scratch_hi".into(),
        },
        104 | 105 if family == "gfx9" => match (n, pair) {
            (104, true) => "xnack_mask".into(),
            (104, false) => "xnack_mask_lo".into(),
            _ => "xnack_mask_hi".into(),
        },
        102..=105 => vreg("s", n, width),
        106 => named("vcc_lo", "vcc"),
        107 => "vcc_hi".into(),
        108..=123 => vreg("ttmp", n - 108, width),
        // M0 and NULL swapped places in gfx11 (RDNA3 ISA 3.3.2); gfx9 has no NULL.
        124 if family == "gfx9" || family == "gfx10" => "m0".into(),
        124 => "null".into(),
        125 if family == "gfx9" => "src_125".into(),
        125 if family == "gfx10" => "null".into(),
        125 => "m0".into(),
        126 => named("exec_lo", "exec"),
        127 => "exec_hi".into(),
        _ => format!("s{n}"),
    }
}
