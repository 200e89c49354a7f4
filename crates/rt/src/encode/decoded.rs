//! Nodes decoded once per encoding: the 4-wide layouts' box nodes, their
//! 64-byte triangle pair nodes and the BVH8 compressed primitive nodes (the
//! BVH8 box nodes have their own table, `box8::DecodedBox8Table`).
//!
//! The encoded memory never changes after encoding, so the traversal looks
//! a node up here instead of decoding it on every visit. Every entry is
//! exactly what the visit-time decode gives for the node's dwords, and the
//! traversal decodes the memory itself for any address a table lacks, so
//! the tables change how fast a ray is traced, never what it hits or counts.

use super::box4::BoxNode4;
use super::memory::BvhMemory;
use super::pointer::*;
use super::primitive::{triangle_indices, PrimitiveHeader};
use super::triangle::{TriangleNode, TRIANGLE_NODE_BYTES};
use crate::math::Vec3;
use crate::ray::PreparedTriangle;

/// Nodes start on 64-byte boundaries (the smallest node size), so a table
/// indexed by `addr / 64` gives every node its own entry.
const GRAIN: u64 = 64;

/// [`AddrTable`]'s index entry of an address without an item: no table
/// holds that many items (`insert` stops short of it).
const NO_ITEM: u32 = u32::MAX;

/// Items by node address (also the BVH8 box table's store).
#[derive(Clone, PartialEq)]
pub(super) struct AddrTable<T> {
    /// By `addr / GRAIN`: index into `items`, [`NO_ITEM`] for none (out of
    /// `items`' range, so a lookup needs no test of its own for it).
    index: Vec<u32>,
    items: Vec<T>,
}

impl<T> Default for AddrTable<T> {
    fn default() -> Self {
        AddrTable {
            index: Vec::new(),
            items: Vec::new(),
        }
    }
}

impl<T> AddrTable<T> {
    pub(super) fn for_memory(mem: &BvhMemory) -> Self {
        AddrTable {
            index: vec![NO_ITEM; (mem.len_bytes() / GRAIN) as usize + 1],
            items: Vec::new(),
        }
    }

    #[inline]
    pub(super) fn get(&self, addr: u64) -> Option<&T> {
        if addr % GRAIN != 0 {
            return None;
        }
        let i = *self.index.get((addr / GRAIN) as usize)?;
        self.items.get(i as usize)
    }

    /// Number of items.
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    pub(super) fn contains(&self, addr: u64) -> bool {
        self.get(addr).is_some()
    }

    /// Add the item of `addr`, unless `addr` is unaligned or has one.
    pub(super) fn insert(&mut self, addr: u64, item: T) {
        if addr % GRAIN != 0 || self.contains(addr) || self.items.len() >= NO_ITEM as usize {
            return;
        }
        if let Some(slot) = self.index.get_mut((addr / GRAIN) as usize) {
            *slot = self.items.len() as u32;
            self.items.push(item);
        }
    }
}

/// A 4-wide box node (fp32 or fp16) as the traversal uses it: the child
/// pointers and the planes axis by axis in struct-of-arrays form, so the
/// slab test runs over four lanes of plain floats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodedBox4 {
    /// Child pointers (`INVALID_NODE` for empty slots).
    pub children: [u32; 4],
    /// Minimum planes: `min[axis][slot]`.
    pub min: [[f32; 4]; 3],
    /// Maximum planes: `max[axis][slot]`.
    pub max: [[f32; 4]; 3],
    /// OBB matrix index, `NO_OBB` for none.
    pub obb: u32,
    /// Decoded as an fp16 node (a pointer of type `TYPE_BOX16`).
    pub fp16: bool,
    /// The slots whose child is not INVALID (bit `slot`).
    pub valid: u8,
    /// No valid slot has a NaN plane: [`DecodedBox4::slab4_finite`]
    /// applies.
    pub no_nan_planes: bool,
}

