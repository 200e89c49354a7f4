//! What one vector memory instruction is, as far as coalescing cares: [`MemAccess`].
//!
//! A [`MemAccess`] is built from the instruction table's memory facts
//! ([`shadersim_isa::InstrInfo::memory`]): [`MemAccess::from_info`] for an instruction the
//! simulator has parsed, [`MemAccess::from_mnemonic`] for a mnemonic (a table lookup). No
//! spelling is parsed here: the grammar is in `scripts/isa/gen_memory_facts.py`, run once.

use crate::rates::{Rate, VmemRates};
use crate::texel::{TexelFormat, TextureFilter};
use shadersim_isa::table::classify_by_family;
use shadersim_isa::{InstrClass, InstrInfo, InstrTable, VmemFacts, VmemKind, VmemOp, VmemPath};
use std::fmt;

/// Whether the instruction reads, writes or read-modify-writes memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemOp {
    /// Reads memory (loads, samples, gathers).
    Load,
    /// Writes memory. Seed 001: lanes writing the same address collapse into one write.
    Store,
    /// Read-modify-write. Seed 001: every access stays a unique operation, never collapsed.
    Atomic,
}

impl fmt::Display for MemOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemOp::Load => "load",
            MemOp::Store => "store",
            MemOp::Atomic => "atomic",
        })
    }
}

/// The instruction family of a buffer-like access. All of them are served by the same texture
/// addressing / data path on GCN and follow seed 001's buffer rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BufferPath {
    /// `buffer_*` (MUBUF): a buffer resource plus per-lane offsets.
    Buffer,
    /// `tbuffer_*` (MTBUF): typed buffer, the format in the instruction.
    TypedBuffer,
    /// `global_*`: 64-bit per-lane addresses.
    Global,
    /// `flat_*`: flat addresses (assumed to point at global memory, not LDS).
    Flat,
    /// `scratch_*`: per-lane private memory.
    Scratch,
}

impl BufferPath {
    /// The mnemonic prefix (`buffer`, `tbuffer`, `global`, `flat`, `scratch`).
    pub fn prefix(self) -> &'static str {
        match self {
            BufferPath::Buffer => "buffer",
            BufferPath::TypedBuffer => "tbuffer",
            BufferPath::Global => "global",
            BufferPath::Flat => "flat",
            BufferPath::Scratch => "scratch",
        }
    }
}

/// The data one lane moves: a number of channels of a number of bits each.
///
/// *Single channel* is one value per lane of 8, 16, 32, 64, 96 or 128 bits (`ubyte`, `short`,
/// `dword`, `dwordx2`, `dwordx3`, `dwordx4`, `b8`..`b128`, `format_x`). *Multi-channel* is a
/// format conversion of 2 to 4 channels of 8, 16 or 32 bits (`format_xy`..`format_xyzw`); seed
/// 001 distinguishes the two ("multi-channel buffer VMEM operations, and buffer VMEM operations
/// with single-channel accesses greater than 32-bits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LaneData {
    channels: u8,
    bits_per_channel: u16,
}

impl LaneData {
    /// The sizes a single-channel access can have, in bits.
    pub const SINGLE_CHANNEL_BITS: [u16; 6] = [8, 16, 32, 64, 96, 128];
    /// The sizes one channel of a multi-channel access can have, in bits.
    pub const CHANNEL_BITS: [u16; 3] = [8, 16, 32];

    /// One value of `bits` per lane; `bits` must be one of [`Self::SINGLE_CHANNEL_BITS`].
    pub fn single_channel(bits: u16) -> Result<LaneData, AccessError> {
        if Self::SINGLE_CHANNEL_BITS.contains(&bits) {
            Ok(LaneData {
                channels: 1,
                bits_per_channel: bits,
            })
        } else {
            Err(AccessError::new(
                bits.to_string(),
                "a single-channel access moves 8, 16, 32, 64, 96 or 128 bits per lane",
            ))
        }
    }

