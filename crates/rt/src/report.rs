//! Trace a ray set through several layouts and compare them side by side.

use crate::cost::{self, UtilizationConvention};
use crate::encode::{encode_built, Arch, EncodedBvh, LayoutConfig, MeshBuilds, NodeCounts};
use crate::ray::{Hit, Ray};
use crate::scene::Scene;
use crate::traverse::{trace, RayCounters, TraceResult, TraversalOptions};
use rayon::prelude::*;
use serde::Serialize as _;
use serde_json::{json, Value};
use std::fmt::Write;
use std::time::Instant;

/// Lanes per wave for the wave cost figures (RDNA runs ray tracing in wave32).
pub const WAVE_LANES: usize = 32;

/// Rays traced per chunk by [`run_layout`] (and by `shadersim rt`): large
/// enough to keep every core busy, small enough that a chunk's rays and
/// results (about 130 bytes a ray per layout) stay a few megabytes whatever
/// the ray count. A multiple of [`WAVE_LANES`].
pub const RAY_CHUNK: usize = 1 << 16;

/// One layout's results over a ray set: sums and wave figures accumulated
/// ray by ray, so the set never has to be held at once.
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
    /// Rays traced.
    pub rays: usize,
    /// Closest hits found (rays that hit something).
    pub hit_rays: usize,
    /// Per-wave32 figures summed in wave order (see [`LayoutRun::wave_figures`]).
    waves: WaveSums,
    /// Seconds spent encoding.
    pub encode_seconds: f64,
    /// Seconds spent tracing (wall clock, all threads).
    pub trace_seconds: f64,
    /// Threads used for tracing.
    pub threads: usize,
}

/// Wave32 sums, added wave by wave in ray order (so the floating-point sums
/// do not depend on how the rays were chunked): RA clocks, lane efficiency,
/// waves, and the rays of the wave not yet complete.
#[derive(Debug, Clone, Default)]
struct WaveSums {
    clocks: f64,
    efficiency: f64,
    waves: usize,
    partial: Vec<RayCounters>,
}

impl WaveSums {
    fn add_wave(&mut self, arch: Arch, w: &[RayCounters]) {
        self.clocks += cost::wave_clocks(arch, w);
        let max = w.iter().map(|c| c.steps).max().unwrap_or(0);
        let sum: u64 = w.iter().map(|c| c.steps).sum();
        self.efficiency += if max == 0 {
            1.0
        } else {
            sum as f64 / (max as f64 * w.len() as f64)
        };
        self.waves += 1;
    }

    fn push(&mut self, arch: Arch, c: RayCounters) {
        self.partial.push(c);
        if self.partial.len() == WAVE_LANES {
            let w = std::mem::take(&mut self.partial);
            self.add_wave(arch, &w);
            self.partial = w;
            self.partial.clear();
        }
    }

    /// The sums with the last, partial wave counted.
    fn finished(&self, arch: Arch) -> WaveSums {
        let mut s = WaveSums {
            clocks: self.clocks,
            efficiency: self.efficiency,
            waves: self.waves,
            partial: Vec::new(),
        };
        if !self.partial.is_empty() {
            s.add_wave(arch, &self.partial);
        }
        s
    }
}

impl LayoutRun {
    /// Mean of a counter per ray.
    pub fn per_ray(&self, f: impl Fn(&RayCounters) -> u64) -> f64 {
        f(&self.totals) as f64 / self.rays.max(1) as f64
    }

    /// Mean RA clocks per ray.
    pub fn ra_clocks_per_ray(&self) -> f64 {
        cost::ray_clocks(self.config.arch, &self.totals) / self.rays.max(1) as f64
    }

    /// Mean RA clocks per wave32 (sum over its lanes), and the SIMD lane
    /// efficiency: mean over waves of (mean lane steps / max lane steps),
    /// since a wave keeps looping until its longest ray is done.
    pub fn wave_figures(&self) -> (f64, f64) {
        let s = self.waves.finished(self.config.arch);
        let n = s.waves.max(1) as f64;
        (s.clocks / n, s.efficiency / n)
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

    /// Rays traced per second per thread (host-dependent: for `--timing`,
    /// never in a report).
    pub fn traced_rays_per_second_per_thread(&self) -> f64 {
        self.rays as f64 / (self.trace_seconds * self.threads as f64).max(1e-12)
    }
}

/// One layout encoded and tracing: feed it the rays a chunk at a time
/// ([`LayoutTracer::trace_chunk`]), in order; [`LayoutTracer::run`] holds
/// the sums so far.
#[derive(Debug)]
pub struct LayoutTracer {
    /// The encoded structure the rays are traced through.
    pub encoded: EncodedBvh,
    run: LayoutRun,
}

impl LayoutTracer {
    /// Encode `scene` in `config`.
    pub fn new(scene: &Scene, config: LayoutConfig) -> Result<LayoutTracer, String> {
        LayoutTracer::from_builds(&MeshBuilds::for_layouts(scene, &[config]), config)
    }

