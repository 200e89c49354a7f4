//! Encoding families and execution classes: what kind of work an
//! instruction is, which is what the simulator charges time for.

use std::fmt;

/// Declares a fieldless enum whose variants have a fixed spelling in the
/// instruction table, with `name()`/`from_name()` and `Display`.
macro_rules! named_enum {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vmeta])* $variant,)* }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The spelling used in the instruction table and in reports.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $text,)* }
            }

            /// The value spelled `s` in the instruction table.
            pub fn from_name(s: &str) -> Option<$name> {
                match s { $($text => Some($name::$variant),)* _ => None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// The microcode encoding family of an instruction.
    pub enum Encoding {
        /// Scalar ALU, one source.
        Sop1 = "SOP1",
        /// Scalar ALU, two sources.
        Sop2 = "SOP2",
        /// Scalar ALU with a 16-bit constant.
        Sopk = "SOPK",
        /// Scalar program control (branches, waits, messages).
        Sopp = "SOPP",
        /// Scalar compare.
        Sopc = "SOPC",
        /// Scalar memory (SMRD on gfx6-7).
        Smem = "SMEM",
        /// Vector ALU, one source.
        Vop1 = "VOP1",
        /// Vector ALU, two sources.
        Vop2 = "VOP2",
        /// Vector compare.
        Vopc = "VOPC",
        /// Vector ALU, three sources / 64-bit encoding.
        Vop3 = "VOP3",
        /// Packed vector ALU.
        Vop3p = "VOP3P",
        /// Dual-issue vector ALU (gfx11+).
        Vopd = "VOPD",
        /// Parameter interpolation (gfx6-10).
        Vintrp = "VINTRP",
        /// Interpolation from registers (gfx11+).
        Vinterp = "VINTERP",
        /// Local and global data share.
        Ds = "DS",
        /// LDS parameter / direct loads (gfx11+).
        Ldsdir = "LDSDIR",
        /// Untyped buffer access.
        Mubuf = "MUBUF",
        /// Typed buffer access.
        Mtbuf = "MTBUF",
        /// Image access and sampling.
        Mimg = "MIMG",
        /// Export to render targets, positions and parameters.
        Exp = "EXP",
        /// Flat address space access.
        Flat = "FLAT",
        /// Global address space access.
        Global = "GLOBAL",
        /// Scratch (private) address space access.
        Scratch = "SCRATCH",
    }
}

named_enum! {
    /// The execution class of an instruction: which unit runs it and how the
    /// simulator charges it. Architecture models map each class to an issue
    /// category and a cost, so a class never implies a number by itself.
    pub enum InstrClass {
        /// Scalar ALU.
        Salu = "salu",
        /// `s_alloc_vgpr` (gfx12 dynamic VGPRs): a scalar op that grows or
        /// shrinks the wave's VGPR allocation and sets SCC on success.
        SaluAllocVgpr = "salu.alloc_vgpr",
        /// Scalar memory.
        Smem = "smem",
        /// Unconditional relative branch.
        Branch = "branch",
        /// Conditional relative branch.
        BranchCond = "branch.cond",
        /// Branch to an address in registers.
        BranchIndirect = "branch.indirect",
        /// Call (saves the return address).
        Call = "call",
        /// Full-rate vector ALU.
        Valu = "valu",
        /// Quarter-rate vector ALU (32-bit integer multiply and the like).
        ValuQuarter = "valu.quarter",
        /// Transcendental vector ALU (rcp, rsq, sqrt, exp, log, sin, cos).
        ValuTrans = "valu.trans",
        /// 64-bit vector ALU that is not floating point (64-bit shifts).
        ValuB64 = "valu.b64",
        /// Double-precision multiply / FMA.
        ValuF64 = "valu.f64",
        /// Double-precision add.
        ValuF64Add = "valu.f64_add",
        /// Double-precision conversions and compares.
        ValuF64Conv = "valu.f64_conv",
        /// Double-precision transcendentals.
        ValuF64Trans = "valu.f64_trans",
        /// Two VALU operations in one dual-issue instruction (VOPD).
        ValuDual = "valu.dual",
        /// Matrix multiply-accumulate (WMMA).
        ValuWmma = "valu.wmma",
        /// CDNA matrix-core multiply-accumulate (`v_mfma_*`, `v_smfmac_*`).
        ValuMfma = "valu.mfma",
        /// Attribute interpolation (VINTRP).
        ValuInterp = "valu.interp",
        /// Buffer load.
        VmemBufferLoad = "vmem.buffer.load",
        /// Buffer store.
        VmemBufferStore = "vmem.buffer.store",
        /// Buffer atomic.
        VmemBufferAtomic = "vmem.buffer.atomic",
        /// Global load.
        VmemGlobalLoad = "vmem.global.load",
        /// Global store.
        VmemGlobalStore = "vmem.global.store",
        /// Global atomic.
        VmemGlobalAtomic = "vmem.global.atomic",
        /// Flat load (may go to LDS or memory).
        VmemFlatLoad = "vmem.flat.load",
        /// Flat store.
        VmemFlatStore = "vmem.flat.store",
        /// Flat atomic.
        VmemFlatAtomic = "vmem.flat.atomic",
        /// Scratch load.
        VmemScratchLoad = "vmem.scratch.load",
        /// Scratch store.
        VmemScratchStore = "vmem.scratch.store",
        /// Unfiltered image load (and resource queries).
        VmemImageLoad = "vmem.image.load",
        /// Image store.
        VmemImageStore = "vmem.image.store",
        /// Image atomic.
        VmemImageAtomic = "vmem.image.atomic",
        /// Filtered image sample.
        VmemImageSample = "vmem.image.sample",
        /// Four-texel gather.
        VmemImageGather4 = "vmem.image.gather4",
        /// Ray / BVH node intersection.
        VmemImageBvh = "vmem.image.bvh",
        /// Cache write-back / invalidate.
        VmemCache = "vmem.cache",
        /// Local data share access.
        Lds = "lds",
        /// RDNA 4 LDS traversal-stack operation.
        LdsBvhStack = "lds.bvh_stack",
        /// LDS parameter / direct load (gfx11+).
        LdsParam = "lds.param",
        /// Global data share / ordered operations.
        Gds = "gds",
        /// Export.
        Export = "export",
        /// `s_waitcnt` with its packed counter fields.
        WaitCnt = "wait.cnt",
        /// `s_waitcnt_vmcnt`.
        WaitVmcnt = "wait.vmcnt",
        /// `s_waitcnt_expcnt` / `s_wait_expcnt`.
        WaitExpcnt = "wait.expcnt",
        /// `s_waitcnt_lgkmcnt`.
        WaitLgkmcnt = "wait.lgkmcnt",
        /// `s_waitcnt_vscnt` (gfx10-11 stores).
        WaitVscnt = "wait.vscnt",
        /// `s_wait_loadcnt` (gfx12).
        WaitLoadcnt = "wait.loadcnt",
        /// `s_wait_storecnt` (gfx12).
        WaitStorecnt = "wait.storecnt",
        /// `s_wait_samplecnt` (gfx12).
        WaitSamplecnt = "wait.samplecnt",
        /// `s_wait_bvhcnt` (gfx12).
        WaitBvhcnt = "wait.bvhcnt",
        /// `s_wait_kmcnt` (gfx12).
        WaitKmcnt = "wait.kmcnt",
        /// `s_wait_dscnt` (gfx12).
        WaitDscnt = "wait.dscnt",
        /// `s_wait_loadcnt_dscnt` (gfx12).
        WaitLoadcntDscnt = "wait.loadcnt_dscnt",
        /// `s_wait_storecnt_dscnt` (gfx12).
        WaitStorecntDscnt = "wait.storecnt_dscnt",
        /// Dependency-counter wait (`s_waitcnt_depctr`, `s_wait_alu`).
        WaitDepctr = "wait.depctr",
        /// `s_delay_alu` scheduling hint.
        WaitDelayAlu = "wait.delay_alu",
        /// `s_wait_idle`.
        WaitIdle = "wait.idle",
        /// `s_wait_event`.
        WaitEvent = "wait.event",
        /// Workgroup barrier.
        Barrier = "barrier",
        /// `s_nop`.
        Nop = "nop",
        /// `s_sleep`.
        Sleep = "sleep",
        /// `s_setprio`.
        Setprio = "setprio",
        /// Hints and markers that do no work (`s_clause`, `s_code_end`, ...).
        Hint = "hint",
        /// Message to the SPI (`s_sendmsg`).
        Sendmsg = "sendmsg",
        /// End of program.
        Endpgm = "endpgm",
        /// Trap.
        Trap = "trap",
        /// TeraScale VLIW instruction group (bundle): up to five ALU
        /// operations issued together; the slots it fills travel with the
        /// program (`shadersim-r600`), the model charges the group.
        VliwAlu = "vliw.alu",
        /// TeraScale fetch (`VTX_READ_*`, `TEX`): one load of a fetch
        /// clause; it counts on `vmcnt`, which the clause end waits for.
        VliwFetch = "vliw.fetch",
        /// TeraScale control-flow word that starts a clause: the sequencer
        /// hands the wavefront to another engine (the clause switch).
        VliwClause = "vliw.clause",
    }
}

/// What kind of memory access a vector-memory or scalar-memory class does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemDirection {
    /// Reads memory into registers.
    Load,
    /// Writes registers to memory.
    Store,
    /// Read-modify-write.
    Atomic,
    /// Neither: cache control, queries.
    Other,
}

