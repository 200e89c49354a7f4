//! Buffer provenance: which buffer each memory instruction reads or writes, found from the
//! program where it can be, so each buffer gets its own address range in the cache simulation.
//!
//! A memory op's address or resource registers (global `saddr` or `vaddr`, flat `vaddr`, a
//! buffer or image op's resource descriptor, a scalar load's `sbase`) are walked back through
//! their reaching definitions: copies, 32/64-bit adds (and their carry halves), the add of a
//! multiply-add, `readfirstlane`, until a ROOT: a scalar load (itself identified by the root of
//! its own `sbase`, its immediate offset and which DWORD of the loaded range), an SGPR live at
//! program entry (a user or system SGPR: a kernel-argument or descriptor-set pointer), or
//! nothing known. Each distinct root is a buffer; ops with no known root share a default
//! buffer. `[[memory]] buffer` and `base` hints name or place buffers the program does not show.
//!
//! Which operand is the address comes from the table's memory facts (the instruction family,
//! [`shadersim_isa::VmemPath`]) and the operand kinds; which instructions forward a pointer is a
//! list of table mnemonics ([`FORWARDING`]). LDS ops, cache control and descriptor queries have
//! no buffer.

use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::{
    InstrClass, Instruction, Operand, RegFile, RegRange, SpecialReg, VmemKind, VmemPath,
};
use std::collections::{BTreeSet, HashMap};

/// Where a buffer's address comes from, as found in the program.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    /// An SGPR's value at program entry: a user or system SGPR the runtime or driver sets (a
    /// kernel-argument segment or descriptor-set pointer).
    Entry {
        /// The SGPR.
        sgpr: u16,
    },
    /// A DWORD a scalar load read: the load's own address root and the byte offset of the
    /// DWORD from it (the load's immediate offset plus 4 x the DWORD's place in its range).
    Loaded {
        /// The root of the load's `sbase`.
        base: Box<Root>,
        /// Byte offset of the DWORD.
        offset: i64,
    },
    /// Scratch (private) memory: every `scratch_*` op.
    Scratch,
}

/// How a buffer was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferFound {
    /// From the program (a root).
    Program,
    /// By a `[[memory]] buffer` or `base` hint.
    Hint,
    /// Nothing known: the default buffer ops with unknown roots share.
    Default,
}

impl BufferFound {
    /// The JSON spelling.
    pub fn name(self) -> &'static str {
        match self {
            BufferFound::Program => "program",
            BufferFound::Hint => "hint",
            BufferFound::Default => "default",
        }
    }
}

/// One buffer: an address range of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Buffer {
    /// Its number (0: the default buffer).
    pub id: u32,
    /// The `[[memory]] buffer` name, when a hint named it.
    pub name: Option<String>,
    /// First byte address (see [`BufferMap::set_default_bases`] for buffers no hint placed).
    pub base: u64,
    /// Whether a `[[memory]] base` hint gave `base`.
    pub explicit_base: bool,
    /// How it was found.
    pub found: BufferFound,
    /// Where it comes from, in words (`loaded at line 13 from s8 at entry + 0x8`).
    pub origin: String,
    /// Lines of the memory ops given it, in program order, without repeats.
    pub lines: Vec<u32>,
}

/// The buffer of one memory op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferUse {
    /// Index into [`BufferMap::buffers`].
    pub buffer: u32,
    /// Bytes from the buffer's base the op's addresses start at: a scalar load's immediate
    /// offset; 0 for vector ops (their lane addresses are relative).
    pub offset: u64,
}

/// The buffers of a program and which memory op uses which.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BufferMap {
    /// Buffers by id; `buffers[0]` is the default buffer (unknown roots).
    pub buffers: Vec<Buffer>,
    /// The buffer of each memory instruction, by instruction index.
    pub of_instr: HashMap<usize, BufferUse>,
    /// Bytes between buffer `k`'s base and buffer `k + 1`'s beyond [`BUFFER_SPACING`] (set by
    /// [`BufferMap::set_default_bases`]).
    pub stagger: u64,
}

