//! What reading a file produces: programs of positioned instructions.

use shadersim_isa::{GfxGen, Instruction, RegFile, SpecialReg, Target};
use std::fmt;

/// A 1-based line and column in the input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SourcePos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (bytes).
    pub column: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Which tool printed the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// LLVM assembly as `clang -S` / `llc` print it.
    Llvm,
    /// `llvm-objdump -d` output: addresses and encodings in `//` comments.
    Objdump,
    /// Mesa ACO / RADV disassembly: `BB0:` labels, trailing `; hex` encodings.
    Aco,
    /// Radeon GPU Analyzer's ISA text (AMD's SP3 syntax): `shader main`,
    /// `asic(GFX10)`, `type(CS)`, ..., `end`; objdump-style `// ADDR: HEX`
    /// encodings; `label_0004:` labels.
    Rga,
}

impl Dialect {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Llvm => "llvm",
            Dialect::Objdump => "llvm-objdump",
            Dialect::Aco => "aco",
            Dialect::Rga => "rga",
        }
    }
}

/// The shader stage a program runs as (what feeds it waves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Pixel (fragment) shader.
    Pixel,
    /// Vertex shader (or the hardware stage that runs it).
    Vertex,
    /// Compute shader / kernel.
    Compute,
}

impl Stage {
    /// The name used in hints files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Pixel => "pixel",
            Stage::Vertex => "vertex",
            Stage::Compute => "compute",
        }
    }

    /// Parse the hints-file name.
    pub fn from_name(s: &str) -> Option<Stage> {
        match s {
            "pixel" | "ps" | "fragment" => Some(Stage::Pixel),
            "vertex" | "vs" => Some(Stage::Vertex),
            "compute" | "cs" | "kernel" => Some(Stage::Compute),
            _ => None,
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One instruction with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceInstr {
    /// The parsed instruction.
    pub inst: Instruction,
    /// Where its mnemonic starts.
    pub pos: SourcePos,
    /// The instruction text as printed (without comments).
    pub text: String,
    /// Its address, when the file gives one (objdump).
    pub address: Option<u64>,
    /// Its encoding DWORDs, when the file gives them (objdump, ACO).
    pub encoding: Vec<u32>,
    /// The source line it was compiled from, when the file has debug
    /// lines (`.loc`, clang `-g`).
    pub source: Option<SourceLoc>,
}

/// A place in the shader's source, from a `.loc FILE LINE COLUMN` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceLoc {
    /// The `.file` number (see [`ProgramFile::source_files`]).
    pub file: u32,
    /// 1-based source line.
    pub line: u32,
    /// 1-based column (0 when the compiler gives none).
    pub column: u32,
}

/// A label and the instruction it precedes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The label as printed (`.LBB0_2`, `BB3`), or synthesised for objdump
    /// branch targets (`.L_0x80`).
    pub name: String,
    /// Index of the instruction it precedes (may equal the program length
    /// for a label at the very end).
    pub index: usize,
    /// 1-based line of the label (0 when synthesised).
    pub line: u32,
}

