//! RT IP 3.1 quantized 8-wide box node, 128 bytes (rt.md §5; gpurt
//! `gfx12/internalNode.hlsli`, `childInfo.hlsli`).
//!
//! | off | field |
//! |---|---|
//! | 0 | internal node base (pointer of the first box child, type bits 0) |
//! | 4 | leaf node base (pointer of the first primitive/instance child) |
//! | 8 | parent pointer |
//! | 12 | origin, 3 x fp32 |
//! | 24 | exponents x,y,z (8 bits each), [24] disable box sort, [27:25] index in parent, [30:28] valid children - 1 |
//! | 28 | OBB matrix index ([6:0], 0x7F = none) |
//! | 32 + 12 i | ChildInfo i |

use super::decoded::{slab_lanes4, valid_mask, AddrTable, SlabRay};
use super::memory::BvhMemory;
use super::obb::NO_OBB;
use super::pointer::{ptr31_offset, END_SEARCH, INVALID_NODE, TYPE_BOX};
use super::quantize::{dequantize, QuantizedBox};
use crate::math::{Aabb, Vec3};

/// Size of the node.
pub const BOX8_BYTES: u32 = 128;

/// One child's 96-bit record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChildInfo {
    /// Quantized box.
    pub qbox: QuantizedBox,
    /// Culling flags (4 bits, as in the fp32 node's flags byte).
    pub cull_flags: u32,
    /// Instance mask (8 bits).
    pub instance_mask: u32,
    /// Node type (4 bits): 5 box, 6 instance, else the first triangle pair.
    pub node_type: u32,
    /// Number of 128-byte nodes to advance this child's class base by.
    pub range_length: u32,
}

impl ChildInfo {
    /// An empty slot.
    pub const INVALID: ChildInfo = ChildInfo {
        qbox: QuantizedBox::INVALID,
        cull_flags: 0xF,
        instance_mask: 0,
        node_type: 0,
        range_length: 0,
    };

    /// Pack into three dwords.
    pub fn pack(&self) -> [u32; 3] {
        if *self == ChildInfo::INVALID {
            return [0xFFFF_FFFF, 0xFFF, 0];
        }
        let q = &self.qbox;
        [
            q.min[0] | (q.min[1] << 12) | ((self.cull_flags & 0xF) << 24),
            q.min[2] | (q.max[0] << 12) | ((self.instance_mask & 0xFF) << 24),
            q.max[1]
                | (q.max[2] << 12)
                | ((self.node_type & 0xF) << 24)
                | ((self.range_length & 0xF) << 28),
        ]
    }

    /// Unpack three dwords.
    #[inline]
    pub fn unpack(w: [u32; 3]) -> ChildInfo {
        let qbox = QuantizedBox {
            min: [w[0] & 0xFFF, (w[0] >> 12) & 0xFFF, w[1] & 0xFFF],
            max: [(w[1] >> 12) & 0xFFF, w[2] & 0xFFF, (w[2] >> 12) & 0xFFF],
        };
        ChildInfo {
            qbox,
            cull_flags: (w[0] >> 24) & 0xF,
            instance_mask: w[1] >> 24,
            node_type: (w[2] >> 24) & 0xF,
            range_length: w[2] >> 28,
        }
    }

    /// Valid unless minX = minY = FFF and maxY = maxZ = 0.
    #[inline]
    pub fn is_valid_packed(w: [u32; 3]) -> bool {
        !((w[0] & 0xFF_FFFF) == 0xFF_FFFF && (w[2] & 0xFF_FFFF) == 0)
    }
}

/// A decoded BVH8 box node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxNode8 {
    /// Pointer of the first box child (type bits zero).
    pub internal_base: u32,
    /// Pointer of the first leaf child (type bits zero).
    pub leaf_base: u32,
    /// Parent box node pointer (`INVALID_NODE` at the root).
    pub parent: u32,
    /// Quantization origin.
    pub origin: Vec3,
    /// Quantization exponents.
    pub exponents: [u32; 3],
    /// Hardware box sorting disabled for this node.
    pub disable_box_sort: bool,
    /// Slot of this node in its parent.
    pub index_in_parent: u32,
    /// Number of valid children (1..8).
    pub valid_children: u32,
    /// OBB matrix index, `NO_OBB` for none.
    pub obb: u32,
    /// Child records; valid ones first.
    pub children: [ChildInfo; 8],
}

