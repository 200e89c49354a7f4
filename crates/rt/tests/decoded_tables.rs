//! The per-encoding decoded node tables (`EncodedBvh::box8_table`,
//! `EncodedBvh::decoded`) are a cache: tracing with them must give exactly
//! what tracing with empty tables gives, where the traversal decodes every
//! node from the encoded memory on each visit. Hits (bit for bit) and every
//! counter, for every layout and option, on one- and two-level scenes.

use shadersim_rt::encode::box8::DecodedBox8Table;
use shadersim_rt::encode::decoded::DecodedNodes;
use shadersim_rt::encode::{encode_scene, EncodedBvh};
use shadersim_rt::mesh::procedural;
use shadersim_rt::ray::Ray;
use shadersim_rt::rays::{diffuse_rays, random_rays, Camera};
use shadersim_rt::reference::closest_hit;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::{trace, TraversalOptions};

mod common;

fn options() -> Vec<TraversalOptions> {
    vec![
        TraversalOptions::default(),
        TraversalOptions {
            stack_entries: 4,
            wide_sort: false,
            ..Default::default()
        },
        TraversalOptions {
            stack_entries: 8,
            sort_triangles_first: true,
            ..Default::default()
        },
    ]
}

/// The same encoding with both tables emptied: every visit decodes memory.
fn without_tables(e: &EncodedBvh) -> EncodedBvh {
    let mut slow = e.clone();
    slow.box8_table = DecodedBox8Table::default();
    slow.decoded = DecodedNodes::default();
    slow
}

fn rays_for(scene: &Scene, n: u32, seed: u64) -> Vec<Ray> {
    let b = scene.bounds();
    let mut rays = Camera::looking_at(&b).primary_rays(16, 16);
    rays.extend(random_rays(&b, n, seed));
    rays
}

fn check(scene: &Scene, rays: &[Ray]) {
    for cfg in common::layouts() {
        let fast = encode_scene(scene, cfg).unwrap();
        assert!(
            fast.box8_table.len() + fast.decoded.counts().0 > 0,
            "{cfg}: the tables hold the box nodes"
        );
        let slow = without_tables(&fast);
        let mut hits = 0;
        for opts in options() {
            for (k, r) in rays.iter().enumerate() {
                let (a, b) = (trace(&fast, r, &opts), trace(&slow, r, &opts));
                assert_eq!(
                    a.hit.map(|h| (h.t.to_bits(), h.triangle, h.instance)),
                    b.hit.map(|h| (h.t.to_bits(), h.triangle, h.instance)),
                    "{cfg} {opts:?} ray {k}: hit"
                );
                assert_eq!(a.counters, b.counters, "{cfg} {opts:?} ray {k}: counters");
                hits += a.hit.is_some() as usize;
            }
        }
        assert!(hits >= 30, "{cfg}: the rays hit something");
    }
}

#[test]
fn tables_match_decoding_memory_on_one_level_scenes() {
    for mesh in [
        procedural::bumpy_sphere(12, 24),
        procedural::thin_rotated_parts(6, 16, 9),
    ] {
        let s = Scene::single("m", mesh);
        let mut rays = rays_for(&s, 1500, 0xDEC0DE);
        // Bounce rays start on the surface: origins inside the boxes.
        rays.extend(diffuse_rays(&s, 300, 11, &|r| closest_hit(&s, r)).unwrap());
        check(&s, &rays);
    }
}

#[test]
fn tables_match_decoding_memory_on_an_instanced_scene() {
    let s = common::instanced_scene();
    check(&s, &rays_for(&s, 1500, 0x7AB1E));
}
