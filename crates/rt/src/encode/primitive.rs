//! RT IP 3.1 compressed primitive node: 1024 bits holding up to 8 triangle
//! pairs over up to 16 unique vertices (rt.md §8; gpurt
//! `gfx12/primitiveNode.hlsli`, `PrimitiveStructureEncoder3_1.hlsl`).
//!
//! Layout, bits little-endian across the 32 dwords:
//! * header (52 bits): DW0 = payload x/y/z lengths - 1 (5 bits each),
//!   trailing-zero count, geometry-ID anchor and payload sizes / 2, pairs - 1,
//!   vertex type; DW1 = primitive-ID anchor size, payload size, and the
//!   index-section midpoint `M`;
//! * from bit 52: the x, y, z prefixes (the top `32 - tz - payload` bits of
//!   the first triangle's v0), then each vertex as x|y|z payloads; a
//!   component decodes as `prefix | payload << tz`;
//! * geometry IDs grow down from `M`, primitive IDs up from `M` (anchor, then
//!   one payload per further triangle slot);
//! * pair descriptors (29 bits) packed down from bit 1024.
//!
//! Every geometry in this crate is geometry 0, so the geometry-ID section is
//! empty (both sizes 0).

use crate::math::Vec3;

/// Size of the node.
pub const PRIMITIVE_NODE_BYTES: u32 = 128;
const HEADER_BITS: u32 = 52;
const PAIR_DESC_BITS: u32 = 29;
/// Most triangle pairs in one node.
pub const MAX_PAIRS: usize = 8;
/// Most unique vertices in one node.
pub const MAX_VERTICES: usize = 16;

/// Navigation after a pair: go to the next pair in this node.
pub const END_OF_PAIR: u32 = 0;
/// Navigation after a pair: go to pair 0 of the next 128-byte node.
pub const END_OF_NODE: u32 = 1;
/// Navigation after a pair: the leaf range is done.
pub const END_OF_RANGE: u32 = 3;

/// A triangle to store: mesh primitive index and its corners, in mesh order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StoredTriangle {
    /// Primitive (triangle) index.
    pub primitive: u32,
    /// Corners.
    pub vertices: [Vec3; 3],
}

/// A pair to store: tri0, optional tri1, and whether the leaf range ends here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StoredPair {
    /// Triangles 0 and 1.
    pub triangles: [Option<StoredTriangle>; 2],
    /// Prim-range stop bit.
    pub range_stop: bool,
}

struct Bits<'a>(&'a mut [u32; 32]);

impl Bits<'_> {
    /// OR the low `len` (<= 32) bits of `value` into the node at bit `bit`:
    /// one or two dwords at a time, not bit by bit (this ran for every
    /// candidate node of the greedy packing).
    fn write(&mut self, bit: u32, len: u32, value: u64) {
        if len == 0 {
            return;
        }
        let v = value & (u64::MAX >> (64 - len.min(64)));
        let x = v << (bit % 32);
        let i = (bit / 32) as usize;
        for (k, part) in [x as u32, (x >> 32) as u32].into_iter().enumerate() {
            if part != 0 {
                if let Some(w) = self.0.get_mut(i + k) {
                    *w |= part;
                }
            }
        }
    }
}

/// Read `len` (<= 32) bits at `bit` from node dwords.
#[inline]
pub fn read_bits(w: &[u32; 32], bit: u32, len: u32) -> u32 {
    if len == 0 {
        return 0;
    }
    let i = (bit / 32) as usize;
    let lo = w[i] as u64;
    let hi = if i + 1 < 32 { w[i + 1] as u64 } else { 0 };
    let v = ((hi << 32) | lo) >> (bit % 32);
    (v & ((1u64 << len) - 1)) as u32
}

fn bit_width(x: u32) -> u32 {
    32 - x.leading_zeros()
}

/// The layout of a node being filled pair by pair: its unique vertices, each
/// pair's vertex indices and the bit sizes they imply. Adding a pair checks
/// the fit in O(vertices) without writing a node, so the greedy packing
/// writes each node once instead of once per candidate prefix.
struct NodePlan {
    /// Unique vertices (bit patterns), in first-use order; `verts[0]` is tri0's v0 of pair 0.
    verts: [[u32; 3]; MAX_VERTICES],
    vert_count: usize,
    /// Vertex indices of each pair's two triangles.
    indices: [[[u32; 3]; 2]; MAX_PAIRS],
    pair_count: usize,
    /// OR of every coordinate (its trailing zeros are shared by all).
    all_bits: u32,
    /// Per axis, OR of every coordinate XOR `verts[0]`'s (its leading zeros are the prefix).
    diff: [u32; 3],
    /// Primitive ID of triangle slot 0.
    anchor: u32,
    /// OR of every further triangle's ID XOR the anchor.
    id_diff: u32,
}

