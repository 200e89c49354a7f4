//! A digest of everything the traversal reports, per layout and option:
//! every ray's hit (bit for bit) and counters, hashed, plus the counter
//! totals. Two builds that print the same lines trace identically, which
//! is what a speed-up of the traversal must keep.
//!
//! `cargo run --release -p shadersim-rt --example trace_digest` (digest),
//! `... --example trace_digest -- count LABEL SIZE`: trace the bunny's
//! SIZE x SIZE primary rays once through the layout whose label is LABEL,
//! single-threaded, for instruction counting (e.g. under callgrind with
//! `--toggle-collect='shadersim_rt::traverse::trace*'`).

use shadersim_rt::encode::{encode_scene, Arch, BvhKind, LayoutConfig};
use shadersim_rt::mesh::{load_mesh, procedural};
use shadersim_rt::ray::Ray;
use shadersim_rt::rays::{diffuse_rays, random_rays, Camera};
use shadersim_rt::reference::closest_hit;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::{trace, RayCounters, TraversalOptions};

// The tests' instanced scene and layouts, so the digest covers what they do.
#[path = "../tests/common/mod.rs"]
mod common;
use common::instanced_scene;

fn bunny() -> Scene {
    let path = std::path::Path::new("/usr/share/glmark2/models/bunny.obj");
    match load_mesh(path) {
        Ok(m) => Scene::single("bunny", m),
        Err(_) => Scene::single("sphere", procedural::bumpy_sphere(128, 256)),
    }
}

/// The tests' layouts, and BVH4x2 with fp16 boxes.
fn configs() -> Vec<LayoutConfig> {
    let mut v = common::layouts();
    v.push(LayoutConfig {
        fp16: true,
        ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh4x2)
    });
    v
}

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
        TraversalOptions {
            stack_entries: 11,
            box_grow_ulp: 0,
            ..Default::default()
        },
    ]
}

fn rays_for(scene: &Scene, size: u32, n: u32, diffuse: u32) -> Vec<Ray> {
    let b = scene.bounds();
    let mut rays = Camera::looking_at(&b).primary_rays(size, size);
    rays.extend(random_rays(&b, n, 0x5EED));
    if diffuse > 0 {
        rays.extend(diffuse_rays(scene, diffuse, 7, &|r| closest_hit(scene, r)).unwrap());
    }
    rays
}

/// FNV-1a over 64-bit words.
fn mix(h: &mut u64, v: u64) {
    for b in v.to_le_bytes() {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

fn digest() {
    let scenes = [
        (bunny(), 48, 1500, 0),
        (
            Scene::single("sphere", procedural::bumpy_sphere(12, 24)),
            32,
            1500,
            300,
        ),
        (
            Scene::single("rods", procedural::thin_rotated_parts(6, 16, 9)),
            32,
            1500,
            300,
        ),
        (instanced_scene(), 32, 2000, 0),
    ];
    for (scene, size, n, diffuse) in &scenes {
        let rays = rays_for(scene, *size, *n, *diffuse);
        for cfg in configs() {
            let e = encode_scene(scene, cfg).unwrap();
            for (k, opts) in options().iter().enumerate() {
                let mut h = 0xcbf2_9ce4_8422_2325u64;
                let mut total = RayCounters::default();
                for r in &rays {
                    let t = trace(&e, r, opts);
                    match t.hit {
                        Some(hit) => {
                            mix(&mut h, u64::from(hit.t.to_bits()));
                            mix(&mut h, u64::from(hit.triangle));
                            mix(&mut h, u64::from(hit.instance));
                        }
                        None => mix(&mut h, u64::MAX),
                    }
                    let c = t.counters;
                    for v in [
                        c.steps,
                        c.nodes_fetched,
                        c.box_nodes,
                        c.box_tests,
                        c.triangle_tests,
                        c.instance_tests,
                        c.bytes_fetched,
                        c.stack_pushes,
                        c.stack_pops,
                        c.stack_overflows,
                        c.walk_backs,
                    ] {
                        mix(&mut h, v);
                    }
                    total += c;
                }
                println!(
                    "{} {} opts{k} {h:016x} steps {} pushes {} overflows {} walk_backs {}",
                    scene.names[0],
                    cfg.label(),
                    total.steps,
                    total.stack_pushes,
                    total.stack_overflows,
                    total.walk_backs
                );
            }
        }
    }
}

fn count(label: &str, size: u32) {
    let s = bunny();
    let rays = Camera::looking_at(&s.bounds()).primary_rays(size, size);
    let cfg = configs()
        .into_iter()
        .find(|c| c.label() == label)
        .expect("a layout label, e.g. `rdna4 bvh8`");
    let e = encode_scene(&s, cfg).unwrap();
    let opts = TraversalOptions::default();
    let hits = rays
        .iter()
        .filter(|r| trace(&e, r, &opts).hit.is_some())
        .count();
    println!("{label}: {} rays, {hits} hits", rays.len());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("count") => count(
            args.get(1).map_or("rdna4 bvh8", String::as_str),
            args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64),
        ),
        _ => digest(),
    }
}
