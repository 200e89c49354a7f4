//! The operands LLVM prints in a syntax of its own: `s_waitcnt`'s counters, `s_delay_alu`'s
//! dependencies, `s_wait_alu`/`s_waitcnt_depctr`'s fields and `s_sendmsg`'s messages.

use super::*;

impl Printer<'_> {
    /// Operands LLVM prints in a syntax of their own.
    pub(super) fn special(&self, mn: &str) -> String {
        let imm = self.get("simm16").unwrap_or(0);
        match mn {
            "s_waitcnt" => {
                // Counter layouts: Vega ISA 4.4 (vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt
                // [11:8]); RDNA 2 ISA 4.4 (the same with a 6-bit lgkmcnt [13:8]); RDNA3 ISA
                // 5.4 (vmcnt [15:10], expcnt [2:0], lgkmcnt [9:4]).
                let vm_gcn = (imm & 0xf) | (imm >> 14 & 3) << 4;
                let (vm, vm_max, exp, lgkm, lgkm_max) = if self.family == "gfx9" {
                    (vm_gcn, 63, imm >> 4 & 7, imm >> 8 & 0xf, 15)
                } else if self.family == "gfx10" {
                    (vm_gcn, 63, imm >> 4 & 7, imm >> 8 & 0x3f, 63)
                } else {
                    (imm >> 10 & 0x3f, 63, imm & 7, imm >> 4 & 0x3f, 63)
                };
                let all_default = vm == vm_max && exp == 7 && lgkm == lgkm_max;
                let mut parts = Vec::new();
                if vm != vm_max || all_default {
                    parts.push(format!("vmcnt({vm})"));
                }
                if exp != 7 || all_default {
                    parts.push(format!("expcnt({exp})"));
                }
                if lgkm != lgkm_max || all_default {
                    parts.push(format!("lgkmcnt({lgkm})"));
                }
                format!("{mn} {}", parts.join(" "))
            }
            "s_delay_alu" => {
                // RDNA3 ISA 5.7 (s_delay_alu): instid0 [3:0], instskip [6:4], instid1 [10:7].
                const ID: [&str; 12] = [
                    "NO_DEP",
                    "VALU_DEP_1",
                    "VALU_DEP_2",
                    "VALU_DEP_3",
                    "VALU_DEP_4",
                    "TRANS32_DEP_1",
                    "TRANS32_DEP_2",
                    "TRANS32_DEP_3",
                    "FMA_ACCUM_CYCLE_1",
                    "SALU_CYCLE_1",
                    "SALU_CYCLE_2",
                    "SALU_CYCLE_3",
                ];
                const SKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
                // LLVM's printer (AMDGPUInstPrinter::printDelayFlag) reads bits 10:0 only, prints
                // `0` when all three fields are zero and a value past a field's names as
                // `/* invalid instid value */` (the listing's refusal rules then refuse it:
                // shadersim_isa::refused, issue 47 item 14).
                let name = |names: &[&str], v: u64, what: &str| {
                    names
                        .get(v as usize)
                        .map_or_else(|| format!("/* invalid {what} value */"), |n| n.to_string())
                };
                let (id0, skip, id1) = (imm & 0xf, imm >> 4 & 7, imm >> 7 & 0xf);
                let mut parts = Vec::new();
                if id0 != 0 {
                    parts.push(format!("instid0({})", name(&ID, id0, "instid")));
                }
                if skip != 0 {
                    parts.push(format!("instskip({})", name(&SKIP, skip, "instskip")));
                }
                if id1 != 0 {
                    parts.push(format!("instid1({})", name(&ID, id1, "instid")));
                }
                if parts.is_empty() {
                    format!("{mn} 0")
                } else {
                    format!("{mn} {}", parts.join(" | "))
                }
            }
            "s_wait_alu" | "s_waitcnt_depctr" => {
                // LLVM's DepCtrInfo (AMDGPUAsmUtils.cpp), in its order: name, bit offset,
                // width; a field prints when it is not at its maximum (the default).
                const FIELDS: [(&str, u32, u32); 7] = [
                    ("hold_cnt", 7, 1),
                    ("sa_sdst", 0, 1),
                    ("va_vdst", 12, 4),
                    ("va_sdst", 9, 3),
                    ("va_ssrc", 8, 1),
                    ("va_vcc", 1, 1),
                    ("vm_vsrc", 2, 3),
                ];
                let parts: Vec<String> = FIELDS
                    .iter()
                    .filter(|(n, _, _)| *n != "hold_cnt" || self.family == "gfx12")
                    .filter_map(|&(n, lo, w)| {
                        let v = imm >> lo & ((1 << w) - 1);
                        (v != (1 << w) - 1).then(|| format!("depctr_{n}({v})"))
                    })
                    .collect();
                if parts.is_empty() {
                    format!("{mn} 0x{imm:x}")
                } else {
                    format!("{mn} {}", parts.join(" "))
                }
            }
            "s_sendmsg_rtn_b32" | "s_sendmsg_rtn_b64" => {
                let w = if mn.ends_with("b64") { 2 } else { 1 };
                let sdst = sreg(self.family, self.get("sdst").unwrap_or(0), w);
                let msg = self.get("ssrc0").unwrap_or(0);
                format!(
                    "{mn} {sdst}, sendmsg({})",
                    msg_name(self.family, msg).map_or(msg.to_string(), str::to_string)
                )
            }
            "s_sendmsg" | "s_sendmsghalt" => {
                match msg_name(self.family, imm & 0xff).filter(|_| imm >> 4 == 0) {
                    Some(n) => format!("{mn} sendmsg({n})"),
                    None => format!(
                        "{mn} sendmsg({}, {}, {})",
                        imm & 0xf,
                        imm >> 4 & 7,
                        imm >> 8 & 3
                    ),
                }
            }
            _ => format!("{mn} 0x{imm:x}"),
        }
    }
}
