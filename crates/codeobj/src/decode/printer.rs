//! How one decoded instruction prints: its fields' values as registers, constants and literals,
//! the modifiers of each format, and the operands LLVM prints in a syntax of their own.

use super::*;

pub(super) struct Printer<'a> {
    pub(super) family: &'static str,
    pub(super) cpu: &'static str,
    pub(super) format: &'a Format,
    pub(super) bits: u128,
    pub(super) literal: Option<u32>,
    pub(super) literal_word: Option<u32>,
    /// A gfx11+ VOP3 in its DPP form: source 0 is this VGPR (from the DPP dword).
    pub(super) dpp_src0: Option<u64>,
    /// A VOP3 whose OP_SEL names an operand it lacks: LLVM then prints its 16-bit operands
    /// as whole VGPRs (no .l/.h).
    pub(super) plain_halves: bool,
}

/// The width of a matrix op's source C: as wide as its destination (the accumulator it
/// updates), whatever the form the table was generated from put there (an inline constant `0`
/// gives it no register width). CDNA's v_mfma and RDNA's v_wmma; v_smfmac's and v_swmmac's
/// source 2 is a single index VGPR (their C is the destination, tied).
fn matrix_c_width(mn: &str, row: &Row) -> Option<u32> {
    if !(mn.starts_with("v_mfma") || mn.starts_with("v_wmma")) {
        return None;
    }
    row.template.iter().find_map(|o| match o {
        Operand::Field { field, width, .. } if field == "vdst" => Some(*width),
        _ => None,
    })
}

/// What every operand of a row prints by.
struct RowFacts {
    /// The row writes an SGPR destination (VOP3's ABS bits are then SDST's).
    uses_sdst: bool,
    /// A global access whose SADDR is `off`: its address is a VGPR pair.
    global_off: bool,
    /// A matrix op's source C width (matrix_c_width).
    mai_c_width: Option<u32>,
}

/// One field operand of a row and its value.
struct FieldOperand<'t> {
    field: &'t str,
    kind: &'t str,
    width: u32,
    int16: bool,
    v: u64,
}

/// The inline constants 240-248 (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi)) as
/// half-float bits, which LLVM prints for a 16-bit integer source (llvm-mc-22 -disassemble of
/// v_add_u16_e32 with SRC0 240: `0x3800`; 247: `0xc400`; 248: `0x3118`).
const HALF_CONSTANTS: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// Source fields: 9 bits (8 in SOP) that name an SGPR, a constant, a literal or a VGPR.
fn is_source(field: &str) -> bool {
    matches!(
        field,
        "src0" | "src1" | "src2" | "ssrc0" | "ssrc1" | "srcx0" | "srcy0"
    )
}

