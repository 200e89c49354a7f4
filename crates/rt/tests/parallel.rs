//! Tracing on all cores gives exactly what tracing one ray after the other
//! gives: hits and every per-ray counter, for every layout.

use shadersim_rt::encode::{encode_scene, Arch, BvhKind, LayoutConfig};
use shadersim_rt::mesh::procedural;
use shadersim_rt::rays::{random_rays, Camera};
use shadersim_rt::report::trace_all;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::{trace, TraversalOptions};

#[test]
fn parallel_tracing_equals_sequential_tracing() {
    let scene = Scene::single("sphere", procedural::bumpy_sphere(24, 48));
    let mut rays = Camera::looking_at(&scene.bounds()).primary_rays(48, 48);
    rays.extend(random_rays(&scene.bounds(), 2000, 7));
    let opts = TraversalOptions::default();
    for bvh in [BvhKind::Bvh4, BvhKind::Bvh4x2, BvhKind::Bvh8] {
        for obb in [false, true] {
            let cfg = LayoutConfig {
                obb,
                ..LayoutConfig::new(Arch::Rdna4, bvh)
            };
            let e = encode_scene(&scene, cfg).unwrap();
            let (counters, hits, _) = trace_all(&e, &rays, &opts);
            for (i, r) in rays.iter().enumerate() {
                let one = trace(&e, r, &opts);
                assert_eq!(hits[i], one.hit, "{} ray {i}", cfg.label());
                assert_eq!(counters[i], one.counters, "{} ray {i}", cfg.label());
            }
        }
    }
}
