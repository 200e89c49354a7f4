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
//! A third, `data/fixed_fields.tsv` (`scripts/isa/gen_fixed_fields.py`), holds per row and
//! processor the bits LLVM's disassembler requires to hold one value (fields an instruction does
//! not have: an integer op's abs/neg, a load's data field, s_barrier's immediate are zero, a
//! FLAT op's SADDR is `off`); an encoding where one differs is refused at its offset, as
//! llvm-objdump-22 refuses it (issue 47 item 14).
//!
//! What this module adds (printer.rs, operand_text.rs) is how a field's value prints (registers, inline constants, literals,
//! `off`), the modifiers of each format (offsets, cache policy, VOP3 neg/abs/clamp/omod, VOP3P
//! op_sel), the operands LLVM prints in a syntax of their own (`s_waitcnt`, `s_delay_alu`,
//! `s_sendmsg`, `s_wait_alu`) and the BVH image ops' address lists. Families covered: gfx9
//! (gfx900, gfx90a, gfx942), gfx10 (gfx1010, gfx1030), gfx11 (gfx1100) and gfx12 (gfx1200).

use std::collections::HashMap;
use std::sync::OnceLock;

const FORMATS_TSV: &str = include_str!("../../data/formats.tsv");
const ENCODINGS_TSV: &str = include_str!("../../data/encodings.tsv");
const FIXED_FIELDS_TSV: &str = include_str!("../../data/fixed_fields.tsv");

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
        /// A source LLVM reads as a 16-bit integer (its inline float constants print as the
        /// half-float's bits, `0x3800` for 0.5).
        int16: bool,
    },
    /// A BVH op's address VGPRs (`vaddr:nsa:W.W..|W.W..`): the register width of each address
    /// operand as LLVM lists them apart (NSA), without and with A16.
    Addresses { plain: Vec<u32>, a16: Vec<u32> },
}

/// A row key: family, format (`.rtn` for returning atomics) and opcode.
type RowKey = (String, String, u64);

struct Tables {
    formats: HashMap<String, Vec<Format>>,
    rows: HashMap<RowKey, Vec<Row>>,
    /// Per row key, the processors and the bits fixed for them (mask, value).
    fixed: HashMap<RowKey, Vec<FixedBits>>,
}

/// The bits of a row LLVM's disassembler fixes for some processors: `bits & mask == value`.
struct FixedBits {
    processors: Vec<String>,
    mask: u128,
    value: u128,
}

/// `data/fixed_fields.tsv` read into its table.
fn fixed_fields() -> HashMap<RowKey, Vec<FixedBits>> {
    let mut fixed: HashMap<RowKey, Vec<FixedBits>> = HashMap::new();
    for line in FIXED_FIELDS_TSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let c: Vec<&str> = line.split('\t').collect();
        let (Ok(op), Ok(mask), Ok(value)) = (
            c[2].parse(),
            u128::from_str_radix(c[4], 16),
            u128::from_str_radix(c[5], 16),
        ) else {
            continue;
        };
        fixed
            .entry((c[0].to_string(), c[1].to_string(), op))
            .or_default()
            .push(FixedBits {
                processors: c[3].split(',').map(str::to_string).collect(),
                mask,
                value,
            });
    }
    fixed
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
        let mut rows: HashMap<RowKey, Vec<Row>> = HashMap::new();
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
                                int16: p.next() == Some("i16"),
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
        Tables {
            formats,
            rows,
            fixed: fixed_fields(),
        }
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
    let walk = Walk {
        family,
        cpu,
        tables: tables(),
        code,
        address,
    };
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < code.len() {
        let d = walk.one(pos).map_err(|message| DecodeError {
            offset: pos,
            message,
        })?;
        pos += d.words.len() * 4;
        out.push(d);
    }
    Ok(out)
}

/// The word walk over one function's code: each instruction's format, row and text.
struct Walk<'a> {
    family: &'static str,
    cpu: &'static str,
    tables: &'static Tables,
    code: &'a [u8],
    address: u64,
}

