//! The GCN coalescing model of seed 001 for one wave64 vector memory instruction.
//!
//! [`coalesce`] takes what the instruction is ([`MemAccess`]), the byte address of every lane
//! and the EXEC mask, and returns a [`CoalesceResult`]:
//!
//! * **L2 requests** (seed 001, "Coalescing For L2 Access"): the hardware "groups the accesses
//!   for all 64 invocations of a wave into the fewest 64-byte aligned 64-byte memory requests".
//!   A lane touches every line its access overlaps (`address .. address + bytes_per_lane`), so
//!   an access that crosses a line boundary touches two. Loads and stores count the distinct
//!   lines touched by active lanes; lanes storing to the same address collapse into one write
//!   ("There is no need to waste VALU cycles to avoid colliding writes"). Atomics are never
//!   collapsed: "each access to a given address must remain a unique operation", so every
//!   active lane is its own request (two if its access crosses a line).
//! * **L1 grouping** (seed 001, "Coalescing for L1 Access"): lanes are served in aligned groups
//!   of [`QUAD_GROUP_LANES`] (image ops, multi-channel buffer ops, single-channel buffer ops
//!   wider than 32 bits, and every store and atomic), or of [`WIDE_GROUP_LANES`] for a
//!   32-bit-or-smaller single-channel buffer load in one of the three cases (see
//!   [`CoalesceRule`]). `l1_groups` counts the aligned groups (lanes `g*size .. g*size+size-1`)
//!   that hold at least one active lane; the others are skipped.
//! * **Clocks** at the texture addressing / data path: the full-wave figure of seed 001's table
//!   (from [`VmemRates`]) scaled by the share of groups that hold an active lane, rounded up:
//!   `clocks = ceil(wave_clocks x l1_groups / (64 / group_size))`. With every lane active this
//!   is exactly the table figure (4, 16, 16, 16, 32, 64, ...); with EXEC = 0 it is 0: no group
//!   is active, nothing is addressed or returned. (Issuing the instruction still costs its
//!   issue slot; that is the engine's business, not the data path's.)
//!
//! ## Readings of seed 001 where it is not explicit
//! * **Inactive lanes** access nothing: they touch no line, their addresses are ignored, and a
//!   group's case is judged on its active lanes. A partly active group of 4 satisfies a case
//!   when some choice of addresses for its inactive lanes would make the full group satisfy it
//!   (so a group with one active lane satisfies every case). Results never depend on the
//!   addresses of inactive lanes.
//! * **"All invocations access the same address"** (case 1) means every active lane of the wave.
//!   Cases 2 and 3 must hold for every aligned group of 4 lanes of the wave; a wave whose groups
//!   mix case 2 and case 3 satisfies neither (the seed states each case for "each aligned group
//!   of 4"), so it falls back to groups of 4.
//! * **"4 consecutive addresses"** for 8- and 16-bit data means 4 consecutive elements of that
//!   size (bytes `b, b+1, b+2, b+3` for `ubyte`; `b, b+2, b+4, b+6` for `ushort`; dwords for
//!   `dword`), in any order, not necessarily aligned to 4 elements.
//! * **Loads only**: the seed says "32-bit (and smaller) single-channel buffer VMEM operations",
//!   but its table row is "buffer loads", its reason is the return data path (16 32-bit values
//!   returned per clock), and gcn-model.md charges stores 16 clocks: stores and atomics always
//!   use groups of 4. `global_`, `flat_` and `scratch_` instructions share the buffer path on GCN
//!   and follow the buffer rules.
//! * A 32-bit-or-smaller single-channel buffer load in none of the cases is "handled like point
//!   sampled image operations" too: groups of 4, [`Rate::BufferLoadClocks`].
//! * **Image addresses** are one texel (or compressed block) per lane; the extra texels of a
//!   filtered footprint are not modelled for L2 (the row pitch is unknown), only in the clocks.

use crate::access::{ImageOp, MemAccess, MemOp};
pub use crate::pattern::WAVE64;
use crate::pattern::{LaneOrder, LanePattern, PatternError};
use crate::rates::{Rate, VmemRates};
use crate::texel::{TexelFormat, TextureFilter};
use serde::{Serialize, Serializer};
use std::fmt;

/// Seed 001: "Image VMEM operations are serviced in aligned groups of 4 invocations in a wave";
/// in a pixel shader each group is a 2x2 fragment quad.
pub const QUAD_GROUP_LANES: u32 = 4;

