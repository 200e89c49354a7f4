//! Address patterns read from the code: a small symbolic (affine) evaluation of the arithmetic
//! that feeds each vector memory op's address.
//!
//! The address of a global, flat or buffer op is walked back through the reaching definitions
//! of its address registers (as [`crate::buffers`] walks them to a buffer root) and written as
//! `uniform base + a x work-item id x (+ y, z terms) + b x workgroup id + c x loop iteration +
//! constant`, where the uniform base and factors may be unknown values the wave shares (kernel
//! arguments, descriptor DWORDs, entry SGPRs): symbols, never numbers. A register updated by a
//! uniform add in a loop (its value at the header merges the value before the loop with
//! `itself + step`) is `value before + step x iteration` of that loop.
//!
//! From that form `shadersim_trace::derive_address_patterns` gives the facts a `[[memory]]` hint would give:
//! the lane pattern (`a` bytes between lanes: `uniform`, `linear` or `stride:a`), the wave
//! stride (`a` x the wave size: waves of a workgroup cover consecutive work-item ids, and a
//! workgroup id's factor is taken to be the workgroup's size) and the iteration stride (`c`,
//! 0 when the loop does not move the address: every iteration reuses the same lines). An
//! address fed by a vector or LDS load (a gather, a pointer chase) is data-dependent; a product
//! of two lane-varying values, an unknown factor on the work-item id or an instruction the
//! evaluation does not model leaves the default, and each says why.
//!
//! Which operands are addresses comes from the table's memory facts (the instruction family,
//! [`shadersim_isa::VmemPath`]); which instructions are arithmetic, from the table's scalar
//! facts for the scalar ALU and the list [`VECTOR_ARITHMETIC`] of table mnemonics for the VALU.

use crate::buffers::Finder;
use shadersim_asm::{KernelArg, Program};
use shadersim_cfg::Cfg;
use shadersim_isa::{InstrClass, Instruction, Operand, RegFile};
use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::address_ops::address_terms;
pub use crate::address_ops::{VectorOp, VECTOR_ARITHMETIC};
pub(crate) use crate::affine_terms::Val;
use crate::affine_terms::{Atom, Bad, Lin, Var};

/// The value one instruction gives the register it defines.
mod def_value;
/// Where several definitions of a register meet at a loop header.
mod merge;

/// Deepest chain of definitions followed from one memory op.
const MAX_DEPTH: usize = 48;

/// Most definitions evaluated for one program (a bound on time, whatever the program).
const MAX_STEPS: usize = 200_000;

/// The affine form of one memory op's address, in the coefficients the facts need.
#[derive(Debug, Clone, PartialEq)]
pub struct AffineAddress {
    /// Bytes per work-item id x, y, z (`None`: the factor is an unknown uniform value).
    pub lane: [Option<i64>; 3],
    /// Whether the dimension appears at all.
    pub lane_used: [bool; 3],
    /// Bytes per iteration of the op's innermost loop (`Some(0)`: the loop does not move the
    /// address; `None`: an unknown uniform factor; only for ops in a loop).
    pub iteration: Option<Option<i64>>,
    /// The address in words (`base + 4 x id.x + 4 x iteration`).
    pub words: String,
    /// Loops other than the op's innermost that move the address (header lines).
    pub outer_loops: Vec<u32>,
    /// When the only other loop that moves the address is the one around the op's innermost
    /// loop, by a number of bytes per iteration: that loop and its bytes (`A[i * m + j]` in a
    /// loop over rows `i` around the loop over columns `j`).
    pub parent: Option<(usize, i64)>,
    /// Whether the address moves with a workgroup id the descriptor names.
    pub group_used: bool,
    /// Bytes the registers' arithmetic adds to the buffer's address beyond the lanes, the
    /// workgroup and the loops (`in[i + cols * 3]` with `cols` given: `12 x cols`), without
    /// the instruction's immediate offset (the coalescer's lines hold that); `None` when the
    /// uniform part holds more than the buffer's address (an unknown scaled value).
    pub offset: Option<i64>,
    /// Bytes per workgroup id x, y, z (`Some(0)`: the address does not move with that id;
    /// every id `Some(0)`: every workgroup reads the same data); `None`: an unknown factor (a
    /// workgroup size the launch did not give).
    pub group: [Option<i64>; 3],
    /// Whether the uniform part holds more than bases: a scaled or multiplied unknown (a
    /// workgroup id times the workgroup size, an offset argument), which may differ by wave.
    pub uniform_scaled: bool,
    /// The by-value kernel arguments (source names, in argument order) whose values the
    /// address holds and the launch did not give: `--arg NAME=VALUE` makes them numbers.
    pub arguments: Vec<String>,
    /// Whether the address holds numbers the launch's grid or block sets (a dispatch-packet
    /// field, a hidden kernel argument) that the launch did not give.
    pub launch_fields: bool,
}