    /// Encode the scene of `builds` in `config`, from the trees built there (several layouts
    /// of one run share them). The encode time counted is this layout's encoding alone.
    pub fn from_builds(
        builds: &MeshBuilds<'_>,
        config: LayoutConfig,
    ) -> Result<LayoutTracer, String> {
        let t0 = Instant::now();
        let e = encode_built(builds, config)?;
        let encode_seconds = t0.elapsed().as_secs_f64();
        let run = LayoutRun {
            config,
            bvh_bytes: e.bytes(),
            nodes: e.counts,
            depth: e.depth,
            sah_cost: (e.sah_cost, e.bvh2_sah_cost),
            totals: RayCounters::default(),
            rays: 0,
            hit_rays: 0,
            waves: WaveSums::default(),
            encode_seconds,
            trace_seconds: 0.0,
            threads: rayon::current_num_threads(),
        };
        Ok(LayoutTracer { encoded: e, run })
    }

    /// Trace the next rays of the set (in parallel) and add them to the
    /// sums; returns each ray's result, in ray order.
    pub fn trace_chunk(&mut self, rays: &[Ray], opts: &TraversalOptions) -> Vec<TraceResult> {
        let t0 = Instant::now();
        let results: Vec<TraceResult> = rays
            .par_iter()
            .with_min_len(256)
            .map(|r| trace(&self.encoded, r, opts))
            .collect();
        self.run.trace_seconds += t0.elapsed().as_secs_f64();
        let arch = self.run.config.arch;
        for r in &results {
            self.run.totals += r.counters;
            self.run.hit_rays += usize::from(r.hit.is_some());
            self.run.waves.push(arch, r.counters);
        }
        self.run.rays += rays.len();
        results
    }

    /// The sums over the rays traced so far.
    pub fn run(&self) -> &LayoutRun {
        &self.run
    }

    /// The sums, giving up the encoded structure.
    pub fn into_run(self) -> LayoutRun {
        self.run
    }
}

/// Encode `scene` in `config` and trace `rays` (in parallel, [`RAY_CHUNK`]
/// at a time); returns the sums and each ray's closest hit.
pub fn run_layout(
    scene: &Scene,
    config: LayoutConfig,
    rays: &[Ray],
    opts: &TraversalOptions,
) -> Result<(LayoutRun, Vec<Option<Hit>>), String> {
    let mut t = LayoutTracer::new(scene, config)?;
    let mut hits = Vec::with_capacity(rays.len());
    for chunk in rays.chunks(RAY_CHUNK) {
        hits.extend(t.trace_chunk(chunk, opts).iter().map(|r| r.hit));
    }
    Ok((t.into_run(), hits))
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

/// The comparison as JSON. `hits` are the closest hits in ray order, which
/// every layout must agree on (each layout's `hits` lists them).
pub fn to_json(
    scene_name: &str,
    scene: &Scene,
    ray_kind: &str,
    runs: &[LayoutRun],
    hits: &[Option<Hit>],
    clock_ghz: f64,
) -> Value {
    serde_json::to_value(json_report(
        scene_name, scene, ray_kind, runs, hits, clock_ghz,
    ))
    .unwrap_or(Value::Null)
}

/// Write the comparison as one line of JSON (what [`to_json`] gives,
/// serialized), streaming the hits so a large ray set is never held as a
/// JSON tree.
pub fn write_json(
    out: &mut impl std::io::Write,
    scene_name: &str,
    scene: &Scene,
    ray_kind: &str,
    runs: &[LayoutRun],
    hits: &[Option<Hit>],
    clock_ghz: f64,
) -> serde_json::Result<()> {
    serde_json::to_writer(
        out,
        &json_report(scene_name, scene, ray_kind, runs, hits, clock_ghz),
    )
}

fn json_report<'a>(
    scene_name: &str,
    scene: &Scene,
    ray_kind: &str,
    runs: &[LayoutRun],
    hits: &'a [Option<Hit>],
    clock_ghz: f64,
) -> JsonReport<'a> {
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
                "rays": r.rays,
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
                // Written ray by ray from `hits` (see `LayoutJson`).
                "hits": Value::Null,
            })
        })
        .collect();
    let top = json!({
        "scene": scene_name,
        "triangles": scene.triangle_count(),
        "instances": scene.instances.len(),
        "ray_set": ray_kind,
        "rays": runs.first().map_or(0, |r| r.rays),
        "clock_ghz": clock_ghz,
        // Written from `layouts` (see `JsonReport`).
        "layouts": Value::Null,
        "ra_rates": cost::ra_rates(),
        "ra_utilization": utilization_json(),
    });
    JsonReport {
        top,
        layouts,
        hits: HitsJson {
            hits,
            two_level: scene.is_two_level(),
        },
    }
}