/// Seed 001: "32-bit (and smaller) single-channel buffer VMEM operations are first coalesced in
/// aligned groups of 16 invocations", under the three cases of [`CoalesceRule`].
pub const WIDE_GROUP_LANES: u32 = 16;

/// The rule that decided the L1 grouping and the clocks, for reports ([`fmt::Display`] gives it
/// in words, [`CoalesceRule::id`] a stable key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CoalesceRule {
    /// EXEC is zero: no lane accesses memory.
    NoActiveLanes,
    /// Seed 001 16-lane case 1: "all invocations access the same address".
    WaveUniform,
    /// Seed 001 16-lane case 2: "all invocations in each aligned group of 4 invocations access
    /// the same address".
    QuadUniform,
    /// Seed 001 16-lane case 3: "all invocations in each aligned group of 4 invocations access in
    /// a block of 4 consecutive addresses (ordering in the 4 invocations does not matter)".
    QuadConsecutive,
    /// A 32-bit-or-smaller single-channel buffer load in none of the three cases.
    ScatteredLoad {
        /// The first aligned group of 4 lanes (0..16) whose active lanes are not on one address.
        first_quad_not_uniform: u32,
        /// The first aligned group of 4 lanes (0..16) whose active lanes are not on a block of 4
        /// consecutive elements.
        first_quad_not_consecutive: u32,
    },
    /// A single-channel buffer load wider than 32 bits per lane.
    WideLoad {
        /// Bits per lane (64, 96 or 128).
        bits: u32,
    },
    /// A multi-channel (format) buffer load.
    MultiChannelLoad {
        /// Number of channels (2 to 4).
        channels: u8,
    },
    /// A buffer store.
    BufferStore,
    /// A buffer atomic.
    BufferAtomic,
    /// An image sample.
    ImageSample {
        /// Texel format.
        format: TexelFormat,
        /// Filter.
        filter: TextureFilter,
        /// Whether it carries user gradients.
        gradients: bool,
    },
    /// An image gather4.
    ImageGather4,
    /// An image load (no sampler).
    ImageLoad,
    /// An image store.
    ImageStore,
    /// An image atomic.
    ImageAtomic,
}

impl CoalesceRule {
    /// A short stable key for scripts (`buffer16-quad-consecutive`, `image-sample`, ...).
    pub fn id(self) -> &'static str {
        match self {
            CoalesceRule::NoActiveLanes => "no-active-lanes",
            CoalesceRule::WaveUniform => "buffer16-uniform",
            CoalesceRule::QuadUniform => "buffer16-quad-uniform",
            CoalesceRule::QuadConsecutive => "buffer16-quad-consecutive",
            CoalesceRule::ScatteredLoad { .. } => "buffer4-scattered",
            CoalesceRule::WideLoad { .. } => "buffer4-wide",
            CoalesceRule::MultiChannelLoad { .. } => "buffer4-multi-channel",
            CoalesceRule::BufferStore => "buffer4-store",
            CoalesceRule::BufferAtomic => "buffer4-atomic",
            CoalesceRule::ImageSample { .. } => "image-sample",
            CoalesceRule::ImageGather4 => "image-gather4",
            CoalesceRule::ImageLoad => "image-load",
            CoalesceRule::ImageStore => "image-store",
            CoalesceRule::ImageAtomic => "image-atomic",
        }
    }

    /// Whether the rule is one of seed 001's three 16-lane cases.
    pub fn is_16_lane_case(self) -> bool {
        matches!(
            self,
            CoalesceRule::WaveUniform | CoalesceRule::QuadUniform | CoalesceRule::QuadConsecutive
        )
    }
}

/// Lanes `4q .. 4q+3` as text.
fn quad_lanes(quad: u32) -> String {
    let first = quad * QUAD_GROUP_LANES;
    format!("lanes {}-{}", first, first + QUAD_GROUP_LANES - 1)
}