/// One instruction's identified format and its bits (up to 96: gfx12's VGLOBAL, VBUFFER).
struct Fetched<'f> {
    format: &'f Format,
    words: Vec<u32>,
    bits: u128,
}

impl Fetched<'_> {
    fn get(&self, name: &str) -> Option<u64> {
        self.format
            .field(name)
            .map(|f| ((self.bits >> f.lo) & ((1u128 << f.width) - 1)) as u64)
    }
}

impl Walk<'_> {
    fn word_at(&self, p: usize) -> Option<u32> {
        self.code
            .get(p..p + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The instruction at byte `pos`, or why it cannot be decoded.
    fn one(&self, pos: usize) -> Result<Decoded, String> {
        let fetched = self.fetch(pos)?;
        let address = self.address.wrapping_add(pos as u64);
        if fetched.format.name == "VOPD" {
            return self.vopd(pos, address, fetched);
        }
        let (format, w0) = (fetched.format, fetched.words[0]);
        let row = self.row(&fetched)?;
        if matches!(
            format.name.as_str(),
            "EXP" | "VINTRP" | "LDSDIR" | "VINTERP"
        ) {
            return Err(format!(
                "{} ({}, 0x{w0:08X}) is not decoded yet: exports and parameter interpolation are graphics-only encodings",
                row.mnemonic, format.name
            ));
        }
        if matches!(format.name.as_str(), "MIMG" | "VIMAGE" | "VSAMPLE") {
            let mut words = fetched.words.clone();
            let text = image_text(self.family, format, fetched.bits, row, &mut words, |i| {
                self.word_at(pos + 4 * i)
            })
            .map_err(|m| format!("{m} (0x{w0:08X})"))?;
            return Ok(Decoded {
                address,
                words,
                text,
                target: None,
            });
        }
        if let Some(d) = self.sdwa_or_dpp(pos, address, &fetched, row)? {
            return Ok(d);
        }
        self.printed(pos, address, fetched, row)
    }

    /// The format whose identification bits the first dword matches, and the dwords it takes.
    fn fetch(&self, pos: usize) -> Result<Fetched<'static>, String> {
        let family = self.family;
        let w0 = self
            .word_at(pos)
            .ok_or_else(|| "truncated instruction (fewer than 4 bytes left)".to_string())?;
        let format = self.tables.formats[family]
            .iter()
            .find(|f| {
                f.ident
                    .iter()
                    .all(|&(lo, w, v)| ((u64::from(w0) >> lo) & ((1 << w) - 1)) == v)
            })
            .ok_or_else(|| {
                format!("0x{w0:08X} matches no {family} encoding format shadersim decodes")
            })?;
        let mut words = vec![w0];
        for i in 1..(format.bits / 32) as usize {
            words.push(self.word_at(pos + 4 * i).ok_or_else(|| {
                format!("truncated {}-bit {} instruction", format.bits, format.name)
            })?);
        }
        let bits = words
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, &w)| acc | u128::from(w) << (32 * i));
        Ok(Fetched {
            format,
            words,
            bits,
        })
    }

    /// The table row of this processor for `format` and `op`.
    fn lookup(&self, format: String, op: u64) -> Option<&'static Row> {
        self.tables
            .rows
            .get(&(self.family.to_string(), format, op))
            .and_then(|rows| {
                rows.iter()
                    .find(|r| r.processors.iter().any(|p| p == self.cpu))
            })
    }

    /// The row of a non-VOPD instruction: its opcode (gfx10 MUBUF/MTBUF keep the top bit
    /// apart, `op_hi`), and for a memory atomic with its return bit set the `.rtn` row, which
    /// prints a destination.
    fn row(&self, fetched: &Fetched) -> Result<&'static Row, String> {
        let format = fetched.format;
        let op_width = format.field("op").map_or(0, |f| f.width);
        let op = fetched.get("op").unwrap_or(0) | fetched.get("op_hi").unwrap_or(0) << op_width;
        let returns = matches!(format.name.as_str(), "FLAT" | "GLOBAL" | "SCRATCH")
            && if self.family == "gfx12" {
                fetched.get("th").unwrap_or(0) & 1 != 0
            } else {
                fetched.get("glc").unwrap_or(0) != 0
            };
        let rtn = format!("{}.rtn", format.name);
        let (key, row) = returns
            .then(|| self.lookup(rtn.clone(), op).map(|r| (rtn, r)))
            .flatten()
            .or_else(|| {
                self.lookup(format.name.clone(), op)
                    .map(|r| (format.name.clone(), r))
            })
            .ok_or_else(|| {
                format!(
                    "{} opcode {op} (0x{:08X}) is not in the {} table for {}",
                    format.name, fetched.words[0], self.family, self.cpu
                )
            })?;
        self.check_fixed_fields(fetched, key, op, row)?;
        Ok(row)
    }

    /// Refuse an encoding whose bits differ where its row fixes them (data/fixed_fields.tsv: a
    /// field the instruction does not have, which must be zero or `off`): LLVM's disassembler
    /// calls it an invalid instruction encoding.
    fn check_fixed_fields(
        &self,
        fetched: &Fetched,
        key: String,
        op: u64,
        row: &Row,
    ) -> Result<(), String> {
        let Some(rows) = self.tables.fixed.get(&(self.family.to_string(), key, op)) else {
            return Ok(());
        };
        let Some(fixed) = rows
            .iter()
            .find(|f| f.processors.iter().any(|p| p == self.cpu))
        else {
            return Ok(());
        };
        let set = (fetched.bits & fixed.mask) ^ fixed.value;
        if set == 0 {
            return Ok(());
        }
        let format = fetched.format;
        let mut parts: Vec<String> = Vec::new();
        for bit in (0..128).filter(|b| set >> b & 1 != 0) {
            let part = match format
                .fields
                .iter()
                .filter(|f| (f.lo..f.lo + f.width).contains(&bit))
                .min_by_key(|f| f.width)
            {
                Some(f) => {
                    let ones = (1u128 << f.width) - 1;
                    let (want, has) = (fixed.value >> f.lo & ones, fetched.bits >> f.lo & ones);
                    format!("{} must be {want:#x} (holds {has:#x})", f.name)
                }
                None => format!("bit {bit} must be {}", fixed.value >> bit & 1),
            };
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        Err(format!(
            "{} ({}, 0x{:08X}): {} for this instruction, a field it does not have; llvm-objdump-22 refuses the encoding",
            row.mnemonic,
            format.name,
            fetched.words[0],
            parts.join(", ")
        ))
    }

    /// A VOPD pair: its X and Y halves' rows, printed `X :: Y`.
    fn vopd(&self, pos: usize, address: u64, fetched: Fetched) -> Result<Decoded, String> {
        let (opx, opy) = (
            fetched.get("opx").unwrap_or(0),
            fetched.get("opy").unwrap_or(0),
        );
        let (Some(x), Some(y)) = (
            self.lookup("VOPDX".to_string(), opx),
            self.lookup("VOPDY".to_string(), opy),
        ) else {
            return Err(format!(
                "VOPD opcodes {opx}/{opy} (0x{:08X}) are not in the {} table",
                fetched.words[0], self.family
            ));
        };
        let mut printer = Printer {
            family: self.family,
            cpu: self.cpu,
            format: fetched.format,
            bits: fetched.bits,
            literal: None,
            literal_word: self.word_at(pos + 8),
            dpp_src0: None,
            plain_halves: false,
        };
        let (tx, _) = printer.print(x, address, 8);
        let (ty, _) = printer.print(y, address, 8);
        let mut words = fetched.words;
        if let Some(lit) = printer.literal {
            words.push(lit);
        }
        Ok(Decoded {
            address,
            words,
            text: format!("{tx} :: {ty}"),
            target: None,
        })
    }

    /// SDWA and DPP: a VOP1/VOP2/VOPC source 0 of 249 (SDWA, gfx9/gfx10), 250 (DPP16) or
    /// 233/234 (DPP8, gfx10+) means a second dword of operand controls.
    fn sdwa_or_dpp(
        &self,
        pos: usize,
        address: u64,
        fetched: &Fetched,
        row: &Row,
    ) -> Result<Option<Decoded>, String> {
        let (family, format, w0) = (self.family, fetched.format, fetched.words[0]);
        if !matches!(format.name.as_str(), "VOP1" | "VOP2" | "VOPC") {
            return Ok(None);
        }
        let src0 = fetched.get("src0").unwrap_or(0);
        let sdwa = src0 == 249 && (family == "gfx9" || family == "gfx10");
        let dpp = src0 == 250 || (family != "gfx9" && (src0 == 233 || src0 == 234));
        if sdwa && format.name == "VOPC" {
            return Err(format!(
                "{} in its SDWA form (0x{w0:08X}) is not decoded yet",
                row.mnemonic
            ));
        }
        if !sdwa && !dpp {
            return Ok(None);
        }
        let kind = if sdwa { "SDWA" } else { "DPP" };
        let ext = self
            .word_at(pos + 4)
            .ok_or_else(|| format!("truncated {kind} {} instruction", row.mnemonic))?;
        let text = if sdwa {
            sdwa_text(
                family,
                row,
                fetched.get("vdst").unwrap_or(0),
                fetched.get("vsrc1").unwrap_or(0),
                ext,
            )
        } else {
            dpp_text(family, self.cpu, row, format, fetched.bits, ext)
                .map_err(|m| format!("{m} (0x{w0:08X} 0x{ext:08X})"))?
        };
        Ok(Some(Decoded {
            address,
            words: vec![w0, ext],
            text,
            target: None,
        }))
    }

    /// Every other instruction, printed by its row: gfx11+ VOP3 in a DPP form (source 0 of
    /// 250, 233/234) takes a third dword of DPP controls, source 0 the VGPR in its low byte
    /// (RDNA3 ISA chapter 16, "VOP3 DPP"); a literal follows the instruction.
    fn printed(
        &self,
        pos: usize,
        address: u64,
        fetched: Fetched,
        row: &Row,
    ) -> Result<Decoded, String> {
        let (family, format, w0) = (self.family, fetched.format, fetched.words[0]);
        let mut words = fetched.words.clone();
        let src0 = fetched.get("src0");
        let vop3_dpp = matches!(family, "gfx11" | "gfx12")
            && matches!(format.name.as_str(), "VOP3" | "VOP3P")
            && matches!(src0, Some(233 | 234 | 250));
        let dpp_word = if vop3_dpp {
            if format.name == "VOP3P" {
                return Err(format!(
                    "{} in its DPP form (0x{w0:08X}) is not decoded yet",
                    row.mnemonic
                ));
            }
            let d = self
                .word_at(pos + 8)
                .ok_or_else(|| format!("truncated DPP {} instruction", row.mnemonic))?;
            words.push(d);
            Some(d)
        } else {
            None
        };
        let size_before_literal = words.len() * 4;
        let mut printer = Printer {
            family,
            cpu: self.cpu,
            format,
            bits: fetched.bits,
            literal: None,
            literal_word: self.word_at(pos + size_before_literal),
            dpp_src0: dpp_word.map(|d| u64::from(d & 0xff)),
            plain_halves: false,
        };
        let (mut text, target) = printer.print(row, address, size_before_literal);
        if let Some(d) = dpp_word {
            let mn = row.mnemonic.as_str();
            let dpp_mn = if mn.ends_with("_e64") {
                format!("{mn}_dpp")
            } else {
                format!("{mn}_e64_dpp")
            };
            let controls = dpp_controls(family, self.cpu, row, src0.unwrap_or(0), d)
                .map_err(|m| format!("{mn}: {m} (0x{w0:08X} 0x{d:08X})"))?;
            text = format!("{dpp_mn}{}{controls}", &text[mn.len()..]);
        }
        if let Some(lit) = printer.literal {
            words.push(lit);
        }
        Ok(Decoded {
            address,
            words,
            text,
            target,
        })
    }
}

mod operand_text;
mod own_syntax;
mod printer;

use operand_text::*;
use printer::Printer;
