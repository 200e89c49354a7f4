//! Wait counters: which counters exist in each generation, how `s_waitcnt`
//! and its relatives encode them, and which counters each kind of operation
//! increments.
//!
//! Sources: LLVM `AMDGPUBaseInfo.cpp` (bit layouts per generation), the AMD
//! ISA guides for GCN3/Vega/RDNA1-4 (counter semantics), summarised in
//! the ISA research notes (see docs/sources.md), section 5.

use crate::class::InstrClass;
use crate::target::GfxGen;
use std::fmt;

/// A hardware wait counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Counter {
    /// Vector memory operations (gfx6-11; loads only from gfx10).
    Vm,
    /// Exports, and on gfx6-9 the data reads of VMEM stores.
    Exp,
    /// LDS, GDS, scalar memory and messages (gfx6-11).
    Lgkm,
    /// Vector memory stores (gfx10-11).
    Vs,
    /// Vector memory loads (gfx12).
    Load,
    /// Vector memory stores (gfx12).
    Store,
    /// Image samples and gathers (gfx12).
    Sample,
    /// BVH intersections (gfx12).
    Bvh,
    /// Scalar memory and messages (gfx12).
    Km,
    /// LDS and GDS (gfx12).
    Ds,
}

impl Counter {
    /// Every counter.
    pub const ALL: [Counter; 10] = [
        Counter::Vm,
        Counter::Exp,
        Counter::Lgkm,
        Counter::Vs,
        Counter::Load,
        Counter::Store,
        Counter::Sample,
        Counter::Bvh,
        Counter::Km,
        Counter::Ds,
    ];

    /// The name as in `vmcnt(0)`, without the `cnt` suffix.
    pub fn name(self) -> &'static str {
        match self {
            Counter::Vm => "vm",
            Counter::Exp => "exp",
            Counter::Lgkm => "lgkm",
            Counter::Vs => "vs",
            Counter::Load => "load",
            Counter::Store => "store",
            Counter::Sample => "sample",
            Counter::Bvh => "bvh",
            Counter::Km => "km",
            Counter::Ds => "ds",
        }
    }

    /// Index into per-counter arrays (0..10).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The counters a generation has.
    pub fn of_gen(gen: GfxGen) -> &'static [Counter] {
        match gen {
            // TeraScale: its synthesized clause waits use gfx6's layout.
            GfxGen::TeraScale | GfxGen::Gfx6 | GfxGen::Gfx7 | GfxGen::Gfx8 | GfxGen::Gfx9 => {
                &[Counter::Vm, Counter::Exp, Counter::Lgkm]
            }
            GfxGen::Gfx10 | GfxGen::Gfx11 => {
                &[Counter::Vm, Counter::Exp, Counter::Lgkm, Counter::Vs]
            }
            GfxGen::Gfx12 => &[
                Counter::Load,
                Counter::Store,
                Counter::Sample,
                Counter::Bvh,
                Counter::Exp,
                Counter::Km,
                Counter::Ds,
            ],
        }
    }

    /// Width in bits of the counter in a generation (the largest value a
    /// wait can name is `2^bits - 1`). Source: LLVM AMDGPUBaseInfo.cpp.
    pub fn bits(self, gen: GfxGen) -> u32 {
        use Counter::*;
        use GfxGen::*;
        match (self, gen.wait_layout()) {
            (Vm, Gfx6 | Gfx7 | Gfx8) => 4,
            (Vm, Gfx9 | Gfx10 | Gfx11) => 6,
            (Exp, _) => 3,
            (Lgkm, Gfx6 | Gfx7 | Gfx8 | Gfx9) => 4,
            (Lgkm, Gfx10 | Gfx11) => 6,
            (Vs, Gfx10 | Gfx11) => 6,
            (Load | Store | Sample | Ds, Gfx12) => 6,
            (Bvh, Gfx12) => 3,
            (Km, Gfx12) => 5,
            _ => 0,
        }
    }

    /// The largest value the counter can hold in `gen` (0 if absent).
    pub fn max_value(self, gen: GfxGen) -> u32 {
        match self.bits(gen) {
            0 => 0,
            b => (1 << b) - 1,
        }
    }
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}cnt", self.name())
    }
}

/// What one wait instruction asks for: each named counter must drop to at
/// most its value. Counters not listed are not waited on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WaitSpec {
    /// `(counter, value)` pairs, at most one per counter.
    pub waits: Vec<(Counter, u32)>,
}