impl fmt::Display for CoalesceRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const QUADS: &str = "served in aligned groups of 4 lanes like point-sampled images";
        match *self {
            CoalesceRule::NoActiveLanes => {
                f.write_str("no active lanes (EXEC is zero): nothing is addressed, read or written")
            }
            CoalesceRule::WaveUniform => f.write_str(
                "16-lane case 1 of seed 001: every active lane accesses the same address, so \
                 each aligned group of 16 lanes is served at once",
            ),
            CoalesceRule::QuadUniform => f.write_str(
                "16-lane case 2 of seed 001: in every aligned group of 4 lanes the active lanes \
                 access one address, so each aligned group of 16 lanes is served at once",
            ),
            CoalesceRule::QuadConsecutive => f.write_str(
                "16-lane case 3 of seed 001: every aligned group of 4 lanes accesses a block of \
                 4 consecutive elements (in any order), so each aligned group of 16 lanes is \
                 served at once",
            ),
            CoalesceRule::ScatteredLoad {
                first_quad_not_uniform,
                first_quad_not_consecutive,
            } => write!(
                f,
                "32-bit-or-smaller single-channel buffer load in none of seed 001's 16-lane \
                 cases ({} are not on one address; {} are not on 4 consecutive elements): {QUADS}",
                quad_lanes(first_quad_not_uniform),
                quad_lanes(first_quad_not_consecutive)
            ),
            CoalesceRule::WideLoad { bits } => write!(
                f,
                "single-channel buffer load of {bits} bits per lane (over 32 bits): {QUADS}"
            ),
            CoalesceRule::MultiChannelLoad { channels } => {
                write!(
                    f,
                    "multi-channel buffer load ({channels} channels): {QUADS}"
                )
            }
            CoalesceRule::BufferStore => write!(
                f,
                "buffer store (the 16-lane cases are for loads): {QUADS}; lanes writing the \
                 same address collapse into one write"
            ),
            CoalesceRule::BufferAtomic => write!(
                f,
                "buffer atomic: {QUADS}; every active lane is its own L2 request, never \
                 collapsed"
            ),
            CoalesceRule::ImageSample {
                format,
                filter,
                gradients,
            } => {
                let filtering = if filter.is_filtered() {
                    format!(
                        "filtered sample ({filter}) of {} texels ({format})",
                        format.filter_class()
                    )
                } else {
                    format!("point-sampled {format} texels (up to 128 bits)")
                };
                let gradients = if gradients { ", with gradients" } else { "" };
                write!(
                    f,
                    "image {filtering}{gradients}: aligned groups of 4 lanes (a 2x2 quad in \
                     pixel shaders)"
                )
            }
            CoalesceRule::ImageGather4 => f.write_str(
                "image gather4: aligned groups of 4 lanes (a 2x2 quad in pixel shaders)",
            ),
            CoalesceRule::ImageLoad => f.write_str(
                "image load without sampler: aligned groups of 4 lanes (a 2x2 quad in pixel \
                 shaders)",
            ),
            CoalesceRule::ImageStore => f.write_str(
                "image store: aligned groups of 4 lanes; lanes writing the same address collapse \
                 into one write",
            ),
            CoalesceRule::ImageAtomic => f.write_str(
                "image atomic: aligned groups of 4 lanes; every active lane is its own L2 \
                 request, never collapsed",
            ),
        }
    }
}

impl Serialize for CoalesceRule {
    /// A rule serializes as its words.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What one wave64 memory instruction costs. Serializes (serde) with these field names, which
/// are also the keys of `shadersim coalesce --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoalesceResult {
    /// Lanes set in EXEC.
    pub active_lanes: u32,
    /// Bytes each lane reads or writes ([`MemAccess::bytes_per_lane`]).
    pub bytes_per_lane: u32,
    /// L2 requests: distinct aligned lines touched by active lanes (loads and stores), or one per
    /// line each active lane touches (atomics).
    pub l2_requests: u32,
    /// Size and alignment of one L2 request in bytes ([`Rate::L2LineBytes`], 64 on GCN).
    pub l2_line_bytes: u32,
    /// `l2_requests x l2_line_bytes`: the bytes moved between L1 and L2.
    pub l2_bytes: u64,
    /// Start address of every distinct line touched, ascending.
    pub lines: Vec<u64>,
    /// Bytes from the lowest active lane's address to the end of the highest active lane's
    /// access: the bytes the lanes address (64 x 4 = 256 for a linear wave64 dword load), not
    /// rounded to any line; 0 when no lane is active.
    pub lane_span: u64,
    /// Memory accesses after collapsing: distinct addresses among active lanes for loads and
    /// stores (lanes on the same address are one access: the store collapse of seed 001), every
    /// active lane for atomics.
    pub distinct_accesses: u32,
    /// Lanes per L1 group: [`QUAD_GROUP_LANES`] or [`WIDE_GROUP_LANES`].
    pub group_size: u32,
    /// Aligned groups of `group_size` lanes holding at least one active lane.
    pub l1_groups: u32,
    /// Clocks at the texture addressing / data path for this wave and EXEC mask.
    pub clocks: u32,
    /// Clocks for the same instruction and addresses with every lane active (the table figure).
    pub wave_clocks: u32,
    /// Where `wave_clocks` comes from: rate keys and values.
    pub clocks_basis: String,
    /// The rule that applied (serialized in words).
    pub rule: CoalesceRule,
    /// [`CoalesceRule::id`] of `rule`.
    pub rule_id: &'static str,
}