/// Resources the compiler declared for a program (kernel descriptor,
/// `; NumVgprs:` comments, ACO statistics).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeclaredResources {
    /// VGPRs allocated per wave (`.amdhsa_next_free_vgpr`, `NumVgprs`, ACO "VGPRs").
    pub vgprs: Option<u32>,
    /// SGPRs (`.amdhsa_next_free_sgpr`; `NumSgprs` includes VCC and friends).
    pub sgprs: Option<u32>,
    /// `sgprs` is the driver's allocation (RADV's "SGPRs" statistic): ACO's `get_sgpr_alloc`
    /// (Mesa `aco_ir.cpp`) already adds the reserved VCC/FLAT_SCRATCH/XNACK registers and rounds to
    /// the granule, so the occupancy rule must not add them again.
    pub sgprs_allocated: bool,
    /// LDS bytes per workgroup.
    pub lds_bytes: Option<u32>,
    /// Scratch bytes per lane.
    pub scratch_bytes: Option<u32>,
    /// Occupancy the compiler computed (waves per SIMD), if printed.
    pub occupancy: Option<u32>,
    /// `occupancy` is Mesa RADV's "Subgroups per SIMD" (its statistics), which
    /// counts wave32-sized waves on RDNA; else it is a compiler's comment
    /// (LLVM's `; Occupancy:`), in hardware waves. Reports compare with the
    /// convention of whichever gave it.
    pub occupancy_from_radv: bool,
    /// Wave size (32 or 64), if the file says.
    pub wave_size: Option<u32>,
    /// Required workgroup size, if the file says.
    pub workgroup_size: Option<[u32; 3]>,
    /// Instruction count the compiler reports (ACO statistics), if any.
    pub instruction_count: Option<u32>,
    /// User SGPRs the kernel descriptor declares (`.amdhsa_user_sgpr_count`): the system
    /// SGPRs (workgroup ids first) follow them.
    pub user_sgprs: Option<u32>,
    /// Which workgroup ids (x, y, z) the descriptor enables
    /// (`.amdhsa_system_sgpr_workgroup_id_*`; x is enabled unless it says 0).
    pub workgroup_ids: Option<[bool; 3]>,
    /// Which of the user SGPRs before the kernel-argument pointer the descriptor enables
    /// (`.amdhsa_user_sgpr_private_segment_buffer`, `_dispatch_ptr`, `_queue_ptr`: 4, 2 and 2
    /// SGPRs) and whether the pointer itself is (`_kernarg_segment_ptr`), in that order.
    pub user_sgpr_enables: [Option<bool>; 4],
    /// The kernel's arguments as its metadata lists them (`.args`), in order.
    pub args: Vec<KernelArg>,
    /// DWORDs of the kernel-argument segment the launch gives, by byte offset (filled from a
    /// launch's `args`, grid and block, never by a reader): loads from the segment at these
    /// offsets are known numbers.
    pub kernarg_values: std::collections::BTreeMap<u32, u32>,
    /// DWORDs of the dispatch packet the launch gives, by byte offset (the workgroup and grid
    /// sizes, `get_local_size`/`get_global_size` read there), for loads through the dispatch
    /// pointer (filled from a launch, never by a reader).
    pub dispatch_values: std::collections::BTreeMap<u32, u32>,
}

/// One kernel argument as the HSA metadata lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelArg {
    /// Source name (`.name`; clang writes it with `-cl-kernel-arg-info`).
    pub name: Option<String>,
    /// Byte offset in the kernel-argument segment.
    pub offset: u32,
    /// Bytes.
    pub size: u32,
    /// `.value_kind`: `by_value`, `global_buffer`, `dynamic_shared_pointer` (a `__local`
    /// pointer), `hidden_block_count_x`, `hidden_group_size_x`, ...
    pub value_kind: String,
    /// `.type_name` (`int`, `float*`), when given.
    pub type_name: Option<String>,
}

impl DeclaredResources {
    /// The first of the two SGPRs holding the dispatch packet's address at entry, when the
    /// descriptor enables it: after the enabled private segment buffer (4 SGPRs).
    pub fn dispatch_sgpr(&self) -> Option<u16> {
        let [buffer, dispatch, _, _] = self.user_sgpr_enables;
        (dispatch == Some(true)).then_some(if buffer == Some(true) { 4 } else { 0 })
    }

    /// The first of the two SGPRs holding the kernel-argument segment's address at entry,
    /// when the descriptor enables it: after the enabled private segment buffer (4 SGPRs),
    /// dispatch pointer (2) and queue pointer (2).
    pub fn kernarg_sgpr(&self) -> Option<u16> {
        let [buffer, dispatch, queue, kernarg] = self.user_sgpr_enables;
        if kernarg != Some(true) {
            return None;
        }
        let on = |e: Option<bool>, n: u16| if e == Some(true) { n } else { 0 };
        Some(on(buffer, 4) + on(dispatch, 2) + on(queue, 2))
    }

