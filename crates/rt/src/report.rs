//! Trace a ray set through several layouts and compare them side by side.

use crate::cost::{self, UtilizationConvention};
use crate::encode::{encode_scene, Arch, EncodedBvh, LayoutConfig, NodeCounts};
use crate::ray::{Hit, Ray};
use crate::scene::Scene;
use crate::traverse::{trace, RayCounters, TraversalOptions};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::fmt::Write;
use std::time::Instant;

/// Lanes per wave for the wave cost figures (RDNA runs ray tracing in wave32).
pub const WAVE_LANES: usize = 32;

/// One layout's results over a ray set.
#[derive(Debug, Clone)]
pub struct LayoutRun {
    /// The layout.
    pub config: LayoutConfig,
    /// Bytes of all encoded structures.
    pub bvh_bytes: u64,
    /// Node counts by type.
    pub nodes: NodeCounts,
    /// Tree depth in box levels.
    pub depth: usize,
    /// SAH cost of the wide tree, and of the binary tree it came from.
    pub sah_cost: (f32, f32),
    /// Counters summed over all rays.
    pub totals: RayCounters,
    /// Per-ray counters, in ray order.
    pub per_ray: Vec<RayCounters>,
    /// Closest hit per ray.
    pub hits: Vec<Option<Hit>>,
    /// Seconds spent encoding.
    pub encode_seconds: f64,
    /// Seconds spent tracing (wall clock, all threads).
    pub trace_seconds: f64,
    /// Threads used for tracing.
    pub threads: usize,
}

impl LayoutRun {
    /// Mean of a counter per ray.
    pub fn per_ray(&self, f: impl Fn(&RayCounters) -> u64) -> f64 {
        f(&self.totals) as f64 / self.per_ray.len().max(1) as f64
    }

    /// Mean RA clocks per ray.
    pub fn ra_clocks_per_ray(&self) -> f64 {
        cost::ray_clocks(self.config.arch, &self.totals) / self.per_ray.len().max(1) as f64
    }

    /// Mean RA clocks per wave32 (sum over its lanes), and the SIMD lane
    /// efficiency: mean over waves of (mean lane steps / max lane steps),
    /// since a wave keeps looping until its longest ray is done.
    pub fn wave_figures(&self) -> (f64, f64) {
        let mut clocks = 0.0;
        let mut eff = 0.0;
        let mut waves = 0usize;
        for w in self.per_ray.chunks(WAVE_LANES) {
            clocks += cost::wave_clocks(self.config.arch, w);
            let max = w.iter().map(|c| c.steps).max().unwrap_or(0);
            let sum: u64 = w.iter().map(|c| c.steps).sum();
            eff += if max == 0 {
                1.0
            } else {
                sum as f64 / (max as f64 * w.len() as f64)
            };
            waves += 1;
        }
        let n = waves.max(1) as f64;
        (clocks / n, eff / n)
    }

    /// Rays per second one CU's Ray Accelerator could finish if it were the
    /// only limit, at `clock_ghz`.
    pub fn ra_bound_rays_per_second(&self, clock_ghz: f64) -> f64 {
        let c = self.ra_clocks_per_ray();
        if c == 0.0 {
            0.0
        } else {
            clock_ghz * 1e9 / c
        }
    }
}

/// Encode `scene` in `config` and trace `rays` (in parallel).
pub fn run_layout(
    scene: &Scene,
    config: LayoutConfig,
    rays: &[Ray],
    opts: &TraversalOptions,
) -> Result<LayoutRun, String> {
    let t0 = Instant::now();
    let e = encode_scene(scene, config)?;
    let encode_seconds = t0.elapsed().as_secs_f64();
    let (per_ray, hits, trace_seconds) = trace_all(&e, rays, opts);
    let mut totals = RayCounters::default();
    for c in &per_ray {
        totals += *c;
    }
    Ok(LayoutRun {
        config,
        bvh_bytes: e.bytes(),
        nodes: e.counts,
        depth: e.depth,
        sah_cost: (e.sah_cost, e.bvh2_sah_cost),
        totals,
        per_ray,
        hits,
        encode_seconds,
        trace_seconds,
        threads: rayon::current_num_threads(),
    })
}