/// log2 of the distance between consecutive buffers' default bases: 2^40 bytes (1 TiB), far
/// more than any simulated stream covers, so buffers never overlap.
pub const BUFFER_SPACING_BITS: u32 = 40;

/// The distance between consecutive buffers' default bases, before the stagger.
pub const BUFFER_SPACING: u64 = 1 << BUFFER_SPACING_BITS;

/// Cache lines of stagger between consecutive buffers: buffer `k` starts `k` x this many lines
/// (of the model's largest line) past `k` x 2^40, so equal indices in different buffers fall
/// in different cache sets (a 2^40-aligned base alone would put `a[i]`, `b[i]` and `c[i]` in
/// one set of every level, more conflicts than allocations a driver staggers would see).
pub const STAGGER_LINES: u64 = 3;

/// Instructions that forward a pointer from some of their sources to their destination, by
/// the table's mnemonic (`InstrInfo::mnemonic`), with the source positions (counted after the
/// destinations) that may carry it. A 64-bit add's destination DWORD `k` follows DWORD `k` of a
/// 64-bit source. `v_add_nc_u64` (gfx1250) is not in the table's generations and is not
/// followed.
pub const FORWARDING: &[(&str, &[usize])] = &[
    ("s_mov_b32", &[0]),
    ("s_mov_b64", &[0]),
    ("v_mov_b32", &[0]),
    ("v_readfirstlane_b32", &[0]),
    ("v_readlane_b32", &[0]),
    ("s_add_u32", &[0, 1]),
    ("s_addc_u32", &[0, 1]),
    ("s_add_i32", &[0, 1]),
    ("s_add_co_u32", &[0, 1]),
    ("s_add_co_ci_u32", &[0, 1]),
    ("s_add_co_i32", &[0, 1]),
    ("s_add_u64", &[0, 1]),
    ("s_add_nc_u64", &[0, 1]),
    // (a << n) + b: the shifted source is an index.
    ("s_lshl1_add_u32", &[1]),
    ("s_lshl2_add_u32", &[1]),
    ("s_lshl3_add_u32", &[1]),
    ("s_lshl4_add_u32", &[1]),
    ("v_add_co_u32", &[0, 1]),
    ("v_addc_co_u32", &[0, 1]),
    ("v_add_u32", &[0, 1]),
    ("v_add_i32", &[0, 1]),
    ("v_addc_u32", &[0, 1]),
    ("v_add_nc_u32", &[0, 1]),
    ("v_add_co_ci_u32", &[0, 1]),
    ("v_add3_u32", &[0, 1, 2]),
    // (a << b) + c.
    ("v_lshl_add_u32", &[2]),
    // gfx940's 64-bit (a << n) + b: a shift of 0 is a plain 64-bit add of either source.
    ("v_lshl_add_u64", &[0, 2]),
    // a x b + c: the 64-bit addend.
    ("v_mad_u64_u32", &[2]),
];

/// Deepest chain of definitions followed from one memory op.
const MAX_DEPTH: u32 = 32;

/// The result of walking one register back.
#[derive(Debug, Clone, PartialEq)]
enum Walk {
    Known(Root),
    Unknown,
    /// Only definitions already being walked (a loop-carried update): neutral.
    Cycle,
}

/// What a memory op's buffer is found from.
#[derive(Debug, Clone, Copy, PartialEq)]
enum AddressSource {
    /// Walk this register (the first of the address or resource range).
    Reg(RegFile, u16),
    /// Scratch memory.
    Scratch,
}

