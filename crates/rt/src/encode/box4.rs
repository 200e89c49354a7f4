//! 4-wide box nodes of RT IP 1.x/2.0 (rt.md §2): fp32 (128 bytes) and fp16
//! (64 bytes). Under RT IP 3.1 the fp32 node's last two dwords carry child
//! instance masks and an OBB matrix index.

use super::f16::{f16_to_f32, f32_to_f16_directed};
use super::memory::BvhMemory;
use super::obb::NO_OBB;
use super::pointer::INVALID_NODE;
use crate::math::{Aabb, Vec3};

/// Size of an fp32 box node.
pub const BOX32_BYTES: u32 = 128;
/// Size of an fp16 box node.
pub const BOX16_BYTES: u32 = 64;

/// A decoded 4-wide box node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxNode4 {
    /// Child pointers (`INVALID_NODE` for empty slots).
    pub children: [u32; 4],
    /// Child boxes (NaN boxes for empty slots; in the OBB frame when `obb` is set).
    pub boxes: [Aabb; 4],
    /// OBB matrix index (RT IP 3.1 fp32 nodes only), `NO_OBB` otherwise.
    pub obb: u32,
    /// Sideband: triangles below this node.
    pub primitive_count: u32,
}

const NAN_BOX: Aabb = Aabb {
    min: Vec3([f32::NAN; 3]),
    max: Vec3([f32::NAN; 3]),
};

impl BoxNode4 {
    /// A node with every slot empty.
    pub fn empty() -> BoxNode4 {
        BoxNode4 {
            children: [INVALID_NODE; 4],
            boxes: [NAN_BOX; 4],
            obb: NO_OBB,
            primitive_count: 0,
        }
    }

    /// Write as an fp32 node at byte address `addr`. `rtip31` selects the
    /// RT IP 3.1 meaning of the last 8 bytes (masks and OBB index).
    pub fn write_fp32(&self, mem: &mut BvhMemory, addr: u64, rtip31: bool) {
        for i in 0..4 {
            mem.write(addr + 4 * i as u64, self.children[i]);
            for a in 0..3 {
                mem.write_f32(
                    addr + 16 + 24 * i as u64 + 4 * a as u64,
                    self.boxes[i].min.0[a],
                );
                mem.write_f32(
                    addr + 28 + 24 * i as u64 + 4 * a as u64,
                    self.boxes[i].max.0[a],
                );
            }
        }
        mem.write(addr + 112, 0); // per-child culling flags: none
        mem.write(addr + 116, self.primitive_count);
        if rtip31 {
            mem.write(addr + 120, 0xFFFF_FFFF); // instance masks: all rays
            mem.write(addr + 124, self.obb);
        } else {
            mem.write(addr + 120, 0);
            mem.write(addr + 124, 0);
        }
    }

    /// Read an fp32 node.
    #[inline]
    pub fn read_fp32(mem: &BvhMemory, addr: u64, rtip31: bool) -> BoxNode4 {
        let w: &[u32; 32] = mem.block_ref(addr);
        let f = |i: usize| f32::from_bits(w[i]);
        let mut boxes = [NAN_BOX; 4];
        for (i, b) in boxes.iter_mut().enumerate() {
            let o = 4 + 6 * i;
            *b = Aabb {
                min: Vec3::new(f(o), f(o + 1), f(o + 2)),
                max: Vec3::new(f(o + 3), f(o + 4), f(o + 5)),
            };
        }
        BoxNode4 {
            children: [w[0], w[1], w[2], w[3]],
            boxes,
            obb: if rtip31 { w[31] & 0x7F } else { NO_OBB },
            primitive_count: w[29],
        }
    }

    /// Write as an fp16 node (64 bytes). Minima round down and maxima up, so
    /// the stored box contains the true one. Empty slots get NaN halves.
    pub fn write_fp16(&self, mem: &mut BvhMemory, addr: u64) {
        for i in 0..4 {
            mem.write(addr + 4 * i as u64, self.children[i]);
            let b = &self.boxes[i];
            let h = |v: f32, up: bool| -> u32 {
                if self.children[i] == INVALID_NODE {
                    0x7E00
                } else {
                    f32_to_f16_directed(v, up) as u32
                }
            };
            let o = addr + 16 + 12 * i as u64;
            mem.write(o, h(b.min.0[0], false) | (h(b.min.0[1], false) << 16));
            mem.write(o + 4, h(b.min.0[2], false) | (h(b.max.0[0], true) << 16));
            mem.write(o + 8, h(b.max.0[1], true) | (h(b.max.0[2], true) << 16));
        }
    }

    /// Read an fp16 node.
    #[inline]
    pub fn read_fp16(mem: &BvhMemory, addr: u64) -> BoxNode4 {
        let w: [u32; 16] = mem.block(addr);
        let mut boxes = [NAN_BOX; 4];
        for (i, b) in boxes.iter_mut().enumerate() {
            let o = 4 + 3 * i;
            let lo = |x: u32| f16_to_f32((x & 0xFFFF) as u16);
            let hi = |x: u32| f16_to_f32((x >> 16) as u16);
            *b = Aabb {
                min: Vec3::new(lo(w[o]), hi(w[o]), lo(w[o + 1])),
                max: Vec3::new(hi(w[o + 1]), lo(w[o + 2]), hi(w[o + 2])),
            };
        }
        BoxNode4 {
            children: [w[0], w[1], w[2], w[3]],
            boxes,
            obb: NO_OBB,
            primitive_count: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BoxNode4 {
        let mut n = BoxNode4::empty();
        n.children = [0x15, 0x28, 0x31, INVALID_NODE];
        for i in 0..3 {
            let m = Vec3::new(i as f32 * 0.3 - 1.1, 0.77, -2.5 + i as f32);
            n.boxes[i] = Aabb {
                min: m,
                max: m + Vec3::new(0.123, 1.5, 0.01),
            };
        }
        n.primitive_count = 17;
        n
    }

    #[test]
    fn fp32_round_trip() {
        let n = sample();
        for rtip31 in [false, true] {
            let mut mem = BvhMemory::default();
            n.write_fp32(&mut mem, 128, rtip31);
            assert_eq!(mem.len_bytes(), 256);
            let d = BoxNode4::read_fp32(&mem, 128, rtip31);
            assert_eq!(d.children, n.children);
            assert_eq!(&d.boxes[..3], &n.boxes[..3]);
            assert!(d.boxes[3].min.0[0].is_nan());
            assert_eq!(d.primitive_count, 17);
        }
    }

    #[test]
    fn fp16_boxes_contain_the_fp32_boxes() {
        let n = sample();
        let mut mem = BvhMemory::default();
        n.write_fp16(&mut mem, 64);
        assert_eq!(mem.len_bytes(), 128);
        let d = BoxNode4::read_fp16(&mem, 64);
        assert_eq!(d.children, n.children);
        for i in 0..3 {
            assert!(
                d.boxes[i].contains(&n.boxes[i]),
                "{:?} vs {:?}",
                d.boxes[i],
                n.boxes[i]
            );
        }
        assert!(d.boxes[3].min.0[0].is_nan());
    }
}