impl BoxNode8 {
    /// Write the node at `addr`.
    pub fn write(&self, mem: &mut BvhMemory, addr: u64) {
        // Every dword of the 128 bytes is set: 8 of header, 3 per child.
        let mut w = [0u32; 32];
        w[0] = self.internal_base;
        w[1] = self.leaf_base;
        w[2] = self.parent;
        for a in 0..3 {
            w[3 + a] = self.origin.0[a].to_bits();
        }
        w[6] = self.exponents[0]
            | (self.exponents[1] << 8)
            | (self.exponents[2] << 16)
            | ((self.disable_box_sort as u32) << 24)
            | ((self.index_in_parent & 7) << 25)
            | (((self.valid_children.max(1) - 1) & 7) << 28);
        w[7] = self.obb;
        for (i, c) in self.children.iter().enumerate() {
            w[8 + 3 * i..11 + 3 * i].copy_from_slice(&c.pack());
        }
        mem.write_block(addr, &w);
    }

    /// Read the node at `addr`.
    pub fn read(mem: &BvhMemory, addr: u64) -> BoxNode8 {
        let w: [u32; 32] = mem.block(addr);
        let mut children = [ChildInfo::INVALID; 8];
        for (i, c) in children.iter_mut().enumerate() {
            let p = [w[8 + 3 * i], w[9 + 3 * i], w[10 + 3 * i]];
            *c = if ChildInfo::is_valid_packed(p) {
                ChildInfo::unpack(p)
            } else {
                ChildInfo::INVALID
            };
        }
        BoxNode8 {
            internal_base: w[0],
            leaf_base: w[1],
            parent: w[2],
            origin: Vec3::new(
                f32::from_bits(w[3]),
                f32::from_bits(w[4]),
                f32::from_bits(w[5]),
            ),
            exponents: [w[6] & 0xFF, (w[6] >> 8) & 0xFF, (w[6] >> 16) & 0xFF],
            disable_box_sort: (w[6] >> 24) & 1 != 0,
            index_in_parent: (w[6] >> 25) & 7,
            valid_children: ((w[6] >> 28) & 7) + 1,
            obb: w[7] & 0x7F,
            children,
        }
    }

    /// Child pointers and decoded boxes, as the intersection unit derives
    /// them: each class (box / leaf) keeps a running offset that every child
    /// of that class advances by `range_length` nodes.
    pub fn decode_children(&self) -> [(u32, Aabb); 8] {
        let mut out = [(INVALID_NODE, Aabb::EMPTY); 8];
        let mut internal = self.internal_base;
        let mut leaf = self.leaf_base;
        for (slot, c) in self.children.iter().enumerate() {
            if *c == ChildInfo::INVALID {
                continue;
            }
            let ptr = if c.node_type == TYPE_BOX {
                let p = internal | TYPE_BOX;
                internal += c.range_length << 4;
                p
            } else {
                let p = leaf | c.node_type;
                leaf += c.range_length << 4;
                p
            };
            out[slot] = (ptr, c.qbox.decode(self.origin, self.exponents));
        }
        out
    }
}

/// Decode the planes of one packed child directly from node dwords (the
/// traversal's fast path; the same arithmetic as [`QuantizedBox::decode`]).
#[inline]
pub fn decode_child_box(w: &[u32; 32], slot: usize, origin: Vec3, e: [u32; 3]) -> Aabb {
    let (a, b, c) = (w[8 + 3 * slot], w[9 + 3 * slot], w[10 + 3 * slot]);
    Aabb {
        min: Vec3::new(
            dequantize(origin.0[0], e[0], a & 0xFFF),
            dequantize(origin.0[1], e[1], (a >> 12) & 0xFFF),
            dequantize(origin.0[2], e[2], b & 0xFFF),
        ),
        max: Vec3::new(
            dequantize(origin.0[0], e[0], ((b >> 12) & 0xFFF) + 1),
            dequantize(origin.0[1], e[1], (c & 0xFFF) + 1),
            dequantize(origin.0[2], e[2], ((c >> 12) & 0xFFF) + 1),
        ),
    }
}