    /// The SGPR holding each workgroup id (x, y, z) at entry, when the descriptor says where
    /// the user SGPRs end: the enabled ids in order right after them.
    pub fn workgroup_id_sgprs(&self) -> [Option<u16>; 3] {
        let mut out = [None; 3];
        let (Some(user), Some(ids)) = (self.user_sgprs, self.workgroup_ids) else {
            return out;
        };
        let mut next = user;
        for (dim, enabled) in ids.iter().enumerate() {
            if *enabled {
                out[dim] = u16::try_from(next).ok();
                next += 1;
            }
        }
        out
    }
}

/// Where a register count comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountSource {
    /// Stated by the compiler in the file.
    Declared,
    /// Computed from the highest register the instructions name.
    Computed,
}

/// Registers a program needs per wave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisterUsage {
    /// VGPRs per wave.
    pub vgprs: u32,
    /// Where the VGPR count comes from.
    pub vgpr_source: CountSource,
    /// SGPRs per wave.
    pub sgprs: u32,
    /// Where the SGPR count comes from.
    pub sgpr_source: CountSource,
    /// Highest VGPR named + 1.
    pub computed_vgprs: u32,
    /// Highest SGPR named + 1.
    pub computed_sgprs: u32,
}

/// One function / kernel / shader.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Name (kernel, function or shader stage).
    pub name: String,
    /// Target, from the file, the command line, or a guess.
    pub target: Option<Target>,
    /// Stage, when the file says.
    pub stage: Option<Stage>,
    /// Instructions in program order.
    pub instructions: Vec<SourceInstr>,
    /// Labels in program order.
    pub labels: Vec<Label>,
    /// For each instruction, the index of its branch target if it is a
    /// direct branch (`None` otherwise). A target equal to the length
    /// means "falls off the end".
    pub branch_targets: Vec<Option<usize>>,
    /// What the compiler declared.
    pub declared: DeclaredResources,
    /// Line of the first line of the program (label or first instruction).
    pub line: u32,
    /// A device function (returns to a caller, ends in no `s_endpgm`): its
    /// code is followed from the calls of the kernels; it is not simulated
    /// as a kernel of its own unless chosen by name.
    pub device_function: bool,
}

impl Program {
    /// The generation to interpret instructions with.
    pub fn gen(&self) -> GfxGen {
        self.target.as_ref().map(|t| t.gen).unwrap_or(GfxGen::Gfx9)
    }

    /// Register counts: declared ones when the file states them, else
    /// the highest register named.
    pub fn register_usage(&self) -> RegisterUsage {
        let max = |file| {
            self.instructions
                .iter()
                .filter_map(|i| i.inst.max_reg(file))
                .max()
                .unwrap_or(0)
        };
        let computed_vgprs = max(RegFile::Vgpr);
        let computed_sgprs = max(RegFile::Sgpr);
        let (vgprs, vgpr_source) = match self.declared.vgprs {
            Some(v) => (v, CountSource::Declared),
            None => (computed_vgprs, CountSource::Computed),
        };
        let (sgprs, sgpr_source) = match self.declared.sgprs {
            Some(s) => (s, CountSource::Declared),
            None => (computed_sgprs, CountSource::Computed),
        };
        RegisterUsage {
            vgprs,
            vgpr_source,
            sgprs,
            sgpr_source,
            computed_vgprs,
            computed_sgprs,
        }
    }

    /// The wave size the program was compiled for, and the evidence: what
    /// the file declares (`.amdhsa_wavefront_size32`), else, on gfx10+, the
    /// registers its instructions name: wave32 code names the 32-bit halves
    /// `exec_lo`/`vcc_lo` and wave64 code the pairs `exec`/`vcc`. `None`
    /// when nothing tells (the model's default applies).
    pub fn wave_size(&self) -> Option<(u32, String)> {
        if let Some(w) = self.declared.wave_size {
            return Some((w, "declared by the file".to_string()));
        }
        if self.gen().is_gcn() {
            return Some((64, "GCN runs wave64 only".to_string()));
        }
        let (mut lo, mut pair) = (None, None);
        for (i, s) in self.instructions.iter().enumerate() {
            let inst = &s.inst;
            for r in inst.operands.iter().flat_map(|o| o.regs()) {
                if r.file != RegFile::Special {
                    continue;
                }
                let exec_or_vcc = [SpecialReg::ExecLo as u16, SpecialReg::VccLo as u16];
                if exec_or_vcc.contains(&r.first) {
                    if r.count == 1 {
                        lo.get_or_insert(i);
                    } else {
                        pair.get_or_insert(i);
                    }
                }
            }
        }
        let line = |i: usize| self.instructions[i].pos.line;
        match (lo, pair) {
            (Some(i), None) => Some((32, format!("line {} names a 32-bit exec/vcc half", line(i)))),
            (None, Some(i)) => Some((64, format!("line {} names a 64-bit exec/vcc pair", line(i)))),
            _ => None,
        }
    }