impl Printer<'_> {
    pub(super) fn get(&self, name: &str) -> Option<u64> {
        self.format
            .field(name)
            .map(|f| ((self.bits >> f.lo) & ((1u128 << f.width) - 1)) as u64)
    }

    pub(super) fn flag(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| v != 0)
    }

    pub(super) fn print(&mut self, row: &Row, address: u64, size: usize) -> (String, Option<u64>) {
        let mn = row.mnemonic.as_str();
        if row.special {
            return (self.special(mn), None);
        }
        self.plain_halves = self.op_sel_names_a_missing_operand(mn, row);
        let facts = RowFacts {
            uses_sdst: row
                .template
                .iter()
                .any(|o| matches!(o, Operand::Field { field, .. } if field == "sdst")),
            global_off: self.format.name == "GLOBAL" && self.saddr_is_off(),
            mai_c_width: matrix_c_width(mn, row),
        };
        let mut ops = Vec::new();
        let mut target = None;
        for op in &row.template {
            match op {
                Operand::Fixed(s) => ops.push(s.clone()),
                // Only image rows hold address lists; image_text prints them.
                Operand::Addresses { .. } => ops.push("?".into()),
                Operand::Field {
                    field,
                    kind,
                    width,
                    int16,
                } => {
                    let v = self.get(field).unwrap_or(0);
                    if field == "simm16" && (mn.starts_with("s_cbranch") || mn == "s_branch") {
                        // LLVM prints the field unsigned; the jump is signed dwords.
                        let rel = v as u16 as i16;
                        target = Some(
                            address
                                .wrapping_add(size as u64)
                                .wrapping_add_signed(i64::from(rel) * 4),
                        );
                        ops.push(v.to_string());
                        continue;
                    }
                    let operand = FieldOperand {
                        field,
                        kind,
                        width: *width,
                        int16: *int16,
                        v,
                    };
                    ops.push(self.field_text(mn, &facts, &operand));
                }
            }
        }
        let mut text = mn.to_string();
        if !ops.is_empty() {
            text.push(' ');
            text.push_str(&ops.join(", "));
        }
        text.push_str(&self.modifiers(mn, row));
        (text, target)
    }

    /// A VOP3 with 16-bit operands whose OP_SEL names an operand it lacks (bits 0-2 the
    /// sources, 3 the destination, a VGPR one): LLVM then prints its halves as whole VGPRs.
    fn op_sel_names_a_missing_operand(&self, mn: &str, row: &Row) -> bool {
        if self.format.name != "VOP3"
            || !row
                .template
                .iter()
                .any(|o| matches!(o, Operand::Field { kind, .. } if kind == "v16"))
        {
            return false;
        }
        let mut valid = 0u64;
        for o in &row.template {
            if let Operand::Field { field, kind, .. } = o {
                match field.as_str() {
                    "src0" => valid |= 1,
                    "src1" => valid |= 2,
                    "src2" => valid |= 4,
                    "vdst" if kind.starts_with('v') => valid |= 8,
                    _ => {}
                }
            }
        }
        if mn.starts_with("v_fmac") || mn.starts_with("v_mac") {
            valid |= 4;
        }
        self.get("op_sel").unwrap_or(0) & !valid != 0
    }

    /// How one field operand prints.
    fn field_text(&mut self, mn: &str, facts: &RowFacts, op: &FieldOperand) -> String {
        let (v, width) = (op.v, op.width);
        match (op.field, op.kind) {
            ("saddr", _) if self.saddr_is_off() => "off".into(),
            // A buffer access without offen/idxen names no VGPR address.
            ("vaddr", _)
                if self.format.name == "MUBUF" && !self.flag("offen") && !self.flag("idxen") =>
            {
                "off".into()
            }
            // An index and an offset: a VGPR pair.
            ("vaddr", _) if self.flag("offen") && self.flag("idxen") => vreg("v", v, 2),
            // gfx11+ scratch without SVE has no VGPR address.
            ("addr", _)
                if self.format.name == "SCRATCH"
                    && self.format.field("sve").is_some()
                    && !self.flag("sve") =>
            {
                "off".into()
            }
            ("addr", "v") if facts.global_off => vreg("v", v, 2),
            ("sbase", _) => sreg(self.family, v * 2, width),
            ("srsrc" | "ssamp", _) => sreg(self.family, v * 4, width),
            ("offset", _) if self.format.name == "SMEM" => self.smem_offset(v),
            // MUBUF/MTBUF's 8-bit SOFFSET (gfx9-gfx11) is a scalar source: an SGPR, an inline
            // constant (Triton's `0` is 0x80) or a special value; these encodings carry no
            // literal and LLVM marks LDS_DIRECT invalid there, so 254 and 255 stay register
            // numbers the reader refuses. gfx12's 7-bit one holds SGPRs and null only.
            ("soffset", _) if self.soffset_is_source() && v < 254 => self.source(v, 1),
            ("literal", _) => {
                self.literal = self.literal_word;
                format!("0x{:x}", self.literal_word.unwrap_or(0))
            }
            // VOPD's Y destination keeps bits 7:1; bit 0 is the opposite of X's.
            ("vdsty", _) => vreg("v", v << 1 | (!self.get("vdstx").unwrap_or(0) & 1), 1),
            // gfx9's VOP3 interpolation: an attribute (bits 5:0) and channel (7:6), and
            // v_interp_mov's parameter slot (Vega ISA 12.13, "VOP3 interpolation").
            (_, "attr") => format!(
                "attr{}.{}",
                v & 63,
                ['x', 'y', 'z', 'w'][(v >> 6 & 3) as usize]
            ),
            (_, "pslot") => ["p10", "p20", "p0"]
                .get(v as usize)
                .map_or_else(|| format!("p{v}"), |s| s.to_string()),
            (f, _) if is_source(f) => self.source_operand(mn, facts, op),
            (_, "hex") => format!("0x{v:x}"),
            // LLVM prints a 16-bit immediate in decimal while it is an inline-constant value
            // (0..64), else in hex.
            (_, "dec") if v <= 64 => v.to_string(),
            (_, "dec") => format!("0x{v:x}"),
            // A matrix op's destination file is its ACC_CD bit's, whatever file the table's
            // form used.
            ("vdst", "v" | "a") if is_mai(mn) => {
                let file = if self.mai_agpr(mn, "vdst") { "a" } else { "v" };
                vreg(file, v, width)
            }
            (f, "v16") => self.half(f, v),
            (_, "v") => vreg("v", v, width),
            (_, "a") => vreg("a", v, width),
            (_, _) => sreg(self.family, v, width),
        }
    }

    /// A 9-bit source field with its modifiers: the register, constant or literal, its half,
    /// its register file, VOP3's abs and neg.
    fn source_operand(&mut self, mn: &str, facts: &RowFacts, op: &FieldOperand) -> String {
        let (f, k, v) = (op.field, op.kind, op.v);
        let width = match (f, facts.mai_c_width) {
            ("src2", Some(w)) => w,
            _ => op.width,
        };
        let mut s = match (f, self.dpp_src0) {
            ("src0", Some(n)) if k == "v16" => self.half(f, n),
            ("src0", Some(n)) => vreg("v", n, width),
            _ if k == "v16" && v >= 256 => self.half(f, v - 256),
            // A 16-bit integer source's inline float constant: the half-float's bits.
            _ if op.int16 && (240..=248).contains(&v) => {
                format!("0x{:x}", HALF_CONSTANTS[(v - 240) as usize])
            }
            _ => self.source(v, width),
        };
        // An AGPR source: by the template (v_accvgpr_read's source is always one) or by a
        // matrix op's ACC bits.
        let vgpr = s.starts_with("v[")
            || s.strip_prefix('v')
                .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
        if (k == "a" || self.mai_agpr(mn, f)) && vgpr {
            s = s.replacen('v', "a", 1);
        }
        if let Some(i) = ["src0", "src1", "src2"].iter().position(|x| *x == f) {
            if self.format.name == "VOP3" {
                let abs = !facts.uses_sdst && self.get("abs").unwrap_or(0) >> i & 1 != 0;
                let neg = self.get("neg").unwrap_or(0) >> i & 1 != 0;
                if abs {
                    s = format!("|{s}|");
                }
                if neg {
                    s = format!("-{s}");
                }
            }
        }
        s
    }

    /// A 16-bit VGPR operand (gfx11's true16 `vN.l` / `vN.h`; `n` the VGPR bits of the field):
    /// VOP3 names the whole VGPR and picks the half by OP_SEL (bits 0-2 the sources, 3 the
    /// destination); the 32-bit encodings use bit 7 of the 8-bit VGPR number for the half
    /// (RDNA3 ISA chapter 16, "VOP1"/"VOP2"/"VOPC": 16-bit operands address v0-v127 halves).
    pub(super) fn half(&self, field: &str, n: u64) -> String {
        if self.plain_halves {
            return vreg("v", n, 1);
        }
        let (reg, hi) = if self.format.name == "VOP3" {
            let bit = match field {
                "src0" => 0,
                "src1" => 1,
                "src2" => 2,
                _ => 3,
            };
            (n, self.get("op_sel").unwrap_or(0) >> bit & 1 != 0)
        } else {
            (n & 0x7f, n >> 7 & 1 != 0)
        };
        format!("v{reg}.{}", if hi { 'h' } else { 'l' })
    }

    /// SMEM's offset operand: gfx9 holds an SGPR in it when IMM is clear (and adds SOFFSET
    /// when SOE is set); gfx11 prints
    /// SOFFSET (`null` included) when the immediate is 0, and `sN offset:0x..` with both.
    pub(super) fn smem_offset(&self, v: u64) -> String {
        if self.family == "gfx9" {
            // SOE with IMM: the SGPR in SOFFSET plus the immediate, which LLVM prints even
            // when it is 0.
            if self.flag("soe") && self.flag("imm") {
                let soffset = self.get("soffset").unwrap_or(0);
                return format!("{} offset:0x{v:x}", sreg(self.family, soffset, 1));
            }
            return if self.flag("imm") {
                format!("0x{v:x}")
            } else {
                sreg(self.family, v, 1)
            };
        }
        let null = self.null_code();
        let soffset = self.get("soffset").unwrap_or(null);
        if self.family == "gfx12" {
            // RDNA4: a signed 24-bit offset, printed even when 0.
            let off = (v as i64) << 40 >> 40;
            let text = if off < 0 {
                format!("-0x{:x}", -off)
            } else {
                format!("0x{off:x}")
            };
            return if soffset == null {
                text
            } else if off == 0 {
                sreg(self.family, soffset, 1)
            } else {
                format!("{} offset:{text}", sreg(self.family, soffset, 1))
            };
        }
        match (soffset == null, v) {
            (true, 0) => "null".into(),
            (true, _) => format!("0x{v:x}"),
            (false, 0) => sreg(self.family, soffset, 1),
            (false, _) => format!("{} offset:0x{v:x}", sreg(self.family, soffset, 1)),
        }
    }

    /// The SOFFSET field is 8 bits wide (MUBUF/MTBUF before gfx12), the width of a scalar
    /// source; SMEM's and gfx12's are 7 and name registers only.
    pub(super) fn soffset_is_source(&self) -> bool {
        self.format.field("soffset").is_some_and(|f| f.width == 8)
    }

    /// Whether a matrix instruction's operand `field` is an AGPR: ACC_CD (bit 15) for the
    /// destination and source C, ACC bits 59/60 for sources A/B.
    pub(super) fn mai_agpr(&self, mn: &str, field: &str) -> bool {
        if self.format.name != "VOP3P" || !is_mai(mn) {
            return false;
        }
        let bit = match field {
            "vdst" => 15,
            // v_smfmac's source 2 is its index VGPR (its C is the destination, tied).
            "src2" if mn.starts_with("v_smfmac") => return false,
            "src2" => 15,
            "src0" => 59,
            "src1" => 60,
            _ => return false,
        };
        self.bits >> bit & 1 != 0
    }

    pub(super) fn saddr_is_off(&self) -> bool {
        // gfx9 encodes `off` as 0x7f; gfx10+ as SGPR_NULL.
        let v = self.get("saddr").unwrap_or(0);
        if self.family == "gfx9" {
            v == 0x7f
        } else {
            v == self.null_code()
        }
    }

    /// The encoding of SGPR_NULL: 125 on gfx10, 124 from gfx11 on.
    pub(super) fn null_code(&self) -> u64 {
        if self.family == "gfx10" {
            125
        } else {
            124
        }
    }

    /// A 9-bit source operand: SGPR, special register, inline constant, literal or VGPR.
    pub(super) fn source(&mut self, v: u64, width: u32) -> String {
        match v {
            0..=127 => sreg(self.family, v, width),
            128..=192 => (v - 128).to_string(),
            193..=208 => format!("-{}", v - 192),
            // The apertures and flat-scratch base as llvm-objdump-22 names them on every
            // family (it does not ask whether the processor has them).
            230 => "src_flat_scratch_base_lo".into(),
            231 => "src_flat_scratch_base_hi".into(),
            235 => "src_shared_base".into(),
            236 => "src_shared_limit".into(),
            237 => "src_private_base".into(),
            238 => "src_private_limit".into(),
            239 => "src_pops_exiting_wave_id".into(),
            240 => "0.5".into(),
            241 => "-0.5".into(),
            242 => "1.0".into(),
            243 => "-1.0".into(),
            244 => "2.0".into(),
            245 => "-2.0".into(),
            246 => "4.0".into(),
            247 => "-4.0".into(),
            248 => "0.15915494".into(),
            251 => "src_vccz".into(),
            252 => "src_execz".into(),
            253 => "src_scc".into(),
            // A VALU source on every family (llvm-mc-22 -disassemble prints it on gfx900 to
            // gfx1200); as a SALU operand LLVM calls it invalid, and rejected.rs refuses it.
            254 => "src_lds_direct".into(),
            255 => {
                let lit = self.literal_word.unwrap_or(0);
                self.literal = self.literal_word;
                format!("0x{lit:x}")
            }
            256..=511 => vreg("v", v - 256, width),
            _ => format!("src_{v}"),
        }
    }

    pub(super) fn modifiers(&self, mn: &str, row: &Row) -> String {
        let mut m = String::new();
        match self.format.name.as_str() {
            "SMEM" => m.push_str(&self.cache_policy(mn)),
            "DS" => m.push_str(&self.ds_modifiers(mn)),
            "FLAT" | "GLOBAL" | "SCRATCH" => {
                let f = self.format.field("offset").map_or(12, |f| f.width);
                let raw = self.get("offset").unwrap_or(0) as i64;
                let off = if self.format.name == "FLAT" && self.family != "gfx11" {
                    raw
                } else {
                    (raw << (64 - f)) >> (64 - f)
                };
                if off != 0 {
                    m.push_str(&format!(" offset:{off}"));
                }
                m.push_str(&self.cache_policy(mn));
                if self.flag("lds") {
                    m.push_str(" lds");
                }
            }
            "MUBUF" | "MTBUF" => {
                // LLVM's order: `idxen offen`.
                if self.flag("idxen") {
                    m.push_str(" idxen");
                }
                if self.flag("offen") {
                    m.push_str(" offen");
                }
                let off = self.get("offset").unwrap_or(0);
                if off != 0 {
                    m.push_str(&format!(" offset:{off}"));
                }
                m.push_str(&self.cache_policy(mn));
                if self.flag("lds") && self.format.name == "MUBUF" {
                    m.push_str(" lds");
                }
                if self.flag("tfe") {
                    m.push_str(" tfe");
                }
            }
            "VOP3" => {
                m.push_str(&self.vop3_op_sel(mn, row));
                if self.flag("clamp") {
                    m.push_str(" clamp");
                }
                match self.get("omod").unwrap_or(0) {
                    1 => m.push_str(" mul:2"),
                    2 => m.push_str(" mul:4"),
                    3 => m.push_str(" div:2"),
                    _ => {}
                }
            }
            "VOP3P" if is_mai(mn) => {
                // CDNA MAI (MI200 ISA 12.11 "VOP3P-MAI"): CBSZ [10:8], ABID [14:11], BLGP
                // [63:61]; ACC_CD [15] and ACC [60:59] pick AGPRs (printed as registers).
                for (name, v) in [
                    ("cbsz", self.bits >> 8 & 7),
                    ("abid", self.bits >> 11 & 15),
                    ("blgp", self.bits >> 61 & 7),
                ] {
                    if v != 0 {
                        m.push_str(&format!(" {name}:{v}"));
                    }
                }
            }
            "VOP3P" => m.push_str(&self.vop3p_modifiers(row)),
            _ => {}
        }
        m
    }

    /// The cache policy of a memory op: gfx12's TH and SCOPE, gfx942's sc0/sc1/nt, else
    /// glc/slc/dlc (and gfx90a's scc).
    fn cache_policy(&self, mn: &str) -> String {
        if self.format.field("th").is_some() {
            return self.temporal_hint(mn);
        }
        // In LLVM's printing order (llvm-mc-22 -disassemble -mcpu=gfx942 prints
        // `sc0 nt sc1` for global, scratch, flat, buffer and tbuffer ops).
        let names: &[(&str, &str)] = if self.cpu == "gfx942" {
            &[("glc", " sc0"), ("slc", " nt"), ("sc1", " sc1")]
        } else if self.cpu == "gfx90a" {
            &[
                ("glc", " glc"),
                ("slc", " slc"),
                ("dlc", " dlc"),
                ("sc1", " scc"),
            ]
        } else {
            &[("glc", " glc"), ("slc", " slc"), ("dlc", " dlc")]
        };
        names
            .iter()
            .filter(|(field, _)| self.flag(field))
            .map(|(_, text)| *text)
            .collect()
    }

    /// DS offsets (two 8-bit ones for the two-address ops, else one 16-bit) and `gds`.
    fn ds_modifiers(&self, mn: &str) -> String {
        let mut m = String::new();
        let o0 = self.get("offset0").unwrap_or(0);
        let o1 = self.get("offset1").unwrap_or(0);
        if mn.contains("2st64")
            || mn.contains("read2")
            || mn.contains("write2")
            || mn.contains("load_2")
            || mn.contains("store_2")
            || mn.contains("2addr")
        {
            if o0 != 0 {
                m.push_str(&format!(" offset0:{o0}"));
            }
            if o1 != 0 {
                m.push_str(&format!(" offset1:{o1}"));
            }
        } else if o0 | o1 << 8 != 0 {
            m.push_str(&format!(" offset:{}", o0 | o1 << 8));
        }
        if self.flag("gds") {
            m.push_str(" gds");
        }
        m
    }

    /// VOP3P's op_sel, op_sel_hi (printed when not all set), neg_lo, neg_hi and clamp.
    fn vop3p_modifiers(&self, row: &Row) -> String {
        let mut m = String::new();
        let nsrc = row
            .template
            .iter()
            .filter(|o| matches!(o, Operand::Field { field, .. } if is_source(field)))
            .count();
        let op_sel = self.get("op_sel").unwrap_or(0);
        let hi = self.get("op_sel_hi").unwrap_or(0) | self.get("op_sel_hi2").unwrap_or(0) << 2;
        let list = |v: u64| {
            (0..nsrc)
                .map(|i| (v >> i & 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let all = (1u64 << nsrc) - 1;
        if op_sel & all != 0 {
            m.push_str(&format!(" op_sel:[{}]", list(op_sel)));
        }
        if hi & all != all {
            m.push_str(&format!(" op_sel_hi:[{}]", list(hi)));
        }
        let neg_lo = self.get("neg").unwrap_or(0);
        let neg_hi = self.get("neg_hi").unwrap_or(0);
        if neg_lo & all != 0 {
            m.push_str(&format!(" neg_lo:[{}]", list(neg_lo)));
        }
        if neg_hi & all != 0 {
            m.push_str(&format!(" neg_hi:[{}]", list(neg_hi)));
        }
        if self.flag("clamp") {
            m.push_str(" clamp");
        }
        m
    }

    /// VOP3's ` op_sel:[..]`: a bit per printed source, then the destination's (bit 3).
    fn vop3_op_sel(&self, mn: &str, row: &Row) -> String {
        let op_sel = self.get("op_sel").unwrap_or(0);
        let sdst = row
            .template
            .iter()
            .any(|o| matches!(o, Operand::Field { field, .. } if field == "sdst"));
        if sdst || self.plain_halves || op_sel == 0 {
            return String::new();
        }
        // v_permlane*: OP_SEL bits 0 and 1 are FI and BOUND_CTRL, printed as a pair; LLVM
        // ignores bits 2 and 3 (llvm-mc-22 -disassemble of D65C2082/D65C4082: no op_sel).
        if mn.starts_with("v_permlane") {
            return match op_sel & 3 {
                0 => String::new(),
                b => format!(" op_sel:[{},{}]", b & 1, b >> 1),
            };
        }
        let printed = row
            .template
            .iter()
            .filter(|o| matches!(o, Operand::Field { field, .. } if is_source(field)))
            .count();
        // v_fmac/v_mac's third source is its destination (tied, not printed), but LLVM
        // counts it in op_sel: [src0,src1,src2,dst].
        let tied = mn.starts_with("v_fmac") || mn.starts_with("v_mac");
        let nsrc = if tied { printed.max(3) } else { printed };
        let bits: Vec<String> = (0..nsrc)
            .map(|i| (op_sel >> i & 1).to_string())
            .chain(std::iter::once((op_sel >> 3 & 1).to_string()))
            .collect();
        format!(" op_sel:[{}]", bits.join(","))
    }

    /// gfx12's cache policy: ` th:TH_...` and ` scope:SCOPE_...` when not the defaults (the
    /// names of LLVM's SIDefines.h `CPol::TH_*` and `SCOPE_*`, per loads, stores and atomics).
    pub(super) fn temporal_hint(&self, mn: &str) -> String {
        // Loads have no TH 7 (LLVM prints `th:0x7`); TH 3 at system scope is BYPASS for loads
        // and stores (SIDefines.h: TH_BYPASS "only to be used with scope = 3"), LU or WB else.
        const LOAD: [&str; 8] = ["RT", "NT", "HT", "LU", "NT_RT", "RT_NT", "NT_HT", ""];
        const STORE: [&str; 8] = ["RT", "NT", "HT", "WB", "NT_RT", "RT_NT", "NT_HT", "NT_WB"];
        const ATOMIC: [&str; 8] = [
            "RT",
            "RETURN",
            "NT",
            "NT_RETURN",
            "CASCADE_RT",
            "CASCADE_RETURN",
            "CASCADE_NT",
            "CASCADE_NT_RETURN",
        ];
        const SCOPE: [&str; 4] = ["CU", "SE", "DEV", "SYS"];
        let th = self.get("th").unwrap_or(0) as usize & 7;
        let scope = self.get("scope").unwrap_or(0) as usize & 3;
        let mut m = String::new();
        if th != 0 {
            let (kind, names) = if mn.contains("atomic") {
                ("ATOMIC", ATOMIC)
            } else if mn.contains("store") {
                ("STORE", STORE)
            } else {
                ("LOAD", LOAD)
            };
            let name = match names[th] {
                _ if th == 3 && scope == 3 && kind != "ATOMIC" => "BYPASS",
                "" => "",
                n => n,
            };
            if name.is_empty() {
                m.push_str(&format!(" th:0x{th:x}"));
            } else {
                m.push_str(&format!(" th:TH_{kind}_{name}"));
            }
        }
        if scope != 0 {
            m.push_str(&format!(" scope:SCOPE_{}", SCOPE[scope]));
        }
        m
    }
}
