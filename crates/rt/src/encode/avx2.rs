//! The OBB rotation choice compiled for AVX2, chosen at run time.
//!
//! The choice is mostly loops over the 312 planes of the 104 rotations
//! (min, max, multiply, add, compare-and-select), which the default x86-64
//! target runs four lanes at a time; AVX2 runs eight. Only `avx2` is enabled
//! (not `fma`), so every multiply and add rounds on its own as before, and
//! no float operation is reordered: the results are the same bits (the rt
//! snapshot and `avx2_rotations_equal_the_portable_ones` check it).
//!
//! The one `unsafe` of the rt crate: calling a function compiled for a CPU
//! feature, after checking that the CPU has it.
#![allow(unsafe_code)]

use super::support::{bvh8_rotations_portable, NodeRotations};
use crate::bvh::WideBvh;
use crate::mesh::Mesh;

/// `bvh8_encode::bvh8_rotations` in AVX2, or `None` on a CPU without it.
pub(super) fn bvh8_rotations(wide: &WideBvh, mesh: &Mesh) -> Option<NodeRotations> {
    if !std::arch::is_x86_feature_detected!("avx2") {
        return None;
    }
    // SAFETY: the CPU has AVX2 (checked above), the only feature the callee
    // is compiled for.
    Some(unsafe { rotations_avx2(wide, mesh) })
}

#[target_feature(enable = "avx2")]
fn rotations_avx2(wide: &WideBvh, mesh: &Mesh) -> NodeRotations {
    bvh8_rotations_portable(wide, mesh)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::layout::BvhKind;
    use crate::encode::obb::rotation_bits;
    use crate::encode::scene_encode::build_mesh_bvh;
    use crate::math::Aabb;
    use crate::mesh::procedural;

    /// The AVX2 copy chooses what the portable one does, boxes bit for bit,
    /// on meshes big enough to evict vertices from the projection cache.
    #[test]
    fn avx2_rotations_equal_the_portable_ones() {
        let key =
            |r: &[Option<(u32, Vec<Aabb>)>]| -> Vec<_> { r.iter().map(rotation_bits).collect() };
        for mesh in [
            procedural::bumpy_sphere(48, 96),
            procedural::thin_rotated_parts(4, 9, 5),
        ] {
            let (_, wide) = build_mesh_bvh(&mesh, BvhKind::Bvh8);
            let portable = bvh8_rotations_portable(&wide, &mesh);
            assert!(portable.iter().any(Option::is_some), "some node rotates");
            match bvh8_rotations(&wide, &mesh) {
                Some(fast) => assert_eq!(key(&fast), key(&portable)),
                None => eprintln!("this CPU has no AVX2: only the portable copy runs"),
            }
        }
    }
}