/// A BVH8 box node as the traversal uses it: every valid child's pointer
/// and its six dequantized planes, axis by axis in struct-of-arrays form, so
/// one visit decodes the node once and the slab test then runs over eight
/// lanes of plain floats. The planes are bit-identical to
/// [`decode_child_box`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodedBox8 {
    /// Child pointers (`INVALID_NODE` for empty slots).
    pub ptrs: [u32; 8],
    /// Minimum planes: `min[axis][slot]`.
    pub min: [[f32; 8]; 3],
    /// Maximum planes: `max[axis][slot]`.
    pub max: [[f32; 8]; 3],
    /// OBB matrix index, `NO_OBB` for none.
    pub obb: u32,
    /// Some valid child pointer appears twice (child reuse, range 0): the
    /// traversal must then drop repeats; without, every hit child counts.
    pub reuse: bool,
    /// The slots whose child is not INVALID (bit `slot`).
    pub valid: u8,
    /// No valid child pointer is a sentinel (`>= END_SEARCH`; only a
    /// corrupt node has one), so the stack's plain push applies.
    pub sentinel_free: bool,
    /// No OBB and no valid slot has a NaN plane: for a finite ray
    /// [`DecodedBox8::slab8_finite`] applies. (One flag for both so that
    /// the traversal's common case costs one test.)
    pub plain_slab: bool,
    /// No valid slot has a NaN plane (a finite rotated ray may then take `slab8_finite`).
    pub nan_free: bool,
}

/// Scale `2^(e - 139)` with which a plane dequantizes as
/// `plane as f32 * scale + origin`, exactly like [`dequantize`], when every
/// plane value 1..=4096 gives a normal product (`13 <= e <= 254`); `None`
/// where the bit construction's flush to zero or exponent wrap must be
/// reproduced by [`dequantize`] itself.
#[inline]
fn plane_scale(e: u32) -> Option<f32> {
    (13..=254)
        .contains(&e)
        .then(|| f32::from_bits((e - 12) << 23))
}

impl DecodedBox8 {
    /// Decode the 32 dwords of a node.
    #[inline]
    pub fn decode(w: &[u32; 32]) -> DecodedBox8 {
        let origin = [
            f32::from_bits(w[3]),
            f32::from_bits(w[4]),
            f32::from_bits(w[5]),
        ];
        let e = [w[6] & 0xFF, (w[6] >> 8) & 0xFF, (w[6] >> 16) & 0xFF];
        let mut out = DecodedBox8 {
            ptrs: [INVALID_NODE; 8],
            min: [[f32::INFINITY; 8]; 3],
            max: [[f32::NEG_INFINITY; 8]; 3],
            obb: w[7] & 0x7F,
            reuse: false,
            valid: 0,
            sentinel_free: true,
            plain_slab: true,
            nan_free: true,
        };
        // Planes per slot and axis: (min field, max field).
        let mut planes = [[(0u32, 0u32); 3]; 8];
        let mut internal = w[0];
        let mut leaf = w[1];
        for slot in 0..8 {
            let c = [w[8 + 3 * slot], w[9 + 3 * slot], w[10 + 3 * slot]];
            if !ChildInfo::is_valid_packed(c) {
                continue;
            }
            let ty = (c[2] >> 24) & 0xF;
            let range = c[2] >> 28;
            out.ptrs[slot] = if ty == TYPE_BOX {
                let p = internal | TYPE_BOX;
                internal += range << 4;
                p
            } else {
                let p = leaf | ty;
                leaf += range << 4;
                p
            };
            planes[slot] = [
                (c[0] & 0xFFF, ((c[1] >> 12) & 0xFFF) + 1),
                ((c[0] >> 12) & 0xFFF, (c[2] & 0xFFF) + 1),
                (c[1] & 0xFFF, ((c[2] >> 12) & 0xFFF) + 1),
            ];
        }
        for a in 0..3 {
            match plane_scale(e[a]) {
                Some(scale) => {
                    for slot in 0..8 {
                        if out.ptrs[slot] == INVALID_NODE {
                            continue;
                        }
                        let (lo, hi) = planes[slot][a];
                        out.min[a][slot] = lo as f32 * scale + origin[a];
                        out.max[a][slot] = hi as f32 * scale + origin[a];
                    }
                }
                None => {
                    for slot in 0..8 {
                        if out.ptrs[slot] == INVALID_NODE {
                            continue;
                        }
                        let (lo, hi) = planes[slot][a];
                        out.min[a][slot] = dequantize(origin[a], e[a], lo);
                        out.max[a][slot] = dequantize(origin[a], e[a], hi);
                    }
                }
            }
        }
        let p = &out.ptrs;
        out.reuse = (0..8).any(|i| p[i] != INVALID_NODE && p[i + 1..].contains(&p[i]));
        out.valid = valid_mask(p);
        out.sentinel_free = p.iter().all(|&c| c == INVALID_NODE || c < END_SEARCH);
        // Quantized planes of an encoded node are finite, but a corrupt
        // origin or exponent may give anything: check what was decoded.
        let nan_plane = (0..8).any(|slot| {
            out.valid & (1 << slot) != 0
                && (0..3).any(|a| out.min[a][slot].is_nan() || out.max[a][slot].is_nan())
        });
        out.plain_slab = out.obb == NO_OBB && !nan_plane;
        out.nan_free = !nan_plane;
        out
    }

