//! Instance nodes, 128 bytes (rt.md §4; gpurt `InstanceNode1_0.hlsli`,
//! `gpurtAccelStruct.h`).
//!
//! RT IP 1.x/2.0: a 64-byte D3D12-style descriptor (world-to-object 3x4 at 0,
//! `InstanceID | mask << 24` at 48, hit-group contribution and flags at 52,
//! BLAS address low/high at 56/60) and a 64-byte sideband (instance index at
//! 64, BLAS root pointer at 68, metadata size at 72, object-to-world 3x4 at
//! 80).
//!
//! RT IP 3.1: world-to-object at 0, the 64-bit BLAS base pointer at 48, the
//! parent pointer at 56, `contribution | mask << 24` at 60, then a 4-wide
//! quantized "filter" box node at 64 (origin, exponent/count dword, four
//! ChildInfo records) whose children give the BLAS entry points. We write one
//! filter child: the BLAS root box.

use super::box8::ChildInfo;
use super::memory::BvhMemory;
use super::pointer::TYPE_BOX;
use super::quantize::{node_frame, QuantizedBox};
use crate::math::{Aabb, Affine3x4, Vec3};

/// Size of an instance node.
pub const INSTANCE_NODE_BYTES: u32 = 128;

/// A decoded instance node (fields of both generations).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InstanceNode {
    /// World-to-object transform.
    pub world_to_object: Affine3x4,
    /// Object-to-world transform (RT IP 2.0 sideband only).
    pub object_to_world: Affine3x4,
    /// Byte address of the BLAS (its pointer base).
    pub blas_base: u64,
    /// BLAS root pointer (RT IP 2.0 sideband; RT IP 3.1 derives it from the filter).
    pub blas_root: u32,
    /// Instance index in the scene.
    pub instance_index: u32,
    /// 8-bit instance mask.
    pub mask: u32,
    /// Parent pointer (RT IP 3.1).
    pub parent: u32,
    /// BLAS root box in object space (RT IP 3.1 filter).
    pub filter_box: Aabb,
}

fn write_matrix(mem: &mut BvhMemory, addr: u64, m: &Affine3x4) {
    for r in 0..3 {
        for c in 0..4 {
            mem.write_f32(addr + 16 * r as u64 + 4 * c as u64, m.0[r][c]);
        }
    }
}

fn read_matrix(w: &[u32], at: usize) -> Affine3x4 {
    let mut m = [[0.0f32; 4]; 3];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = f32::from_bits(w[at + 4 * r + c]);
        }
    }
    Affine3x4(m)
}

impl InstanceNode {
    /// Write in the RT IP 1.x/2.0 layout.
    pub fn write_rtip2(&self, mem: &mut BvhMemory, addr: u64) {
        write_matrix(mem, addr, &self.world_to_object);
        mem.write(
            addr + 48,
            (self.instance_index & 0xFF_FFFF) | ((self.mask & 0xFF) << 24),
        );
        mem.write(addr + 52, 0);
        mem.write(addr + 56, self.blas_base as u32);
        mem.write(addr + 60, (self.blas_base >> 32) as u32);
        mem.write(addr + 64, self.instance_index);
        mem.write(addr + 68, self.blas_root);
        mem.write(addr + 72, 0);
        mem.write(addr + 76, 0);
        write_matrix(mem, addr + 80, &self.object_to_world);
    }

    /// Read the RT IP 1.x/2.0 layout.
    pub fn read_rtip2(mem: &BvhMemory, addr: u64) -> InstanceNode {
        let w: [u32; 32] = mem.block(addr);
        InstanceNode {
            world_to_object: read_matrix(&w, 0),
            object_to_world: read_matrix(&w, 20),
            blas_base: w[14] as u64 | ((w[15] as u64) << 32),
            blas_root: w[17],
            instance_index: w[16],
            mask: w[12] >> 24,
            parent: super::pointer::INVALID_NODE,
            filter_box: Aabb::EMPTY,
        }
    }