impl DecodedBox4 {
    /// Rearrange a decoded node.
    pub fn new(n: &BoxNode4, fp16: bool) -> DecodedBox4 {
        let mut d = DecodedBox4 {
            children: n.children,
            min: [[0.0; 4]; 3],
            max: [[0.0; 4]; 3],
            obb: n.obb,
            fp16,
            valid: valid_mask(&n.children),
            no_nan_planes: true,
        };
        for i in 0..4 {
            for a in 0..3 {
                let (lo, hi) = (n.boxes[i].min.0[a], n.boxes[i].max.0[a]);
                d.min[a][i] = lo;
                d.max[a][i] = hi;
                if d.valid & (1 << i) != 0 && (lo.is_nan() || hi.is_nan()) {
                    d.no_nan_planes = false;
                }
            }
        }
        d
    }

    /// Slab test of the four slots: entry distances and the valid slots
    /// hit (bit `slot`). Per lane the same operations as
    /// `DecodedBox8::slab8`, so the results equal the scalar slab test's
    /// as that one's do.
    #[inline(always)]
    pub fn slab4(&self, ray: &SlabRay, extent: f32, grow: f32) -> ([f32; 4], u32) {
        self.slab4_with::<false>(ray, extent, grow)
    }

    /// [`DecodedBox4::slab4`] (`NAN_FREE` false) or
    /// [`DecodedBox4::slab4_finite`] (true).
    #[inline(always)]
    fn slab4_with<const NAN_FREE: bool>(
        &self,
        ray: &SlabRay,
        extent: f32,
        grow: f32,
    ) -> ([f32; 4], u32) {
        let (entry, exit) = slab_lanes4::<NAN_FREE>(
            [&self.min[0], &self.min[1], &self.min[2]],
            [&self.max[0], &self.max[1], &self.max[2]],
            ray,
            extent,
        );
        let mut hits = 0u32;
        for i in 0..4 {
            hits |= u32::from(entry[i] <= exit[i] * grow) << i;
        }
        (entry, hits & u32::from(self.valid))
    }

    /// [`DecodedBox4::slab4`] for a node with
    /// [`no_nan_planes`](DecodedBox4::no_nan_planes) and a ray whose
    /// origin, direction and `inv` are all finite: the same hits, and entry
    /// distances equal up to the sign of a zero (which the child sort folds
    /// and the hit test ignores).
    ///
    /// Why it is exact: `inv` is then finite and non-zero and the planes
    /// are not NaN, so no slab distance of a valid slot is NaN (`0 * inf`
    /// and `inf - inf` cannot arise; an overflow gives an infinity), and
    /// the plain `min`/`max` (`minps`/`maxps`) need none of the NaN-dropping
    /// that costs [`narrow_entry`] and [`narrow_exit`] two extra operations
    /// each. Lanes of invalid slots may compute anything; they are masked
    /// off.
    #[inline(always)]
    pub fn slab4_finite(&self, ray: &SlabRay, extent: f32, grow: f32) -> ([f32; 4], u32) {
        self.slab4_with::<true>(ray, extent, grow)
    }
}