    /// `channels` (2 to 4) values of `bits_per_channel` (8, 16 or 32) per lane.
    pub fn multi_channel(channels: u8, bits_per_channel: u16) -> Result<LaneData, AccessError> {
        if !(2..=4).contains(&channels) {
            return Err(AccessError::new(
                channels.to_string(),
                "a multi-channel access has 2, 3 or 4 channels",
            ));
        }
        if !Self::CHANNEL_BITS.contains(&bits_per_channel) {
            return Err(AccessError::new(
                bits_per_channel.to_string(),
                "a channel of a multi-channel access has 8, 16 or 32 bits",
            ));
        }
        Ok(LaneData {
            channels,
            bits_per_channel,
        })
    }

    /// Number of channels (1 for single-channel data).
    pub fn channels(self) -> u8 {
        self.channels
    }

    /// Bits of one channel.
    pub fn bits_per_channel(self) -> u16 {
        self.bits_per_channel
    }

    /// Bits one lane moves.
    pub fn bits_per_lane(self) -> u32 {
        u32::from(self.channels) * u32::from(self.bits_per_channel)
    }

    /// Bytes one lane moves (every allowed size is a whole number of bytes).
    pub fn bytes_per_lane(self) -> u32 {
        self.bits_per_lane() / 8
    }

    /// Whether there is more than one channel.
    pub fn is_multi_channel(self) -> bool {
        self.channels > 1
    }
}

impl fmt::Display for LaneData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_multi_channel() {
            write!(
                f,
                "{} channels x {} bits per lane",
                self.channels, self.bits_per_channel
            )
        } else {
            write!(f, "single channel, {} bits per lane", self.bits_per_channel)
        }
    }
}

/// A buffer-like access: `buffer_*`, `tbuffer_*`, `global_*`, `flat_*` or `scratch_*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferAccess {
    /// Which instruction family.
    pub path: BufferPath,
    /// Load, store or atomic.
    pub op: MemOp,
    /// The data each lane moves.
    pub data: LaneData,
}

/// The kind of an image instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageOp {
    /// `image_sample*`: a sampler fetch; `gradients` for the `_d` / `_cd` forms that carry user
    /// derivatives (gcn-model.md: a further x2).
    Sample {
        /// Whether the sample carries user gradients.
        gradients: bool,
    },
    /// `image_gather4*`: the four texels of a bilinear footprint, one channel.
    Gather4,
    /// `image_load*` (and `image_msaa_load`): an unfiltered read without a sampler.
    Load,
    /// `image_store*`.
    Store,
    /// `image_atomic_*`.
    Atomic,
}

impl ImageOp {
    /// Load, store or atomic.
    pub fn mem_op(self) -> MemOp {
        match self {
            ImageOp::Sample { .. } | ImageOp::Gather4 | ImageOp::Load => MemOp::Load,
            ImageOp::Store => MemOp::Store,
            ImageOp::Atomic => MemOp::Atomic,
        }
    }
}

impl fmt::Display for ImageOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ImageOp::Sample { gradients: false } => "sample",
            ImageOp::Sample { gradients: true } => "sample with gradients",
            ImageOp::Gather4 => "gather4",
            ImageOp::Load => "load",
            ImageOp::Store => "store",
            ImageOp::Atomic => "atomic",
        })
    }
}

/// An image access: the op and the image's texel format and the sampler's filter. The mnemonic
/// names neither format nor filter, so [`MemAccess::from_mnemonic`] fills in gcn-model.md's
/// defaults (`rgba8`, `trilinear`); the `[[memory]]` hint or the simulator overrides them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageAccess {
    /// What the instruction does.
    pub op: ImageOp,
    /// The texel format of the image.
    pub format: TexelFormat,
    /// The sampler's filter (used by [`ImageOp::Sample`] only).
    pub filter: TextureFilter,
}

impl ImageAccess {
    /// gcn-model.md: "Default format and filter: rgba8 + trilinear (32 clocks)."
    pub const DEFAULT_FORMAT: TexelFormat = TexelFormat::Rgba8;
    /// See [`Self::DEFAULT_FORMAT`].
    pub const DEFAULT_FILTER: TextureFilter = TextureFilter::Trilinear;

