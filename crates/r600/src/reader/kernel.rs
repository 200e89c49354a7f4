//! What the reader produces: kernels of CF words, ALU clauses of groups and
//! fetch clauses, each with its source position.

use super::*;

/// A register channel (x, y, z, w: 0..3).
pub type Chan = u8;

/// A source operand of an ALU operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Src {
    /// `T<n>.<c>`: a GPR channel.
    Gpr(u16, Chan),
    /// `T(<n> + AR.x).<c>`: a GPR indexed by the address register.
    Indirect(u16, Chan),
    /// `PV.<c>`: the previous group's vector result.
    Pv(Chan),
    /// `PS`: the previous group's t result.
    Ps,
    /// `KC<bank>[<index>].<c>`: a kcache constant.
    Constant(u8, u16, Chan),
    /// `literal.<c>`: one of the group's literals.
    Literal(Chan),
    /// An inline constant (`0.0`, `1.0`, `0.5`, `1`, `-1`).
    Inline,
    /// `OQAP`: the LDS return queue.
    Oqap,
    /// `PredicateBit` and other special sources.
    Special,
}

/// The destination of an ALU operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Dst {
    /// A GPR channel; `masked` = the result goes only to PV/PS.
    Gpr {
        /// Register index.
        index: u16,
        /// Channel.
        chan: Chan,
        /// Write masked (`(MASKED)`).
        masked: bool,
    },
    /// The predicate bit (`PRED_SET*`).
    Predicate,
    /// The LDS return queue (`OQAP`).
    Oqap,
    /// No destination (LDS writes, `GROUP_BARRIER`).
    None,
}

impl Dst {
    /// The channel that picks the slot (the predicate counts as x).
    pub fn chan(&self) -> Chan {
        match self {
            Dst::Gpr { chan, .. } => *chan,
            _ => 0,
        }
    }
}

/// A slot of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// Vector slot x.
    X,
    /// Vector slot y.
    Y,
    /// Vector slot z.
    Z,
    /// Vector slot w.
    W,
    /// The transcendental slot.
    T,
}

impl Slot {
    /// Every slot, in order.
    pub const ALL: [Slot; 5] = [Slot::X, Slot::Y, Slot::Z, Slot::W, Slot::T];

    /// The vector slot of a channel.
    pub fn of_chan(c: Chan) -> Slot {
        Slot::ALL[usize::from(c.min(3))]
    }

    /// Its bit in a slot mask.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Lower-case name (`x` .. `t`).
    pub fn name(self) -> &'static str {
        ["x", "y", "z", "w", "t"][self as usize]
    }
}

/// One ALU operation of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct AluOp {
    /// Operation name as printed (`MUL NON-IEEE` as `MUL_NON-IEEE`).
    pub name: String,
    /// Where its name starts.
    pub pos: SourcePos,
    /// The line's text, trimmed.
    pub text: String,
    /// Destination.
    pub dst: Dst,
    /// Sources in order.
    pub srcs: Vec<Src>,
    /// The slot it occupies.
    pub slot: Slot,
}

/// One instruction group (bundle): 1..5 operations issued together.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The operations in printed order.
    pub ops: Vec<AluOp>,
    /// Literal lines (two 32-bit literals each) after the group.
    pub literal_lines: u32,
}

impl Bundle {
    /// The slots it fills, one bit per [`Slot`].
    pub fn slot_mask(&self) -> u8 {
        self.ops.iter().fold(0, |m, o| m | o.slot.bit())
    }

    /// Where its first operation is.
    pub fn pos(&self) -> SourcePos {
        self.ops.first().map(|o| o.pos).unwrap_or_default()
    }

    /// Distinct literal channels it reads.
    pub fn literals(&self) -> u32 {
        let mut m = 0u8;
        for s in self.ops.iter().flat_map(|o| &o.srcs) {
            if let Src::Literal(c) = s {
                m |= 1 << c;
            }
        }
        m.count_ones()
    }

    /// Kcache constant reads (operands naming `KC0`/`KC1`).
    pub fn constant_reads(&self) -> u32 {
        self.ops
            .iter()
            .flat_map(|o| &o.srcs)
            .filter(|s| matches!(s, Src::Constant(..)))
            .count() as u32
    }
}

/// An ALU clause: its start word and groups.
#[derive(Debug, Clone, PartialEq)]
pub struct AluClause {
    /// Start word (the `@N` of the CF word that runs it).
    pub start: u32,
    /// Line of its `ALU clause starting at` header.
    pub line: u32,
    /// The groups.
    pub bundles: Vec<Bundle>,
}