/// The sizes of a node's fields, derived from a plan.
struct NodeSizes {
    tz: u32,
    prefix: [u32; 3],
    payload: [u32; 3],
    pa: u32,
    pp: u32,
    midpoint: u32,
}

impl NodePlan {
    /// A plan holding `first` alone, or `None` when it cannot start a node (no tri0).
    fn start(first: &StoredPair) -> Option<NodePlan> {
        let anchor = first.triangles[0]?.primitive;
        let mut plan = NodePlan {
            verts: [[0; 3]; MAX_VERTICES],
            vert_count: 0,
            indices: [[[0; 3]; 2]; MAX_PAIRS],
            pair_count: 0,
            all_bits: 0,
            diff: [0; 3],
            anchor,
            id_diff: 0,
        };
        plan.try_add(first).then_some(plan)
    }

    /// Add `pair` if the node still fits with it; on `false` the plan is unchanged.
    fn try_add(&mut self, pair: &StoredPair) -> bool {
        if self.pair_count == MAX_PAIRS {
            return false;
        }
        // Vertices past `vert_count` and the indices of slot `pair_count` are scratch until
        // the pair is taken, so only the running scalars need restoring on a refusal.
        let saved = (self.vert_count, self.all_bits, self.diff, self.id_diff);
        let p = self.pair_count;
        let mut fits = true;
        'pair: for (t, tri) in pair.triangles.iter().enumerate() {
            let Some(tri) = tri else { continue };
            // Triangle slot 0 is the anchor itself.
            if p + t > 0 {
                self.id_diff |= tri.primitive ^ self.anchor;
            }
            for (k, v) in tri.vertices.iter().enumerate() {
                let key = [v.0[0].to_bits(), v.0[1].to_bits(), v.0[2].to_bits()];
                let found = self.verts[..self.vert_count].iter().position(|x| *x == key);
                let i = match found {
                    Some(i) => i,
                    None => {
                        if self.vert_count == MAX_VERTICES {
                            fits = false;
                            break 'pair;
                        }
                        self.verts[self.vert_count] = key;
                        self.vert_count += 1;
                        self.all_bits |= key[0] | key[1] | key[2];
                        let first = self.verts[0];
                        for a in 0..3 {
                            self.diff[a] |= key[a] ^ first[a];
                        }
                        self.vert_count - 1
                    }
                };
                self.indices[p][t][k] = i as u32;
            }
        }
        self.pair_count += 1;
        if fits && self.sizes().is_some() {
            return true;
        }
        self.pair_count -= 1;
        (self.vert_count, self.all_bits, self.diff, self.id_diff) = saved;
        false
    }

    /// The field sizes, or `None` when the fields overflow the node's 1024 bits.
    fn sizes(&self) -> Option<NodeSizes> {
        let tz = self.all_bits.trailing_zeros().min(31);
        let mut prefix = [0u32; 3];
        let mut payload = [0u32; 3];
        for a in 0..3 {
            prefix[a] = self.diff[a].leading_zeros().min(31 - tz);
            payload[a] = 32 - tz - prefix[a];
        }
        let pa = bit_width(self.anchor);
        let pp = bit_width(self.id_diff);
        if pa > 31 || pp > 31 {
            return None;
        }
        let np = self.pair_count as u32;
        let midpoint = 1024 - PAIR_DESC_BITS * np - (2 * np - 1) * pp - pa;
        let vertex_end = HEADER_BITS
            + prefix.iter().sum::<u32>()
            + self.vert_count as u32 * payload.iter().sum::<u32>();
        (vertex_end <= midpoint).then_some(NodeSizes {
            tz,
            prefix,
            payload,
            pa,
            pp,
            midpoint,
        })
    }
}