/// What the code says about one vector memory op's address.
#[derive(Debug, Clone, PartialEq)]
pub enum AddressForm {
    /// Affine in the work-item ids and the loop iteration (boxed: the other forms are small).
    Affine(Box<AffineAddress>),
    /// Fed by data a load returned: the load's line and mnemonic.
    DataDependent {
        /// Line of the load.
        line: u32,
        /// Its mnemonic.
        mnemonic: String,
    },
    /// Not followed, and why.
    Unknown(String),
    /// An address a mask keeps within `region` bytes past its base (`table[i & 1023]`: 4096
    /// for 4-byte elements; `bins[data[i] & 255]`: 1024), nothing outside the mask moving it:
    /// what the code says of it inside (the masked index's affine form when the mask keeps its
    /// low bits whole, else data-dependent or not followed), and the mask's line and mnemonic.
    Masked {
        /// The form inside the region.
        inner: Box<AddressForm>,
        /// Bytes.
        region: u64,
        /// The mask's line.
        line: u32,
        /// Its mnemonic (`v_and_b32`, `v_dual_and_b32`).
        mnemonic: String,
    },
}

impl Wrap {
    /// The power of two the masked value stays below: past the mask's highest bit.
    pub(crate) fn size(&self) -> i64 {
        1i64 << (64 - self.mask.leading_zeros())
    }

    /// Whether the mask keeps the low bits whole (2^k - 1): the value is the masked one modulo
    /// the size.
    pub(crate) fn low_bits(&self) -> bool {
        self.mask == self.size() - 1
    }
}

/// The evaluator: reaching definitions, the merge stack and memoized results.
pub(crate) struct Eval<'a> {
    program: &'a Program,
    cfg: &'a Cfg,
    finder: Finder<'a>,
    /// Definitions being evaluated (instruction, file, register): the depth of the walk.
    stack: Vec<(usize, RegFile, u16)>,
    /// Merges being evaluated: (file, register, reaching definitions, entry reaches).
    merges: Vec<(RegFile, u16, BTreeSet<usize>, bool)>,
    /// Results that hold no placeholder, by (instruction, file, register).
    memo: HashMap<(usize, RegFile, u16), Val>,
    steps: usize,
    /// Whether a clamp of one lane-varying value is read as that value (the address forms
    /// do; trip counts and exit tests do not).
    pub(crate) follow_clamps: bool,
    /// The clamps (line, mnemonic) read so far by each definition being evaluated, innermost
    /// last, and by the memoized results that read some: an address's words name every clamp
    /// its value went through, whether computed now or earlier.
    clamps: Vec<BTreeSet<(u32, String)>>,
    memo_clamps: HashMap<(usize, RegFile, u16), BTreeSet<(u32, String)>>,
    /// Whether a lane-varying value masked by a constant (a `v_and_b32`, an SDWA select) is kept
    /// as a [`Var::Wrap`] (the address forms do: the address then wraps in a region; trip counts
    /// and exit tests do not).
    pub(crate) follow_wraps: bool,
    /// The masked values [`Var::Wrap`] numbers.
    pub(crate) wraps: Vec<Wrap>,
}