    /// The children to keep out of `hit_mask` (bit `slot`): a hit child
    /// whose pointer repeats the last hit child's (child reuse) is dropped.
    #[inline]
    pub fn take_mask(&self, hit_mask: u8) -> u8 {
        if !self.reuse {
            return hit_mask;
        }
        let mut prev = INVALID_NODE;
        let mut take = 0u8;
        for slot in 0..8 {
            let ptr = self.ptrs[slot];
            let hit = (hit_mask >> slot) & 1 != 0;
            take |= u8::from(hit & (ptr != prev)) << slot;
            prev = if hit { ptr } else { prev };
        }
        take
    }

    /// Slab test of all eight children: the entry distance of each and a
    /// mask of the valid children hit (bit `slot`). The same products in
    /// the same order as the traversal's scalar slab test, narrowed with
    /// [`narrow_entry`]/[`narrow_exit`], so every hit and entry distance
    /// equals it, bit for bit up to the sign of a zero entry (an entry may
    /// be infinite and still a hit, for a ray parallel to a slab when the
    /// extent is infinite).
    #[inline]
    pub fn slab8(&self, ray: &SlabRay, extent: f32, grow: f32) -> ([f32; 8], u8) {
        let (e0, m0) = self.slab_half::<false>(0, ray, extent, grow);
        let (e1, m1) = self.slab_half::<false>(1, ray, extent, grow);
        let entry = [e0[0], e0[1], e0[2], e0[3], e1[0], e1[1], e1[2], e1[3]];
        (entry, (m0 | (m1 << 4)) & self.valid)
    }

    /// [`DecodedBox8::slab8`] for a node with
    /// [`plain_slab`](DecodedBox8::plain_slab) and a ray whose origin and
    /// `inv` are finite and `inv` non-zero: the same hits, and entry
    /// distances equal up to the sign of a zero (which the child sort folds
    /// and the hit test ignores).
    ///
    /// Why it is exact: no slab distance of a valid slot is then NaN (a
    /// plane is finite or infinite, minus a finite origin, times a finite
    /// non-zero `inv`: neither `0 * inf` nor `inf - inf` arises, an
    /// overflow gives an infinity), so the plain `min`/`max` need none of
    /// the NaN-dropping of [`slab_lanes4`] (its
    /// `NAN_FREE` form). Lanes of invalid slots may compute
    /// anything; they are masked off.
    ///
    /// Its body repeats [`DecodedBox8::slab8`]'s rather than sharing a
    /// function generic over `NAN_FREE`: with the shared one, the BVH8
    /// traversal's three RDNA 4 layouts ran about 300 more instructions per
    /// ray (callgrind, bunny 128x128), for a reason not pinned down.
    #[inline]
    pub fn slab8_finite(&self, ray: &SlabRay, extent: f32, grow: f32) -> ([f32; 8], u8) {
        let (e0, m0) = self.slab_half::<true>(0, ray, extent, grow);
        let (e1, m1) = self.slab_half::<true>(1, ray, extent, grow);
        let entry = [e0[0], e0[1], e0[2], e0[3], e1[0], e1[1], e1[2], e1[3]];
        (entry, (m0 | (m1 << 4)) & self.valid)
    }