    /// The instructions grouped by the source line they come from, in
    /// source order (instructions without a source line are left out):
    /// what a listing summed by source line adds up.
    pub fn by_source_line(&self) -> Vec<((u32, u32), Vec<usize>)> {
        let mut groups: std::collections::BTreeMap<(u32, u32), Vec<usize>> =
            std::collections::BTreeMap::new();
        for (i, s) in self.instructions.iter().enumerate() {
            if let Some(loc) = s.source {
                groups.entry((loc.file, loc.line)).or_default().push(i);
            }
        }
        groups.into_iter().collect()
    }

    /// The label naming instruction `index`, if any.
    pub fn label_at(&self, index: usize) -> Option<&Label> {
        self.labels.iter().find(|l| l.index == index)
    }

    /// Index of the instruction at 1-based source line `line`.
    pub fn index_at_line(&self, line: u32) -> Option<usize> {
        self.instructions.iter().position(|i| i.pos.line == line)
    }

    /// Every instruction at 1-based source line `line`: more than one for
    /// ACO's `(then repeated N times)` and for device functions followed
    /// from several calls (each copy keeps the callee's line).
    pub fn indices_at_line(&self, line: u32) -> Vec<usize> {
        self.instructions
            .iter()
            .enumerate()
            .filter(|(_, i)| i.pos.line == line)
            .map(|(k, _)| k)
            .collect()
    }
}

/// A diagnostic that does not stop the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Where, if about a place.
    pub pos: Option<SourcePos>,
    /// What.
    pub message: String,
}

/// Everything read from one file.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramFile {
    /// The file name used in messages.
    pub file_name: String,
    /// The dialect detected.
    pub dialect: Dialect,
    /// The programs, in file order.
    pub programs: Vec<Program>,
    /// Warnings (unknown mnemonics classified by family rules, skipped
    /// directives, guessed targets).
    pub warnings: Vec<Warning>,
    /// Source files named by `.file` lines: number and path.
    pub source_files: Vec<(u32, String)>,
}

impl ProgramFile {
    /// Warnings formatted as `FILE:LINE:COL: warning: ...`.
    pub fn formatted_warnings(&self) -> Vec<String> {
        self.warnings
            .iter()
            .map(|w| match w.pos {
                Some(p) => format!(
                    "{}:{}:{}: warning: {}",
                    self.file_name, p.line, p.column, w.message
                ),
                None => format!("{}: warning: {}", self.file_name, w.message),
            })
            .collect()
    }

    /// The program named `name`, or when `name` is None the first that is
    /// not a device function (or the first of all).
    pub fn program(&self, name: Option<&str>) -> Option<&Program> {
        match name {
            Some(n) => self.programs.iter().find(|p| p.name == n),
            None => self
                .programs
                .iter()
                .find(|p| !p.device_function)
                .or(self.programs.first()),
        }
    }

    /// The path of source file `number` (from `.file`).
    pub fn source_file(&self, number: u32) -> Option<&str> {
        self.source_files
            .iter()
            .find(|(n, _)| *n == number)
            .map(|(_, p)| p.as_str())
    }
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// File name.
    pub file: String,
    /// Where, when about a place.
    pub pos: Option<SourcePos>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, p.line, p.column, self.message
            ),
            None => write!(f, "{}: error: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for AsmError {}