/// The address or resource register of memory instruction `inst` (the first register of the
/// range), and a scalar load's immediate offset (`None`: not a scalar load or not immediate).
/// `None` for instructions with no buffer (LDS, cache control, queries, scalar stores).
fn address_source(inst: &Instruction) -> Option<(AddressSource, Option<i64>)> {
    let uses = inst.operands.get(inst.defs..).unwrap_or(&[]);
    let sgpr = |o: &Operand| o.reg().filter(|r| r.file == RegFile::Sgpr);
    let reg = |r: RegRange| AddressSource::Reg(r.file, r.first);
    if inst.class() == InstrClass::Smem {
        // A load: sdst, sbase, offset (imm, or an SGPR with an optional `offset:`).
        if inst.defs != 1 {
            return None;
        }
        let sbase = uses.first().and_then(sgpr)?;
        let extra = inst
            .modifier("offset")
            .and_then(|m| m.int_value())
            .unwrap_or(0);
        // gfx11+ prints `null` (reads as 0) for no SGPR offset.
        let offset = match uses.get(1) {
            Some(Operand::Imm(v)) => Some(v + extra),
            Some(o) if o.reg().is_some_and(|r| r.touches(SpecialReg::Null)) => Some(extra),
            None => Some(extra),
            _ => None,
        };
        return Some((reg(sbase), offset));
    }
    let facts = inst.info.memory?;
    if matches!(facts.kind, VmemKind::CacheControl | VmemKind::Query) {
        return None;
    }
    let source = match facts.path {
        VmemPath::Scratch => AddressSource::Scratch,
        // `saddr` when the op has one (then `vaddr` is a 32-bit offset), else the 64-bit `vaddr`.
        VmemPath::Global => match uses.iter().rev().find_map(sgpr) {
            Some(s) => reg(s),
            None => reg(uses.first()?.reg()?),
        },
        VmemPath::Flat => reg(uses.first()?.reg()?),
        // The resource descriptor: the first SGPR operand (`soffset` and an image's sampler
        // follow it).
        VmemPath::Buffer | VmemPath::TypedBuffer | VmemPath::Image => {
            reg(uses.iter().find_map(sgpr)?)
        }
    };
    Some((source, None))
}

/// Walks registers back to their roots (and finds reaching definitions for
/// [`crate::address_affine`]).
pub(crate) struct Finder<'a> {
    program: &'a Program,
    cfg: &'a Cfg,
    /// Registers each instruction writes.
    writes: Vec<Vec<RegRange>>,
    /// The line of the first scalar load found for each loaded root (for the words).
    load_lines: HashMap<Root, u32>,
    /// Registers being walked (file, register, instruction): a repeat is a cycle.
    stack: Vec<(RegFile, u16, usize)>,
}