    /// [`DecodedBox8::slab8`] (or with `NAN_FREE`, [`DecodedBox8::slab8_finite`])
    /// of children `4 * h .. 4 * h + 4`, hit or not whether valid or not:
    /// four lanes at a time vectorize better than eight.
    #[inline(always)]
    fn slab_half<const NAN_FREE: bool>(
        &self,
        h: usize,
        ray: &SlabRay,
        extent: f32,
        grow: f32,
    ) -> ([f32; 4], u8) {
        let (lo, hi) = (&self.min, &self.max);
        let (entry, exit) = slab_lanes4::<NAN_FREE>(
            [lane4(&lo[0], h), lane4(&lo[1], h), lane4(&lo[2], h)],
            [lane4(&hi[0], h), lane4(&hi[1], h), lane4(&hi[2], h)],
            ray,
            extent,
        );
        // Every lane evaluated (no short circuit): a branch per child would
        // mispredict on the data-dependent outcome.
        let mut hits = 0u8;
        for i in 0..4 {
            hits |= u8::from(entry[i] <= exit[i] * grow) << i;
        }
        (entry, hits)
    }
}

/// Lanes `4 * h .. 4 * h + 4` of eight.
#[inline(always)]
fn lane4(v: &[f32; 8], h: usize) -> &[f32; 4] {
    v[4 * h..4 * h + 4].try_into().expect("4 of 8 lanes")
}

/// Every BVH8 box node of an encoding, decoded once. The encoded memory
/// never changes after encoding, so the traversal looks a node up here
/// instead of dequantizing its eight children on every visit; the entries
/// are exactly what [`DecodedBox8::decode`] gives for the node's dwords.
#[derive(Clone, Default, PartialEq)]
pub struct DecodedBox8Table {
    nodes: AddrTable<DecodedBox8>,
}

impl std::fmt::Debug for DecodedBox8Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DecodedBox8Table({} nodes)", self.len())
    }
}

impl DecodedBox8Table {
    /// Decode every box node reachable through box children from the given
    /// structure roots, `(base, root pointer)` each.
    pub fn build(mem: &BvhMemory, roots: impl IntoIterator<Item = (u64, u32)>) -> Self {
        let mut nodes = AddrTable::for_memory(mem);
        for (base, root) in roots {
            let mut todo = vec![root];
            while let Some(p) = todo.pop() {
                if p >= END_SEARCH || p & 7 != TYPE_BOX {
                    continue;
                }
                let addr = base + u64::from(ptr31_offset(p));
                if addr + u64::from(BOX8_BYTES) > mem.len_bytes() || nodes.contains(addr) {
                    continue;
                }
                let d = DecodedBox8::decode(&mem.block(addr));
                todo.extend(d.ptrs.iter().copied().filter(|&c| c != INVALID_NODE));
                nodes.insert(addr, d);
            }
        }
        DecodedBox8Table { nodes }
    }

    /// The decoded box node at byte address `addr`, if the table has one.
    #[inline]
    pub fn get(&self, addr: u64) -> Option<&DecodedBox8> {
        self.nodes.get(addr)
    }

