//! Criterion benchmark of the traversal hot loop.
//!
//! Traversal throughput: primary rays on the Stanford bunny (or a procedural
//! sphere when Debian's glmark2-data is not installed), one benchmark per
//! layout, single-threaded so the number is rays per second per core.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shadersim_rt::encode::{encode_scene, Arch, BvhKind, LayoutConfig};
use shadersim_rt::mesh::{load_mesh, procedural};
use shadersim_rt::rays::Camera;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::{trace, TraversalOptions};

fn scene() -> Scene {
    let path = std::path::Path::new("/usr/share/glmark2/models/bunny.obj");
    match load_mesh(path) {
        Ok(m) => Scene::single("bunny", m),
        Err(_) => Scene::single("sphere", procedural::bumpy_sphere(128, 256)),
    }
}

fn bench(c: &mut Criterion) {
    let s = scene();
    let rays = Camera::looking_at(&s.bounds()).primary_rays(128, 128);
    let mut g = c.benchmark_group(format!("primary 128x128 {}", s.names[0]));
    g.throughput(Throughput::Elements(rays.len() as u64));
    g.sample_size(10);
    let layouts = [
        LayoutConfig::new(Arch::parse("rdna3").unwrap(), BvhKind::Bvh4),
        LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh4x2),
        LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8),
        LayoutConfig {
            obb: true,
            ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8)
        },
    ];
    let opts = TraversalOptions::default();
    for cfg in layouts {
        let e = encode_scene(&s, cfg).expect("valid layout");
        g.bench_function(cfg.label(), |b| {
            b.iter(|| {
                rays.iter()
                    .filter(|r| trace(&e, r, &opts).hit.is_some())
                    .count()
            })
        });
    }
    g.finish();
}

// criterion_group! generates an undocumented public function.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, bench);
}
criterion_main!(group::benches);
