//! What several of this crate's test files share (each uses a part).
#![allow(dead_code)]

use shadersim_rt::encode::{Arch, BvhKind, LayoutConfig};
use shadersim_rt::math::{Affine3x4, Vec3};
use shadersim_rt::mesh::procedural;
use shadersim_rt::scene::Scene;

/// Two meshes (a bumpy sphere and thin rotated rods) in seven instances,
/// rotated, scaled and moved: a two-level scene with overlapping
/// instances.
pub fn instanced_scene() -> Scene {
    let mut s = Scene {
        names: vec!["sphere".into(), "rods".into()],
        meshes: vec![
            procedural::bumpy_sphere(8, 16),
            procedural::thin_rotated_parts(4, 9, 5),
        ],
        instances: Vec::new(),
    };
    for i in 0..7 {
        let xf = Affine3x4::from_rotation_scale_translation(
            Vec3::new(0.3, 1.0, 0.1 * i as f32),
            17.0 * i as f32,
            0.5 + 0.25 * (i % 3) as f32,
            Vec3::new(3.0 * (i % 3) as f32, 2.0 * (i / 3) as f32, (i % 2) as f32),
        );
        s.add_instance(i % 2, xf).unwrap();
    }
    s
}

/// Every layout the encoder builds: BVH4 on RDNA 2 and 3 (and RDNA 3's
/// fp16 boxes), and RDNA 4's BVH4, BVH4x2 and BVH8, each with and without
/// oriented boxes.
pub fn layouts() -> Vec<LayoutConfig> {
    let mut v = vec![
        LayoutConfig::new(Arch::parse("rdna2").unwrap(), BvhKind::Bvh4),
        LayoutConfig::new(Arch::parse("rdna3").unwrap(), BvhKind::Bvh4),
        LayoutConfig {
            fp16: true,
            ..LayoutConfig::new(Arch::parse("rdna3").unwrap(), BvhKind::Bvh4)
        },
    ];
    for bvh in [BvhKind::Bvh4, BvhKind::Bvh4x2, BvhKind::Bvh8] {
        for obb in [false, true] {
            v.push(LayoutConfig {
                obb,
                ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), bvh)
            });
        }
    }
    v
}