    /// Number of decoded nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when no node was decoded (4-wide layouts).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for BoxNode8 {
    fn default() -> Self {
        BoxNode8 {
            internal_base: 0,
            leaf_base: 0,
            parent: INVALID_NODE,
            origin: Vec3::default(),
            exponents: [0; 3],
            disable_box_sort: false,
            index_in_parent: 0,
            valid_children: 1,
            obb: NO_OBB,
            children: [ChildInfo::INVALID; 8],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::quantize::node_frame;

    /// The scaled-multiply decode equals the bit construction for every
    /// exponent and plane value, including the flushed and wrapped ends.
    #[test]
    fn plane_scale_matches_dequantize_everywhere() {
        for e in 0..=255u32 {
            for plane in 0..=4096u32 {
                for origin in [0.0f32, -3.25, 1.0e-30, 7.5e20] {
                    let want = dequantize(origin, e, plane);
                    let got = match plane_scale(e) {
                        Some(s) => plane as f32 * s + origin,
                        None => want,
                    };
                    assert_eq!(got.to_bits(), want.to_bits(), "e {e} plane {plane}");
                }
            }
        }
    }

    /// The eight-lane slab test gives the scalar test's hits and entry
    /// distances bit for bit, on random nodes and rays (some parallel to an
    /// axis, some starting inside boxes, infinite and finite extents).
    #[test]
    fn slab8_matches_the_scalar_slab_test() {
        let mut rng = crate::rng::SplitMix64::new(0x0123_4567_89AB_CDEF);
        let mut next = move || rng.next_u32();
        let scalar = |o: Vec3, inv: Vec3, b: &Aabb, extent: f32, grow: f32| {
            let mut entry = 0.0f32;
            let mut exit = extent;
            for a in 0..3 {
                let t1 = (b.min.0[a] - o.0[a]) * inv.0[a];
                let t2 = (b.max.0[a] - o.0[a]) * inv.0[a];
                entry = entry.max(t1.min(t2));
                exit = exit.min(t1.max(t2));
            }
            (entry <= exit * grow).then_some(entry)
        };
        let grow = 1.0 + 6.0 / 16_777_216.0;
        for _ in 0..2000 {
            let mut w = [0u32; 32];
            for x in w.iter_mut() {
                *x = next();
            }
            for a in 0..3 {
                w[3 + a] = ((next() % 2000) as f32 / 100.0 - 10.0).to_bits();
            }
            w[6] = (next() % 40 + 115) | ((next() % 40 + 115) << 8) | ((next() % 40 + 115) << 16);
            w[7] = NO_OBB;
            for slot in 0..8 {
                if next() % 4 == 0 {
                    let p = ChildInfo::INVALID.pack();
                    w[8 + 3 * slot..11 + 3 * slot].copy_from_slice(&p);
                }
            }
            let d = DecodedBox8::decode(&w);
            let origin = Vec3::new(
                f32::from_bits(w[3]),
                f32::from_bits(w[4]),
                f32::from_bits(w[5]),
            );
            let e = [w[6] & 0xFF, (w[6] >> 8) & 0xFF, (w[6] >> 16) & 0xFF];
            let comp = |n: &mut dyn FnMut() -> u32| match n() % 5 {
                0 => 0.0,
                _ => (n() % 2001) as f32 / 50.0 - 20.0,
            };
            let o = Vec3::new(comp(&mut next), comp(&mut next), comp(&mut next));
            let dir = Vec3::new(comp(&mut next), comp(&mut next), comp(&mut next));
            let extent = if next() % 2 == 0 {
                f32::INFINITY
            } else {
                comp(&mut next).abs()
            };
            let inv = dir.recip();
            let (entries, mask) = d.slab8(&SlabRay::new(o, inv), extent, grow);
            for slot in 0..8 {
                let c = [w[8 + 3 * slot], w[9 + 3 * slot], w[10 + 3 * slot]];
                let want = if ChildInfo::is_valid_packed(c) {
                    scalar(o, inv, &decode_child_box(&w, slot, origin, e), extent, grow)
                } else {
                    None
                };
                let got = (mask & (1 << slot) != 0).then_some(entries[slot]);
                assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "slot {slot}");
            }
        }
    }

    /// The NaN-free eight-lane slab test gives the NaN-safe one's hits and
    /// entry distances (equal as numbers, so up to the sign of a zero) for
    /// finite rays with finite non-zero `inv` against nodes without NaN
    /// planes, edge values included: rays starting on a plane, flat and
    /// inverted boxes, infinite planes, distances that overflow, tiny and
    /// huge directions, empty slots.
    #[test]
    fn slab8_finite_matches_the_nan_safe_one() {
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let grow = 1.0 + 6.0 / 16_777_216.0;
        for _ in 0..100_000 {
            let mut d = DecodedBox8 {
                ptrs: [INVALID_NODE; 8],
                min: [[0.0; 8]; 3],
                max: [[0.0; 8]; 3],
                obb: NO_OBB,
                reuse: false,
                valid: 0,
                sentinel_free: true,
                plain_slab: true,
                nan_free: true,
            };
            for slot in 0..8 {
                if rng.next_u32() % 5 != 0 {
                    d.ptrs[slot] = (slot as u32 + 1) << 4;
                }
                for a in 0..3 {
                    d.min[a][slot] = rng.edge_f32(false);
                    d.max[a][slot] = rng.edge_f32(false);
                }
            }
            d.valid = valid_mask(&d.ptrs);
            let o = rng.edge_vec3(true);
            let dir = rng.edge_vec3(true);
            let inv = dir.recip();
            if !(inv.is_finite() && (0..3).all(|a| inv.0[a] != 0.0)) {
                continue;
            }
            let extent = rng.edge_extent();
            let ray = SlabRay::new(o, inv);
            let (want_entry, want_hits) = d.slab8(&ray, extent, grow);
            let (entry, hits) = d.slab8_finite(&ray, extent, grow);
            assert_eq!(hits, want_hits, "{d:?} {o:?} {dir:?} {extent}");
            for slot in 0..8 {
                if d.valid >> slot & 1 != 0 {
                    assert_eq!(entry[slot], want_entry[slot], "{d:?} {o:?} {dir:?}");
                }
            }
        }
    }

    /// `plain_slab` is cleared by an OBB or by a NaN plane of a valid slot
    /// (a corrupt origin), and not by a NaN in an empty slot's fields.
    #[test]
    fn plain_slab_flags_obb_and_nan_planes() {
        let mut w = [0u32; 32];
        w[6] = 120 | (120 << 8) | (120 << 16);
        w[7] = NO_OBB;
        for slot in 1..8 {
            w[8 + 3 * slot..11 + 3 * slot].copy_from_slice(&ChildInfo::INVALID.pack());
        }
        assert!(DecodedBox8::decode(&w).plain_slab);
        let mut obb = w;
        obb[7] = 3;
        assert!(!DecodedBox8::decode(&obb).plain_slab && DecodedBox8::decode(&obb).nan_free);
        let mut nan = w;
        nan[4] = f32::NAN.to_bits();
        assert!(!DecodedBox8::decode(&nan).plain_slab && !DecodedBox8::decode(&nan).nan_free);
    }

    #[test]
    fn round_trip_and_pointer_derivation() {
        let boxes: Vec<Aabb> = (0..6)
            .map(|i| {
                let m = Vec3::new(i as f32 * 0.7, -(i as f32), 0.25 * i as f32);
                Aabb {
                    min: m,
                    max: m + Vec3::new(0.5, 2.0, 0.3),
                }
            })
            .collect();
        let (origin, e) = node_frame(&boxes);
        let mut n = BoxNode8 {
            internal_base: 0x100,
            leaf_base: 0x400,
            parent: 0x35,
            origin,
            exponents: e,
            index_in_parent: 3,
            valid_children: 6,
            ..Default::default()
        };
        // Three boxes, then a leaf range of 2 nodes starting at pair 1, then two
        // leaves sharing a node (range 0, then 1).
        let kinds = [(5, 1), (5, 1), (5, 1), (1, 2), (0, 0), (9, 1)];
        for (i, b) in boxes.iter().enumerate() {
            n.children[i] = ChildInfo {
                qbox: QuantizedBox::new(b, origin, e),
                cull_flags: 0,
                instance_mask: 0xFF,
                node_type: kinds[i].0,
                range_length: kinds[i].1,
            };
        }
        let mut mem = BvhMemory::default();
        n.write(&mut mem, 256);
        let d = BoxNode8::read(&mem, 256);
        assert_eq!(d, n);
        let kids = d.decode_children();
        let ptrs: Vec<u32> = kids.iter().map(|k| k.0).collect();
        assert_eq!(
            ptrs,
            vec![
                0x105,
                0x115,
                0x125,
                0x401,
                0x420,
                0x429,
                INVALID_NODE,
                INVALID_NODE
            ]
        );
        let w: [u32; 32] = mem.block(256);
        for (i, b) in boxes.iter().enumerate() {
            assert!(kids[i].1.contains(b));
            assert_eq!(decode_child_box(&w, i, origin, e), kids[i].1);
        }
        // The per-encoding table holds exactly the visit-time decode; child
        // nodes outside the memory are skipped, other addresses miss.
        let table = DecodedBox8Table::build(&mem, [(0, (256 >> 3) | TYPE_BOX)]);
        assert_eq!(table.len(), 1);
        assert_eq!(table.get(256), Some(&DecodedBox8::decode(&w)));
        assert_eq!(table.get(128), None);
        let fast = DecodedBox8::decode(&w);
        for (slot, (ptr, b)) in kids.iter().enumerate() {
            assert_eq!(fast.ptrs[slot], *ptr);
            if *ptr != INVALID_NODE {
                for a in 0..3 {
                    assert_eq!(fast.min[a][slot].to_bits(), b.min.0[a].to_bits());
                    assert_eq!(fast.max[a][slot].to_bits(), b.max.0[a].to_bits());
                }
            }
        }
    }
}
