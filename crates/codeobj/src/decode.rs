//! Machine code -> instruction text in LLVM's syntax, without LLVM.
//!
//! Two generated tables drive it (both written by `scripts/isa/gen_encodings.py` from
//! `llvm-mc-22 -show-encoding` and `-disassemble`, embedded here):
//! * `data/formats.tsv`: per generation family, each encoding format's size, identification bits
//!   and fields (the ISA guides' "Microcode Formats" layouts);
//! * `data/encodings.tsv`: per family, format and opcode, the mnemonic LLVM prints, the
//!   processors it holds for, and which field each printed operand comes from (found by
//!   re-assembling the form with that operand changed).
//!
//! What this file adds is how a field's value prints (registers, inline constants, literals,
//! `off`), the modifiers of each format (offsets, cache policy, VOP3 neg/abs/clamp/omod, VOP3P
//! op_sel), the operands LLVM prints in a syntax of their own (`s_waitcnt`, `s_delay_alu`,
//! `s_sendmsg`, `s_wait_alu`) and the BVH image ops' address lists. Families covered: gfx9
//! (gfx900, gfx90a, gfx942), gfx10 (gfx1010, gfx1030), gfx11 (gfx1100) and gfx12 (gfx1200).

use std::collections::HashMap;
use std::sync::OnceLock;

const FORMATS_TSV: &str = include_str!("../data/formats.tsv");
const ENCODINGS_TSV: &str = include_str!("../data/encodings.tsv");

/// One field of an encoding format.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    lo: u32,
    width: u32,
}

/// One encoding format of a family.
#[derive(Debug, Clone)]
struct Format {
    name: String,
    bits: u32,
    ident: Vec<(u32, u32, u64)>,
    fields: Vec<Field>,
}

impl Format {
    fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// One opcode row of the generated table.
#[derive(Debug, Clone)]
struct Row {
    mnemonic: String,
    processors: Vec<String>,
    template: Vec<Operand>,
    special: bool,
}

/// One printed operand of a row.
#[derive(Debug, Clone)]
enum Operand {
    /// A fixed spelling (`vcc`, `off`, `null`).
    Fixed(String),
    /// A field: its name, the kind the form printed (`v`, `s`, `a`, `dec`, `hex`) and width.
    Field {
        field: String,
        kind: String,
        width: u32,
    },
    /// A BVH op's address VGPRs (`vaddr:nsa:W.W..|W.W..`): the register width of each address
    /// operand as LLVM lists them apart (NSA), without and with A16.
    Addresses { plain: Vec<u32>, a16: Vec<u32> },
}

struct Tables {
    formats: HashMap<String, Vec<Format>>,
    rows: HashMap<(String, String, u64), Vec<Row>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut formats: HashMap<String, Vec<Format>> = HashMap::new();
        for line in FORMATS_TSV
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let c: Vec<&str> = line.split('\t').collect();
            let ident = c[3]
                .split(' ')
                .filter_map(|t| {
                    let (lw, v) = t.split_once('=')?;
                    let (lo, w) = lw.split_once(':')?;
                    Some((lo.parse().ok()?, w.parse().ok()?, v.parse().ok()?))
                })
                .collect();
            let fields = c[4]
                .split(' ')
                .filter_map(|t| {
                    let mut p = t.split(':');
                    Some(Field {
                        name: p.next()?.to_string(),
                        lo: p.next()?.parse().ok()?,
                        width: p.next()?.parse().ok()?,
                    })
                })
                .collect();
            formats.entry(c[0].to_string()).or_default().push(Format {
                name: c[1].to_string(),
                bits: c[2].parse().unwrap_or(32),
                ident,
                fields,
            });
        }
        let mut rows: HashMap<(String, String, u64), Vec<Row>> = HashMap::new();
        for line in ENCODINGS_TSV
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let c: Vec<&str> = line.split('\t').collect();
            let special = c[5] == "special";
            let template = if special || c[5] == "-" {
                Vec::new()
            } else {
                c[5].split(',')
                    .map(|t| match t.strip_prefix('=') {
                        Some(fixed) => Operand::Fixed(fixed.to_string()),
                        None if t.contains(":nsa:") => {
                            let lists = t.split(":nsa:").nth(1).unwrap_or("");
                            let (plain, a16) = lists.split_once('|').unwrap_or((lists, ""));
                            let widths = |l: &str| -> Vec<u32> {
                                l.split('.').filter_map(|w| w.parse().ok()).collect()
                            };
                            Operand::Addresses {
                                plain: widths(plain),
                                a16: widths(a16),
                            }
                        }
                        None => {
                            let mut p = t.split(':');
                            Operand::Field {
                                field: p.next().unwrap_or("").to_string(),
                                kind: p.next().unwrap_or("").to_string(),
                                width: p.next().and_then(|w| w.parse().ok()).unwrap_or(1),
                            }
                        }
                    })
                    .collect()
            };
            rows.entry((
                c[0].to_string(),
                c[1].to_string(),
                c[2].parse().unwrap_or(0),
            ))
            .or_default()
            .push(Row {
                mnemonic: c[3].to_string(),
                processors: c[4].split(',').map(str::to_string).collect(),
                template,
                special,
            });
        }
        Tables { formats, rows }
    })
}

