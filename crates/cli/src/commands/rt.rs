//! `shadersim rt`: build, encode and traverse RDNA BVHs over a mesh or scene
//! and compare the layouts side by side.

use crate::error::{CliError, CliResult};
use crate::progress::Progress;
use rayon::prelude::*;
use shadersim_rt::encode::{encode_scene, Arch, BvhKind, LayoutConfig, MeshBuilds};
use shadersim_rt::ray::{Hit, Ray};
use shadersim_rt::rays::{parse_ray_file, Camera, DiffuseRays, RandomRays, RaySpec};
use shadersim_rt::reference::closest_hit;
use shadersim_rt::report::{timing_text, to_text, write_json, LayoutRun, LayoutTracer, RAY_CHUNK};
use shadersim_rt::scene::{load_scene, Scene};
use shadersim_rt::traverse::{trace, TraversalOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `shadersim rt`, boxed so the CLI's command enum stays small.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: Box<RtOptions>,
}

/// The options of `shadersim rt`.
#[derive(Debug, clap::Args)]
pub struct RtOptions {
    /// Mesh (.obj, .ply, .off) or scene (.toml) file.
    pub mesh: PathBuf,
    /// GPU generations, comma-separated: rdna2, rdna3, rdna4.
    #[arg(long, default_value = "rdna3,rdna4")]
    pub arch: String,
    /// Layouts, comma-separated: bvh4, bvh4x2, bvh8 (bvh4x2 and bvh8 are
    /// RDNA 4 only). Default: every layout each generation has.
    #[arg(long)]
    pub bvh: Option<String>,
    /// Oriented bounding boxes on RDNA 4 layouts: on, off, or both (each
    /// layout with and without). Default: BVH8 both ways, others off.
    #[arg(long)]
    pub obb: Option<String>,
    /// fp16 box nodes below the root for 4-wide layouts: on, off or both.
    #[arg(long, default_value = "off")]
    pub fp16: String,
    /// Rays: primary:WxH, random:N, diffuse:N or file:RAYS.txt (six numbers
    /// per line: origin xyz, direction xyz).
    #[arg(long, default_value = "primary:128x128")]
    pub rays: String,
    /// Output format: text or json.
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Write a PNG of traversal steps per pixel (primary rays only); with
    /// several layouts one file per layout, `-LAYOUT` added to the name.
    #[arg(long)]
    pub heatmap: Option<PathBuf>,
    /// LDS short-stack entries per lane (1 to 64).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub stack: u32,
    /// Sort each 4-wide half of a BVH8 node's results on its own instead
    /// of all 8 together.
    #[arg(long)]
    pub no_wide_sort: bool,
    /// Clock for the Ray Accelerator rates, in GHz.
    #[arg(long, default_value_t = 2.5)]
    pub clock_ghz: f64,
    /// Also check every closest hit against a brute-force test of every triangle.
    #[arg(long)]
    pub verify: bool,
    /// Print each layout's encode and trace times and rays/s on this host
    /// to stderr (kept out of the report, which depends only on the inputs).
    #[arg(long)]
    pub timing: bool,
    /// Add to the text report the Ray Accelerator utilization of the
    /// published GPU measurements (seed 000's RX 9070 figure and others),
    /// recomputed from the rate table; it does not depend on the mesh.
    #[arg(long)]
    pub published: bool,
    /// Write a hints file for this traversal kernel (assembly with an
    /// image_bvh*_intersect_ray loop) with the rays' per-wave step counts,
    /// for `analyze KERNEL --hints FILE` (needs one layout and --hints-out).
    #[arg(long, value_name = "KERNEL")]
    pub hints_for: Option<String>,
    /// Where `--hints-for` writes the hints.
    #[arg(long, value_name = "FILE", requires = "hints_for")]
    pub hints_out: Option<PathBuf>,
    /// Lanes per wave the hints deal rays to.
    #[arg(long, default_value_t = 32)]
    pub hints_wave_size: u32,
}

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

fn on_off_both(s: &str, what: &str) -> Result<Vec<bool>, CliError> {
    match s {
        "on" => Ok(vec![true]),
        "off" => Ok(vec![false]),
        "both" => Ok(vec![false, true]),
        _ => Err(usage(format!("--{what} takes on, off or both, not `{s}`"))),
    }
}