/// Encode `pairs` into one node, or `None` when they do not fit (more than
/// 8 pairs, more than 16 unique vertices, or more than 1024 bits).
pub fn encode(pairs: &[StoredPair]) -> Option<[u32; 32]> {
    if pairs.is_empty() || pairs.len() > MAX_PAIRS {
        return None;
    }
    let mut plan = NodePlan::start(&pairs[0])?;
    for pair in &pairs[1..] {
        if !plan.try_add(pair) {
            return None;
        }
    }
    Some(write(&plan, pairs))
}

/// The node a plan describes, with `pairs` (the plan's pairs) in it.
fn write(plan: &NodePlan, pairs: &[StoredPair]) -> [u32; 32] {
    let NodeSizes {
        tz,
        prefix,
        payload,
        pa,
        pp,
        midpoint,
    } = plan.sizes().expect("a plan only ever holds pairs that fit");
    let verts = &plan.verts[..plan.vert_count];
    let indices = &plan.indices[..plan.pair_count];
    let first = verts[0];
    let np = plan.pair_count as u32;
    let anchor = plan.anchor;
    let ids = pairs.iter().enumerate().flat_map(|(p, pair)| {
        pair.triangles
            .iter()
            .enumerate()
            .filter_map(move |(t, tri)| tri.map(|tri| (2 * p as u32 + t as u32, tri.primitive)))
    });
    let mut w = [0u32; 32];
    w[0] = (payload[0] - 1)
        | ((payload[1] - 1) << 5)
        | ((payload[2] - 1) << 10)
        | (tz << 15)
        | ((np - 1) << 28);
    w[1] = pa | (pp << 5) | (midpoint << 10);
    let mut bits = Bits(&mut w);
    let mut at = HEADER_BITS;
    for a in 0..3 {
        if prefix[a] > 0 {
            bits.write(at, prefix[a], (first[a] >> (32 - prefix[a])) as u64);
        }
        at += prefix[a];
    }
    for v in verts {
        for a in 0..3 {
            bits.write(
                at,
                payload[a],
                ((v[a] >> tz) as u64) & ((1u64 << payload[a]) - 1),
            );
            at += payload[a];
        }
    }
    bits.write(midpoint, pa, anchor as u64);
    for (k, id) in ids.skip(1) {
        let v = if pp < pa { id & ((1u32 << pp) - 1) } else { id };
        bits.write(midpoint + pa + (k - 1) * pp, pp, v as u64);
    }
    for (p, pair) in pairs.iter().enumerate() {
        let mut d = pair.range_stop as u32;
        if pair.triangles[1].is_some() {
            let i = indices[p][1];
            d |= (1 << 2) | (i[0] << 3) | (i[1] << 7) | (i[2] << 11);
        }
        let i = indices[p][0];
        d |= (1 << 16) | (i[0] << 17) | (i[1] << 21) | (i[2] << 25);
        bits.write(
            1024 - PAIR_DESC_BITS * (p as u32 + 1),
            PAIR_DESC_BITS,
            d as u64,
        );
    }
    w
}

/// Header fields of a node, decoded once per fetch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrimitiveHeader {
    payload: [u32; 3],
    tz: u32,
    pairs: u32,
    pa: u32,
    pp: u32,
    midpoint: u32,
    prefixes: [u32; 3],
    vertex_start: u32,
    vertex_bits: u32,
}

impl PrimitiveHeader {
    /// Decode the header of node dwords `w`.
    #[inline]
    pub fn read(w: &[u32; 32]) -> PrimitiveHeader {
        let payload = [
            (w[0] & 31) + 1,
            ((w[0] >> 5) & 31) + 1,
            ((w[0] >> 10) & 31) + 1,
        ];
        let tz = (w[0] >> 15) & 31;
        let mut prefixes = [0u32; 3];
        let mut at = HEADER_BITS;
        for a in 0..3 {
            // A payload longer than 32 - tz is malformed: read no prefix then.
            let len = 32u32.saturating_sub(tz + payload[a]);
            if len > 0 {
                prefixes[a] = read_bits(w, at, len) << (32 - len);
            }
            at += len;
        }
        PrimitiveHeader {
            payload,
            tz,
            pairs: ((w[0] >> 28) & 7) + 1,
            pa: w[1] & 31,
            pp: (w[1] >> 5) & 31,
            midpoint: (w[1] >> 10) & 0x3FF,
            prefixes,
            vertex_start: at,
            vertex_bits: payload[0] + payload[1] + payload[2],
        }
    }