/// The table family and the processor whose rows a processor reads (processors of a family
/// the generator did not assemble for read the closest one's).
fn family_of(processor: &str) -> Option<(&'static str, &'static str)> {
    let p = processor;
    Some(match p {
        "gfx90a" => ("gfx9", "gfx90a"),
        "gfx906" | "gfx908" => ("gfx9", "gfx906"),
        _ if p.starts_with("gfx94") || p.starts_with("gfx95") => ("gfx9", "gfx942"),
        _ if p.starts_with("gfx90") => ("gfx9", "gfx900"),
        _ if p.starts_with("gfx101") => ("gfx10", "gfx1010"),
        _ if p.starts_with("gfx103") => ("gfx10", "gfx1030"),
        _ if p.starts_with("gfx11") => ("gfx11", "gfx1100"),
        _ if p.starts_with("gfx12") => ("gfx12", "gfx1200"),
        _ => return None,
    })
}

/// Whether shadersim can decode machine code for `processor`.
pub fn supports(processor: &str) -> bool {
    family_of(processor).is_some()
}

/// One decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// Its address (the function's address plus its offset).
    pub address: u64,
    /// Its dwords, literal included.
    pub words: Vec<u32>,
    /// The instruction in LLVM syntax, as `llvm-objdump -d` prints it.
    pub text: String,
    /// A branch's target address.
    pub target: Option<u64>,
}