    /// An access with the default format and filter.
    pub fn new(op: ImageOp) -> ImageAccess {
        ImageAccess {
            op,
            format: Self::DEFAULT_FORMAT,
            filter: Self::DEFAULT_FILTER,
        }
    }
}

/// One vector memory instruction, as far as coalescing cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemAccess {
    /// `buffer_*`, `tbuffer_*`, `global_*`, `flat_*`, `scratch_*`.
    Buffer(BufferAccess),
    /// `image_*`.
    Image(ImageAccess),
}

/// The clocks per full wave of an access and how they were found, for reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveClocks {
    /// Clocks per wave64 with every lane active.
    pub clocks: u32,
    /// How: the rate keys and factors, e.g. `image_filtered_32bit_clocks 16 x trilinear_factor 2`.
    pub basis: String,
}

impl MemAccess {
    /// Load, store or atomic.
    pub fn mem_op(&self) -> MemOp {
        match self {
            MemAccess::Buffer(buffer) => buffer.op,
            MemAccess::Image(image) => image.op.mem_op(),
        }
    }

    /// Bytes one lane reads or writes in memory: the buffer data size, or the image's
    /// [`TexelFormat::fetch_bytes`]. This is the element size of lane patterns (`linear` puts
    /// lane i at base + i x this) and the width used for 64-byte line crossings.
    pub fn bytes_per_lane(&self) -> u32 {
        match self {
            MemAccess::Buffer(buffer) => buffer.data.bytes_per_lane(),
            MemAccess::Image(image) => image.format.fetch_bytes(),
        }
    }

    /// Whether seed 001's 16-lane grouping can apply: a 32-bit-or-smaller single-channel buffer
    /// **load**. Seed 001 words the rule for "buffer VMEM operations" but its table and its reason
    /// (the return data path delivers 16 32-bit values per clock) are about loads, and
    /// gcn-model.md charges stores 16 clocks; so stores and atomics never use it. `global_`,
    /// `flat_` and `scratch_` ops go through the same buffer path on GCN and qualify too.
    pub fn may_group_16_lanes(&self) -> bool {
        match self {
            MemAccess::Buffer(buffer) => {
                buffer.op == MemOp::Load
                    && !buffer.data.is_multi_channel()
                    && buffer.data.bits_per_lane() <= 32
            }
            MemAccess::Image(_) => false,
        }
    }

    /// Clocks per wave64 with every lane active, from `rates`; `grouped_16` says whether one of
    /// seed 001's 16-lane cases holds (only meaningful when [`Self::may_group_16_lanes`]).
    pub fn wave_clocks(&self, grouped_16: bool, rates: &VmemRates) -> WaveClocks {
        let plain = |rate: Rate| WaveClocks {
            clocks: rates.get(rate),
            basis: format!("{} {}", rate.key(), rates.get(rate)),
        };
        match self {
            MemAccess::Buffer(buffer) => match buffer.op {
                MemOp::Store | MemOp::Atomic => plain(Rate::BufferStoreClocks),
                MemOp::Load if grouped_16 && self.may_group_16_lanes() => {
                    plain(Rate::BufferCoalescedLoadClocks)
                }
                MemOp::Load => plain(Rate::BufferLoadClocks),
            },
            MemAccess::Image(image) => match image.op {
                ImageOp::Gather4 => plain(Rate::ImageGather4Clocks),
                ImageOp::Load | ImageOp::Store | ImageOp::Atomic => {
                    plain(Rate::ImageLoadStoreClocks)
                }
                ImageOp::Sample { gradients } => {
                    let mut result = match image.filter.factor_rate() {
                        None => plain(Rate::ImagePointClocks),
                        Some(factor) => {
                            let class = image.format.filter_class().rate();
                            WaveClocks {
                                clocks: image.format.sample_clocks(image.filter, rates),
                                basis: format!(
                                    "{} {} x {} {}",
                                    class.key(),
                                    rates.get(class),
                                    factor.key(),
                                    rates.get(factor)
                                ),
                            }
                        }
                    };
                    // The gradient factor applies to point samples too: the extra cost is in
                    // the address path (derivatives to process), not in the filter.
                    if gradients {
                        let factor = rates.get(Rate::GradientFactor);
                        result.clocks = result.clocks.saturating_mul(factor);
                        result.basis = format!(
                            "{} x {} {}",
                            result.basis,
                            Rate::GradientFactor.key(),
                            factor
                        );
                    }
                    result
                }
            },
        }
    }