/// Trace every ray; returns per-ray counters, hits and the wall time.
pub fn trace_all(
    e: &EncodedBvh,
    rays: &[Ray],
    opts: &TraversalOptions,
) -> (Vec<RayCounters>, Vec<Option<Hit>>, f64) {
    let t0 = Instant::now();
    let results: Vec<_> = rays
        .par_iter()
        .with_min_len(256)
        .map(|r| trace(e, r, opts))
        .collect();
    let secs = t0.elapsed().as_secs_f64();
    let counters = results.iter().map(|r| r.counters).collect();
    let hits = results.iter().map(|r| r.hit).collect();
    (counters, hits, secs)
}

/// A ray's hit as JSON: `[triangle, t]`, `[triangle, t, instance]` in a
/// scene with instances, or `-1` for a miss.
pub fn hit_json(h: &Option<Hit>, two_level: bool) -> Value {
    match h {
        None => json!(-1),
        Some(h) if two_level => json!([h.triangle, h.t, h.instance]),
        Some(h) => json!([h.triangle, h.t]),
    }
}

/// The comparison as JSON.
pub fn to_json(
    scene_name: &str,
    scene: &Scene,
    ray_kind: &str,
    runs: &[LayoutRun],
    clock_ghz: f64,
) -> Value {
    let layouts: Vec<Value> = runs
        .iter()
        .map(|r| {
            let (wave_clocks, lane_eff) = r.wave_figures();
            json!({
                "label": r.config.label(),
                "arch": r.config.arch,
                "bvh": r.config.bvh,
                "obb": r.config.obb,
                "fp16": r.config.fp16,
                "bvh_bytes": r.bvh_bytes,
                "nodes": r.nodes,
                "depth": r.depth,
                "sah_cost": r.sah_cost.0,
                "bvh2_sah_cost": r.sah_cost.1,
                "rays": r.per_ray.len(),
                "steps_per_ray": r.per_ray(|c| c.steps),
                "nodes_fetched_per_ray": r.per_ray(|c| c.nodes_fetched),
                "box_tests_per_ray": r.per_ray(|c| c.box_tests),
                "triangle_tests_per_ray": r.per_ray(|c| c.triangle_tests),
                "instance_tests_per_ray": r.per_ray(|c| c.instance_tests),
                "bytes_per_ray": r.per_ray(|c| c.bytes_fetched),
                "stack_overflows_per_ray": r.per_ray(|c| c.stack_overflows),
                "walk_backs_per_ray": r.per_ray(|c| c.walk_backs),
                "ra_clocks_per_ray": r.ra_clocks_per_ray(),
                "ra_clocks_per_wave32": wave_clocks,
                "simd_lane_efficiency": lane_eff,
                "ra_bound_rays_per_second_per_cu": r.ra_bound_rays_per_second(clock_ghz),
                "hits": r.hits.iter().map(|h| hit_json(h, scene.is_two_level())).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "scene": scene_name,
        "triangles": scene.triangle_count(),
        "instances": scene.instances.len(),
        "ray_set": ray_kind,
        "rays": runs.first().map_or(0, |r| r.per_ray.len()),
        "clock_ghz": clock_ghz,
        "layouts": layouts,
        "ra_rates": cost::ra_table().arch,
        "ra_utilization": utilization_json(),
    })
}

fn utilization_json() -> Value {
    let rows: Vec<Value> = cost::ra_table()
        .measurement
        .iter()
        .filter_map(|m| {
            let arch = Arch::parse(&m.arch)?;
            let u = |c| {
                100.0
                    * cost::utilization(
                        arch,
                        m.compute_units,
                        m.assumed_clock_ghz,
                        m.box_tests_per_second,
                        m.triangle_tests_per_second,
                        c,
                    )
            };
            Some(json!({
                "gpu": m.gpu,
                "arch": m.arch,
                "compute_units": m.compute_units,
                "clock_ghz": m.assumed_clock_ghz,
                "box_tests_per_second": m.box_tests_per_second,
                "triangle_tests_per_second": m.triangle_tests_per_second,
                "quoted_percent": m.quoted_utilization_percent,
                "seed_convention_percent": u(UtilizationConvention::SeedTrianglesAtOnePerClock),
                "table_rates_percent": u(UtilizationConvention::TableRates),
            }))
        })
        .collect();
    json!({
        "convention": "box tests / (CUs x box rate x clock) + triangle tests / (CUs x 1 x clock): seed 000 counts triangles at one per clock per CU on every generation; with RDNA 4's two per clock the RX 9070 figure is 17%, not 24%",
        "published": rows,
    })
}

/// A count (nodes, bytes): a whole number, shortened only when large.
fn fmt_count(v: usize) -> String {
    if v >= 10_000 {
        fmt_num(v as f64)
    } else {
        v.to_string()
    }
}

fn fmt_num(v: f64) -> String {
    if v >= 1e9 {
        format!("{:.2}G", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The comparison as a text table with the headline ratios.
pub fn to_text(
    scene_name: &str,
    scene: &Scene,
    ray_kind: &str,
    runs: &[LayoutRun],
    clock_ghz: f64,
) -> String {
    let mut s = String::new();
    let rays = runs.first().map_or(0, |r| r.per_ray.len());
    let _ = writeln!(
        s,
        "{scene_name}: {} triangles{}, {rays} rays ({ray_kind})",
        scene.triangle_count(),
        if scene.is_two_level() {
            format!(
                " in {} instances of {} meshes",
                scene.instances.len(),
                scene.meshes.len()
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(s);
    let w = 16;
    let _ = write!(s, "{:<28}", "");
    for r in runs {
        let _ = write!(s, "{:>w$}", r.config.label());
    }
    let _ = writeln!(s);
    type Row<'a> = (&'a str, Box<dyn Fn(&LayoutRun) -> String + 'a>);
    let rows: Vec<Row> = vec![
        ("BVH bytes", Box::new(|r| fmt_count(r.bvh_bytes as usize))),
        (
            "box nodes",
            Box::new(|r| {
                fmt_count((r.nodes.box_fp32 + r.nodes.box_fp16 + r.nodes.box_quantized) as usize)
            }),
        ),
        (
            "  with OBB",
            Box::new(|r| fmt_count(r.nodes.with_obb as usize)),
        ),
        (
            "triangle/primitive nodes",
            Box::new(|r| fmt_count((r.nodes.triangle_pair + r.nodes.primitive) as usize)),
        ),
        (
            "instance nodes",
            Box::new(|r| fmt_count(r.nodes.instance as usize)),
        ),
        ("depth", Box::new(|r| r.depth.to_string())),
        ("SAH cost", Box::new(|r| format!("{:.2}", r.sah_cost.0))),
        (
            "steps/ray",
            Box::new(|r| format!("{:.2}", r.per_ray(|c| c.steps))),
        ),
        (
            "nodes fetched/ray",
            Box::new(|r| format!("{:.2}", r.per_ray(|c| c.nodes_fetched))),
        ),
        (
            "box tests/ray",
            Box::new(|r| format!("{:.2}", r.per_ray(|c| c.box_tests))),
        ),
        (
            "triangle tests/ray",
            Box::new(|r| format!("{:.2}", r.per_ray(|c| c.triangle_tests))),
        ),
        (
            "instance tests/ray",
            Box::new(|r| format!("{:.2}", r.per_ray(|c| c.instance_tests))),
        ),
        (
            "bytes/ray",
            Box::new(|r| format!("{:.0}", r.per_ray(|c| c.bytes_fetched))),
        ),
        (
            "stack overflows/ray",
            Box::new(|r| format!("{:.3}", r.per_ray(|c| c.stack_overflows))),
        ),
        (
            "walk-backs/ray",
            Box::new(|r| format!("{:.3}", r.per_ray(|c| c.walk_backs))),
        ),
        (
            "RA clocks/ray",
            Box::new(|r| format!("{:.2}", r.ra_clocks_per_ray())),
        ),
        (
            "RA clocks/wave32",
            Box::new(|r| format!("{:.1}", r.wave_figures().0)),
        ),
        (
            "SIMD lane efficiency",
            Box::new(|r| format!("{:.2}", r.wave_figures().1)),
        ),
        (
            "RA-bound rays/s per CU",
            Box::new(move |r| fmt_num(r.ra_bound_rays_per_second(clock_ghz))),
        ),
        (
            "traced rays/s per core",
            Box::new(|r| {
                fmt_num(r.per_ray.len() as f64 / (r.trace_seconds * r.threads as f64).max(1e-12))
            }),
        ),
    ];
    for (name, f) in &rows {
        let _ = write!(s, "{name:<28}");
        for r in runs {
            let _ = write!(s, "{:>w$}", f(r));
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s);
    // Headline comparisons the seed makes.
    let find = |pred: &dyn Fn(&LayoutConfig) -> bool| runs.iter().find(|r| pred(&r.config));
    let bvh4 = find(&|c| c.arch == Arch::Rdna4 && c.bvh == crate::encode::BvhKind::Bvh4 && !c.obb)
        .or_else(|| find(&|c| c.bvh == crate::encode::BvhKind::Bvh4 && !c.obb));
    let bvh8 = find(&|c| c.bvh == crate::encode::BvhKind::Bvh8 && !c.obb);
    let bvh8o = find(&|c| c.bvh == crate::encode::BvhKind::Bvh8 && c.obb);
    if let (Some(a), Some(b)) = (bvh4, bvh8) {
        let _ = writeln!(
            s,
            "BVH8 vs {}: {:.2}x the steps, {:.2}x the box tests, {:.2}x the bytes per ray, {:.2}x the BVH size",
            a.config.label(),
            b.per_ray(|c| c.steps) / a.per_ray(|c| c.steps).max(1e-12),
            b.per_ray(|c| c.box_tests) / a.per_ray(|c| c.box_tests).max(1e-12),
            b.per_ray(|c| c.bytes_fetched) / a.per_ray(|c| c.bytes_fetched).max(1e-12),
            b.bvh_bytes as f64 / a.bvh_bytes as f64,
        );
    }
    if let (Some(a), Some(b)) = (bvh8, bvh8o) {
        let _ = writeln!(
            s,
            "OBB on BVH8: box tests/ray {:+.1}%, steps/ray {:+.1}%, {} of {} box nodes rotated",
            100.0 * (b.per_ray(|c| c.box_tests) / a.per_ray(|c| c.box_tests).max(1e-12) - 1.0),
            100.0 * (b.per_ray(|c| c.steps) / a.per_ray(|c| c.steps).max(1e-12) - 1.0),
            b.nodes.with_obb,
            b.nodes.box_quantized,
        );
    }
    let identical = runs.windows(2).all(|w| w[0].hits == w[1].hits);
    let hits = runs
        .first()
        .map_or(0, |r| r.hits.iter().filter(|h| h.is_some()).count());
    let _ = writeln!(
        s,
        "closest hits: {hits} of {rays} rays hit; {} across layouts",
        if identical { "identical" } else { "DIFFERENT" }
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Ray Accelerator per CU at {clock_ghz} GHz (rates from data/ray_accelerator.toml):"
    );
    let mut archs: Vec<Arch> = runs.iter().map(|r| r.config.arch).collect();
    archs.dedup();
    for a in archs {
        let (b, t) = cost::peak_per_cu(a, clock_ghz);
        let r = cost::rates(a);
        let _ = writeln!(
            s,
            "  {}: {} box + {} triangle tests/clock = {:.1}G box or {:.1}G triangle tests/s",
            a.name(),
            r.box_tests_per_clock,
            r.triangle_tests_per_clock,
            b / 1e9,
            t / 1e9
        );
    }
    let _ = writeln!(s, "RA utilization as seed 000 computes it (box fraction + triangle fraction, triangles at 1/clock):");
    for m in &cost::ra_table().measurement {
        if let Some(a) = Arch::parse(&m.arch) {
            let u = |c| {
                100.0
                    * cost::utilization(
                        a,
                        m.compute_units,
                        m.assumed_clock_ghz,
                        m.box_tests_per_second,
                        m.triangle_tests_per_second,
                        c,
                    )
            };
            let _ = writeln!(
                s,
                "  {} ({} CUs, {} GHz): {:.2}% (quoted {}%); with the table's triangle rate {:.2}%",
                m.gpu,
                m.compute_units,
                m.assumed_clock_ghz,
                u(UtilizationConvention::SeedTrianglesAtOnePerClock),
                m.quoted_utilization_percent,
                u(UtilizationConvention::TableRates)
            );
        }
    }
    s
}