/// Why machine code could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset of the instruction in the code given.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Decode `code` (a function's bytes, starting at `address`) for `processor`.
pub fn decode(processor: &str, code: &[u8], address: u64) -> Result<Vec<Decoded>, DecodeError> {
    let Some((family, cpu)) = family_of(processor) else {
        return Err(DecodeError {
            offset: 0,
            message: format!(
                "no decoding table for {processor} (shadersim decodes gfx9 (gfx900-gfx90c, gfx90a, gfx94x), gfx10, gfx11 and gfx12 machine code)"
            ),
        });
    };
    let t = tables();
    let formats = &t.formats[family];
    let mut out = Vec::new();
    let mut pos = 0usize;
    let word_at = |p: usize| -> Option<u32> {
        code.get(p..p + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    while pos < code.len() {
        let err = |m: String| DecodeError {
            offset: pos,
            message: m,
        };
        let w0 = word_at(pos)
            .ok_or_else(|| err("truncated instruction (fewer than 4 bytes left)".into()))?;
        let format = formats
            .iter()
            .find(|f| {
                f.ident
                    .iter()
                    .all(|&(lo, w, v)| ((u64::from(w0) >> lo) & ((1 << w) - 1)) == v)
            })
            .ok_or_else(|| {
                err(format!(
                    "0x{w0:08X} matches no {family} encoding format shadersim decodes"
                ))
            })?;
        let mut words = vec![w0];
        for i in 1..(format.bits / 32) as usize {
            words.push(word_at(pos + 4 * i).ok_or_else(|| {
                err(format!(
                    "truncated {}-bit {} instruction",
                    format.bits, format.name
                ))
            })?);
        }
        // Up to 96 bits (gfx12's VGLOBAL, VBUFFER).
        let bits = words
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, &w)| acc | u128::from(w) << (32 * i));
        let get = |name: &str| {
            format
                .field(name)
                .map(|f| ((bits >> f.lo) & ((1u128 << f.width) - 1)) as u64)
        };
        if format.name == "VOPD" {
            let find = |half: &str, op: u64| {
                t.rows
                    .get(&(family.to_string(), format!("VOPD{half}"), op))
                    .and_then(|rows| rows.iter().find(|r| r.processors.iter().any(|p| p == cpu)))
            };
            let (opx, opy) = (get("opx").unwrap_or(0), get("opy").unwrap_or(0));
            let (Some(x), Some(y)) = (find("X", opx), find("Y", opy)) else {
                return Err(err(format!(
                    "VOPD opcodes {opx}/{opy} (0x{w0:08X}) are not in the {family} table"
                )));
            };
            let mut printer = Printer {
                family,
                cpu,
                format,
                bits,
                literal: None,
                literal_word: word_at(pos + 8),
                dpp_src0: None,
                plain_halves: false,
            };
            let (tx, _) = printer.print(x, address.wrapping_add(pos as u64), 8);
            let (ty, _) = printer.print(y, address.wrapping_add(pos as u64), 8);
            if let Some(lit) = printer.literal {
                words.push(lit);
            }
            out.push(Decoded {
                address: address.wrapping_add(pos as u64),
                words: words.clone(),
                text: format!("{tx} :: {ty}"),
                target: None,
            });
            pos += words.len() * 4;
            continue;
        }
        // gfx10 MUBUF/MTBUF keep the opcode's top bit apart (`op_hi`).
        let op_width = format.field("op").map_or(0, |f| f.width);
        let op = get("op").unwrap_or(0) | get("op_hi").unwrap_or(0) << op_width;
        let lookup = |fmt: String| {
            t.rows
                .get(&(family.to_string(), fmt, op))
                .and_then(|rows| rows.iter().find(|r| r.processors.iter().any(|p| p == cpu)))
        };
        // A memory atomic with its return bit set prints a destination: the `.rtn` row.
        let returns = matches!(format.name.as_str(), "FLAT" | "GLOBAL" | "SCRATCH")
            && if family == "gfx12" {
                get("th").unwrap_or(0) & 1 != 0
            } else {
                get("glc").unwrap_or(0) != 0
            };
        let row = returns
            .then(|| lookup(format!("{}.rtn", format.name)))
            .flatten()
            .or_else(|| lookup(format.name.clone()))
            .ok_or_else(|| {
                err(format!(
                    "{} opcode {op} (0x{w0:08X}) is not in the {family} table for {cpu}",
                    format.name
                ))
            })?;
        if matches!(
            format.name.as_str(),
            "EXP" | "VINTRP" | "LDSDIR" | "VINTERP"
        ) {
            return Err(err(format!(
                "{} ({}, 0x{w0:08X}) is not decoded yet: exports and parameter interpolation are graphics-only encodings",
                row.mnemonic, format.name
            )));
        }
        if matches!(format.name.as_str(), "MIMG" | "VIMAGE" | "VSAMPLE") {
            let text = image_text(family, format, bits, row, &mut words, |i| {
                word_at(pos + 4 * i)
            })
            .map_err(|m| err(format!("{m} (0x{w0:08X})")))?;
            out.push(Decoded {
                address: address.wrapping_add(pos as u64),
                words: words.clone(),
                text,
                target: None,
            });
            pos += words.len() * 4;
            continue;
        }
        // SDWA and DPP: a VOP1/VOP2/VOPC source 0 of 249 (SDWA, gfx9/gfx10), 250 (DPP16) or
        // 233/234 (DPP8, gfx10+) means a second dword of operand controls.
        if matches!(format.name.as_str(), "VOP1" | "VOP2" | "VOPC") {
            let src0 = get("src0").unwrap_or(0);
            let sdwa = src0 == 249 && (family == "gfx9" || family == "gfx10");
            let dpp = src0 == 250 || (family != "gfx9" && (src0 == 233 || src0 == 234));
            if sdwa && format.name != "VOPC" {
                let ext = word_at(pos + 4)
                    .ok_or_else(|| err(format!("truncated SDWA {} instruction", row.mnemonic)))?;
                words.push(ext);
                out.push(Decoded {
                    address: address.wrapping_add(pos as u64),
                    words: words.clone(),
                    text: sdwa_text(
                        family,
                        row,
                        get("vdst").unwrap_or(0),
                        get("vsrc1").unwrap_or(0),
                        ext,
                    ),
                    target: None,
                });
                pos += 8;
                continue;
            }
            if dpp {
                let ext = word_at(pos + 4)
                    .ok_or_else(|| err(format!("truncated DPP {} instruction", row.mnemonic)))?;
                words.push(ext);
                let text = dpp_text(family, cpu, row, format, bits, ext)
                    .map_err(|m| err(format!("{m} (0x{w0:08X} 0x{ext:08X})")))?;
                out.push(Decoded {
                    address: address.wrapping_add(pos as u64),
                    words: words.clone(),
                    text,
                    target: None,
                });
                pos += 8;
                continue;
            }
            if sdwa {
                return Err(err(format!(
                    "{} in its {} form (0x{w0:08X}) is not decoded yet",
                    row.mnemonic,
                    if sdwa { "SDWA" } else { "DPP" }
                )));
            }
        }
        // gfx11+ VOP3 in a DPP form (source 0 of 250, 233/234): a third dword of DPP
        // controls, source 0 the VGPR in its low byte (RDNA3 ISA chapter 16, "VOP3 DPP").
        let vop3_dpp = matches!(family, "gfx11" | "gfx12")
            && matches!(format.name.as_str(), "VOP3" | "VOP3P")
            && matches!(get("src0"), Some(233 | 234 | 250));
        let dpp_word = if vop3_dpp {
            if format.name == "VOP3P" {
                return Err(err(format!(
                    "{} in its DPP form (0x{w0:08X}) is not decoded yet",
                    row.mnemonic
                )));
            }
            let d = word_at(pos + 8)
                .ok_or_else(|| err(format!("truncated DPP {} instruction", row.mnemonic)))?;
            words.push(d);
            Some(d)
        } else {
            None
        };
        let size_before_literal = words.len() * 4;
        let mut printer = Printer {
            family,
            cpu,
            format,
            bits,
            literal: None,
            literal_word: word_at(pos + size_before_literal),
            dpp_src0: dpp_word.map(|d| u64::from(d & 0xff)),
            plain_halves: false,
        };
        let (mut text, target) =
            printer.print(row, address.wrapping_add(pos as u64), size_before_literal);
        if let Some(d) = dpp_word {
            let mn = row.mnemonic.as_str();
            let dpp_mn = if mn.ends_with("_e64") {
                format!("{mn}_dpp")
            } else {
                format!("{mn}_e64_dpp")
            };
            let controls = dpp_controls(family, cpu, row, get("src0").unwrap_or(0), d)
                .map_err(|m| err(format!("{mn}: {m} (0x{w0:08X} 0x{d:08X})")))?;
            text = format!("{dpp_mn}{}{controls}", &text[mn.len()..]);
        }
        if let Some(lit) = printer.literal {
            words.push(lit);
        }
        pos += words.len() * 4;
        out.push(Decoded {
            address: address.wrapping_add((pos - words.len() * 4) as u64),
            words,
            text,
            target,
        });
    }
    Ok(out)
}