impl WaitSpec {
    /// Add or tighten the wait on `counter`.
    pub fn set(&mut self, counter: Counter, value: u32) {
        match self.waits.iter_mut().find(|(c, _)| *c == counter) {
            Some(entry) => entry.1 = entry.1.min(value),
            None => self.waits.push((counter, value)),
        }
    }

    /// The value waited for on `counter`, if any.
    pub fn get(&self, counter: Counter) -> Option<u32> {
        self.waits
            .iter()
            .find(|(c, _)| *c == counter)
            .map(|(_, v)| *v)
    }

    /// A wait that names no counter (does nothing).
    pub fn is_empty(&self) -> bool {
        self.waits.is_empty()
    }

    /// Every counter of `gen` waited down to zero (the effect of `s_endpgm`
    /// and of a legacy `s_waitcnt 0` on gfx12).
    pub fn all_zero(gen: GfxGen) -> WaitSpec {
        WaitSpec {
            waits: Counter::of_gen(gen).iter().map(|c| (*c, 0)).collect(),
        }
    }
}

impl fmt::Display for WaitSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (c, v)) in self.waits.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}({v})")?;
        }
        Ok(())
    }
}

/// A bit field of a packed wait immediate: `bits` bits at `shift`.
#[derive(Debug, Clone, Copy)]
struct Field {
    shift: u32,
    bits: u32,
}

/// Layout of the `s_waitcnt` immediate per generation; a counter may be
/// split in two fields (gfx9-10 vmcnt: bits 3:0 and 15:14).
fn waitcnt_layout(gen: GfxGen) -> &'static [(Counter, &'static [Field])] {
    const VM4: &[Field] = &[Field { shift: 0, bits: 4 }];
    const VM6: &[Field] = &[Field { shift: 0, bits: 4 }, Field { shift: 14, bits: 2 }];
    const EXP: &[Field] = &[Field { shift: 4, bits: 3 }];
    const LGKM4: &[Field] = &[Field { shift: 8, bits: 4 }];
    const LGKM6: &[Field] = &[Field { shift: 8, bits: 6 }];
    const G11_EXP: &[Field] = &[Field { shift: 0, bits: 3 }];
    const G11_LGKM: &[Field] = &[Field { shift: 4, bits: 6 }];
    const G11_VM: &[Field] = &[Field { shift: 10, bits: 6 }];
    match gen {
        GfxGen::TeraScale | GfxGen::Gfx6 | GfxGen::Gfx7 | GfxGen::Gfx8 => &[
            (Counter::Vm, VM4),
            (Counter::Exp, EXP),
            (Counter::Lgkm, LGKM4),
        ],
        GfxGen::Gfx9 => &[
            (Counter::Vm, VM6),
            (Counter::Exp, EXP),
            (Counter::Lgkm, LGKM4),
        ],
        GfxGen::Gfx10 => &[
            (Counter::Vm, VM6),
            (Counter::Exp, EXP),
            (Counter::Lgkm, LGKM6),
        ],
        GfxGen::Gfx11 => &[
            (Counter::Vm, G11_VM),
            (Counter::Exp, G11_EXP),
            (Counter::Lgkm, G11_LGKM),
        ],
        // gfx12 keeps no packed s_waitcnt semantics of its own; see
        // `decode_waitcnt_imm`.
        GfxGen::Gfx12 => &[],
    }
}

/// Decode a packed `s_waitcnt` immediate. A field at its all-ones value
/// means "do not wait on this counter" and is left out of the result.
/// On gfx12 the legacy `s_waitcnt` is treated as a full wait (LLVM and
/// composable_kernel#3003 report it behaves that way).
pub fn decode_waitcnt_imm(gen: GfxGen, imm: u32) -> WaitSpec {
    if gen == GfxGen::Gfx12 {
        return WaitSpec::all_zero(gen);
    }
    let mut spec = WaitSpec::default();
    for (counter, fields) in waitcnt_layout(gen) {
        let mut value = 0u32;
        let mut width = 0u32;
        for f in fields.iter() {
            value |= ((imm >> f.shift) & ((1 << f.bits) - 1)) << width;
            width += f.bits;
        }
        if value != (1 << width) - 1 {
            spec.set(*counter, value);
        }
    }
    spec
}

/// Encode a wait as the packed `s_waitcnt` immediate of `gen` (counters not
/// named get all-ones). Used to check decoding and to synthesise waits.
pub fn encode_waitcnt_imm(gen: GfxGen, spec: &WaitSpec) -> u32 {
    let mut imm = 0u32;
    for (counter, fields) in waitcnt_layout(gen) {
        let width: u32 = fields.iter().map(|f| f.bits).sum();
        let mut value = spec
            .get(*counter)
            .unwrap_or((1 << width) - 1)
            .min((1 << width) - 1);
        for f in fields.iter() {
            imm |= (value & ((1 << f.bits) - 1)) << f.shift;
            value >>= f.bits;
        }
    }
    imm
}