impl<'a> Finder<'a> {
    pub(crate) fn new(program: &'a Program, cfg: &'a Cfg) -> Finder<'a> {
        Finder {
            program,
            cfg,
            writes: program
                .instructions
                .iter()
                .map(|s| s.inst.writes())
                .collect(),
            load_lines: HashMap::new(),
            stack: Vec::new(),
        }
    }

    fn writes(&self, i: usize, file: RegFile, r: u16) -> bool {
        self.writes[i]
            .iter()
            .any(|w| w.overlaps(&RegRange::single(file, r)))
    }

    /// The definitions of register `r` that reach instruction `at`, and whether the value at
    /// program entry does (a path from the entry with no definition).
    pub(crate) fn reaching(&self, file: RegFile, r: u16, at: usize) -> (BTreeSet<usize>, bool) {
        let mut defs = BTreeSet::new();
        let Some(&b) = self.cfg.block_of.get(at) else {
            return (defs, false);
        };
        let block = &self.cfg.blocks[b];
        if let Some(i) = (block.start..at).rev().find(|&i| self.writes(i, file, r)) {
            defs.insert(i);
            return (defs, false);
        }
        let mut entry = block.preds.is_empty();
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut work: Vec<usize> = block.preds.clone();
        if self.exec_zero_edges_unread(file, at, b) {
            // A VGPR that reaches the read only through an `s_cbranch_execz` taken straight to
            // its block, with EXEC unchanged since, reaches no lane: EXEC is zero on that path.
            work.retain(|&p| !self.only_exec_zero_edge(p, b));
        }
        while let Some(p) = work.pop() {
            if std::mem::replace(&mut seen[p], true) {
                continue;
            }
            let pb = &self.cfg.blocks[p];
            match (pb.start..pb.end).rev().find(|&i| self.writes(i, file, r)) {
                Some(i) => {
                    defs.insert(i);
                }
                None if pb.preds.is_empty() => entry = true,
                None => work.extend(pb.preds.iter().copied()),
            }
        }
        (defs, entry)
    }

    /// Whether a VGPR read at `at`, in block `b`, ignores what reaches it over an
    /// `s_cbranch_execz` taken to its block: a lane-wise read (not `v_readlane`/`v_readfirstlane`, which read a lane
    /// whatever EXEC holds) with no write of EXEC in its block before it.
    fn exec_zero_edges_unread(&self, file: RegFile, at: usize, b: usize) -> bool {
        if file != RegFile::Vgpr {
            return false;
        }
        let mnemonic = &self.program.instructions[at].inst.mnemonic;
        let exec = |i: usize| {
            self.writes[i]
                .iter()
                .any(|w| w.touches(SpecialReg::ExecLo) || w.touches(SpecialReg::ExecHi))
        };
        !mnemonic.starts_with("v_readlane")
            && !mnemonic.starts_with("v_readfirstlane")
            && !(self.cfg.blocks[b].start..at).any(exec)
    }

    /// Whether block `p` reaches block `b` only by its `s_cbranch_execz` taken (not by falling
    /// through to it as well).
    fn only_exec_zero_edge(&self, p: usize, b: usize) -> bool {
        let pb = &self.cfg.blocks[p];
        self.program.instructions[pb.last()].inst.mnemonic == "s_cbranch_execz"
            && pb
                .succs
                .iter()
                .filter(|e| e.to == b)
                .all(|e| e.kind == shadersim_cfg::EdgeKind::Taken)
    }

    /// The root of register `r` as instruction `at` reads it: every reaching definition must
    /// agree (a loop-carried update that adds to the pointer itself is neutral).
    fn root(&mut self, file: RegFile, r: u16, at: usize) -> Walk {
        if self.stack.contains(&(file, r, at)) {
            return Walk::Cycle;
        }
        if self.stack.len() as u32 >= MAX_DEPTH || !matches!(file, RegFile::Sgpr | RegFile::Vgpr) {
            return Walk::Unknown;
        }
        self.stack.push((file, r, at));
        let (defs, entry) = self.reaching(file, r, at);
        let mut results: Vec<Walk> = defs.iter().map(|&d| self.def_root(d, file, r)).collect();
        if entry {
            // A VGPR at entry holds lane data (work-item IDs, interpolants), not a pointer.
            results.push(if file == RegFile::Sgpr {
                Walk::Known(Root::Entry { sgpr: r })
            } else {
                Walk::Unknown
            });
        }
        self.stack.pop();
        let mut known: Option<Root> = None;
        let mut cycle = false;
        for w in results {
            match w {
                Walk::Unknown => return Walk::Unknown,
                Walk::Cycle => cycle = true,
                Walk::Known(k) => match &known {
                    Some(x) if *x != k => return Walk::Unknown,
                    _ => known = Some(k),
                },
            }
        }
        match known {
            Some(k) => Walk::Known(k),
            None if cycle => Walk::Cycle,
            None => Walk::Unknown,
        }
    }

    /// The root of register `r` as definition `d` writes it.
    fn def_root(&mut self, d: usize, file: RegFile, r: u16) -> Walk {
        let program = self.program;
        let inst = &program.instructions[d].inst;
        // The half of a VOPD pair that writes `r` (explicit destinations only: an implicit
        // write, such as SCC, is nothing followed).
        let target = RegRange::single(file, r);
        let part = std::iter::once(inst)
            .chain(inst.dual.as_deref())
            .find_map(|p| {
                p.operands[..p.defs]
                    .iter()
                    .filter_map(Operand::reg)
                    .find(|range| range.overlaps(&target))
                    .map(|range| (p, range))
            });
        let Some((part, range)) = part else {
            return Walk::Unknown;
        };
        let k = r - range.first;
        if part.class() == InstrClass::Smem {
            let Some((AddressSource::Reg(bf, br), Some(offset))) = address_source(part) else {
                return Walk::Unknown;
            };
            return match self.root(bf, br, d) {
                // A kernel argument that is a number, not a pointer (the hidden global offset
                // a 64-bit global id adds, a 32-bit value): an index, as a lane's data is.
                Walk::Known(Root::Entry { sgpr })
                    if self.plain_argument(sgpr, offset + 4 * i64::from(k)) =>
                {
                    Walk::Unknown
                }
                Walk::Known(base) => {
                    let root = Root::Loaded {
                        base: Box::new(base),
                        offset: offset + 4 * i64::from(k),
                    };
                    self.load_lines
                        .entry(root.clone())
                        .or_insert(program.instructions[d].pos.line);
                    Walk::Known(root)
                }
                other => other,
            };
        }
        let Some(&(_, sources)) = FORWARDING.iter().find(|(m, _)| *m == part.info.mnemonic) else {
            return Walk::Unknown;
        };
        let mut known: Option<Root> = None;
        let mut cycle = false;
        for &j in sources {
            let Some(src) = part.operands.get(part.defs + j).and_then(Operand::reg) else {
                continue;
            };
            if !matches!(src.file, RegFile::Sgpr | RegFile::Vgpr) {
                continue;
            }
            // DWORD `k` of a 64-bit destination follows DWORD `k` of a 64-bit source; a
            // 32-bit source feeds the low DWORD only.
            if k >= src.count {
                continue;
            }
            match self.root(src.file, src.first + k, d) {
                // An index (or anything not a pointer) added to the pointer.
                Walk::Unknown => {}
                Walk::Cycle => cycle = true,
                Walk::Known(x) => match &known {
                    Some(y) if *y != x => return Walk::Unknown,
                    _ => known = Some(x),
                },
            }
        }
        match known {
            Some(x) => Walk::Known(x),
            None if cycle => Walk::Cycle,
            None => Walk::Unknown,
        }
    }

    /// Whether the DWORD at byte `at` of the segment entry SGPR `sgpr` points to is part of a
    /// kernel argument the metadata says is a number: the kernel-argument segment, and an
    /// argument of a hidden integer kind (global offset, block count, group size, remainder,
    /// grid dimensions, dynamic LDS size) or a by-value argument of 4 bytes or fewer, which
    /// cannot hold a 64-bit pointer. (A larger by-value argument may be a struct holding one.)
    fn plain_argument(&self, sgpr: u16, at: i64) -> bool {
        const NUMBERS: &[&str] = &[
            "hidden_global_offset_",
            "hidden_block_count_",
            "hidden_group_size_",
            "hidden_remainder_",
            "hidden_grid_dims",
            "hidden_dynamic_lds_size",
        ];
        let declared = &self.program.declared;
        if declared.kernarg_sgpr() != Some(sgpr) {
            return false;
        }
        declared.args.iter().any(|a| {
            let inside = at >= i64::from(a.offset) && at < i64::from(a.offset) + i64::from(a.size);
            inside
                && (a.value_kind == "by_value" && a.size <= 4
                    || NUMBERS.iter().any(|n| a.value_kind.starts_with(n)))
        })
    }

    /// The root in words: `s8 at entry`, `loaded at line 13 from s8 at entry + 0x8`.
    fn describe(&self, root: &Root) -> String {
        match root {
            Root::Entry { sgpr } => format!("s{sgpr} at entry"),
            Root::Scratch => "scratch memory".into(),
            Root::Loaded { base, offset } => {
                let line = self
                    .load_lines
                    .get(root)
                    .map_or(String::new(), |l| format!(" at line {l}"));
                let off = if *offset < 0 {
                    format!("- {:#x}", offset.unsigned_abs())
                } else {
                    format!("+ {offset:#x}")
                };
                format!("loaded{line} from {} {off}", self.describe(base))
            }
        }
    }
}