struct Printer<'a> {
    family: &'static str,
    cpu: &'static str,
    format: &'a Format,
    bits: u128,
    literal: Option<u32>,
    literal_word: Option<u32>,
    /// A gfx11+ VOP3 in its DPP form: source 0 is this VGPR (from the DPP dword).
    dpp_src0: Option<u64>,
    /// A VOP3 whose OP_SEL names an operand it lacks: LLVM then prints its 16-bit operands
    /// as whole VGPRs (no .l/.h).
    plain_halves: bool,
}

/// Source fields: 9 bits (8 in SOP) that name an SGPR, a constant, a literal or a VGPR.
fn is_source(field: &str) -> bool {
    matches!(
        field,
        "src0" | "src1" | "src2" | "ssrc0" | "ssrc1" | "srcx0" | "srcy0"
    )
}

impl Printer<'_> {
    fn get(&self, name: &str) -> Option<u64> {
        self.format
            .field(name)
            .map(|f| ((self.bits >> f.lo) & ((1u128 << f.width) - 1)) as u64)
    }

    fn flag(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| v != 0)
    }

    fn print(&mut self, row: &Row, address: u64, size: usize) -> (String, Option<u64>) {
        let mn = row.mnemonic.as_str();
        if row.special {
            return (self.special(mn), None);
        }
        let mut ops = Vec::new();
        let mut target = None;
        let three_src = ["src0", "src1", "src2"];
        if self.format.name == "VOP3"
            && row
                .template
                .iter()
                .any(|o| matches!(o, Operand::Field { kind, .. } if kind == "v16"))
        {
            // OP_SEL bits 0-2 select source halves, bit 3 the destination's (a VGPR one).
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
            self.plain_halves = self.get("op_sel").unwrap_or(0) & !valid != 0;
        }
        let uses_sdst = row
            .template
            .iter()
            .any(|o| matches!(o, Operand::Field { field, .. } if field == "sdst"));
        let global_off = self.format.name == "GLOBAL" && self.saddr_is_off();
        // A matrix op's source C is as wide as its destination (the accumulator it
        // updates), whatever the form the table was generated from put there (an inline
        // constant `0` gives it no register width).
        let mai_c_width = row.template.iter().find_map(|o| match o {
            Operand::Field { field, width, .. } if field == "vdst" && is_mai(mn) => Some(*width),
            _ => None,
        });
        for op in &row.template {
            match op {
                Operand::Fixed(s) => ops.push(s.clone()),
                // Only image rows hold address lists; image_text prints them.
                Operand::Addresses { .. } => ops.push("?".into()),
                Operand::Field { field, kind, width } => {
                    let v = self.get(field).unwrap_or(0);
                    let text = match (field.as_str(), kind.as_str()) {
                        ("simm16", _) if mn.starts_with("s_cbranch") || mn == "s_branch" => {
                            // LLVM prints the field unsigned; the jump is signed dwords.
                            let rel = v as u16 as i16;
                            target = Some(
                                address
                                    .wrapping_add(size as u64)
                                    .wrapping_add_signed(i64::from(rel) * 4),
                            );
                            v.to_string()
                        }
                        ("saddr", _) if self.saddr_is_off() => "off".into(),
                        // A buffer access without offen/idxen names no VGPR address.
                        ("vaddr", _)
                            if self.format.name == "MUBUF"
                                && !self.flag("offen")
                                && !self.flag("idxen") =>
                        {
                            "off".into()
                        }
                        // gfx11+ scratch without SVE has no VGPR address.
                        ("addr", _)
                            if self.format.name == "SCRATCH"
                                && self.format.field("sve").is_some()
                                && !self.flag("sve") =>
                        {
                            "off".into()
                        }
                        ("addr", "v") if global_off => vreg("v", v, 2),
                        ("sbase", _) => sreg(self.family, v * 2, *width),
                        ("srsrc" | "ssamp", _) => sreg(self.family, v * 4, *width),
                        ("offset", _) if self.format.name == "SMEM" => self.smem_offset(v),
                        // MUBUF/MTBUF's 8-bit SOFFSET (gfx9-gfx11) is a scalar source: an
                        // SGPR, an inline constant (Triton's `0` is 0x80) or a special value;
                        // these encodings carry no literal and LLVM marks LDS_DIRECT invalid
                        // there, so 254 and 255 stay register numbers the reader refuses.
                        // gfx12's 7-bit one holds SGPRs and null only.
                        ("soffset", _) if self.soffset_is_source() && v < 254 => self.source(v, 1),
                        ("literal", _) => {
                            self.literal = self.literal_word;
                            format!("0x{:x}", self.literal_word.unwrap_or(0))
                        }
                        // VOPD's Y destination keeps bits 7:1; bit 0 is the opposite of X's.
                        ("vdsty", _) => {
                            vreg("v", v << 1 | (!self.get("vdstx").unwrap_or(0) & 1), 1)
                        }
                        (f, k) if is_source(f) => {
                            let width = match (f, mai_c_width) {
                                ("src2", Some(w)) => w,
                                _ => *width,
                            };
                            let mut s = match (f, self.dpp_src0) {
                                ("src0", Some(n)) if k == "v16" => self.half(f, n),
                                ("src0", Some(n)) => vreg("v", n, width),
                                _ if k == "v16" && v >= 256 => self.half(f, v - 256),
                                _ => self.source(v, width),
                            };
                            // An AGPR source: by the template (v_accvgpr_read's source is
                            // always one) or by a matrix op's ACC bits.
                            let vgpr = s.starts_with("v[")
                                || s.strip_prefix('v')
                                    .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
                            if (k == "a" || self.mai_agpr(mn, f)) && vgpr {
                                s = s.replacen('v', "a", 1);
                            }
                            if let Some(i) = three_src.iter().position(|x| *x == f) {
                                if self.format.name == "VOP3" {
                                    let abs =
                                        !uses_sdst && self.get("abs").unwrap_or(0) >> i & 1 != 0;
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
                        (_, "hex") => format!("0x{v:x}"),
                        // LLVM prints a 16-bit immediate in decimal while it is an
                        // inline-constant value (0..64), else in hex.
                        (_, "dec") if v <= 64 => v.to_string(),
                        (_, "dec") => format!("0x{v:x}"),
                        ("vdst", "v") if self.mai_agpr(mn, "vdst") => vreg("a", v, *width),
                        (f, "v16") => self.half(f, v),
                        (_, "v") => vreg("v", v, *width),
                        (_, "a") => vreg("a", v, *width),
                        (_, _) => sreg(self.family, v, *width),
                    };
                    ops.push(text);
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

    /// A 16-bit VGPR operand (gfx11's true16 `vN.l` / `vN.h`; `n` the VGPR bits of the field):
    /// VOP3 names the whole VGPR and picks the half by OP_SEL (bits 0-2 the sources, 3 the
    /// destination); the 32-bit encodings use bit 7 of the 8-bit VGPR number for the half
    /// (RDNA3 ISA chapter 16, "VOP1"/"VOP2"/"VOPC": 16-bit operands address v0-v127 halves).
    fn half(&self, field: &str, n: u64) -> String {
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
    fn smem_offset(&self, v: u64) -> String {
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
    fn soffset_is_source(&self) -> bool {
        self.format.field("soffset").is_some_and(|f| f.width == 8)
    }

    /// Whether a matrix instruction's operand `field` is an AGPR: ACC_CD (bit 15) for the
    /// destination and source C, ACC bits 59/60 for sources A/B.
    fn mai_agpr(&self, mn: &str, field: &str) -> bool {
        if self.format.name != "VOP3P" || !is_mai(mn) {
            return false;
        }
        let bit = match field {
            "vdst" | "src2" => 15,
            "src0" => 59,
            "src1" => 60,
            _ => return false,
        };
        self.bits >> bit & 1 != 0
    }

    fn saddr_is_off(&self) -> bool {
        // gfx9 encodes `off` as 0x7f; gfx10+ as SGPR_NULL.
        let v = self.get("saddr").unwrap_or(0);
        if self.family == "gfx9" {
            v == 0x7f
        } else {
            v == self.null_code()
        }
    }

    /// The encoding of SGPR_NULL: 125 on gfx10, 124 from gfx11 on.
    fn null_code(&self) -> u64 {
        if self.family == "gfx10" {
            125
        } else {
            124
        }
    }

    /// A 9-bit source operand: SGPR, special register, inline constant, literal or VGPR.
    fn source(&mut self, v: u64, width: u32) -> String {
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
            255 => {
                let lit = self.literal_word.unwrap_or(0);
                self.literal = self.literal_word;
                format!("0x{lit:x}")
            }
            256..=511 => vreg("v", v - 256, width),
            _ => format!("src_{v}"),
        }
    }

    fn modifiers(&self, mn: &str, row: &Row) -> String {
        let mut m = String::new();
        let cpol = |m: &mut String| {
            if self.format.field("th").is_some() {
                m.push_str(&self.temporal_hint(mn));
            } else if self.cpu == "gfx942" {
                if self.flag("glc") {
                    m.push_str(" sc0");
                }
                if self.flag("sc1") {
                    m.push_str(" sc1");
                }
                if self.flag("slc") {
                    m.push_str(" nt");
                }
            } else {
                if self.flag("glc") {
                    m.push_str(" glc");
                }
                if self.flag("slc") {
                    m.push_str(" slc");
                }
                if self.flag("dlc") {
                    m.push_str(" dlc");
                }
                if self.cpu == "gfx90a" && self.flag("sc1") {
                    m.push_str(" scc");
                }
            }
        };
        match self.format.name.as_str() {
            "SMEM" => {
                cpol(&mut m);
            }
            "DS" => {
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
            }
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
                cpol(&mut m);
                if self.flag("lds") {
                    m.push_str(" lds");
                }
            }
            "MUBUF" | "MTBUF" => {
                if self.flag("offen") {
                    m.push_str(" offen");
                }
                if self.flag("idxen") {
                    m.push_str(" idxen");
                }
                let off = self.get("offset").unwrap_or(0);
                if off != 0 {
                    m.push_str(&format!(" offset:{off}"));
                }
                cpol(&mut m);
                if self.flag("lds") && self.format.name == "MUBUF" {
                    m.push_str(" lds");
                }
                if self.flag("tfe") {
                    m.push_str(" tfe");
                }
            }
            "VOP3" => {
                let sdst = row
                    .template
                    .iter()
                    .any(|o| matches!(o, Operand::Field { field, .. } if field == "sdst"));
                let printed = row
                    .template
                    .iter()
                    .filter(|o| matches!(o, Operand::Field { field, .. } if is_source(field)))
                    .count();
                // v_fmac/v_mac's third source is its destination (tied, not printed), but LLVM
                // counts it in op_sel: [src0,src1,src2,dst].
                let tied = mn.starts_with("v_fmac") || mn.starts_with("v_mac");
                let nsrc = if tied { printed.max(3) } else { printed };
                let op_sel = self.get("op_sel").unwrap_or(0);
                if !sdst && !self.plain_halves && op_sel != 0 {
                    let bits: Vec<String> = (0..nsrc)
                        .map(|i| (op_sel >> i & 1).to_string())
                        .chain(std::iter::once((op_sel >> 3 & 1).to_string()))
                        .collect();
                    m.push_str(&format!(" op_sel:[{}]", bits.join(",")));
                }
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
            "VOP3P" => {
                let nsrc = row
                    .template
                    .iter()
                    .filter(|o| matches!(o, Operand::Field { field, .. } if is_source(field)))
                    .count();
                let op_sel = self.get("op_sel").unwrap_or(0);
                let hi =
                    self.get("op_sel_hi").unwrap_or(0) | self.get("op_sel_hi2").unwrap_or(0) << 2;
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
            }
            _ => {}
        }
        m
    }

    /// gfx12's cache policy: ` th:TH_...` and ` scope:SCOPE_...` when not the defaults (the
    /// names of LLVM's SIDefines.h `CPol::TH_*` and `SCOPE_*`, per loads, stores and atomics).
    fn temporal_hint(&self, mn: &str) -> String {
        const LOAD: [&str; 8] = ["RT", "NT", "HT", "LU", "NT_RT", "RT_NT", "NT_HT", "BYPASS"];
        const STORE: [&str; 8] = ["RT", "NT", "HT", "WB", "NT_RT", "RT_NT", "NT_HT", "BYPASS"];
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
            m.push_str(&format!(" th:TH_{kind}_{}", names[th]));
        }
        if scope != 0 {
            m.push_str(&format!(" scope:SCOPE_{}", SCOPE[scope]));
        }
        m
    }

    /// Operands LLVM prints in a syntax of their own.
    fn special(&self, mn: &str) -> String {
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
                let id0 = (imm & 0xf) as usize;
                let skip = (imm >> 4 & 7) as usize;
                let id1 = (imm >> 7 & 0xf) as usize;
                let mut parts = Vec::new();
                if id0 != 0 {
                    parts.push(format!("instid0({})", ID.get(id0).copied().unwrap_or("?")));
                }
                if skip != 0 {
                    parts.push(format!(
                        "instskip({})",
                        SKIP.get(skip).copied().unwrap_or("?")
                    ));
                }
                if id1 != 0 {
                    parts.push(format!("instid1({})", ID.get(id1).copied().unwrap_or("?")));
                }
                if parts.is_empty() || id0 >= ID.len() || id1 >= ID.len() || skip >= SKIP.len() {
                    format!("{mn} 0x{imm:x}")
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
                    msg_name(msg).map_or(msg.to_string(), str::to_string)
                )
            }
            "s_sendmsg" | "s_sendmsghalt" => match msg_name(imm & 0xff).filter(|_| imm >> 4 == 0) {
                Some(n) => format!("{mn} sendmsg({n})"),
                None => format!(
                    "{mn} sendmsg({}, {}, {})",
                    imm & 0xf,
                    imm >> 4 & 7,
                    imm >> 8 & 3
                ),
            },
            _ => format!("{mn} 0x{imm:x}"),
        }
    }
}

/// An image instruction (MIMG on gfx9-gfx11, VIMAGE/VSAMPLE on gfx12) as LLVM prints it; the
/// extra NSA dwords (gfx10/gfx11: one byte per further address VGPR) are read with
/// `word_at(index)` and appended to `words`. Only the BVH ops are decoded: the address count
/// of the others depends on the dimension, A16 and the opcode's arguments, which the
/// generated table does not hold yet.
fn image_text(
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
fn is_mai(mn: &str) -> bool {
    mn.starts_with("v_mfma") || mn.starts_with("v_smfmac")
}

/// A VOP1/VOP2 instruction in its SDWA form (Vega ISA 12.9 "SDWA": src0 [7:0], dst_sel [10:8],
/// dst_unused [12:11], clamp [13], omod [15:14] (gfx9), src0_sel [18:16], src0_sext [19],
/// src0_neg [20], src0_abs [21], s0 [23], src1_sel [26:24], src1_sext [27], src1_neg [28],
/// src1_abs [29], s1 [31]), as LLVM prints it.
fn sdwa_text(family: &str, row: &Row, vdst: u64, vsrc1: u64, ext: u32) -> String {
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
fn dpp_text(
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
            Operand::Field { field, kind, width } => ops.push(match field.as_str() {
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
fn dpp_controls(family: &str, cpu: &str, row: &Row, src0: u64, ext: u32) -> Result<String, String> {
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

/// Message names of `s_sendmsg` (LLVM's SIDefines.h `ID_*`, the RDNA3 ISA's message table).
fn msg_name(id: u64) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
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
fn vreg(prefix: &str, n: u64, width: u32) -> String {
    if width <= 1 {
        format!("{prefix}{n}")
    } else {
        format!("{prefix}[{n}:{}]", n + u64::from(width) - 1)
    }
}

/// A scalar register operand by its encoding (SGPRs, VCC, EXEC, M0, TTMPs, null).
fn sreg(family: &str, n: u64, width: u32) -> String {
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