/// Decode the immediate of a gfx12 combined wait (`s_wait_loadcnt_dscnt`,
/// `s_wait_storecnt_dscnt`): DS count in bits 5:0, load/store in 13:8.
pub fn decode_combined_imm(first: Counter, imm: u32) -> WaitSpec {
    let mut spec = WaitSpec::default();
    let ds = imm & 0x3f;
    let mem = (imm >> 8) & 0x3f;
    if mem != 0x3f {
        spec.set(first, mem);
    }
    if ds != 0x3f {
        spec.set(Counter::Ds, ds);
    }
    spec
}

/// Counters an op of `class` increments that fall when its data has been
/// read from the VGPRs rather than when the op completes: on GCN (gfx6-9)
/// the expcnt of a vector memory write or atomic (ISA guide, "Data
/// dependency resolution"); none on later generations.
pub fn counters_falling_at_data_read(class: InstrClass, gen: GfxGen) -> &'static [Counter] {
    if class.is_vmem() && gen.wait_layout().is_gcn() {
        &[Counter::Exp]
    } else {
        &[]
    }
}

/// Which counters an operation of `class` increments when it issues, in
/// generation `gen`, given whether the operation returns data (atomics
/// with `glc`/`sc0`/`th:*RETURN`).
///
/// GCN (gfx6-9): every VMEM op counts on vmcnt; VMEM stores and atomics
/// also count on expcnt until their data has been read (ISA guide, "Data
/// dependency resolution"). gfx10-11: stores and non-returning atomics
/// count on vscnt instead of vmcnt. gfx12: loads, stores, samples and BVH
/// ops have their own counters; SMEM and messages use kmcnt, LDS dscnt.
pub fn counters_incremented(
    class: InstrClass,
    gen: GfxGen,
    returns_data: bool,
) -> &'static [Counter] {
    use Counter::*;
    use InstrClass::*;
    // TeraScale's synthesized waits and counts follow gfx6's rules.
    let gen = gen.wait_layout();
    let gcn = gen.is_gcn();
    let g12 = gen == GfxGen::Gfx12;
    match class {
        VmemBufferLoad | VmemGlobalLoad | VmemScratchLoad | VmemImageLoad | VliwFetch => {
            if g12 {
                &[Load]
            } else {
                &[Vm]
            }
        }
        VmemFlatLoad => {
            // Flat may hit LDS, so it counts on both (ISA guide, FLAT).
            if g12 {
                &[Load, Ds]
            } else {
                &[Vm, Lgkm]
            }
        }
        VmemImageSample | VmemImageGather4 => {
            if g12 {
                &[Sample]
            } else {
                &[Vm]
            }
        }
        VmemImageBvh => {
            if g12 {
                &[Bvh]
            } else {
                &[Vm]
            }
        }
        VmemBufferStore | VmemGlobalStore | VmemScratchStore | VmemImageStore => {
            if g12 {
                &[Store]
            } else if gcn {
                &[Vm, Exp]
            } else {
                &[Vs]
            }
        }
        VmemFlatStore => {
            if g12 {
                &[Store, Ds]
            } else if gcn {
                &[Vm, Exp, Lgkm]
            } else {
                &[Vs, Lgkm]
            }
        }
        VmemBufferAtomic | VmemGlobalAtomic | VmemImageAtomic | VmemFlatAtomic => {
            match (g12, gcn, returns_data) {
                (true, _, true) => &[Load],
                (true, _, false) => &[Store],
                (false, true, _) => &[Vm, Exp],
                (false, false, true) => &[Vm],
                (false, false, false) => &[Vs],
            }
        }
        VmemCache => {
            if g12 {
                &[Store]
            } else if gcn {
                &[Vm]
            } else {
                &[Vs]
            }
        }
        Smem | Sendmsg => {
            if g12 {
                &[Km]
            } else {
                &[Lgkm]
            }
        }
        Lds | LdsBvhStack | Gds => {
            if g12 {
                &[Ds]
            } else {
                &[Lgkm]
            }
        }
        LdsParam => {
            // gfx11+ LDS parameter loads are tracked by expcnt (ISA guide
            // RDNA3, "LDS Parameter Loads").
            &[Exp]
        }
        Export => &[Exp],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx9_waitcnt_round_trips_split_vmcnt() {
        let mut spec = WaitSpec::default();
        spec.set(Counter::Vm, 40); // needs the high bits 15:14
        spec.set(Counter::Lgkm, 0);
        let imm = encode_waitcnt_imm(GfxGen::Gfx9, &spec);
        assert_eq!(imm & 0xf, 40 & 0xf);
        assert_eq!((imm >> 14) & 3, 40 >> 4);
        assert_eq!(decode_waitcnt_imm(GfxGen::Gfx9, imm), spec);
    }

    #[test]
    fn known_immediates() {
        // s_waitcnt vmcnt(0) on gfx9 is 0x3f70 (exp 7, lgkm 15 = no wait).
        assert_eq!(
            decode_waitcnt_imm(GfxGen::Gfx9, 0x3f70).waits,
            vec![(Counter::Vm, 0)]
        );
        // s_waitcnt lgkmcnt(0) on gfx9 is 0xc07f.
        assert_eq!(
            decode_waitcnt_imm(GfxGen::Gfx9, 0xc07f).waits,
            vec![(Counter::Lgkm, 0)]
        );
        // gfx10 lgkmcnt has 6 bits: lgkmcnt(0) = 0xc07f too (vm 63, exp 7).
        assert_eq!(
            decode_waitcnt_imm(GfxGen::Gfx10, 0xc07f).waits,
            vec![(Counter::Lgkm, 0)]
        );
        // gfx11: vmcnt(0) is 0x3f7 (lgkm 63 in 9:4, exp 7 in 2:0, vm 0).
        assert_eq!(
            decode_waitcnt_imm(GfxGen::Gfx11, 0x3f7).waits,
            vec![(Counter::Vm, 0)]
        );
        // s_waitcnt 0 waits for everything.
        assert_eq!(decode_waitcnt_imm(GfxGen::Gfx8, 0).waits.len(), 3);
        assert_eq!(
            decode_waitcnt_imm(GfxGen::Gfx12, 0xffff),
            WaitSpec::all_zero(GfxGen::Gfx12)
        );
    }

    #[test]
    fn combined_gfx12_waits() {
        let s = decode_combined_imm(Counter::Load, 0x0000);
        assert_eq!(s.get(Counter::Load), Some(0));
        assert_eq!(s.get(Counter::Ds), Some(0));
        let s = decode_combined_imm(Counter::Store, 0x3f02);
        assert_eq!(s.get(Counter::Store), None);
        assert_eq!(s.get(Counter::Ds), Some(2));
    }

    #[test]
    fn counter_widths() {
        assert_eq!(Counter::Vm.max_value(GfxGen::Gfx8), 15);
        assert_eq!(Counter::Vm.max_value(GfxGen::Gfx9), 63);
        assert_eq!(Counter::Lgkm.max_value(GfxGen::Gfx9), 15);
        assert_eq!(Counter::Lgkm.max_value(GfxGen::Gfx10), 63);
        assert_eq!(Counter::Exp.max_value(GfxGen::Gfx12), 7);
        assert_eq!(Counter::Bvh.max_value(GfxGen::Gfx12), 7);
        assert_eq!(Counter::Km.max_value(GfxGen::Gfx12), 31);
        assert_eq!(Counter::Vs.max_value(GfxGen::Gfx9), 0);
    }

    #[test]
    fn which_counters_count_what() {
        use InstrClass::*;
        assert_eq!(
            counters_incremented(VmemImageSample, GfxGen::Gfx9, false),
            &[Counter::Vm]
        );
        assert_eq!(
            counters_incremented(VmemBufferStore, GfxGen::Gfx9, false),
            &[Counter::Vm, Counter::Exp]
        );
        assert_eq!(
            counters_incremented(VmemBufferStore, GfxGen::Gfx10, false),
            &[Counter::Vs]
        );
        assert_eq!(
            counters_incremented(VmemImageSample, GfxGen::Gfx12, false),
            &[Counter::Sample]
        );
        assert_eq!(
            counters_incremented(VmemImageBvh, GfxGen::Gfx12, false),
            &[Counter::Bvh]
        );
        assert_eq!(
            counters_incremented(Smem, GfxGen::Gfx12, false),
            &[Counter::Km]
        );
        assert_eq!(
            counters_incremented(Lds, GfxGen::Gfx9, false),
            &[Counter::Lgkm]
        );
        assert!(counters_incremented(Valu, GfxGen::Gfx9, false).is_empty());
    }
}