    /// The access a vector memory instruction makes, from the instruction table's memory facts;
    /// `None` for the kinds the coalescing model does not describe (cache control, descriptor
    /// queries, ray intersections, gfx12 `_block` moves).
    ///
    /// Format ops get 32-bit channels (16 with `d16`), as the table records: the real memory
    /// format is in the buffer descriptor, which the instruction does not show; build a
    /// [`LaneData`] to say otherwise. Image accesses get [`ImageAccess::DEFAULT_FORMAT`] and
    /// [`ImageAccess::DEFAULT_FILTER`].
    pub fn from_facts(facts: &VmemFacts) -> Option<MemAccess> {
        let image = |op| Some(MemAccess::Image(ImageAccess::new(op)));
        match facts.kind {
            VmemKind::Sample { gradients, .. } => image(ImageOp::Sample { gradients }),
            VmemKind::Gather4 => image(ImageOp::Gather4),
            VmemKind::ImageLoad => image(ImageOp::Load),
            VmemKind::ImageStore => image(ImageOp::Store),
            VmemKind::ImageAtomic => image(ImageOp::Atomic),
            VmemKind::CacheControl | VmemKind::Query | VmemKind::Bvh(_) | VmemKind::Block => None,
            VmemKind::Data => {
                let path = match facts.path {
                    VmemPath::Buffer => BufferPath::Buffer,
                    VmemPath::TypedBuffer => BufferPath::TypedBuffer,
                    VmemPath::Global => BufferPath::Global,
                    VmemPath::Flat => BufferPath::Flat,
                    VmemPath::Scratch => BufferPath::Scratch,
                    VmemPath::Image => return None,
                };
                let op = match facts.op? {
                    VmemOp::Load => MemOp::Load,
                    VmemOp::Store => MemOp::Store,
                    VmemOp::Atomic => MemOp::Atomic,
                };
                let data = if facts.channels == 1 {
                    LaneData::single_channel(facts.bits_per_channel)
                } else {
                    LaneData::multi_channel(facts.channels, facts.bits_per_channel)
                }
                .ok()?;
                Some(MemAccess::Buffer(BufferAccess { path, op, data }))
            }
        }
    }

    /// The access of a table entry ([`InstrInfo::memory`] through [`Self::from_facts`]), or an
    /// error saying why the instruction has no lane addresses to coalesce, decided from its
    /// class and facts: scalar memory, not a memory instruction, cache control, no texels.
    pub fn from_info(info: &InstrInfo) -> Result<MemAccess, AccessError> {
        let name = info.mnemonic;
        let err = |message: String| AccessError::new(name.to_string(), message);
        if info.class == InstrClass::Smem {
            return Err(err(SCALAR_MESSAGE.into()));
        }
        let Some(facts) = info.memory else {
            return Err(err(if info.class.is_vmem() {
                format!("`{name}` has no memory facts in the instruction table")
            } else {
                format!(
                    "`{name}` ({}) is not a vector memory instruction family; expected buffer, \
                     tbuffer, global, flat, scratch or image",
                    info.class.name()
                )
            }));
        };
        MemAccess::from_facts(&facts).ok_or_else(|| {
            err(match facts.kind {
                VmemKind::Query | VmemKind::Bvh(_) => {
                    "this image instruction reads no texels per lane (descriptor query or ray \
                     traversal); there are no lane addresses to coalesce"
                        .into()
                }
                VmemKind::Block => format!(
                    "`{name}` moves a block of VGPRs per lane, which the coalescing model does \
                     not describe"
                ),
                _ => format!(
                    "`{name}` is a cache control instruction: it has no lane addresses to coalesce"
                ),
            })
        })
    }

