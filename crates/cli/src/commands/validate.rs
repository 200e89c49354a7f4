//! `shadersim validate [--arch X,...] [--format text|json] [--points FILE|DIR]`: run every published
//! measurement of the points files through the ordinary `analyze` path (read the listing, pick the
//! model, apply the hints, `Simulation::prepare`, run) and print measured, simulated and error.
//! The arithmetic and the table are `shadersim-validate`'s.

use crate::commands::prepare::{analyse, load, prepare_loaded_text};
use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use shadersim_validate::{PointsFile, RunOutcome};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output formats of `validate`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// The table and the summaries.
    Text,
    /// The JSON report of cli.md.
    Json,
}

/// Arguments of `shadersim validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the points of these models (comma-separated `--arch` names).
    #[arg(long, value_delimiter = ',')]
    pub arch: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// The points file, or a folder of them (default: the folder `validation/points/` here, else
    /// the one in the source tree the binary was built from; with `--suite kernel-time`,
    /// `validation/kernel_times.toml`).
    #[arg(long)]
    pub points: Option<String>,
    /// Which measurements: `points` (microbenchmark rates and latencies) or `kernel-time`
    /// (measured durations of whole kernels, predicted from their launch).
    #[arg(long, value_enum, default_value = "points")]
    pub suite: Suite,
}

/// The validation suites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// Published microbenchmark measurements (`validation/points.toml`).
    Points,
    /// Published whole-kernel durations (`validation/kernel_times.toml`).
    KernelTime,
}

/// The points to read: `--points` (a file, or a folder of them), else `validation/points/` here,
/// else the source tree's.
fn points_path(arg: Option<&str>) -> PathBuf {
    if let Some(p) = arg {
        return PathBuf::from(p);
    }
    let here = PathBuf::from("validation/points");
    if here.is_dir() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/points")
}

/// Read the points: one file, or every `*.toml` of a folder in name order (one per model), each
/// parsed on its own (errors name the file, line and column) and then joined. Programs are
/// relative to the file, so to the folder.
fn read_points(path: &Path) -> Result<(PointsFile, PathBuf), CliError> {
    let shown = path.display().to_string();
    let one = |file: &Path, whole: bool| -> Result<PointsFile, CliError> {
        let shown = file.display().to_string();
        let text =
            std::fs::read_to_string(file).map_err(|e| crate::error::cannot_read(&shown, &e))?;
        let parsed = if whole {
            PointsFile::parse(&text)
        } else {
            PointsFile::parse_alone(&text)
        };
        parsed.map_err(|e| match e {
            shadersim_validate::ValidateError::Parse { .. } => {
                CliError::Input(format!("{shown}:{e}"))
            }
            other => CliError::Input(format!("{shown}: error: {other}")),
        })
    };
    if !path.is_dir() {
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        return Ok((one(path, true)?, dir));
    }
    let entries = std::fs::read_dir(path).map_err(|e| crate::error::cannot_read(&shown, &e))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(CliError::Input(format!(
            "{shown}: error: no points files (*.toml) in this folder"
        )));
    }
    let parsed = files
        .iter()
        .map(|f| one(f, false))
        .collect::<Result<Vec<_>, _>>()?;
    let joined =
        PointsFile::join(parsed).map_err(|e| CliError::Input(format!("{shown}: error: {e}")))?;
    Ok((joined, path.to_path_buf()))
}

/// Simulate one point's two runs.
fn run_point(
    dir: &Path,
    p: &shadersim_validate::Point,
    plans: &[&shadersim_validate::RunPlan],
) -> Result<[RunOutcome; 2], CliError> {
    let program = dir.join(&p.program);
    let program = program.to_string_lossy();
    let loaded = load(&program, Some(&p.model), p.function.as_deref())?;
    let mut out = [RunOutcome {
        clocks: 0,
        waves: 0,
    }; 2];
    for (slot, plan) in out.iter_mut().zip(plans) {
        let name = format!("point `{}` hints ({} iterations)", p.id, plan.iterations);
        let prepared = prepare_loaded_text(&loaded, Some((&name, &plan.hints)), &plan.sets)?;
        let analysis = analyse(&prepared, false)?;
        *slot = RunOutcome {
            clocks: analysis.stats.clocks,
            waves: analysis.stats.waves,
        };
    }
    Ok(out)
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    if args.suite == Suite::KernelTime {
        if !args.arch.is_empty() {
            return Err(CliError::Usage(
                "--arch selects points of the `points` suite; the kernel-time points name their GPU".into(),
            ));
        }
        return crate::commands::validate_time::run(
            args.points.as_deref(),
            matches!(args.format, Format::Json),
        );
    }
    let path = points_path(args.points.as_deref());
    let shown = path.display().to_string();
    let (mut file, dir) = read_points(&path)?;
    if !args.arch.is_empty() {
        let unknown: Vec<&String> = args
            .arch
            .iter()
            .filter(|a| !file.point.iter().any(|p| &p.model == *a))
            .collect();
        if !unknown.is_empty() {
            let mut models: Vec<&str> = file.point.iter().map(|p| p.model.as_str()).collect();
            models.sort_unstable();
            models.dedup();
            return Err(CliError::Usage(format!(
                "--arch: no points for {}; models with points: {}",
                unknown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                models.join(", ")
            )));
        }
        // A ratio keeps its reference point (it is run, and shown, too).
        let keep: std::collections::BTreeSet<String> = file
            .point
            .iter()
            .filter(|p| args.arch.contains(&p.model))
            .flat_map(|p| std::iter::once(p.id.clone()).chain(p.relative_to.clone()))
            .collect();
        file.point.retain(|p| keep.contains(&p.id));
        file.gap.retain(|g| args.arch.contains(&g.model));
    }
    let plans = file.plans();
    let progress = crate::progress::Progress::start(None, "simulating the validation points");
    let outcomes: Vec<Result<[RunOutcome; 2], CliError>> = file
        .point
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let mine: Vec<&shadersim_validate::RunPlan> =
                plans.iter().filter(|r| r.point == i).collect();
            run_point(&dir, p, &mine)
        })
        .collect();
    drop(progress);
    // A point whose program or hints are wrong is bad input: the data file must be fixed.
    let outcomes: Vec<Option<[RunOutcome; 2]>> = outcomes
        .into_iter()
        .zip(&file.point)
        .map(|(o, p)| {
            o.map(Some).map_err(|e| {
                let why = match e {
                    CliError::Input(m) | CliError::Usage(m) => m,
                    CliError::Io(e) => e.to_string(),
                };
                CliError::Input(format!("{shown}: point `{}`: {why}", p.id))
            })
        })
        .collect::<Result<_, _>>()?;
    let report = shadersim_validate::report(&file, &outcomes);
    let out = match args.format {
        Format::Text => report.to_text(),
        Format::Json => report.to_json() + "\n",
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    Ok(())
}