/// The generations `--arch` takes, for its message: `rdna2, rdna3, rdna4`.
fn arch_names() -> String {
    Arch::all().map(Arch::name).collect::<Vec<_>>().join(", ")
}

/// The layouts the options ask for, in report order.
fn layouts(args: &RtOptions) -> Result<Vec<LayoutConfig>, CliError> {
    let mut archs = Vec::new();
    for a in args.arch.split(',').map(str::trim) {
        archs.push(
            Arch::parse(a)
                .ok_or_else(|| usage(format!("unknown --arch `{a}` ({})", arch_names())))?,
        );
    }
    let kinds: Option<Vec<BvhKind>> = match &args.bvh {
        None => None,
        Some(list) => Some(
            list.split(',')
                .map(str::trim)
                .map(|b| {
                    BvhKind::parse(b)
                        .ok_or_else(|| usage(format!("unknown --bvh `{b}` (bvh4, bvh4x2, bvh8)")))
                })
                .collect::<Result<_, _>>()?,
        ),
    };
    let fp16 = on_off_both(&args.fp16, "fp16")?;
    let obb_choice = args
        .obb
        .as_deref()
        .map(|o| on_off_both(o, "obb"))
        .transpose()?;
    if obb_choice.as_ref().is_some_and(|o| o.contains(&true)) && !archs.iter().any(|a| a.rtip3()) {
        return Err(usage(format!(
            "oriented bounding boxes exist only on {}",
            Arch::rtip3_names()
        )));
    }
    let mut out = Vec::new();
    for &arch in &archs {
        let all = if arch.rtip3() {
            vec![BvhKind::Bvh4, BvhKind::Bvh4x2, BvhKind::Bvh8]
        } else {
            vec![BvhKind::Bvh4]
        };
        let wanted: Vec<BvhKind> = match &kinds {
            None => all.clone(),
            Some(k) => k.iter().copied().filter(|k| all.contains(k)).collect(),
        };
        for bvh in wanted {
            let obbs = match (&obb_choice, arch, bvh) {
                (_, a, _) if !a.rtip3() => vec![false],
                (Some(o), _, _) => o.clone(),
                (None, _, BvhKind::Bvh8) => vec![false, true],
                (None, _, _) => vec![false],
            };
            let halves = if bvh == BvhKind::Bvh8 {
                vec![false]
            } else {
                fp16.clone()
            };
            for &obb in &obbs {
                for &h in &halves {
                    let c = LayoutConfig {
                        arch,
                        bvh,
                        obb,
                        fp16: h,
                    };
                    c.validate().map_err(usage)?;
                    if !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
    }
    if out.is_empty() {
        return Err(usage(format!(
            "no layout fits --arch {} --bvh {}: bvh4x2 and bvh8 are {} only",
            args.arch,
            args.bvh.as_deref().unwrap_or(""),
            Arch::rtip3_names()
        )));
    }
    Ok(out)
}

fn heatmap_path(base: &Path, label: &str, several: bool) -> PathBuf {
    if !several {
        return base.to_path_buf();
    }
    let stem = base.file_stem().and_then(|s| s.to_str()).unwrap_or("steps");
    let ext = base.extension().and_then(|s| s.to_str()).unwrap_or("png");
    base.with_file_name(format!("{stem}-{}.{ext}", label.replace([' ', '+'], "-")))
}

/// Where the rays come from, generated a chunk at a time so a large set is
/// never held at once (a ray file is read whole: its text is larger).
enum RaySource<'a> {
    Primary {
        camera: Camera,
        width: u32,
        height: u32,
        next: u64,
    },
    Random {
        rays: RandomRays,
        left: u64,
    },
    Diffuse {
        rays: DiffuseRays<'a>,
        left: u64,
    },
    File {
        rays: Vec<Ray>,
        next: usize,
    },
}

impl RaySource<'_> {
    /// Rays in the whole set.
    fn total(&self) -> u64 {
        match self {
            RaySource::Primary { width, height, .. } => *width as u64 * *height as u64,
            RaySource::Random { rays: _, left } | RaySource::Diffuse { rays: _, left } => *left,
            RaySource::File { rays, .. } => rays.len() as u64,
        }
    }

    /// The next at most `n` rays; empty at the end.
    fn next_chunk(
        &mut self,
        n: usize,
        tracer: &(dyn Fn(&Ray) -> Option<Hit> + Sync),
    ) -> Result<Vec<Ray>, CliError> {
        Ok(match self {
            RaySource::Primary {
                camera,
                width,
                height,
                next,
            } => {
                let end = (*next + n as u64).min(*width as u64 * *height as u64);
                let r = camera.primary_ray_range(*width, *height, *next..end);
                *next = end;
                r
            }
            RaySource::Random { rays, left } => {
                let k = (*left).min(n as u64);
                *left -= k;
                rays.take(k as usize).collect()
            }
            RaySource::Diffuse { rays, left } => {
                let k = (*left).min(n as u64);
                *left -= k;
                rays.take(k as usize, tracer).map_err(CliError::input)?
            }
            RaySource::File { rays, next } => {
                let end = (*next + n).min(rays.len());
                let r = rays[*next..end].to_vec();
                *next = end;
                r
            }
        })
    }
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let args = *args.options;
    let configs = layouts(&args)?;
    let spec = RaySpec::parse(&args.rays).map_err(usage)?;
    let mut hint_steps = check_args(&args, &spec, configs.len())?;
    // The mesh readers word a missing file their own way.
    crate::error::require_file(&args.mesh.display().to_string())?;
    let scene = load_scene(&args.mesh).map_err(CliError::input)?;
    let opts = TraversalOptions {
        stack_entries: args.stack,
        wide_sort: !args.no_wide_sort,
        ..Default::default()
    };
    let encoding = Progress::start(Some(configs.len() as u64), "layouts built and encoded");
    // Each (mesh, width) is built once for every layout that shares it, then the layouts
    // are encoded side by side.
    let builds = MeshBuilds::for_layouts(&scene, &configs);
    let encode = |c: &LayoutConfig| {
        let t = LayoutTracer::from_builds(&builds, *c);
        encoding.inc();
        t
    };
    // One layout stays on this thread (a rayon worker's allocations go to another malloc
    // arena, about 2% more work for nothing).
    let tracers: Result<Vec<LayoutTracer>, String> = if configs.len() == 1 {
        configs.iter().map(encode).collect()
    } else {
        configs.par_iter().map(encode).collect()
    };
    let mut tracers = tracers.map_err(CliError::input)?;
    drop(builds);
    drop(encoding);
    let mut source = ray_source(&spec, &scene)?;
    // Diffuse rays leave the hits the first layout finds (its own copy: the
    // tracers are busy with the rays).
    let bounce_bvh = match spec {
        RaySpec::Diffuse(_) => Some(encode_scene(&scene, configs[0]).map_err(CliError::input)?),
        _ => None,
    };
    let bounce_tracer = |r: &Ray| bounce_bvh.as_ref().and_then(|e| trace(e, r, &opts).hit);
    let total = source.total();
    let layouts_n = tracers.len() as u64;
    let progress = Progress::start(
        Some(total * (layouts_n + u64::from(args.verify))),
        if args.verify {
            "rays traced and verified"
        } else {
            "rays traced"
        },
    );
    // Only what the outputs need is kept per ray: the hits for JSON (one
    // list: the layouts must agree), steps for heatmaps, per-wave figures
    // for hints; everything else is summed chunk by chunk.
    let json = args.format == "json";
    let mut all_hits: Vec<Option<Hit>> = Vec::new();
    let mut steps: Vec<Vec<u32>> = if args.heatmap.is_some() {
        vec![Vec::with_capacity(total as usize); tracers.len()]
    } else {
        Vec::new()
    };
    let mut done: usize = 0;
    loop {
        let rays = source.next_chunk(RAY_CHUNK, &bounce_tracer)?;
        if rays.is_empty() {
            break;
        }
        let mut hits: Vec<Option<Hit>> = Vec::new();
        for (li, t) in tracers.iter_mut().enumerate() {
            let results = t.trace_chunk(&rays, &opts);
            if li == 0 {
                hits = results.iter().map(|r| r.hit).collect();
                if let Some(h) = hint_steps.as_mut() {
                    results.iter().for_each(|r| h.push(&r.counters));
                }
            } else if results.iter().zip(&hits).any(|(r, h)| r.hit != *h) {
                return Err(CliError::input(
                    "internal error: layouts disagree on closest hits",
                ));
            }
            if let Some(s) = steps.get_mut(li) {
                s.extend(
                    results
                        .iter()
                        .map(|r| u32::try_from(r.counters.steps).unwrap_or(u32::MAX)),
                );
            }
            progress.inc_by(rays.len() as u64);
        }
        if args.verify {
            verify_chunk(&scene, &rays, &hits, done, &progress)?;
        }
        if json {
            all_hits.extend(hits);
        }
        done += rays.len();
    }
    drop(progress);
    let runs: Vec<LayoutRun> = tracers.into_iter().map(LayoutTracer::into_run).collect();
    let name = args.mesh.display().to_string();
    let mut out = std::io::stdout().lock();
    if let (Some(kernel), Some(path), Some(h)) = (&args.hints_for, &args.hints_out, &hint_steps) {
        write_hints(&mut out, &args, kernel, path, h, &name, &runs)?;
    }
    if json {
        let mut w = std::io::BufWriter::new(&mut out);
        write_json(
            &mut w,
            &name,
            &scene,
            &args.rays,
            &runs,
            &all_hits,
            args.clock_ghz,
        )
        .map_err(|e| CliError::input(e.to_string()))?;
        writeln!(w)?;
        w.flush()?;
    } else {
        write!(
            out,
            "{}",
            to_text(
                &name,
                &scene,
                &args.rays,
                &runs,
                args.clock_ghz,
                args.published
            )
        )?;
        if args.verify {
            writeln!(
                out,
                "verified: every closest hit equals the brute-force test"
            )?;
        }
    }
    if args.timing {
        eprint!("{}", timing_text(&runs));
    }
    if let (Some(base), RaySpec::Primary { width, height }) = (&args.heatmap, &spec) {
        let size = (*width, *height);
        write_heatmaps(&mut out, base, &runs, &steps, size, args.format == "text")?;
    }
    Ok(())
}

/// The checks of the options that need no file: usage errors (exit 2), and
/// the per-wave step counter `--hints-for` fills.
fn check_args(
    args: &RtOptions,
    spec: &RaySpec,
    layouts: usize,
) -> Result<Option<super::rt_hints::WaveSteps>, CliError> {
    if args.format != "text" && args.format != "json" {
        return Err(usage(format!(
            "--format takes text or json, not `{}`",
            args.format
        )));
    }
    if args.heatmap.is_some() && !matches!(spec, RaySpec::Primary { .. }) {
        return Err(usage("--heatmap needs primary rays (--rays primary:WxH)"));
    }
    if !(args.clock_ghz > 0.0 && args.clock_ghz.is_finite()) {
        return Err(usage("--clock-ghz must be a positive number"));
    }
    Ok(match &args.hints_for {
        None => None,
        Some(_) => {
            if args.hints_out.is_none() {
                return Err(usage("--hints-for needs --hints-out FILE"));
            }
            if layouts != 1 {
                return Err(usage(format!(
                    "--hints-for needs exactly one layout (choose with --arch and --bvh; these options give {})",
                    layouts
                )));
            }
            Some(super::rt_hints::WaveSteps::new(args.hints_wave_size)?)
        }
    })
}

/// The ray set `spec` names over `scene`.
fn ray_source<'a>(spec: &RaySpec, scene: &'a Scene) -> Result<RaySource<'a>, CliError> {
    Ok(match spec {
        RaySpec::Primary { width, height } => RaySource::Primary {
            camera: Camera::looking_at(&scene.bounds()),
            width: *width,
            height: *height,
            next: 0,
        },
        RaySpec::Random(n) => RaySource::Random {
            rays: RandomRays::new(&scene.bounds(), 0x5EED),
            left: u64::from(*n),
        },
        RaySpec::Diffuse(n) => RaySource::Diffuse {
            rays: DiffuseRays::new(scene, 0x5EED, *n),
            left: u64::from(*n),
        },
        RaySpec::File(p) => {
            let name = p.display().to_string();
            let text =
                std::fs::read_to_string(p).map_err(|e| crate::error::cannot_read(&name, &e))?;
            RaySource::File {
                rays: parse_ray_file(&text, &name).map_err(CliError::input)?,
                next: 0,
            }
        }
    })
}