/// The report's JSON tree without its per-ray parts, which are serialized
/// in place of the `layouts` and `hits` placeholders (keys keep the tree's
/// own order, so the bytes equal serializing the whole tree).
struct JsonReport<'a> {
    top: Value,
    layouts: Vec<Value>,
    hits: HitsJson<'a>,
}

/// One layout's object with its `hits` streamed.
struct LayoutJson<'a>(&'a Value, &'a HitsJson<'a>);

/// The closest hits as a JSON array, one element per ray.
struct HitsJson<'a> {
    hits: &'a [Option<Hit>],
    two_level: bool,
}

/// Serialize the object `v`, writing `with` in place of key `key`.
fn serialize_object_with<S: serde::Serializer>(
    v: &Value,
    key: &str,
    with: &impl serde::Serialize,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let Value::Object(map) = v else {
        return v.serialize(serializer);
    };
    let mut m = serializer.serialize_map(Some(map.len()))?;
    for (k, val) in map {
        if k == key {
            m.serialize_entry(k, with)?;
        } else {
            m.serialize_entry(k, val)?;
        }
    }
    m.end()
}

impl serde::Serialize for JsonReport<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let layouts: Vec<LayoutJson> = self
            .layouts
            .iter()
            .map(|l| LayoutJson(l, &self.hits))
            .collect();
        serialize_object_with(&self.top, "layouts", &layouts, serializer)
    }
}

impl serde::Serialize for LayoutJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_object_with(self.0, "hits", self.1, serializer)
    }
}

impl serde::Serialize for HitsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.hits.len()))?;
        for h in self.hits {
            seq.serialize_element(&hit_json(h, self.two_level))?;
        }
        seq.end()
    }
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

/// How long each layout took on this host: encoding, tracing, and rays
/// traced per second per thread. Host-dependent, so never part of a report.
pub fn timing_text(runs: &[LayoutRun]) -> String {
    let mut s = String::new();
    for r in runs {
        let _ = writeln!(
            s,
            "timing: {}: encoded in {:.3} s, {} rays traced in {:.3} s on {} threads ({} rays/s per thread)",
            r.config.label(),
            r.encode_seconds,
            r.rays,
            r.trace_seconds,
            r.threads,
            fmt_num(r.traced_rays_per_second_per_thread())
        );
    }
    s
}

/// The comparison as a text table with the headline ratios. Everything in
/// it follows from the inputs (host timings are [`timing_text`]'s); the
/// published GPUs' utilization, which no mesh changes, is added when
/// `published` is set.
pub fn to_text(
    scene_name: &str,
    scene: &Scene,
    ray_kind: &str,
    runs: &[LayoutRun],
    clock_ghz: f64,
    published: bool,
) -> String {
    let mut s = String::new();
    let rays = runs.first().map_or(0, |r| r.rays);
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
    let rows = table_rows(clock_ghz);
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
    let bvh4 = find(&|c| c.arch.rtip3() && c.bvh == crate::encode::BvhKind::Bvh4 && !c.obb)
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
    // The caller compares the hits ray by ray (`shadersim rt` refuses to
    // report layouts that disagree); the counts are what is left here.
    let identical = runs.windows(2).all(|w| w[0].hit_rays == w[1].hit_rays);
    let hits = runs.first().map_or(0, |r| r.hit_rays);
    let _ = writeln!(
        s,
        "closest hits: {hits} of {rays} rays hit; {} across layouts",
        if identical { "identical" } else { "DIFFERENT" }
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Ray Accelerator per CU at {clock_ghz} GHz (rates from the models' [ray_accelerator]):"
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
    if !published {
        return s;
    }
    write_published(&mut s);
    s
}

/// A row of the text report's table: its name and each layout's cell.
type Row = (&'static str, Box<dyn Fn(&LayoutRun) -> String>);

/// The rows of the text report's table, in order.
fn table_rows(clock_ghz: f64) -> Vec<Row> {
    vec![
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
    ]
}

/// The published GPU measurements' Ray Accelerator utilization (`--published`).
fn write_published(s: &mut String) {
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
}