/// Entry and exit distances of four boxes given plane by plane
/// (`min[axis][box]`, `max[axis][box]`), narrowed with [`narrow_entry`]
/// and [`narrow_exit`]. Whole-lane expressions over four lanes, so that
/// each becomes one 4-wide vector operation (`minps`/`maxps` are exactly
/// [`lt`]/[`gt`]); the 8-wide nodes use it per half, which the compiler
/// vectorizes better than one 8-lane loop.
///
/// `NAN_FREE`: the boxes and the ray are such that no slab distance can be
/// NaN (no NaN plane, finite origin, finite non-zero `inv`), and the plain
/// `min`/`max` replace the NaN-dropping pair of `narrow_entry` and
/// `narrow_exit` (one operation each instead of two). The results are then
/// equal up to the sign of a zero.
#[inline(always)]
pub fn slab_lanes4<const NAN_FREE: bool>(
    min: [&[f32; 4]; 3],
    max: [&[f32; 4]; 3],
    ray: &SlabRay,
    extent: f32,
) -> ([f32; 4], [f32; 4]) {
    let mut entry = [0.0f32; 4];
    let mut exit = [extent; 4];
    for a in 0..3 {
        let (oa, ia) = (&ray.origin[a], &ray.inv[a]);
        let (lo, hi) = (min[a], max[a]);
        let t1 = lanes(|i| (lo[i] - oa[i]) * ia[i]);
        let t2 = lanes(|i| (hi[i] - oa[i]) * ia[i]);
        if NAN_FREE {
            entry = lanes(|i| gt(lt(t1[i], t2[i]), entry[i]));
            exit = lanes(|i| lt(gt(t1[i], t2[i]), exit[i]));
        } else {
            entry = lanes(|i| narrow_entry(entry[i], t1[i], t2[i]));
            exit = lanes(|i| narrow_exit(exit[i], t1[i], t2[i]));
        }
    }
    (entry, exit)
}

/// A ray as the 4-lane slab tests ([`slab_lanes4`]) read it: its origin and
/// inverse direction with each component repeated in all four lanes. The
/// traversal makes one per ray (and per instance entered), so that each
/// box test reads whole aligned lanes instead of broadcasting six scalars.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(16))]
pub struct SlabRay {
    /// `origin[axis]`: the origin's component, four times.
    pub origin: [[f32; 4]; 3],
    /// `inv[axis]`: the inverse direction's component, four times.
    pub inv: [[f32; 4]; 3],
}

impl SlabRay {
    /// The lanes of origin `o` and inverse direction `inv`.
    #[inline(always)]
    pub fn new(o: Vec3, inv: Vec3) -> SlabRay {
        SlabRay {
            origin: [[o.0[0]; 4], [o.0[1]; 4], [o.0[2]; 4]],
            inv: [[inv.0[0]; 4], [inv.0[1]; 4], [inv.0[2]; 4]],
        }
    }
}

/// The slots of `children` that are not INVALID (bit `slot`).
pub fn valid_mask<const N: usize>(children: &[u32; N]) -> u8 {
    (0..N).fold(0, |m, i| m | (u8::from(children[i] != INVALID_NODE) << i))
}

/// `[f(0), f(1), f(2), f(3)]`.
#[inline(always)]
pub fn lanes<T>(f: impl Fn(usize) -> T) -> [T; 4] {
    [f(0), f(1), f(2), f(3)]
}

/// `if a < b { a } else { b }`: the second operand when either is NaN (the
/// x86 `minss` rule, one instruction, where `f32::min` needs a NaN fix-up).
#[inline(always)]
fn lt(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// `if a > b { a } else { b }`, the `maxss` rule (see [`lt`]).
#[inline(always)]
fn gt(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// The slab test's `entry.max(t1.min(t2))` for a non-NaN `entry`, from
/// NaN-propagating selects: a NaN slab distance (`0 * inf`) drops out as it
/// does from `f32::min`/`max`. Taking the minimum both ways round puts the
/// NaN (if any) in one of the two, and that one loses against `entry`.
/// Only the sign of a zero may differ from `f32::max` (whose choice is
/// unspecified); every traversal result ignores it.
#[inline(always)]
pub fn narrow_entry(entry: f32, t1: f32, t2: f32) -> f32 {
    gt(lt(t1, t2), gt(lt(t2, t1), entry))
}

/// The slab test's `exit.min(t1.max(t2))` for a non-NaN `exit`, as
/// [`narrow_entry`].
#[inline(always)]
pub fn narrow_exit(exit: f32, t1: f32, t2: f32) -> f32 {
    lt(gt(t1, t2), lt(gt(t2, t1), exit))
}

/// A 64-byte triangle pair node, both triangles prepared for the test
/// (tri0 = `(v0, v1, v2)`, tri1 = `(v1, v3, v2)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodedTriangleNode {
    /// The triangles a type-0 and a type-1 pointer test.
    pub triangles: [PreparedTriangle; 2],
    /// Their primitive indices.
    pub primitive: [u32; 2],
}

impl DecodedTriangleNode {
    /// Prepare both triangles of a node.
    pub fn new(n: &TriangleNode) -> DecodedTriangleNode {
        let tri = |t: u32| {
            let [a, b, c] = n.triangle(t);
            PreparedTriangle::new(a, b, c)
        };
        DecodedTriangleNode {
            triangles: [tri(0), tri(1)],
            primitive: n.primitive,
        }
    }
}

/// One pair of a compressed primitive node: its triangles prepared for the
/// test, their primitive indices, and the navigation after the pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodedPair {
    /// Triangle 0 and 1 (`triangles[1]` is meaningless without `has_tri1`).
    pub triangles: [PreparedTriangle; 2],
    /// Primitive index of each triangle.
    pub primitive: [u32; 2],
    /// Whether the pair holds a second triangle.
    pub has_tri1: bool,
    /// [`PrimitiveHeader::navigation`] after this pair.
    pub navigation: u32,
}