impl InstrClass {
    /// Any vector ALU class.
    pub fn is_valu(self) -> bool {
        self.name().starts_with("valu")
    }

    /// Any vector memory class (buffer, global, flat, scratch, image, cache).
    pub fn is_vmem(self) -> bool {
        self.name().starts_with("vmem")
    }

    /// Any image class.
    pub fn is_image(self) -> bool {
        self.name().starts_with("vmem.image")
    }

    /// Any wait class (`s_waitcnt` and relatives, `s_delay_alu`, ...).
    pub fn is_wait(self) -> bool {
        self.name().starts_with("wait.")
    }

    /// A branch or call that can change the program counter.
    pub fn is_control_flow(self) -> bool {
        matches!(
            self,
            InstrClass::Branch
                | InstrClass::BranchCond
                | InstrClass::BranchIndirect
                | InstrClass::Call
        )
    }

    /// Whether this is a memory operation and in which direction.
    pub fn mem_direction(self) -> Option<MemDirection> {
        use InstrClass::*;
        Some(match self {
            VmemBufferLoad | VmemGlobalLoad | VmemFlatLoad | VmemScratchLoad | VmemImageLoad
            | VmemImageSample | VmemImageGather4 | VmemImageBvh => MemDirection::Load,
            VmemBufferStore | VmemGlobalStore | VmemFlatStore | VmemScratchStore
            | VmemImageStore => MemDirection::Store,
            VmemBufferAtomic | VmemGlobalAtomic | VmemFlatAtomic | VmemImageAtomic => {
                MemDirection::Atomic
            }
            VmemCache => MemDirection::Other,
            VliwFetch => MemDirection::Load,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in InstrClass::ALL {
            assert_eq!(InstrClass::from_name(c.name()), Some(*c));
        }
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_name(e.name()), Some(*e));
        }
        assert_eq!(InstrClass::from_name("valu.quad"), None);
    }

    #[test]
    fn class_groups() {
        assert!(InstrClass::ValuTrans.is_valu());
        assert!(!InstrClass::Salu.is_valu());
        assert!(InstrClass::VmemImageSample.is_image());
        assert!(InstrClass::VmemCache.is_vmem());
        assert!(InstrClass::WaitLoadcntDscnt.is_wait());
        assert_eq!(
            InstrClass::VmemGlobalAtomic.mem_direction(),
            Some(MemDirection::Atomic)
        );
        assert_eq!(InstrClass::Lds.mem_direction(), None);
    }
}