    /// Number of pairs in the node.
    pub fn pair_count(&self) -> u32 {
        self.pairs
    }

    /// Vertex `i`.
    #[inline]
    pub fn vertex(&self, w: &[u32; 32], i: u32) -> Vec3 {
        let mut at = self.vertex_start + i * self.vertex_bits;
        let mut c = [0f32; 3];
        for a in 0..3 {
            let p = read_bits(w, at, self.payload[a]);
            at += self.payload[a];
            c[a] = f32::from_bits(self.prefixes[a] | p.wrapping_shl(self.tz));
        }
        Vec3(c)
    }

    /// Pair descriptor `p`.
    #[inline]
    pub fn pair_desc(&self, w: &[u32; 32], p: u32) -> u32 {
        read_bits(w, 1024 - PAIR_DESC_BITS * (p + 1), PAIR_DESC_BITS)
    }

    /// Primitive index of triangle slot `k = 2 * pair + tri`.
    #[inline]
    pub fn primitive_id(&self, w: &[u32; 32], k: u32) -> u32 {
        let anchor = read_bits(w, self.midpoint, self.pa);
        if k == 0 {
            return anchor;
        }
        let v = read_bits(w, self.midpoint + self.pa + (k - 1) * self.pp, self.pp);
        if self.pp >= self.pa {
            v
        } else {
            (anchor & !((1u32 << self.pp) - 1)) | v
        }
    }

    /// Whether every field pair `p` names (its vertices and primitive IDs)
    /// lies inside the node's 1024 bits, as in any node a builder wrote.
    pub fn pair_in_node(&self, w: &[u32; 32], p: u32) -> bool {
        let d = self.pair_desc(w, p);
        let ends_inside = |start: u32, len: u32| start + len <= 1024;
        (0..2).all(|t| match triangle_indices(d, t) {
            None => true,
            Some(i) => {
                let k = 2 * p + t;
                i.iter().all(|&v| {
                    ends_inside(self.vertex_start + v * self.vertex_bits, self.vertex_bits)
                }) && ends_inside(self.midpoint, self.pa)
                    && (k == 0 || ends_inside(self.midpoint + self.pa + (k - 1) * self.pp, self.pp))
            }
        })
    }

    /// Navigation bits after pair `p`: the range ends at a stop bit, else
    /// the last pair of the node continues in the next node.
    #[inline]
    pub fn navigation(&self, desc: u32, p: u32) -> u32 {
        if desc & 1 != 0 {
            END_OF_RANGE
        } else if p + 1 == self.pairs {
            END_OF_NODE
        } else {
            END_OF_PAIR
        }
    }
}

/// Triangle `t` (0 or 1) of a pair descriptor: its three vertex indices, or
/// `None` for an absent tri1 (all indices zero).
#[inline]
pub fn triangle_indices(desc: u32, t: u32) -> Option<[u32; 3]> {
    let shift = if t == 0 { 17 } else { 3 };
    let i = [
        (desc >> shift) & 15,
        (desc >> (shift + 4)) & 15,
        (desc >> (shift + 8)) & 15,
    ];
    if t == 1 && i == [0, 0, 0] {
        None
    } else {
        Some(i)
    }
}

/// Decode every triangle of a node: (pair, tri, primitive, corners, stop bit).
pub fn decode(w: &[u32; 32]) -> Vec<(u32, u32, u32, [Vec3; 3], bool)> {
    let h = PrimitiveHeader::read(w);
    let mut out = Vec::new();
    for p in 0..h.pairs {
        let d = h.pair_desc(w, p);
        for t in 0..2 {
            if let Some(i) = triangle_indices(d, t) {
                let v = [h.vertex(w, i[0]), h.vertex(w, i[1]), h.vertex(w, i[2])];
                out.push((p, t, h.primitive_id(w, 2 * p + t), v, d & 1 != 0));
            }
        }
    }
    out
}

