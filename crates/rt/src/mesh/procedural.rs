//! Procedural meshes: test geometry that needs no file.

use super::Mesh;
use crate::limits::MAX_SCENE_TRIANGLES;
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

/// A procedural spec read: the kind and its count.
enum Spec {
    /// `sphere:RINGS`: a bumpy sphere of RINGS x 2*RINGS quads.
    Sphere(u32),
    /// `rods:CLUSTERS`: thin rotated parts, 16 rods per cluster.
    Rods(u32),
}

fn parse_spec(spec: &str) -> Result<Spec, String> {
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
        "sphere" => Ok(Spec::Sphere(n.unwrap_or(32).max(3))),
        "rods" => Ok(Spec::Rods(n.unwrap_or(27).max(1))),
        _ => Err(format!(
            "unknown procedural mesh `{spec}` (sphere:N or rods:N)"
        )),
    }
}

/// Triangles the mesh of a procedural spec has, computed without building
/// it (so an oversized scene is refused at once): a sphere of `r` rings has
/// `2r` segments, each ring band two triangles per segment except the pole
/// fans' one, `(2r - 2) * 2r`; a rods cluster is 16 rods of 12 triangles.
pub fn spec_triangles(spec: &str) -> Result<u64, String> {
    Ok(match parse_spec(spec)? {
        Spec::Sphere(r) => (2 * u64::from(r) - 2) * 2 * u64::from(r),
        Spec::Rods(n) => u64::from(n) * 16 * 12,
    })
}

/// Build a procedural mesh from a short spec: `sphere:RINGS` or
/// `rods:CLUSTERS` (used by scene files and the CLI). A mesh of more than
/// [`MAX_SCENE_TRIANGLES`] triangles is refused before anything is built.
pub fn from_spec(spec: &str) -> Result<Mesh, String> {
    let triangles = spec_triangles(spec)?;
    if triangles > MAX_SCENE_TRIANGLES as u64 {
        return Err(format!(
            "procedural mesh `{spec}` would have {triangles} triangles, more than the limit of {MAX_SCENE_TRIANGLES} triangles per scene (MAX_SCENE_TRIANGLES)"
        ));
    }
    Ok(match parse_spec(spec)? {
        Spec::Sphere(r) => bumpy_sphere(r, 2 * r),
        Spec::Rods(n) => thin_rotated_parts(n, 16, 7),
    })
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
        // The counts computed without building agree with the meshes.
        for spec in ["sphere:8", "sphere:3", "rods:8", "rods:1"] {
            let built = from_spec(spec).unwrap().triangles.len() as u64;
            assert_eq!(spec_triangles(spec).unwrap(), built, "{spec}");
        }
    }

    #[test]
    fn oversized_specs_are_refused_naming_the_limit() {
        // sphere:5000 is (2*5000 - 2) * 10000 = 99,980,000 triangles, far
        // above 2^20; refused at once, before a vertex is made.
        let e = from_spec("sphere:5000").unwrap_err();
        assert!(e.contains("99980000 triangles"), "{e}");
        assert!(e.contains("1048576"), "{e}");
        // rods:100000 is 100,000 * 192 = 19,200,000 triangles.
        assert!(from_spec("rods:100000").unwrap_err().contains("19200000"));
    }
}
