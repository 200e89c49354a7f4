//! Brute-force closest hit: every triangle of every instance, no BVH.
//! The yardstick every traversal must match exactly.

use crate::ray::{intersect_triangle, Hit, Ray};
use crate::scene::Scene;

/// Closest hit of `ray` by testing every triangle. Instance rays are
/// transformed with the same world-to-object matrices and operation order
/// as the traversal, so distances compare bit for bit.
pub fn closest_hit(scene: &Scene, ray: &Ray) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    let mut test = |mesh: &crate::mesh::Mesh, r: &Ray, instance: u32| {
        for i in 0..mesh.triangles.len() {
            let [a, b, c] = mesh.triangle(i);
            if let Some(t) = intersect_triangle(r, a, b, c) {
                let h = Hit {
                    t,
                    triangle: i as u32,
                    instance,
                };
                if best.is_none_or(|b| h.closer_than(&b)) {
                    best = Some(h);
                }
            }
        }
    };
    if scene.is_two_level() {
        for (k, inst) in scene.instances.iter().enumerate() {
            let r = Ray::new(
                inst.world_to_object.transform_point(ray.origin),
                inst.world_to_object.transform_dir(ray.dir),
            );
            test(&scene.meshes[inst.mesh], &r, k as u32);
        }
    } else {
        test(&scene.meshes[0], ray, 0);
    }
    best
}
