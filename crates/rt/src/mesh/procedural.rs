//! Procedural meshes: test geometry that needs no file.

use super::Mesh;
use crate::math::{Affine3x4, Vec3};
use crate::rng::SplitMix64;

/// A UV sphere of `rings` x `segments` quads (two triangles each, a fan at
/// the poles), radius 1, with a deterministic radial bump so that it is not
/// perfectly regular (regular meshes hide BVH and traversal bugs).
pub fn bumpy_sphere(rings: u32, segments: u32) -> Mesh {
    let rings = rings.max(3);
    let segments = segments.max(3);
    let mut m = Mesh::default();
    for r in 0..=rings {
        let theta = std::f32::consts::PI * r as f32 / rings as f32;
        for s in 0..segments {
            let phi = 2.0 * std::f32::consts::PI * s as f32 / segments as f32;
            let bump = 1.0 + 0.08 * (5.0 * phi).sin() * (3.0 * theta).sin();
            m.positions.push(Vec3::new(
                bump * theta.sin() * phi.cos(),
                bump * theta.cos(),
                bump * theta.sin() * phi.sin(),
            ));
        }
    }
    let idx = |r: u32, s: u32| r * segments + (s % segments);
    for r in 0..rings {
        for s in 0..segments {
            let (a, b, c, d) = (idx(r, s), idx(r, s + 1), idx(r + 1, s), idx(r + 1, s + 1));
            if r != 0 {
                m.triangles.push([a, b, c]);
            }
            if r != rings - 1 {
                m.triangles.push([b, d, c]);
            }
        }
    }
    m
}

/// Long thin rotated parts: `clusters` groups of `rods_per_cluster` parallel
/// rods (boxes of 4 x 0.04 x 0.04), each group turned by its own random
/// rotation, the groups on a grid. An axis-aligned box around a rotated rod
/// is mostly empty space; one rotation fits a whole group, which is the case
/// RDNA 4's per-node oriented bounding boxes are made for (seed 000's chains).
pub fn thin_rotated_parts(clusters: u32, rods_per_cluster: u32, seed: u64) -> Mesh {
    let mut rng = SplitMix64::new(seed);
    let mut m = Mesh::default();
    let side = (clusters as f32).cbrt().ceil() as u32;
    let rods_side = (rods_per_cluster as f32).sqrt().ceil() as u32;
    for c in 0..clusters {
        let center = Vec3::new(
            (c % side) as f32 * 6.0,
            ((c / side) % side) as f32 * 6.0,
            (c / (side * side)) as f32 * 6.0,
        );
        let axis = Vec3::new(
            rng.next_f32() - 0.5,
            rng.next_f32() - 0.5,
            rng.next_f32() - 0.5,
        );
        let angle = 20.0 + 50.0 * rng.next_f32();
        let rot = Affine3x4::from_rotation_scale_translation(axis, angle, 1.0, center);
        for r in 0..rods_per_cluster {
            let off = Vec3::new(
                0.0,
                (r % rods_side) as f32 * 0.3 - 0.15 * rods_side as f32,
                (r / rods_side) as f32 * 0.3 - 0.15 * rods_side as f32,
            );
            add_box(&mut m, &rot, off, Vec3::new(4.0, 0.04, 0.04));
        }
    }
    m
}

/// Append a box of size `size` centred at `center` (in the frame of `xf`).
fn add_box(m: &mut Mesh, xf: &Affine3x4, center: Vec3, size: Vec3) {
    let base = m.positions.len() as u32;
    for i in 0..8 {
        let p = Vec3::new(
            center.x() + if i & 1 == 0 { -0.5 } else { 0.5 } * size.x(),
            center.y() + if i & 2 == 0 { -0.5 } else { 0.5 } * size.y(),
            center.z() + if i & 4 == 0 { -0.5 } else { 0.5 } * size.z(),
        );
        m.positions.push(xf.transform_point(p));
    }
    // Outward-facing quads, counter-clockwise seen from outside.
    const QUADS: [[u32; 4]; 6] = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    for q in QUADS {
        m.triangles.push([base + q[0], base + q[1], base + q[2]]);
        m.triangles.push([base + q[0], base + q[2], base + q[3]]);
    }
}

/// Build a procedural mesh from a short spec: `sphere:RINGS` or
/// `rods:CLUSTERS` (used by scene files and the CLI).
pub fn from_spec(spec: &str) -> Result<Mesh, String> {
    let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
    let n = if arg.is_empty() {
        None
    } else {
        Some(
            arg.parse::<u32>()
                .map_err(|_| format!("`{arg}` is not a count"))?,
        )
    };
    match kind {
        "sphere" => {
            let r = n.unwrap_or(32).clamp(3, 2048);
            Ok(bumpy_sphere(r, 2 * r))
        }
        "rods" => Ok(thin_rotated_parts(n.unwrap_or(27).clamp(1, 100_000), 16, 7)),
        _ => Err(format!(
            "unknown procedural mesh `{spec}` (sphere:N or rods:N)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_make_valid_meshes() {
        let s = bumpy_sphere(8, 16);
        s.validate("sphere").unwrap();
        assert_eq!(s.triangles.len(), (2 * 8 - 2) * 16);
        let r = thin_rotated_parts(8, 16, 1);
        r.validate("rods").unwrap();
        assert_eq!(r.triangles.len(), 8 * 16 * 12);
    }
}