/// The root of every memory instruction (by index; `None`: unknown), and the words of each
/// root. Instructions without a buffer (LDS, cache control, queries) are absent.
pub fn memory_roots(program: &Program, cfg: &Cfg) -> HashMap<usize, (Option<Root>, Option<i64>)> {
    roots_and_words(program, cfg).0
}

/// Where each memory instruction's buffer comes from, in words (by index; `None`: no root
/// found), for the hints template.
pub fn root_words(program: &Program, cfg: &Cfg) -> HashMap<usize, Option<String>> {
    let (roots, words) = roots_and_words(program, cfg);
    roots
        .into_iter()
        .map(|(i, (r, _))| (i, r.map(|r| words[&r].clone())))
        .collect()
}

/// The root (`None`: unknown) and immediate offset of every memory instruction, by index.
pub type RootsOf = HashMap<usize, (Option<Root>, Option<i64>)>;

/// Every memory instruction's root and offset, and the words that describe each root.
pub fn roots_and_words(program: &Program, cfg: &Cfg) -> (RootsOf, HashMap<Root, String>) {
    let mut finder = Finder::new(program, cfg);
    let mut out = HashMap::new();
    for (i, s) in program.instructions.iter().enumerate() {
        let Some((source, offset)) = address_source(&s.inst) else {
            continue;
        };
        let root = match source {
            AddressSource::Scratch => Some(Root::Scratch),
            AddressSource::Reg(file, r) => match finder.root(file, r, i) {
                Walk::Known(root) => Some(root),
                Walk::Unknown | Walk::Cycle => None,
            },
        };
        out.insert(i, (root, offset));
    }
    let words = out
        .values()
        .filter_map(|(r, _)| r.clone())
        .map(|r| {
            let w = finder.describe(&r);
            (r, w)
        })
        .collect();
    (out, words)
}