/// One fetch (`VTX_READ_*`, `TEX_*`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fetch {
    /// Name as printed.
    pub name: String,
    /// Where its name starts.
    pub pos: SourcePos,
    /// The line's text, trimmed.
    pub text: String,
    /// Destination register and channel mask.
    pub dst: Option<(u16, u8)>,
    /// Address register and channel.
    pub addr: Option<(u16, Chan)>,
}

impl Fetch {
    /// DWORDs per lane it returns: the destination's channels.
    pub fn dwords(&self) -> u32 {
        self.dst.map_or(1, |(_, m)| m.count_ones().max(1))
    }
}

/// A fetch clause.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchClause {
    /// Start word.
    pub start: u32,
    /// Line of its header.
    pub line: u32,
    /// The fetches.
    pub fetches: Vec<Fetch>,
}

/// What a CF word does.
#[derive(Debug, Clone, PartialEq)]
pub enum CfKind {
    /// Runs an ALU clause of `count` 64-bit slots at word `addr`.
    Alu {
        /// Slots (operations + literal lines).
        count: u32,
        /// Start word of the clause.
        addr: u32,
    },
    /// Runs a fetch clause of `count` fetches at word `addr`.
    Fetch {
        /// Fetches.
        count: u32,
        /// Start word.
        addr: u32,
    },
    /// A jump, else or loop word with a target CF address.
    Branch {
        /// Target word.
        target: u32,
        /// `LOOP_START*`, `END_LOOP`, `LOOP_BREAK`, `JUMP`, `ELSE`, ...
        loop_role: LoopRole,
    },
    /// A stack operation (`POP`, `PUSH`) without a branch.
    Stack,
    /// A store or atomic through a RAT (`MEM_RAT*`), `dwords` per lane.
    Store {
        /// DWORDs per lane.
        dwords: u32,
        /// An atomic.
        atomic: bool,
    },
    /// `CF_END`.
    End,
    /// `PAD` filler.
    Pad,
}

/// The role of a branching CF word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopRole {
    /// `JUMP` / `ELSE`: skip when no lane is active.
    Jump,
    /// `LOOP_START*`: skip the loop when its count is zero.
    Start,
    /// `END_LOOP`: back to the body.
    End,
    /// `LOOP_BREAK`: leave the loop when every lane has broken.
    Break,
    /// `LOOP_CONTINUE`: go to the loop's end word.
    Continue,
}

/// One CF word.
#[derive(Debug, Clone, PartialEq)]
pub struct CfWord {
    /// Its word address (from 0).
    pub addr: u32,
    /// Its mnemonic.
    pub name: String,
    /// Where its mnemonic starts.
    pub pos: SourcePos,
    /// The line's text, trimmed.
    pub text: String,
    /// What it does.
    pub kind: CfKind,
}

/// One kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// Its name.
    pub name: String,
    /// Line of its label.
    pub line: u32,
    /// 128-bit GPRs per work-item (`NUM_GPRS` of the config word).
    pub num_gprs: Option<u32>,
    /// CF stack entries (`STACK_SIZE`).
    pub stack_size: Option<u32>,
    /// LDS bytes (`SQ_LDS_ALLOC` x 4).
    pub lds_bytes: Option<u32>,
    /// The CF program.
    pub cf: Vec<CfWord>,
    /// ALU clauses in file order.
    pub alu_clauses: Vec<AluClause>,
    /// Fetch clauses in file order.
    pub fetch_clauses: Vec<FetchClause>,
}

impl Kernel {
    /// The ALU clause starting at word `addr`.
    pub fn alu_clause(&self, addr: u32) -> Option<&AluClause> {
        self.alu_clauses.iter().find(|c| c.start == addr)
    }

    /// The fetch clause starting at word `addr`.
    pub fn fetch_clause(&self, addr: u32) -> Option<&FetchClause> {
        self.fetch_clauses.iter().find(|c| c.start == addr)
    }

    /// Groups over the ALU clauses as written.
    pub fn static_bundles(&self) -> usize {
        self.alu_clauses.iter().map(|c| c.bundles.len()).sum()
    }

    /// Operations over the ALU clauses as written.
    pub fn static_operations(&self) -> usize {
        self.alu_clauses
            .iter()
            .flat_map(|c| &c.bundles)
            .map(|b| b.ops.len())
            .sum()
    }
}

/// A file read: its kernels, the chip class they were read for, warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct R600File {
    /// File name used in messages.
    pub file_name: String,
    /// The chip (`-mcpu`) name the file was read for.
    pub chip: String,
    /// The kernels in file order.
    pub kernels: Vec<Kernel>,
    /// Warnings (guessed chip, unknown operations, count mismatches).
    pub warnings: Vec<Warning>,
}