    /// The access of a vector memory mnemonic (GCN or RDNA spelling): the instruction table's
    /// entry ([`InstrTable::lookup`]) through [`Self::from_info`]. ASCII case and surrounding
    /// blanks are ignored, and so is an operand list after the first blank, so a whole assembly
    /// line works. The mnemonic's spelling is never parsed here: the facts come from
    /// `data/memory_facts.tsv` of shadersim-isa, whose generator holds the grammar.
    pub fn from_mnemonic(mnemonic: &str) -> Result<MemAccess, AccessError> {
        let name = mnemonic
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let err = |message: String| AccessError::new(mnemonic.trim().to_string(), message);
        if name.is_empty() {
            return Err(err("the mnemonic is empty".into()));
        }
        match InstrTable::builtin().lookup(&name) {
            Some(info) => MemAccess::from_info(info).map_err(|e| err(e.message)),
            None => Err(err(match classify_by_family(&name) {
                Some((_, guess)) if guess.class == InstrClass::Smem => SCALAR_MESSAGE.into(),
                _ => format!(
                    "`{name}` is not in the instruction table (the vector memory instructions \
                     LLVM accepts on gfx6-gfx12, e.g. buffer_load_dword, global_load_b128, \
                     image_sample)"
                ),
            })),
        }
    }
}

/// Why a scalar memory instruction has no access.
const SCALAR_MESSAGE: &str = "scalar memory (SMEM) instruction: it reads one value for the whole \
                              wave, there are no lane addresses to coalesce";

impl fmt::Display for MemAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemAccess::Buffer(buffer) => {
                write!(f, "{} {}, {}", buffer.path.prefix(), buffer.op, buffer.data)
            }
            MemAccess::Image(image) => match image.op {
                ImageOp::Sample { .. } => write!(
                    f,
                    "image {}, {} texels, {} filter",
                    image.op, image.format, image.filter
                ),
                _ => write!(f, "image {}, {} texels", image.op, image.format),
            },
        }
    }
}

/// A mnemonic or lane data description that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessError {
    /// What was given.
    pub input: String,
    /// What is wrong with it.
    pub message: String,
}

impl AccessError {
    fn new(input: String, message: impl Into<String>) -> AccessError {
        AccessError {
            input,
            message: message.into(),
        }
    }
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad memory instruction `{}`: {}",
            self.input, self.message
        )
    }
}