impl DecodedPair {
    /// Decode pair `p` of node dwords `w`, or `None` when the pair is not
    /// in the node or a field it names lies outside the node's 1024 bits
    /// (only a corrupt node: the visit-time decode must handle it then).
    pub fn decode(w: &[u32; 32], h: &PrimitiveHeader, p: u32) -> Option<DecodedPair> {
        if p >= h.pair_count() || !h.pair_in_node(w, p) {
            return None;
        }
        let d = h.pair_desc(w, p);
        let mut out = DecodedPair {
            triangles: [PreparedTriangle::new(Vec3::default(), Vec3::default(), Vec3::default());
                2],
            primitive: [0; 2],
            has_tri1: false,
            navigation: h.navigation(d, p),
        };
        for tri in 0..2 {
            if let Some(i) = triangle_indices(d, tri) {
                let (a, b, c) = (h.vertex(w, i[0]), h.vertex(w, i[1]), h.vertex(w, i[2]));
                out.triangles[tri as usize] = PreparedTriangle::new(a, b, c);
                out.primitive[tri as usize] = h.primitive_id(w, 2 * p + tri);
                out.has_tri1 |= tri == 1;
            }
        }
        Some(out)
    }
}

/// The per-encoding tables (see the module documentation).
#[derive(Clone, Default, PartialEq)]
pub struct DecodedNodes {
    box4: AddrTable<DecodedBox4>,
    triangles: AddrTable<DecodedTriangleNode>,
    /// Compressed primitive nodes: (first pair in `pairs`, pair count)
    /// (filled by `build4` here and `build8` in box8.rs).
    pub(super) primitive_nodes: AddrTable<(u32, u32)>,
    /// The decoded triangle pairs of every primitive node, node by node.
    pub(super) pairs: Vec<DecodedPair>,
}

impl std::fmt::Debug for DecodedNodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DecodedNodes({} box4, {} triangle nodes, {} primitive nodes)",
            self.box4.items.len(),
            self.triangles.items.len(),
            self.primitive_nodes.items.len()
        )
    }
}