    /// Write in the RT IP 3.1 layout with a one-child filter node.
    pub fn write_rtip31(&self, mem: &mut BvhMemory, addr: u64) {
        write_matrix(mem, addr, &self.world_to_object);
        // Bits [53:0] address, bit 62 geometry type (0 = triangles).
        let base = self.blas_base & 0x3F_FFFF_FFFF_FFF8;
        mem.write(addr + 48, base as u32);
        mem.write(addr + 52, (base >> 32) as u32);
        mem.write(addr + 56, self.parent);
        mem.write(
            addr + 60,
            (self.instance_index & 0xFF_FFFF) | ((self.mask & 0xFF) << 24),
        );
        let (origin, e) = node_frame(&[self.filter_box]);
        for a in 0..3 {
            mem.write_f32(addr + 64 + 4 * a as u64, origin.0[a]);
        }
        mem.write(addr + 76, e[0] | (e[1] << 8) | (e[2] << 16));
        let root = ChildInfo {
            qbox: QuantizedBox::new(&self.filter_box, origin, e),
            cull_flags: 0,
            instance_mask: self.mask,
            node_type: TYPE_BOX,
            range_length: 1,
        };
        for slot in 0..4 {
            let p = if slot == 0 {
                root.pack()
            } else {
                ChildInfo::INVALID.pack()
            };
            for (k, v) in p.iter().enumerate() {
                mem.write(addr + 80 + 12 * slot as u64 + 4 * k as u64, *v);
            }
        }
    }

    /// Read the RT IP 3.1 layout. The BLAS root is the filter's first child,
    /// at offset 0 of the BLAS base (an RT IP 3.1 BLAS base addresses its root).
    pub fn read_rtip31(mem: &BvhMemory, addr: u64) -> InstanceNode {
        let w: [u32; 32] = mem.block(addr);
        let origin = Vec3::new(
            f32::from_bits(w[16]),
            f32::from_bits(w[17]),
            f32::from_bits(w[18]),
        );
        let e = [w[19] & 0xFF, (w[19] >> 8) & 0xFF, (w[19] >> 16) & 0xFF];
        let c = ChildInfo::unpack([w[20], w[21], w[22]]);
        InstanceNode {
            world_to_object: read_matrix(&w, 0),
            object_to_world: Affine3x4::IDENTITY,
            blas_base: (w[12] as u64 | ((w[13] as u64) << 32)) & 0x3F_FFFF_FFFF_FFF8,
            blas_root: c.node_type,
            instance_index: w[15] & 0xFF_FFFF,
            mask: w[15] >> 24,
            parent: w[14],
            filter_box: c.qbox.decode(origin, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_round_trip() {
        let o2w = Affine3x4::from_rotation_scale_translation(
            Vec3::new(1.0, 2.0, 3.0),
            33.0,
            2.0,
            Vec3::new(5.0, -1.0, 0.5),
        );
        let n = InstanceNode {
            world_to_object: o2w.inverse().unwrap(),
            object_to_world: o2w,
            blas_base: 0x1_0000_0400,
            blas_root: 0x15,
            instance_index: 7,
            mask: 0xFF,
            parent: 0x25,
            filter_box: Aabb {
                min: Vec3::new(-1.0, -2.0, -0.5),
                max: Vec3::new(1.0, 2.5, 0.75),
            },
        };
        let mut mem = BvhMemory::default();
        n.write_rtip2(&mut mem, 128);
        let d = InstanceNode::read_rtip2(&mem, 128);
        assert_eq!(
            (
                d.world_to_object,
                d.object_to_world,
                d.blas_base,
                d.blas_root
            ),
            (
                n.world_to_object,
                n.object_to_world,
                n.blas_base,
                n.blas_root
            )
        );
        assert_eq!((d.instance_index, d.mask), (7, 0xFF));
        let mut mem = BvhMemory::default();
        n.write_rtip31(&mut mem, 256);
        let d = InstanceNode::read_rtip31(&mem, 256);
        assert_eq!(
            (
                d.world_to_object,
                d.blas_base,
                d.parent,
                d.instance_index,
                d.mask
            ),
            (n.world_to_object, n.blas_base, n.parent, 7, 0xFF)
        );
        assert_eq!(d.blas_root, TYPE_BOX);
        assert!(d.filter_box.contains(&n.filter_box));
    }
}