/// The cost of one wave64 memory instruction: `addresses[lane]` is the byte address lane `lane`
/// accesses, `exec` bit `lane` says whether it is active. Never panics; see the module
/// documentation for the rules.
pub fn coalesce(
    access: &MemAccess,
    addresses: &[u64; WAVE64],
    exec: u64,
    rates: &VmemRates,
) -> CoalesceResult {
    let active: Vec<usize> = (0..WAVE64).filter(|&lane| is_active(exec, lane)).collect();
    let bytes_per_lane = access.bytes_per_lane().max(1);
    let line_bytes = rates.get(Rate::L2LineBytes).max(1);

    // L2: the lines each active lane's whole access overlaps.
    let mut lines = Vec::with_capacity(active.len() * 2);
    let mut lane_line_touches: u64 = 0;
    for &lane in &active {
        let first = addresses[lane] / u64::from(line_bytes);
        let last =
            addresses[lane].saturating_add(u64::from(bytes_per_lane) - 1) / u64::from(line_bytes);
        lane_line_touches += last - first + 1;
        // A lane touches at most a handful of lines (its bytes / line size + 1).
        lines.extend((first..=last).map(|line| line * u64::from(line_bytes)));
    }
    lines.sort_unstable();
    lines.dedup();
    let lane_span = match (
        active.iter().map(|&lane| addresses[lane]).min(),
        active
            .iter()
            .map(|&lane| addresses[lane].saturating_add(u64::from(bytes_per_lane)))
            .max(),
    ) {
        (Some(low), Some(high)) => high - low,
        _ => 0,
    };
    let atomic = access.mem_op() == MemOp::Atomic;
    let l2_requests = if atomic {
        saturate(lane_line_touches)
    } else {
        saturate(lines.len() as u64)
    };
    let distinct_accesses = if atomic {
        active.len() as u32
    } else {
        let mut distinct: Vec<u64> = active.iter().map(|&lane| addresses[lane]).collect();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() as u32
    };

    // L1 grouping and the rule.
    let (group_size, rule) = classify(access, addresses, exec);
    let rule = if exec == 0 {
        CoalesceRule::NoActiveLanes
    } else {
        rule
    };
    let groups_per_wave = WAVE64 as u32 / group_size;
    let group_mask = low_bits(group_size);
    let l1_groups = (0..groups_per_wave)
        .filter(|g| (exec >> (g * group_size)) & group_mask != 0)
        .count() as u32;

    let wave = access.wave_clocks(rule.is_16_lane_case(), rates);
    let clocks = saturate(
        (u64::from(wave.clocks) * u64::from(l1_groups)).div_ceil(u64::from(groups_per_wave)),
    );

    CoalesceResult {
        active_lanes: active.len() as u32,
        bytes_per_lane,
        l2_requests,
        l2_line_bytes: line_bytes,
        l2_bytes: u64::from(l2_requests) * u64::from(line_bytes),
        lines,
        lane_span,
        distinct_accesses,
        group_size,
        l1_groups,
        clocks,
        wave_clocks: wave.clocks,
        clocks_basis: wave.basis,
        rule,
        rule_id: rule.id(),
    }
}

/// [`coalesce`] for the addresses a lane pattern gives: the element size is the access's
/// [`MemAccess::bytes_per_lane`], `base` the address of element 0, `order` how the shader stage
/// orders its lanes. Fails only when the pattern cannot produce addresses (see
/// [`LanePattern::addresses`]).
pub fn coalesce_pattern(
    access: &MemAccess,
    pattern: &LanePattern,
    base: u64,
    order: LaneOrder,
    exec: u64,
    rates: &VmemRates,
) -> Result<CoalesceResult, PatternError> {
    let addresses = pattern.addresses(base, access.bytes_per_lane(), order)?;
    Ok(coalesce(access, &addresses, exec, rates))
}

fn is_active(exec: u64, lane: usize) -> bool {
    (exec >> lane) & 1 == 1
}