/// Check a chunk's closest hits against a brute-force test of every
/// triangle; `done` rays came before the chunk.
fn verify_chunk(
    scene: &Scene,
    rays: &[Ray],
    hits: &[Option<Hit>],
    done: usize,
    progress: &Progress,
) -> CliResult {
    // Brute force over every triangle is the slow part of a run: spread
    // the rays over all cores, a few hundred at a time for the
    // progress bar; the first mismatch in ray order is the one
    // reported, whatever the thread count.
    const VERIFY_BATCH: usize = 256;
    let mismatch = rays
        .par_chunks(VERIFY_BATCH)
        .enumerate()
        .map(|(b, batch)| {
            let bad = batch.iter().enumerate().find_map(|(j, r)| {
                let i = b * VERIFY_BATCH + j;
                let want = closest_hit(scene, r);
                (hits[i] != want).then_some((i, want))
            });
            progress.inc_by(batch.len() as u64);
            bad
        })
        .find_first(Option::is_some)
        .flatten();
    if let Some((i, want)) = mismatch {
        return Err(CliError::input(format!(
            "verify: ray {} hit {:?} but brute force finds {want:?}",
            done + i,
            hits[i]
        )));
    }
    Ok(())
}

/// Write the `--hints-for` file from the first layout's per-wave steps and
/// say what it holds.
fn write_hints(
    out: &mut impl Write,
    args: &RtOptions,
    kernel: &str,
    path: &Path,
    steps: &super::rt_hints::WaveSteps,
    name: &str,
    runs: &[LayoutRun],
) -> CliResult {
    let h = super::rt_hints::traversal_hints(
        kernel,
        steps,
        &format!("{name} --rays {}", args.rays),
        &runs[0].config.label(),
    )?;
    std::fs::write(path, &h.text)
        .map_err(|e| CliError::input(format!("{}: error: {e}", path.display())))?;
    writeln!(
        out,
        "hints: {} ({} waves of {}, {:.1} loop iterations per wave, {:.0}% of lanes active, {:.0}% box nodes)",
        path.display(),
        h.waves,
        args.hints_wave_size,
        h.mean_iterations,
        100.0 * h.active_lanes,
        100.0 * h.box_fraction
    )?;
    Ok(())
}

