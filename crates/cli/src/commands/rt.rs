//! `shadersim rt`: build, encode and traverse RDNA BVHs over a mesh or scene
//! and compare the layouts side by side.

use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use shadersim_rt::encode::{encode_scene, Arch, BvhKind, LayoutConfig};
use shadersim_rt::ray::Ray;
use shadersim_rt::rays::{diffuse_rays, parse_ray_file, random_rays, Camera, RaySpec};
use shadersim_rt::reference::closest_hit;
use shadersim_rt::report::{run_layout, to_json, to_text, LayoutRun};
use shadersim_rt::scene::load_scene;
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

/// The layouts the options ask for, in report order.
fn layouts(args: &RtOptions) -> Result<Vec<LayoutConfig>, CliError> {
    let mut archs = Vec::new();
    for a in args.arch.split(',').map(str::trim) {
        archs.push(
            Arch::parse(a)
                .ok_or_else(|| usage(format!("unknown --arch `{a}` (rdna2, rdna3, rdna4)")))?,
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
    if obb_choice.as_ref().is_some_and(|o| o.contains(&true)) && !archs.contains(&Arch::Rdna4) {
        return Err(usage("oriented bounding boxes exist only on rdna4"));
    }
    let mut out = Vec::new();
    for &arch in &archs {
        let all = if arch == Arch::Rdna4 {
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
                (_, a, _) if a != Arch::Rdna4 => vec![false],
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
            "no layout fits --arch {} --bvh {}: bvh4x2 and bvh8 are rdna4 only",
            args.arch,
            args.bvh.as_deref().unwrap_or("")
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

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let args = *args.options;
    let configs = layouts(&args)?;
    let spec = RaySpec::parse(&args.rays).map_err(usage)?;
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
    let scene = load_scene(&args.mesh).map_err(CliError::input)?;
    let opts = TraversalOptions {
        stack_entries: args.stack,
        wide_sort: !args.no_wide_sort,
        ..Default::default()
    };
    let bounds = scene.bounds();
    let rays: Vec<Ray> = match &spec {
        RaySpec::Primary { width, height } => {
            Camera::looking_at(&bounds).primary_rays(*width, *height)
        }
        RaySpec::Random(n) => random_rays(&bounds, *n, 0x5EED),
        RaySpec::Diffuse(n) => {
            let e = encode_scene(&scene, configs[0]).map_err(CliError::input)?;
            diffuse_rays(&scene, *n, 0x5EED, &|r| trace(&e, r, &opts).hit)
                .map_err(CliError::input)?
        }
        RaySpec::File(p) => {
            let name = p.display().to_string();
            let text = std::fs::read_to_string(p)
                .map_err(|e| CliError::input(format!("{name}: error: {e}")))?;
            parse_ray_file(&text, &name).map_err(CliError::input)?
        }
    };
    let mut runs: Vec<LayoutRun> = Vec::new();
    for c in &configs {
        runs.push(run_layout(&scene, *c, &rays, &opts).map_err(CliError::input)?);
    }
    if runs.windows(2).any(|w| w[0].hits != w[1].hits) {
        return Err(CliError::input(
            "internal error: layouts disagree on closest hits",
        ));
    }
    if args.verify {
        // Brute force over every triangle is the slow part of a run: spread
        // the rays over all cores; the first mismatch in ray order is the
        // one reported, whatever the thread count.
        let mismatch = rays
            .par_iter()
            .enumerate()
            .map(|(i, r)| (i, closest_hit(&scene, r)))
            .find_first(|(i, want)| runs[0].hits[*i] != *want);
        if let Some((i, want)) = mismatch {
            return Err(CliError::input(format!(
                "verify: ray {i} hit {:?} but brute force finds {want:?}",
                runs[0].hits[i]
            )));
        }
    }
    let name = args.mesh.display().to_string();
    let mut out = std::io::stdout().lock();
    if let Some(kernel) = &args.hints_for {
        let Some(path) = &args.hints_out else {
            return Err(usage("--hints-for needs --hints-out FILE"));
        };
        if runs.len() != 1 {
            return Err(usage(format!(
                "--hints-for needs exactly one layout (choose with --arch and --bvh; these options give {})",
                runs.len()
            )));
        }
        let h = super::rt_hints::traversal_hints(
            kernel,
            &runs[0].per_ray,
            args.hints_wave_size,
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
    }
    if args.format == "json" {
        let v = to_json(&name, &scene, &args.rays, &runs, args.clock_ghz);
        writeln!(
            out,
            "{}",
            serde_json::to_string(&v).map_err(|e| CliError::input(e.to_string()))?
        )?;
    } else {
        write!(
            out,
            "{}",
            to_text(&name, &scene, &args.rays, &runs, args.clock_ghz)
        )?;
        if args.verify {
            writeln!(
                out,
                "verified: every closest hit equals the brute-force test"
            )?;
        }
    }
    if let (Some(base), RaySpec::Primary { width, height }) = (&args.heatmap, &spec) {
        // One colour scale for every layout so the images compare; its top is
        // the 99.5th percentile of all pixels so a few outliers do not darken
        // the rest (brighter pixels saturate).
        let mut all: Vec<u64> = runs
            .iter()
            .flat_map(|r| r.per_ray.iter().map(|c| c.steps))
            .collect();
        all.sort_unstable();
        let max = all[(all.len() - 1) * 995 / 1000].max(1);
        for r in &runs {
            let path = heatmap_path(base, &r.config.label(), runs.len() > 1);
            let steps: Vec<u64> = r.per_ray.iter().map(|c| c.steps).collect();
            shadersim_rt::heatmap::write_png(&path, &steps, *width, *height, max)
                .map_err(|e| CliError::input(format!("{}: error: {e}", path.display())))?;
            if args.format == "text" {
                writeln!(
                    out,
                    "heatmap: {} (steps per pixel, 0..{max})",
                    path.display()
                )?;
            }
        }
    }
    Ok(())
}