/// A value masked by a constant (a `v_and_b32`, an SDWA byte or word select): it stays below
/// [`Wrap::size`].
#[derive(Debug, Clone)]
pub(crate) struct Wrap {
    /// What was masked (data a load returned: `Bad::Data`; not followed: `Bad::Other`).
    pub(crate) inner: Result<Lin, Bad>,
    /// The mask.
    pub(crate) mask: i64,
    /// The mask's line and mnemonic.
    pub(crate) line: u32,
    pub(crate) mnemonic: String,
}

impl<'a> Eval<'a> {
    pub(crate) fn new(program: &'a Program, cfg: &'a Cfg) -> Eval<'a> {
        Eval {
            program,
            cfg,
            finder: Finder::new(program, cfg),
            stack: Vec::new(),
            merges: Vec::new(),
            memo: HashMap::new(),
            steps: 0,
            follow_clamps: false,
            clamps: Vec::new(),
            memo_clamps: HashMap::new(),
            follow_wraps: false,
            wraps: Vec::new(),
        }
    }

    /// Masked value `n` in words: `(work-item id (x) mod 1024)`.
    fn wrap_words(&mut self, n: u32) -> String {
        let Some(w) = self.wraps.get(n as usize).cloned() else {
            return "a masked value".to_string();
        };
        match &w.inner {
            Ok(l) if w.low_bits() => format!(
                "({} mod {})",
                self.words(l).trim_start_matches("base + "),
                w.size()
            ),
            _ => format!("(a value masked by {:#x})", w.mask),
        }
    }

    /// Note a clamp the value being evaluated goes through.
    pub(crate) fn note_clamp(&mut self, line: u32, mnemonic: &str) {
        if let Some(top) = self.clamps.last_mut() {
            top.insert((line, mnemonic.to_string()));
        }
    }

    /// Add `seen` to the clamps of the value being evaluated.
    fn add_clamps(&mut self, seen: &BTreeSet<(u32, String)>) {
        if let Some(top) = self.clamps.last_mut() {
            top.extend(seen.iter().cloned());
        }
    }

    fn line(&self, i: usize) -> u32 {
        self.program.instructions[i].pos.line
    }

    /// DWORD `k` of scalar load `part` (instruction `d`) when it reads the kernel-argument
    /// segment (its address is the segment pointer's entry value plus a constant offset) at
    /// a DWORD the launch gives (`DeclaredResources::kernarg_values`).
    fn kernarg_dword(&mut self, d: usize, part: &Instruction, k: u16) -> Option<u32> {
        let declared = &self.program.declared;
        if declared.kernarg_values.is_empty() && declared.dispatch_values.is_empty() {
            return None;
        }
        let (pointer, at) = self.segment_dword(d, part, k)?;
        let declared = &self.program.declared;
        if Some(pointer) == declared.kernarg_sgpr() {
            declared.kernarg_values.get(&at).copied()
        } else if Some(pointer) == declared.dispatch_sgpr() {
            declared.dispatch_values.get(&at).copied()
        } else {
            None
        }
    }

    /// The byte offset in the kernel-argument segment of DWORD `dword` that scalar load
    /// `instr` reads, when its address is the segment pointer's entry value plus a constant
    /// (whether or not the launch gives the number there).
    pub(crate) fn kernarg_offset(&mut self, instr: usize, dword: u16) -> Option<u32> {
        let program = self.program;
        let part = &program.instructions.get(instr)?.inst;
        if part.class() != InstrClass::Smem {
            return None;
        }
        let (pointer, at) = self.segment_dword(instr, part, dword)?;
        (Some(pointer) == program.declared.kernarg_sgpr()).then_some(at)
    }

    /// The entry SGPR whose pointer scalar load `part` (instruction `d`) reads from, and the
    /// byte offset of its DWORD `k` from that pointer, when the address is the pointer plus a
    /// constant.
    fn segment_dword(&mut self, d: usize, part: &Instruction, k: u16) -> Option<(u16, u32)> {
        let base = part.operands.get(part.defs).and_then(Operand::reg)?;
        let offset = match part.operands.get(part.defs + 1) {
            Some(Operand::Imm(v)) => u32::try_from(*v).ok()?,
            _ => return None,
        };
        if base.file != RegFile::Sgpr {
            return None;
        }
        // The base must hold a pointer the hardware set (the kernel-argument segment's, or the
        // dispatch packet's), or it plus a constant (clang addresses the hidden arguments from
        // `s[4:5] + 40`): its value at the load is the entry value of the pointer's first
        // SGPR and a number.
        let (pointer, moved) = match self.reg(RegFile::Sgpr, base.first, d) {
            Val::Lin(l) => {
                let c = l.0.get(&(Var::One, Vec::new())).copied().unwrap_or(0);
                match l.sub(&Lin::constant(c)).0.into_iter().collect::<Vec<_>>()[..] {
                    [((Var::One, ref atoms), 1)] => match atoms[..] {
                        [Atom::Entry(p)] => (p, u32::try_from(c).ok()?),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            _ => return None,
        };
        let at = offset.checked_add(moved)?.checked_add(4 * u32::from(k))?;
        Some((pointer, at))
    }

    /// The value of operand `o` as instruction `at` reads it (DWORD 0 of a range).
    pub(crate) fn operand(&mut self, o: &Operand, at: usize) -> Val {
        match o {
            Operand::Imm(v) => Val::Lin(Lin::constant(*v)),
            Operand::Off => Val::Lin(Lin::default()),
            Operand::Reg { range, neg, .. } => {
                if *neg {
                    return Val::Bad(Bad::Other(format!(
                        "a negated source at line {}",
                        self.line(at)
                    )));
                }
                self.reg(range.file, range.first, at)
            }
            _ => Val::Bad(Bad::Other(format!(
                "operand `{}` at line {}",
                self.program.instructions[at].inst.operand_text,
                self.line(at)
            ))),
        }
    }

    /// The value of register `r` as instruction `at` reads it.
    pub(crate) fn reg(&mut self, file: RegFile, r: u16, at: usize) -> Val {
        if file == RegFile::Ttmp {
            // Scalar, hence uniform; set by the hardware, not by the program. gfx12's ttmp9
            // is the workgroup id in x (y and z share ttmp7, kept opaque).
            if r == 9 && self.program.gen().has_architected_workgroup_ids() {
                return Val::Lin(Lin::var(Var::Group(0)));
            }
            return Val::Lin(Lin::atom(Atom::Ttmp(r)));
        }
        if !matches!(file, RegFile::Sgpr | RegFile::Vgpr) {
            return Val::Bad(Bad::Other(format!(
                "a special register read at line {}",
                self.line(at)
            )));
        }
        if self.stack.len() >= MAX_DEPTH || self.steps >= MAX_STEPS {
            return Val::Bad(Bad::Other(
                "a chain of definitions too deep to follow".into(),
            ));
        }
        self.steps += 1;
        let (defs, entry) = self.finder.reaching(file, r, at);
        if defs.len() == 1 && !entry {
            let d = *defs.iter().next().unwrap_or(&0);
            return self.def(d, file, r);
        }
        if defs.is_empty() {
            return if entry {
                self.entry(file, r)
            } else {
                Val::Bad(Bad::Other(format!(
                    "no definition of {} reaches line {}",
                    reg_name(file, r),
                    self.line(at)
                )))
            };
        }
        self.merge(file, r, at, defs, entry)
    }

    /// A register's value at program entry.
    fn entry(&self, file: RegFile, r: u16) -> Val {
        // A device function's VGPRs at entry are its arguments, not work-item ids.
        if file == RegFile::Vgpr && self.program.device_function {
            return Val::Bad(Bad::Other(format!(
                "{} is an argument of the device function",
                reg_name(file, r)
            )));
        }
        let group = self.program.declared.workgroup_id_sgprs();
        match (file, r) {
            (RegFile::Sgpr, _) => match group.iter().position(|g| *g == Some(r)) {
                Some(dim) => Val::Lin(Lin::var(Var::Group(dim as u8))),
                None => Val::Lin(Lin::atom(Atom::Entry(r))),
            },
            (RegFile::Vgpr, 0) => Val::Tid0,
            (RegFile::Vgpr, 1) => Val::Lin(Lin::var(Var::Lane(1))),
            (RegFile::Vgpr, 2) => Val::Lin(Lin::var(Var::Lane(2))),
            _ => Val::Bad(Bad::Other(format!(
                "{} holds lane data at entry",
                reg_name(file, r)
            ))),
        }
    }

    /// The value definition `d` writes to register `r`.
    pub(crate) fn def(&mut self, d: usize, file: RegFile, r: u16) -> Val {
        if let Some(v) = self.memo.get(&(d, file, r)) {
            let v = v.clone();
            if let Some(seen) = self.memo_clamps.get(&(d, file, r)).cloned() {
                self.add_clamps(&seen);
            }
            return v;
        }
        // No cycle check here: every cycle of definitions passes through a point where two
        // definitions (or the entry value) meet, and the merge stack in `reg` closes it with a
        // placeholder; the depth bound stops the rest.
        self.stack.push((d, file, r));
        self.clamps.push(BTreeSet::new());
        let v = self.def_value(d, file, r);
        let seen = self.clamps.pop().unwrap_or_default();
        self.stack.pop();
        let placeholder = matches!(&v, Val::Lin(l) if l.has(|v| matches!(v, Var::Phi(_))));
        if !placeholder {
            self.memo.insert((d, file, r), v.clone());
            if !seen.is_empty() {
                self.memo_clamps.insert((d, file, r), seen.clone());
            }
        }
        self.add_clamps(&seen);
        v
    }

    /// An instruction the evaluation does not model: a new uniform unknown when every source
    /// is uniform and loop-invariant, else not followed.
    fn opaque(
        &mut self,
        d: usize,
        k: u16,
        part: &Instruction,
        srcs: &[Operand],
    ) -> Result<Lin, Bad> {
        let line = self.line(d);
        for o in srcs {
            match o {
                Operand::Imm(_) | Operand::Float(_) => {}
                Operand::Reg { range, .. }
                    if matches!(range.file, RegFile::Sgpr | RegFile::Vgpr) =>
                {
                    // Every DWORD of a wide source (a 64-bit shift reads the high one too).
                    for r in range.first..range.first + range.count {
                        let l = self.reg(range.file, r, d).lin()?;
                        if !l.uniform() {
                            return Err(Bad::Other(format!(
                                "`{}` at line {line} is not followed",
                                part.base_mnemonic()
                            )));
                        }
                    }
                }
                // Special registers (SCC, VCC, EXEC, M0): a uniform SGPR result still is one.
                _ if part.class() != InstrClass::Salu => {
                    return Err(Bad::Other(format!(
                        "`{}` at line {line} is not followed",
                        part.base_mnemonic()
                    )))
                }
                _ => {}
            }
        }
        Ok(Lin::atom(Atom::Def { instr: d, dword: k }))
    }

    /// The by-value kernel argument DWORD `dword` of scalar load `instr` reads, when the
    /// program's metadata names it, and the DWORD's index within the argument.
    fn argument_of(&mut self, instr: usize, dword: u16) -> Option<(&'a KernelArg, u32)> {
        let at = self.kernarg_offset(instr, dword)?;
        let program = self.program;
        program.declared.args.iter().find_map(|a| {
            let k = at.checked_sub(a.offset).filter(|&k| k < a.size)?;
            (a.value_kind == "by_value" && a.name.is_some()).then_some((a, k / 4))
        })
    }

    /// What DWORD `dword` of scalar load `instr` holds when the launch's grid and block set
    /// it (a field of the dispatch packet, a hidden kernel argument), in words.
    fn launch_field(&mut self, instr: usize, dword: u16) -> Option<String> {
        let program = self.program;
        let part = &program.instructions.get(instr)?.inst;
        if part.class() != InstrClass::Smem {
            return None;
        }
        let (pointer, at) = self.segment_dword(instr, part, dword)?;
        let declared = &program.declared;
        if Some(pointer) == declared.dispatch_sgpr() {
            // hsa_kernel_dispatch_packet_t: the workgroup size in 16-bit fields at bytes 4, 6
            // and 8, the grid's work-items in 32-bit ones at 12, 16 and 20.
            let field = match at {
                4 => "the workgroup size (x; y in the high half)",
                8 => "the workgroup size (z)",
                12 => "the grid's work-items (x)",
                16 => "the grid's work-items (y)",
                20 => "the grid's work-items (z)",
                _ => return None,
            };
            return Some(format!("{field} from the dispatch packet"));
        }
        if Some(pointer) != declared.kernarg_sgpr() {
            return None;
        }
        declared
            .args
            .iter()
            .find(|a| {
                a.value_kind.starts_with("hidden_") && at >= a.offset && at - a.offset < a.size
            })
            .map(|a| format!("the hidden argument `{}`", a.value_kind))
    }

    /// An unknown uniform value in words.
    fn atom_words(&mut self, a: &Atom) -> String {
        match a {
            Atom::Entry(s) => format!("s{s} at entry"),
            Atom::Ttmp(t) => format!("ttmp{t}"),
            Atom::Def { instr, dword } => {
                if let Some((arg, k)) = self.argument_of(*instr, *dword) {
                    let name = arg.name.as_deref().unwrap_or_default();
                    return if k == 0 {
                        format!("the kernel argument `{name}`")
                    } else {
                        format!("DWORD {k} of the kernel argument `{name}`")
                    };
                }
                if let Some(field) = self.launch_field(*instr, *dword) {
                    return field;
                }
                let s = &self.program.instructions[*instr];
                if s.inst.class() == InstrClass::Smem {
                    let offset = s
                        .inst
                        .operands
                        .get(s.inst.defs + 1)
                        .and_then(|o| match o {
                            Operand::Imm(v) => Some(*v),
                            _ => None,
                        })
                        .map(|o| o + 4 * i64::from(*dword));
                    match offset {
                        Some(o) => format!("the DWORD at {o:#x} loaded at line {}", s.pos.line),
                        None => format!("DWORD {dword} loaded at line {}", s.pos.line),
                    }
                } else {
                    format!("`{}` at line {}", s.inst.base_mnemonic(), s.pos.line)
                }
            }
        }
    }

    /// `l` in words, uniform terms folded into `base`.
    fn words(&mut self, l: &Lin) -> String {
        let mut parts = vec!["base".to_string()];
        let mut constant = 0i64;
        for ((v, atoms), c) in &l.0 {
            let name = match v {
                Var::One if atoms.is_empty() => {
                    constant = constant.wrapping_add(*c);
                    continue;
                }
                Var::One => continue,
                Var::Lane(0) => "work-item id (x)".to_string(),
                Var::Lane(1) => "work-item id (y)".to_string(),
                Var::Lane(_) => "work-item id (z)".to_string(),
                Var::Group(0) => "workgroup id (x)".to_string(),
                Var::Group(1) => "workgroup id (y)".to_string(),
                Var::Group(_) => "workgroup id (z)".to_string(),
                Var::Iter(id) => format!(
                    "iteration of the loop at line {}",
                    self.line(self.cfg.blocks[self.cfg.loops[*id].header].start)
                ),
                Var::Phi(_) => "a loop value".to_string(),
                Var::Wrap(n) => self.wrap_words(*n),
            };
            let factors: Vec<String> = atoms.iter().map(|a| self.atom_words(a)).collect();
            let mut t = format!("{c} x {name}");
            for f in factors {
                t = format!("{t} x {f}");
            }
            parts.push(t);
        }
        if constant != 0 {
            parts.push(constant.to_string());
        }
        parts.join(" + ").replace("+ -", "- ")
    }
}

fn reg_name(file: RegFile, r: u16) -> String {
    match file {
        RegFile::Sgpr => format!("s{r}"),
        RegFile::Vgpr => format!("v{r}"),
        _ => format!("{file:?}{r}").to_lowercase(),
    }
}

/// The affine form of the address of every global, flat and buffer op of `program`, by
/// instruction index.
pub fn address_forms(program: &Program, cfg: &Cfg) -> BTreeMap<usize, AddressForm> {
    let mut eval = Eval::new(program, cfg);
    eval.follow_clamps = true;
    eval.follow_wraps = true;
    let mut out = BTreeMap::new();
    for (i, s) in program.instructions.iter().enumerate() {
        let Some(terms) = address_terms(&s.inst) else {
            continue;
        };
        // (The clamps this op's address goes through.)
        eval.clamps.push(BTreeSet::new());
        let form = match terms {
            Err(why) => AddressForm::Unknown(why),
            Ok((operands, offset)) => {
                let mut sum = Ok(Lin::constant(offset));
                for o in &operands {
                    sum = sum.and_then(|acc: Lin| Ok(acc.add(&eval.operand(o, i).lin()?)));
                }
                match sum {
                    Err(Bad::Data(line, mnemonic)) => AddressForm::DataDependent { line, mnemonic },
                    Err(Bad::Other(why)) => AddressForm::Unknown(why),
                    Ok(l) if l.has(|v| matches!(v, Var::Wrap(_))) => {
                        wrapped(&mut eval, cfg, i, &l, offset)
                    }
                    Ok(l) => affine(&mut eval, cfg, i, &l, offset),
                }
            }
        };
        let clamps = eval.clamps.pop().unwrap_or_default();
        let form = match form {
            AddressForm::Affine(mut a) if !clamps.is_empty() => {
                let named: Vec<String> = clamps
                    .iter()
                    .map(|(line, m)| format!("`{m}` at line {line}"))
                    .collect();
                a.words = format!(
                    "{} (clamped by {}, taken within its bounds: lanes past them read the edge)",
                    a.words,
                    named.join(" and ")
                );
                AddressForm::Affine(a)
            }
            other => other,
        };
        out.insert(i, form);
    }
    out
}

/// The form of an address at instruction `i` that goes through a mask: `base + c x (X & m)`
/// with a uniform base stays within `|c| x 2^k` bytes past it, 2^k the power of two past `m`'s
/// highest bit; inside, X's own form when `m` keeps its low bits whole (2^k - 1: the index is X
/// modulo 2^k), else data-dependent or not followed. An address that also moves by lanes,
/// workgroups, loops or a uniform product outside the mask is not followed: the region would
/// wrap those too.
fn wrapped(eval: &mut Eval, cfg: &Cfg, i: usize, l: &Lin, immediate: i64) -> AddressForm {
    let terms: Vec<(u32, i64)> =
        l.0.iter()
            .filter_map(|((v, atoms), c)| match v {
                Var::Wrap(n) if atoms.is_empty() => Some((*n, *c)),
                _ => None,
            })
            .collect();
    // Outside the mask only the buffer's base (one unknown, as is) and a constant: a uniform
    // product (a row times an unknown stride) may differ between waves and workgroups, which a
    // region would fold into one.
    let base_terms =
        l.0.iter()
            .filter(|((v, atoms), _)| *v == Var::One && !atoms.is_empty());
    let plain_base = base_terms.clone().count() <= 1
        && base_terms
            .clone()
            .all(|((_, atoms), c)| atoms.len() == 1 && *c == 1);
    let others_uniform = plain_base
        && l.0
            .keys()
            .all(|(v, _)| matches!(v, Var::One | Var::Wrap(_)));
    let wrap = match terms[..] {
        [(n, c)]
            if others_uniform && l.0.keys().filter(|(v, _)| *v == Var::Wrap(n)).count() == 1 =>
        {
            eval.wraps.get(n as usize).cloned().map(|w| (n, c, w))
        }
        _ => None,
    };
    let Some((n, c, w)) = wrap else {
        return AddressForm::Unknown(
            "a masked index (`v_and_b32`) the address also moves by lanes, workgroups, loops or \
             a uniform product"
                .into(),
        );
    };
    let region = c.unsigned_abs().saturating_mul(w.size().unsigned_abs());
    let rest = l.sub(&Lin::var(Var::Wrap(n)).scale(c));
    let inner = match w.inner {
        Err(Bad::Data(line, mnemonic)) => AddressForm::DataDependent { line, mnemonic },
        Err(Bad::Other(why)) => AddressForm::Unknown(why),
        Ok(x) if w.low_bits() => affine(eval, cfg, i, &rest.add(&x.scale(c)), immediate),
        Ok(_) => AddressForm::Unknown(format!(
            "`{}` at line {} masks the index with {:#x}, not its low bits",
            w.mnemonic, w.line, w.mask
        )),
    };
    AddressForm::Masked {
        inner: Box::new(inner),
        region,
        line: w.line,
        mnemonic: w.mnemonic,
    }
}

/// The coefficients of an affine address at instruction `i`.
fn affine(eval: &mut Eval, cfg: &Cfg, i: usize, l: &Lin, immediate: i64) -> AddressForm {
    if l.has(|v| matches!(v, Var::Phi(_))) {
        return AddressForm::Unknown("a loop value the evaluation could not resolve".into());
    }
    let coefficient = |want: Var| -> (bool, Option<i64>) {
        let terms: Vec<(&Vec<Atom>, i64)> =
            l.0.iter()
                .filter(|((v, _), _)| *v == want)
                .map(|((_, a), c)| (a, *c))
                .collect();
        match terms.as_slice() {
            [] => (false, Some(0)),
            [(atoms, c)] if atoms.is_empty() => (true, Some(*c)),
            _ => (true, None),
        }
    };
    let mut lane = [Some(0); 3];
    let mut lane_used = [false; 3];
    for dim in 0..3u8 {
        let (used, c) = coefficient(Var::Lane(dim));
        lane[dim as usize] = c;
        lane_used[dim as usize] = used;
    }
    let block = cfg.block_of.get(i).copied();
    let inner = block.and_then(|b| cfg.innermost_loop.get(b).copied().flatten());
    let iteration = inner.map(|id| coefficient(Var::Iter(id)).1);
    // The loops other than the op's innermost that move the address, by id (hence in order).
    let moving: BTreeSet<usize> =
        l.0.keys()
            .filter_map(|(v, _)| match v {
                Var::Iter(id) if Some(*id) != inner => Some(*id),
                _ => None,
            })
            .collect();
    let outer_loops: Vec<u32> = moving
        .iter()
        .map(|id| eval.line(cfg.blocks[cfg.loops[*id].header].start))
        .collect();
    let only_parent = inner
        .and_then(|id| cfg.loops[id].parent)
        .filter(|p| moving.len() == 1 && moving.contains(p));
    let parent = only_parent.and_then(|p| coefficient(Var::Iter(p)).1.map(|c| (p, c)));
    let atoms: Vec<Atom> = l.0.keys().flat_map(|(_, a)| a.iter().cloned()).collect();
    let offsets: Vec<u32> = atoms
        .iter()
        .filter_map(|a| match a {
            Atom::Def { instr, dword } => eval.kernarg_offset(*instr, *dword),
            _ => None,
        })
        .collect();
    let arguments = crate::kernel_args::argument_names(eval.program, &offsets);
    let launch_fields = atoms.iter().any(|a| match a {
        Atom::Def { instr, dword } => eval.launch_field(*instr, *dword).is_some(),
        _ => false,
    });
    AddressForm::Affine(Box::new(AffineAddress {
        lane,
        lane_used,
        iteration,
        words: eval.words(l),
        outer_loops,
        parent,
        group_used: l.has(|v| matches!(v, Var::Group(_))),
        offset: {
            let constant = l.0.get(&(Var::One, Vec::new())).copied().unwrap_or(0);
            let plain_base = l.0.iter().all(|((v, atoms), c)| {
                *v != Var::One || atoms.is_empty() || (atoms.len() == 1 && *c == 1)
            });
            plain_base.then(|| constant.wrapping_sub(immediate))
        },
        group: [0u8, 1, 2].map(|d| coefficient(Var::Group(d)).1),
        uniform_scaled: l.0.iter().any(|((v, atoms), c)| {
            matches!(v, Var::Group(_))
                || (*v == Var::One && !atoms.is_empty() && (*c != 1 || atoms.len() > 1))
        }),
        arguments,
        launch_fields,
    }))
}