impl BufferMap {
    /// Place every buffer no `base` hint placed: buffer `k` at `k` x [`BUFFER_SPACING`] +
    /// `k` x `stagger` bytes (the default buffer 0 at address 0). `stagger` is
    /// [`STAGGER_LINES`] of the model's largest cache line, a multiple of every line size, so a
    /// linear stream stays line-aligned.
    pub fn set_default_bases(&mut self, stagger: u64) {
        self.stagger = stagger;
        for b in &mut self.buffers {
            if !b.explicit_base {
                let k = u64::from(b.id);
                b.base = (k << BUFFER_SPACING_BITS).wrapping_add(k.wrapping_mul(stagger));
            }
        }
    }

    /// Bytes between consecutive buffers' default bases before the stagger
    /// ([`BUFFER_SPACING`]).
    pub fn spacing(&self) -> u64 {
        BUFFER_SPACING
    }

    /// The first address of instruction `i`'s accesses: its buffer's base plus a scalar load's
    /// immediate offset (`None`: not a memory instruction with a buffer).
    pub fn base_of(&self, i: usize) -> Option<u64> {
        let u = self.of_instr.get(&i)?;
        let b = self.buffers.get(u.buffer as usize)?;
        Some(b.base.wrapping_add(u.offset))
    }

    /// The buffer of instruction `i`.
    pub fn buffer_of(&self, i: usize) -> Option<&Buffer> {
        self.buffers.get(self.of_instr.get(&i)?.buffer as usize)
    }

    /// Whether any memory op uses the default buffer.
    pub fn default_used(&self) -> bool {
        self.buffers.first().is_some_and(|b| !b.lines.is_empty())
    }

    /// The defaults the buffers rest on, one sentence each (for the report's `defaults`).
    pub fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        let placed = self
            .buffers
            .iter()
            .filter(|b| b.id > 0 && !b.explicit_base && !b.lines.is_empty())
            .count();
        if placed > 0 {
            out.push(format!(
                "{placed} buffer{} found from the program or named by hints, each its own address range: buffer k at k x 2^{BUFFER_SPACING_BITS} + k x {} bytes ({STAGGER_LINES} of the model's largest cache lines, so equal indices in different buffers fall in different cache sets)",
                if placed == 1 { "" } else { "s" },
                self.stagger
            ));
        }
        if let Some(d) = self.buffers.first().filter(|b| !b.lines.is_empty()) {
            let list: Vec<String> = d.lines.iter().map(u32::to_string).collect();
            out.push(format!(
                "memory ops whose buffer the program does not show share the default buffer 0 at address 0: line{} {}; give `buffer` or `base` in a hints file",
                if d.lines.len() == 1 { "" } else { "s" },
                list.join(", ")
            ));
        }
        out
    }
}
