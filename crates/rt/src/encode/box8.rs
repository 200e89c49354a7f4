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

use super::memory::BvhMemory;
use super::obb::NO_OBB;
use super::pointer::{INVALID_NODE, TYPE_BOX};
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
        mem.write(addr, self.internal_base);
        mem.write(addr + 4, self.leaf_base);
        mem.write(addr + 8, self.parent);
        for a in 0..3 {
            mem.write_f32(addr + 12 + 4 * a as u64, self.origin.0[a]);
        }
        let d = self.exponents[0]
            | (self.exponents[1] << 8)
            | (self.exponents[2] << 16)
            | ((self.disable_box_sort as u32) << 24)
            | ((self.index_in_parent & 7) << 25)
            | (((self.valid_children.max(1) - 1) & 7) << 28);
        mem.write(addr + 24, d);
        mem.write(addr + 28, self.obb);
        for (i, c) in self.children.iter().enumerate() {
            let p = c.pack();
            for (k, w) in p.iter().enumerate() {
                mem.write(addr + 32 + 12 * i as u64 + 4 * k as u64, *w);
            }
        }
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
    }
}
