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
                ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), bvh)
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

/// Tracing in chunks (as `run_layout` and `shadersim rt` do) gives the sums
/// and wave figures of tracing the whole set at once: a set of
/// RAY_CHUNK + 1000 + 7 rays crosses a chunk boundary and ends in a partial
/// wave (7 rays), and the wave sums are added in wave order either way.
#[test]
fn chunked_runs_equal_whole_set_figures() {
    use shadersim_rt::cost;
    use shadersim_rt::report::{run_layout, RAY_CHUNK, WAVE_LANES};
    use shadersim_rt::traverse::RayCounters;
    let scene = Scene::single("sphere", procedural::bumpy_sphere(6, 12));
    let rays = random_rays(&scene.bounds(), (RAY_CHUNK + 1007) as u32, 5);
    let opts = TraversalOptions::default();
    let cfg = LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8);
    let (run, hits) = run_layout(&scene, cfg, &rays, &opts).unwrap();
    let e = encode_scene(&scene, cfg).unwrap();
    let (counters, whole_hits, _) = trace_all(&e, &rays, &opts);
    assert_eq!(hits, whole_hits);
    let mut totals = RayCounters::default();
    counters.iter().for_each(|c| totals += *c);
    assert_eq!(run.totals, totals);
    assert_eq!(run.rays, rays.len());
    assert_eq!(run.hit_rays, hits.iter().filter(|h| h.is_some()).count());
    let (mut clocks, mut eff, mut waves) = (0.0f64, 0.0f64, 0usize);
    for w in counters.chunks(WAVE_LANES) {
        clocks += cost::wave_clocks(cfg.arch, w);
        let max = w.iter().map(|c| c.steps).max().unwrap_or(0);
        let sum: u64 = w.iter().map(|c| c.steps).sum();
        eff += if max == 0 {
            1.0
        } else {
            sum as f64 / (max as f64 * w.len() as f64)
        };
        waves += 1;
    }
    let (c, l) = run.wave_figures();
    assert_eq!(c.to_bits(), (clocks / waves as f64).to_bits());
    assert_eq!(l.to_bits(), (eff / waves as f64).to_bits());
}