impl std::error::Error for AccessError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(mnemonic: &str) -> BufferAccess {
        match MemAccess::from_mnemonic(mnemonic) {
            Ok(MemAccess::Buffer(buffer)) => buffer,
            other => panic!("{mnemonic}: {other:?}"),
        }
    }

    fn image(mnemonic: &str) -> ImageAccess {
        match MemAccess::from_mnemonic(mnemonic) {
            Ok(MemAccess::Image(image)) => image,
            other => panic!("{mnemonic}: {other:?}"),
        }
    }

    /// (mnemonic, path, op, channels, bits per lane)
    const BUFFER_CASES: &[(&str, BufferPath, MemOp, u8, u32)] = {
        use BufferPath::*;
        use MemOp::*;
        &[
            ("buffer_load_dword", Buffer, Load, 1, 32),
            ("buffer_load_dwordx2", Buffer, Load, 1, 64),
            ("buffer_load_dwordx3", Buffer, Load, 1, 96),
            ("buffer_load_dwordx4", Buffer, Load, 1, 128),
            ("buffer_load_ubyte", Buffer, Load, 1, 8),
            ("buffer_load_sbyte", Buffer, Load, 1, 8),
            ("buffer_load_ushort", Buffer, Load, 1, 16),
            ("buffer_load_sshort", Buffer, Load, 1, 16),
            ("buffer_load_ubyte_d16", Buffer, Load, 1, 8),
            ("buffer_load_ubyte_d16_hi", Buffer, Load, 1, 8),
            ("buffer_load_short_d16", Buffer, Load, 1, 16),
            ("buffer_load_short_d16_hi", Buffer, Load, 1, 16),
            ("buffer_load_format_x", Buffer, Load, 1, 32),
            ("buffer_load_format_xy", Buffer, Load, 2, 64),
            ("buffer_load_format_xyz", Buffer, Load, 3, 96),
            ("buffer_load_format_xyzw", Buffer, Load, 4, 128),
            ("buffer_load_format_d16_x", Buffer, Load, 1, 16),
            ("buffer_load_format_d16_xyzw", Buffer, Load, 4, 64),
            ("buffer_load_d16_format_xyzw", Buffer, Load, 4, 64),
            ("buffer_load_format_d16_hi_x", Buffer, Load, 1, 16),
            ("buffer_store_byte", Buffer, Store, 1, 8),
            ("buffer_store_short", Buffer, Store, 1, 16),
            ("buffer_store_dword", Buffer, Store, 1, 32),
            ("buffer_store_dwordx4", Buffer, Store, 1, 128),
            ("buffer_store_format_xyzw", Buffer, Store, 4, 128),
            ("buffer_store_byte_d16_hi", Buffer, Store, 1, 8),
            ("buffer_atomic_add", Buffer, Atomic, 1, 32),
            ("buffer_atomic_add_x2", Buffer, Atomic, 1, 64),
            ("buffer_atomic_cmpswap", Buffer, Atomic, 1, 32),
            ("buffer_atomic_cmpswap_x2", Buffer, Atomic, 1, 64),
            ("buffer_atomic_fcmpswap", Buffer, Atomic, 1, 32),
            ("buffer_atomic_pk_add_f16", Buffer, Atomic, 1, 32),
            ("buffer_atomic_add_f32", Buffer, Atomic, 1, 32),
            ("buffer_atomic_add_u32", Buffer, Atomic, 1, 32),
            ("buffer_atomic_add_u64", Buffer, Atomic, 1, 64),
            ("buffer_atomic_cmpswap_b64", Buffer, Atomic, 1, 64),
            ("buffer_atomic_min_num_f32", Buffer, Atomic, 1, 32),
            ("buffer_atomic_csub", Buffer, Atomic, 1, 32),
            ("buffer_atomic_sub_clamp_u32", Buffer, Atomic, 1, 32),
            ("global_atomic_cond_sub_u32", Global, Atomic, 1, 32),
            ("global_atomic_ordered_add_b64", Global, Atomic, 1, 64),
            ("flat_atomic_pk_add_bf16", Flat, Atomic, 1, 32),
            ("tbuffer_load_format_x", TypedBuffer, Load, 1, 32),
            ("tbuffer_load_format_xyzw", TypedBuffer, Load, 4, 128),
            ("tbuffer_store_format_xy", TypedBuffer, Store, 2, 64),
            ("tbuffer_load_format_d16_xy", TypedBuffer, Load, 2, 32),
            // RDNA spellings.
            ("buffer_load_b32", Buffer, Load, 1, 32),
            ("buffer_load_b64", Buffer, Load, 1, 64),
            ("buffer_load_b96", Buffer, Load, 1, 96),
            ("buffer_load_b128", Buffer, Load, 1, 128),
            ("buffer_load_u8", Buffer, Load, 1, 8),
            ("buffer_load_i8", Buffer, Load, 1, 8),
            ("buffer_load_u16", Buffer, Load, 1, 16),
            ("buffer_load_i16", Buffer, Load, 1, 16),
            ("buffer_load_d16_b16", Buffer, Load, 1, 16),
            ("buffer_load_d16_hi_u8", Buffer, Load, 1, 8),
            ("buffer_store_b8", Buffer, Store, 1, 8),
            ("buffer_store_b16", Buffer, Store, 1, 16),
            ("buffer_store_d16_hi_b16", Buffer, Store, 1, 16),
            ("global_load_b32", Global, Load, 1, 32),
            ("global_load_b64", Global, Load, 1, 64),
            ("global_load_b128", Global, Load, 1, 128),
            ("global_store_b96", Global, Store, 1, 96),
            ("global_atomic_add_u32", Global, Atomic, 1, 32),
            ("global_atomic_cmpswap_b64", Global, Atomic, 1, 64),
            ("global_load_tr_b64", Global, Load, 1, 64),
            // GCN global / flat / scratch.
            ("global_load_dword", Global, Load, 1, 32),
            ("global_load_dwordx2", Global, Load, 1, 64),
            ("global_load_ubyte", Global, Load, 1, 8),
            ("global_load_dword_addtid", Global, Load, 1, 32),
            ("global_store_dwordx3", Global, Store, 1, 96),
            ("global_atomic_smax_x2", Global, Atomic, 1, 64),
            ("flat_load_dword", Flat, Load, 1, 32),
            ("flat_load_dwordx4", Flat, Load, 1, 128),
            ("flat_store_dword", Flat, Store, 1, 32),
            ("flat_store_short", Flat, Store, 1, 16),
            ("flat_atomic_inc", Flat, Atomic, 1, 32),
            ("scratch_load_dword", Scratch, Load, 1, 32),
            ("scratch_load_ushort", Scratch, Load, 1, 16),
            ("scratch_store_dwordx2", Scratch, Store, 1, 64),
            ("scratch_load_b32", Scratch, Load, 1, 32),
        ]
    };

    #[test]
    fn buffer_like_mnemonics() {
        for &(mnemonic, path, op, channels, bits) in BUFFER_CASES {
            let access = buffer(mnemonic);
            assert_eq!(access.path, path, "{mnemonic}");
            assert_eq!(access.op, op, "{mnemonic}");
            assert_eq!(access.data.channels(), channels, "{mnemonic}");
            assert_eq!(access.data.bits_per_lane(), bits, "{mnemonic}");
        }
    }

    #[test]
    fn case_blanks_and_operands_are_ignored() {
        assert_eq!(
            buffer("  BUFFER_LOAD_DWORD v1, v0, s[0:3], 0 offen"),
            buffer("buffer_load_dword")
        );
        assert_eq!(
            buffer("global_load_dwordx4 v[0:3], v[4:5], off"),
            buffer("global_load_dwordx4")
        );
    }

    #[test]
    fn image_mnemonics() {
        let cases: &[(&str, ImageOp)] = &[
            ("image_sample", ImageOp::Sample { gradients: false }),
            ("image_sample_lz", ImageOp::Sample { gradients: false }),
            ("image_sample_l", ImageOp::Sample { gradients: false }),
            ("image_sample_b_cl", ImageOp::Sample { gradients: false }),
            ("image_sample_c_lz_o", ImageOp::Sample { gradients: false }),
            ("image_sample_d", ImageOp::Sample { gradients: true }),
            ("image_sample_cd", ImageOp::Sample { gradients: true }),
            ("image_sample_c_d_cl_o", ImageOp::Sample { gradients: true }),
            ("image_sample_d_g16", ImageOp::Sample { gradients: true }),
            ("image_gather4", ImageOp::Gather4),
            ("image_gather4_c_lz", ImageOp::Gather4),
            ("image_gather4h", ImageOp::Gather4),
            ("image_load", ImageOp::Load),
            ("image_load_mip", ImageOp::Load),
            ("image_load_pck_sgn", ImageOp::Load),
            ("image_msaa_load", ImageOp::Load),
            ("image_store", ImageOp::Store),
            ("image_store_mip_pck", ImageOp::Store),
            ("image_atomic_add", ImageOp::Atomic),
            ("image_atomic_cmpswap", ImageOp::Atomic),
            // GFX12 spellings.
            ("image_atomic_add_uint", ImageOp::Atomic),
            ("image_atomic_min_num_flt", ImageOp::Atomic),
        ];
        for &(mnemonic, op) in cases {
            let access = image(mnemonic);
            assert_eq!(access.op, op, "{mnemonic}");
            assert_eq!(access.format, TexelFormat::Rgba8);
            assert_eq!(access.filter, TextureFilter::Trilinear);
        }
    }

    #[test]
    fn bad_mnemonics_say_what_is_wrong() {
        // Spellings the table does not list are refused by the lookup; the grammar that once
        // explained what was wrong with them lives in scripts/isa/gen_memory_facts.py now.
        const UNKNOWN: &str = "not in the instruction table";
        let cases: &[(&str, &str)] = &[
            ("", "empty"),
            ("   ", "empty"),
            ("v_add_f32", "not a vector memory instruction family"),
            ("s_buffer_load_dword", "scalar memory"),
            ("s_load_dwordx4", "scalar memory"),
            ("s_load_frob", "scalar memory"),
            ("buffer", UNKNOWN),
            ("buffer_load", UNKNOWN),
            ("buffer_load_dwordx5", UNKNOWN),
            ("buffer_load_dword_dwordx2", UNKNOWN),
            ("buffer_load_format", UNKNOWN),
            ("buffer_load_format_xyzww", UNKNOWN),
            ("buffer_load_dword_format_x", UNKNOWN),
            ("image_atomic_add_quux", UNKNOWN),
            ("buffer_fetch_dword", UNKNOWN),
            ("buffer_wbinvl1", "cache control"),
            ("buffer_gl0_inv", "cache control"),
            ("global_wbinv", "cache control"),
            ("buffer_atomic", UNKNOWN),
            ("buffer__load_dword", UNKNOWN),
            ("image", UNKNOWN),
            ("image_sample_q", UNKNOWN),
            ("image_get_resinfo", "no texels"),
            ("image_bvh_intersect_ray", "no texels"),
            ("image_bvh8_intersect_ray", "no texels"),
            ("global_load_block", "block of VGPRs"),
            ("ds_read_b32", "not a vector memory"),
            ("frob", UNKNOWN),
            // A spelling no LLVM accepts on any gfx9 processor (CDNA's is global_atomic_add_f32).
            ("global_atomic_fadd", UNKNOWN),
        ];
        for &(mnemonic, expected) in cases {
            let err = MemAccess::from_mnemonic(mnemonic).unwrap_err();
            let text = err.to_string();
            assert!(text.contains(expected), "{mnemonic}: {text}");
            assert!(text.starts_with("bad memory instruction"), "{text}");
        }
    }

    #[test]
    fn lane_data_constructors_validate() {
        assert!(LaneData::single_channel(24).is_err());
        assert!(LaneData::single_channel(0).is_err());
        assert!(LaneData::multi_channel(1, 32).is_err());
        assert!(LaneData::multi_channel(5, 32).is_err());
        assert!(LaneData::multi_channel(4, 64).is_err());
        let data = LaneData::multi_channel(4, 8).unwrap();
        assert_eq!(data.bytes_per_lane(), 4);
        assert!(data.is_multi_channel());
        assert_eq!(data.to_string(), "4 channels x 8 bits per lane");
    }

    #[test]
    fn sixteen_lane_eligibility() {
        let may = |m: &str| MemAccess::from_mnemonic(m).unwrap().may_group_16_lanes();
        assert!(may("buffer_load_dword"));
        assert!(may("buffer_load_ubyte"));
        assert!(may("buffer_load_format_x"));
        assert!(may("tbuffer_load_format_x"));
        assert!(may("global_load_b32"));
        assert!(may("flat_load_dword"));
        assert!(may("scratch_load_dword"));
        assert!(!may("buffer_load_dwordx2"));
        assert!(!may("buffer_load_format_xy"));
        assert!(!may("buffer_load_format_d16_xy"));
        assert!(!may("buffer_store_dword"));
        assert!(!may("buffer_atomic_add"));
        assert!(!may("image_load"));
    }

    #[test]
    fn display_describes_the_access() {
        let show = |m: &str| MemAccess::from_mnemonic(m).unwrap().to_string();
        assert_eq!(
            show("buffer_load_dword"),
            "buffer load, single channel, 32 bits per lane"
        );
        assert_eq!(
            show("tbuffer_load_format_xyzw"),
            "tbuffer load, 4 channels x 32 bits per lane"
        );
        assert_eq!(
            show("image_sample_d"),
            "image sample with gradients, rgba8 texels, trilinear filter"
        );
        assert_eq!(show("image_store"), "image store, rgba8 texels");
    }
}