/// Write one steps-per-pixel PNG per layout (`--heatmap`), naming each in
/// the text report.
fn write_heatmaps(
    out: &mut impl Write,
    base: &Path,
    runs: &[LayoutRun],
    steps: &[Vec<u32>],
    (width, height): (u32, u32),
    text: bool,
) -> CliResult {
    // One colour scale for every layout so the images compare; its top is
    // the 99.5th percentile of all pixels so a few outliers do not darken
    // the rest (brighter pixels saturate). Counted in a histogram of
    // step counts: the same order statistic as sorting every pixel.
    let mut histogram: std::collections::BTreeMap<u32, u64> = Default::default();
    for s in steps.iter().flatten() {
        *histogram.entry(*s).or_default() += 1;
    }
    let pixels: u64 = histogram.values().sum();
    let rank = (pixels - 1) * 995 / 1000;
    let mut seen = 0u64;
    let mut max = 0u64;
    for (&s, &n) in &histogram {
        seen += n;
        if seen > rank {
            max = u64::from(s);
            break;
        }
    }
    let max = max.max(1);
    for (r, steps) in runs.iter().zip(steps) {
        let path = heatmap_path(base, &r.config.label(), runs.len() > 1);
        shadersim_rt::heatmap::write_png(&path, steps, width, height, max)
            .map_err(|e| CliError::input(format!("{}: error: {e}", path.display())))?;
        if text {
            writeln!(
                out,
                "heatmap: {} (steps per pixel, 0..{max})",
                path.display()
            )?;
        }
    }
    Ok(())
}