impl DecodedNodes {
    /// Decode every node of a 4-wide layout reachable from the given
    /// structure roots, `(base, root pointer)` each. `rtip3` selects the
    /// RT IP 3.x field layouts, as in the traversal's reads.
    pub fn build4(
        mem: &BvhMemory,
        roots: impl IntoIterator<Item = (u64, u32)>,
        rtip3: bool,
    ) -> Self {
        let mut t = DecodedNodes {
            box4: AddrTable::for_memory(mem),
            triangles: AddrTable::for_memory(mem),
            ..Default::default()
        };
        for (base, root) in roots {
            let mut todo = vec![root];
            while let Some(p) = todo.pop() {
                if p >= TERMINAL_NODE {
                    continue;
                }
                let addr = base + u64::from(ptr_offset(p));
                match ptr_type(p) {
                    ty @ (TYPE_BOX | TYPE_BOX16) => {
                        let fp16 = ty == TYPE_BOX16;
                        let bytes = if fp16 { 64 } else { 128 };
                        if addr + bytes > mem.len_bytes() || t.box4.contains(addr) {
                            continue;
                        }
                        let n = if fp16 {
                            BoxNode4::read_fp16(mem, addr)
                        } else {
                            BoxNode4::read_fp32(mem, addr, rtip3)
                        };
                        todo.extend(n.children.iter().copied());
                        t.box4.insert(addr, DecodedBox4::new(&n, fp16));
                    }
                    TYPE_TRI0 | TYPE_TRI1 => {
                        let bytes = u64::from(TRIANGLE_NODE_BYTES);
                        if addr + bytes <= mem.len_bytes() && !t.triangles.contains(addr) {
                            let n = TriangleNode::read(mem, addr, rtip3);
                            t.triangles.insert(addr, DecodedTriangleNode::new(&n));
                        }
                    }
                    _ => {} // instances: their BLASes are roots of their own
                }
            }
        }
        t
    }

    /// The decoded 4-wide box node at `addr`, if the table has one decoded
    /// as `fp16` or not.
    #[inline]
    pub fn box4(&self, addr: u64, fp16: bool) -> Option<&DecodedBox4> {
        self.box4.get(addr).filter(|n| n.fp16 == fp16)
    }

    /// The decoded triangle pair node at `addr`, if the table has one.
    #[inline]
    pub fn triangle_node(&self, addr: u64) -> Option<&DecodedTriangleNode> {
        self.triangles.get(addr)
    }

    /// Pair `p` of the compressed primitive node at `addr`, if the table
    /// has it.
    #[inline]
    pub fn pair(&self, addr: u64, p: u32) -> Option<&DecodedPair> {
        let &(start, n) = self.primitive_nodes.get(addr)?;
        if p < n {
            self.pairs.get((start + p) as usize)
        } else {
            None
        }
    }

    /// Number of decoded (box4, triangle pair, primitive) nodes.
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.box4.items.len(),
            self.triangles.items.len(),
            self.primitive_nodes.items.len(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Aabb;

    /// The NaN-free slab test gives the NaN-safe one's hits and entry
    /// distances (equal as numbers, so up to the sign of a zero) for finite
    /// rays against nodes without NaN planes, edge values included: rays
    /// starting on a plane, flat and inverted boxes, infinite planes,
    /// distances that overflow, tiny and huge directions.
    #[test]
    fn finite_slab_matches_the_nan_safe_one() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..200_000 {
            let boxes: [Aabb; 4] = std::array::from_fn(|_| Aabb {
                min: rng.edge_vec3(false),
                max: rng.edge_vec3(false),
            });
            let children = std::array::from_fn(|i| {
                if rng.next_u32() % 5 == 0 {
                    INVALID_NODE
                } else {
                    (i as u32 + 1) << 4
                }
            });
            let n = BoxNode4 {
                children,
                boxes,
                obb: crate::encode::obb::NO_OBB,
                primitive_count: 0,
            };
            let d = DecodedBox4::new(&n, false);
            assert!(d.no_nan_planes);
            let o = rng.edge_vec3(true);
            let dir = rng.edge_vec3(true);
            let inv = dir.recip();
            if !inv.is_finite() {
                continue;
            }
            let extent = rng.edge_extent();
            let grow = 1.0 + 6.0 / 16_777_216.0;
            let ray = SlabRay::new(o, inv);
            let (want_entry, want_hits) = d.slab4(&ray, extent, grow);
            let (entry, hits) = d.slab4_finite(&ray, extent, grow);
            assert_eq!(hits, want_hits, "{boxes:?} {o:?} {dir:?} {extent}");
            for i in 0..4 {
                if d.valid >> i & 1 != 0 {
                    assert_eq!(entry[i], want_entry[i], "{boxes:?} {o:?} {dir:?}");
                }
            }
        }
    }
}