/// Pack a run of pairs greedily into as few nodes as the rules allow: each
/// node takes the longest prefix of the remaining pairs that fits.
pub fn pack_greedy(pairs: &[StoredPair]) -> Vec<([u32; 32], usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < pairs.len() {
        // A single pair (at most 6 vertices, 576 payload bits) always fits.
        let mut plan =
            NodePlan::start(&pairs[i]).expect("one triangle pair always fits a primitive node");
        let mut n = 1;
        while i + n < pairs.len() && plan.try_add(&pairs[i + n]) {
            n += 1;
        }
        out.push((write(&plan, &pairs[i..i + n]), n));
        i += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tri(p: u32, a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> StoredTriangle {
        StoredTriangle {
            primitive: p,
            vertices: [Vec3(a), Vec3(b), Vec3(c)],
        }
    }

    /// The dword-wise write sets exactly the bits the bit-by-bit write set.
    #[test]
    fn bits_write_equals_bit_by_bit() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..20_000 {
            let len = rng.next_u32() % 33;
            let bit = rng.next_u32() % (1024 - len + 1);
            let value = (u64::from(rng.next_u32()) << 32) | u64::from(rng.next_u32());
            let mut fast = [0u32; 32];
            fast[3] = rng.next_u32();
            let mut slow = fast;
            Bits(&mut fast).write(bit, len, value);
            for k in 0..len {
                let b = bit + k;
                if (value >> k) & 1 != 0 {
                    slow[(b / 32) as usize] |= 1 << (b % 32);
                }
            }
            assert_eq!(fast, slow, "bit {bit} len {len} value {value:#x}");
        }
    }

    #[test]
    fn a_grid_compresses_several_pairs_per_node() {
        // A 4x4 grid of quads on a power-of-two lattice: few unique vertices,
        // many trailing zeros.
        let mut pairs = Vec::new();
        for q in 0..6u32 {
            let (x, y) = ((q % 3) as f32 * 0.5, (q / 3) as f32 * 0.5);
            pairs.push(StoredPair {
                triangles: [
                    Some(tri(
                        100 + 2 * q,
                        [x, y, 1.0],
                        [x + 0.5, y, 1.0],
                        [x + 0.5, y + 0.5, 1.0],
                    )),
                    Some(tri(
                        101 + 2 * q,
                        [x, y, 1.0],
                        [x + 0.5, y + 0.5, 1.0],
                        [x, y + 0.5, 1.0],
                    )),
                ],
                range_stop: q == 5,
            });
        }
        let nodes = pack_greedy(&pairs);
        assert_eq!(
            nodes.len(),
            1,
            "6 pairs over 12 lattice vertices fit one node"
        );
        let d = decode(&nodes[0].0);
        assert_eq!(d.len(), 12);
        for (k, (p, t, prim, v, stop)) in d.iter().enumerate() {
            let orig = pairs[*p as usize].triangles[*t as usize].unwrap();
            assert_eq!(*prim, orig.primitive);
            assert_eq!(*v, orig.vertices);
            assert_eq!(*stop, *p == 5, "{k}");
        }
    }

    proptest! {
        #[test]
        fn encode_decode_round_trip(
            coords in proptest::collection::vec(any::<f32>().prop_filter("finite", |f| f.is_finite()), 9..120),
            first_id in 0u32..(1 << 29),
            steps in proptest::collection::vec(0u32..5000, 1..40),
        ) {
            let n_tris = (coords.len() / 9).min(steps.len());
            prop_assume!(n_tris > 0);
            let mut tris = Vec::new();
            let mut id = first_id;
            for t in 0..n_tris {
                let c = &coords[9 * t..9 * t + 9];
                tris.push(tri(id, [c[0], c[1], c[2]], [c[3], c[4], c[5]], [c[6], c[7], c[8]]));
                id = (id + steps[t]) & ((1 << 29) - 1);
            }
            let pairs: Vec<StoredPair> = tris.chunks(2).enumerate().map(|(i, ch)| StoredPair {
                triangles: [Some(ch[0]), ch.get(1).copied()],
                range_stop: i == tris.len().div_ceil(2) - 1,
            }).collect();
            let nodes = pack_greedy(&pairs);
            let mut got = Vec::new();
            for (w, n) in &nodes {
                let h = PrimitiveHeader::read(w);
                prop_assert_eq!(h.pair_count() as usize, *n);
                for (_, _, prim, v, _) in decode(w) {
                    got.push((prim, v));
                }
            }
            let want: Vec<(u32, [Vec3; 3])> = tris.iter().map(|t| (t.primitive, t.vertices)).collect();
            prop_assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                prop_assert_eq!(g.0, w.0);
                for k in 0..3 {
                    for a in 0..3 {
                        prop_assert_eq!(g.1[k].0[a].to_bits(), w.1[k].0[a].to_bits());
                    }
                }
            }
        }
    }
}