/// A mask of the `n` low bits (`n` at most 64).
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn saturate(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The group size and rule of an access with at least one active lane (the caller replaces the
/// rule when EXEC is zero; the group size stays what the instruction would use).
fn classify(access: &MemAccess, addresses: &[u64; WAVE64], exec: u64) -> (u32, CoalesceRule) {
    match access {
        MemAccess::Image(image) => {
            let rule = match image.op {
                ImageOp::Sample { gradients } => CoalesceRule::ImageSample {
                    format: image.format,
                    filter: image.filter,
                    gradients,
                },
                ImageOp::Gather4 => CoalesceRule::ImageGather4,
                ImageOp::Load => CoalesceRule::ImageLoad,
                ImageOp::Store => CoalesceRule::ImageStore,
                ImageOp::Atomic => CoalesceRule::ImageAtomic,
            };
            (QUAD_GROUP_LANES, rule)
        }
        MemAccess::Buffer(buffer) => match buffer.op {
            MemOp::Store => (QUAD_GROUP_LANES, CoalesceRule::BufferStore),
            MemOp::Atomic => (QUAD_GROUP_LANES, CoalesceRule::BufferAtomic),
            MemOp::Load if buffer.data.is_multi_channel() => (
                QUAD_GROUP_LANES,
                CoalesceRule::MultiChannelLoad {
                    channels: buffer.data.channels(),
                },
            ),
            MemOp::Load if !access.may_group_16_lanes() => (
                QUAD_GROUP_LANES,
                CoalesceRule::WideLoad {
                    bits: buffer.data.bits_per_lane(),
                },
            ),
            MemOp::Load => {
                let element_bytes = u64::from(access.bytes_per_lane().max(1));
                let rule = sixteen_lane_case(addresses, exec, element_bytes);
                let size = if rule.is_16_lane_case() || exec == 0 {
                    WIDE_GROUP_LANES
                } else {
                    QUAD_GROUP_LANES
                };
                (size, rule)
            }
        },
    }
}

/// Which of seed 001's three 16-lane cases holds for a small single-channel load, judged on the
/// active lanes (a partly active group of 4 satisfies a case if its inactive lanes could be given
/// addresses that make it hold).
fn sixteen_lane_case(addresses: &[u64; WAVE64], exec: u64, element_bytes: u64) -> CoalesceRule {
    let mut active = (0..WAVE64)
        .filter(|&lane| is_active(exec, lane))
        .map(|lane| addresses[lane]);
    let first = active.next();
    if active.all(|address| Some(address) == first) {
        return CoalesceRule::WaveUniform;
    }
    let quads = WAVE64 as u32 / QUAD_GROUP_LANES;
    let quad_addresses = |quad: u32| -> Vec<u64> {
        let first_lane = (quad * QUAD_GROUP_LANES) as usize;
        (first_lane..first_lane + QUAD_GROUP_LANES as usize)
            .filter(|&lane| is_active(exec, lane))
            .map(|lane| addresses[lane])
            .collect()
    };
    let not_uniform = (0..quads).find(|&q| !one_address(&quad_addresses(q)));
    let Some(first_quad_not_uniform) = not_uniform else {
        return CoalesceRule::QuadUniform;
    };
    let not_consecutive =
        (0..quads).find(|&q| !consecutive_block(&quad_addresses(q), element_bytes));
    match not_consecutive {
        None => CoalesceRule::QuadConsecutive,
        Some(first_quad_not_consecutive) => CoalesceRule::ScatteredLoad {
            first_quad_not_uniform,
            first_quad_not_consecutive,
        },
    }
}

/// Case 2 for one group of 4: its active lanes all on one address.
fn one_address(active: &[u64]) -> bool {
    active.windows(2).all(|pair| pair[0] == pair[1])
}

/// Case 3 for one group of 4: its active lanes on distinct elements of one block of 4
/// consecutive `element_bytes`-sized elements, in any order. With all 4 lanes active that is
/// exactly a permutation of `b, b+e, b+2e, b+3e`; with fewer, the inactive lanes could take the
/// missing elements.
fn consecutive_block(active: &[u64], element_bytes: u64) -> bool {
    let Some(&lowest) = active.iter().min() else {
        return true;
    };
    let mut slots = [false; QUAD_GROUP_LANES as usize];
    for &address in active {
        let offset = address - lowest;
        if offset % element_bytes != 0 {
            return false;
        }
        let slot = offset / element_bytes;
        if slot >= u64::from(QUAD_GROUP_LANES) || slots[slot as usize] {
            return false;
        }
        slots[slot as usize] = true;
    }
    true
}
