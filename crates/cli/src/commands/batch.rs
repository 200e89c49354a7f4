//! `shadersim batch PATH... [-o results.jsonl]`: analyze every program of a
//! corpus, one JSON line per program; `shadersim batch --diff BEFORE AFTER`:
//! compare two such runs the way Mesa's shader-db report does.
//!
//! Each program goes through the same library calls as `analyze` (read the
//! file, pick the model, parse the hints, `Simulation::prepare`, run,
//! `AnalyzeReport::new`), so a line carries exactly the numbers
//! `analyze --format json` prints for that program. Files are processed in
//! parallel (rayon) in ordered chunks: each chunk's lines are written in
//! input order before the next chunk starts, so the output is deterministic
//! and memory does not grow with the corpus.

use crate::commands::prepare::{analyse, model_of, prepare_program, read_hints};
use crate::error::{CliError, CliResult};
use crate::input::parse_sets;
use rayon::prelude::*;
use serde_json::{json, Value};
use shadersim_arch::ArchSpec;
use shadersim_asm::ProgramFile;
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_report::numbers;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::batch_files::Job;

/// Output formats of `batch --diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// A shader-db style table.
    Text,
    /// One JSON object, for scripts.
    Json,
}

/// Arguments of `shadersim batch`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files and directories to analyze (directories are walked recursively
    /// for .s, .asm, .dis and .txt files, in sorted order).
    #[arg(required_unless_present = "diff")]
    pub paths: Vec<PathBuf>,
    /// Architecture model for every program (default: each file's GPU, else `gcn`).
    #[arg(long)]
    pub arch: Option<String>,
    /// Directory of hints files: `D/REL.FUNCTION.toml` or `D/REL.toml`, where
    /// REL is the program file's path below the PATH it was found under,
    /// without its extension.
    #[arg(long, value_name = "D")]
    pub hints_dir: Option<PathBuf>,
    /// Override one model parameter for every program, e.g. `--set vmem_latency=640` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Also run the latency-tolerance search (with `analyze`'s default budget: at
    /// most three runs' worth of work per program).
    #[arg(long)]
    pub latency_tolerance: bool,
    /// Write the JSON lines here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Compare two result files instead of analyzing: BEFORE AFTER.
    #[arg(long, num_args = 2, value_names = ["BEFORE", "AFTER"], conflicts_with_all = ["paths", "arch", "hints_dir", "set", "latency_tolerance"])]
    pub diff: Option<Vec<PathBuf>>,
    /// Format of the `--diff` summary.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DiffFormat,
    /// Programs listed as most helped and most hurt per metric in `--diff`.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub top: usize,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    if args.jobs == Some(0) {
        return Err(CliError::Usage("--jobs must be at least 1".into()));
    }
    let pool = super::worker_pool(args.jobs)?;
    match &args.diff {
        Some(files) => {
            let text = diff_files(&files[0], &files[1], args.format, args.top)?;
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(())
        }
        None => analyze_corpus(&args, &pool),
    }
}

/// What every program of the run shares: the model chosen with `--arch`
/// (with `--set` applied), the `--set` pairs, and where hints live.
struct BatchConfig {
    chosen: Option<ArchSpec>,
    sets: Vec<(String, String)>,
    hints_dir: Option<PathBuf>,
    latency_tolerance: bool,
}

/// What one file gives: its JSON lines, and notes for standard error.
struct FileResult {
    lines: Vec<String>,
    notes: Vec<String>,
}

fn analyze_corpus(args: &Args, pool: &rayon::ThreadPool) -> CliResult {
    let sets = parse_sets(&args.set)?;
    if let Some((k, _)) = sets
        .iter()
        .find(|(k, _)| DISPATCH_KEYS.contains(&k.as_str()))
    {
        return Err(CliError::Usage(format!(
            "--set {k}: batch takes model parameters only; put [dispatch] keys in the hints files (--hints-dir)"
        )));
    }
    let chosen = match &args.arch {
        Some(a) => {
            let mut spec = crate::commands::prepare::load_arch(a)?;
            spec.set_all(&sets)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            Some(spec)
        }
        None => {
            // Check the keys once, up front, so a typo is a usage error and
            // not one error line per program: a key must suit at least one
            // built-in model (each program then applies it to its own).
            let models: Vec<ArchSpec> = ArchSpec::builtin_list()
                .into_iter()
                .filter_map(|(name, _)| ArchSpec::builtin(&name).ok())
                .collect();
            for (k, v) in &sets {
                let mut first_error = None;
                for model in &models {
                    match model.clone().set(k, v) {
                        Ok(()) => {
                            first_error = None;
                            break;
                        }
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
                if let Some(e) = first_error {
                    return Err(CliError::Usage(e.to_string()));
                }
            }
            None
        }
    };
    let config = BatchConfig {
        chosen,
        sets,
        hints_dir: args.hints_dir.clone(),
        latency_tolerance: args.latency_tolerance,
    };
    let jobs = super::batch_files::collect_jobs(&args.paths)?;
    let mut out = crate::output::open(args.output.as_deref())?;
    let progress = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} files, eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar
    });
    // Workers take files in input order (par_bridge pulls from one shared
    // iterator) and send each file's lines as soon as they are made; this
    // thread writes them in input order as soon as every earlier file's
    // lines are written. A slow file holds back only the lines after it,
    // the output stays deterministic, and it streams.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FileResult)>();
    let written = std::thread::scope(|scope| -> CliResult {
        let (jobs, config, stop) = (&jobs, &config, &stop);
        scope.spawn(move || {
            pool.install(|| {
                jobs.iter()
                    .enumerate()
                    .par_bridge()
                    .for_each_with(tx, |tx, (i, job)| {
                        if stop.load(std::sync::atomic::Ordering::Relaxed) {
                            return;
                        }
                        let _ = tx.send((i, analyze_file(job, config)));
                    })
            })
        });
        let mut pending: std::collections::BTreeMap<usize, FileResult> = Default::default();
        let mut next = 0;
        let mut write_ready = |pending: &mut std::collections::BTreeMap<usize, FileResult>,
                               next: &mut usize|
         -> CliResult {
            while let Some(result) = pending.remove(next) {
                for note in &result.notes {
                    eprintln!("{note}");
                }
                for line in &result.lines {
                    out.write_all(line.as_bytes())?;
                    out.write_all(b"\n")?;
                }
                *next += 1;
            }
            out.flush()?;
            Ok(())
        };
        for (i, result) in rx {
            if let Some(bar) = &progress {
                bar.inc(1);
            }
            pending.insert(i, result);
            if let Err(e) = write_ready(&mut pending, &mut next) {
                // A closed pipe or a full disk: the workers stop taking files.
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    written
}

// `[dispatch]` keys `analyze --set` accepts; batch refuses them (they
// differ per program, so they belong in the hints files).
use super::analyze::DISPATCH_KEYS;

fn error_line(file: &str, function: Option<&str>, error: &str) -> String {
    json!({ "file": file, "function": function, "error": error }).to_string()
}

/// Every line of one file: one per program, or one error line.
fn analyze_file(job: &Job, config: &BatchConfig) -> FileResult {
    let name = job.path.display().to_string();
    let fail = |message: String| FileResult {
        lines: vec![error_line(&name, None, &message)],
        notes: Vec::new(),
    };
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => return fail(crate::error::cannot_read(&name, &e).message()),
    };
    // The same reading path as `analyze` (TeraScale reader, the model's GPU
    // for a file that names none, the driver's statistics beside it).
    let gpu = config.chosen.as_ref().map(|a| a.isa.name.clone());
    let (crate::input::Listing { file, triton, .. }, _) =
        match crate::input::parse_listing(&name, Some(&name), &bytes, gpu.as_deref()) {
            Ok(f) => f,
            Err(e) => return fail(e.message()),
        };
    if file.programs.is_empty() {
        return fail(format!("{name}: error: no program found"));
    }
    let warnings = file.formatted_warnings();
    // clang's copy of a kernel's body is the kernel again, not a program
    // of its own: analyzing it would count the kernel twice.
    let names: std::collections::HashSet<&str> =
        file.programs.iter().map(|p| p.name.as_str()).collect();
    let mut notes = Vec::new();
    let programs: Vec<usize> = (0..file.programs.len())
        .filter(|&i| {
            let p = &file.programs[i].name;
            match p.strip_prefix(crate::input::CLANG_KERNEL_COPY) {
                Some(kernel) if names.contains(kernel) => {
                    notes.push(format!(
                        "{name}: note: skipped `{p}`: clang's copy of kernel `{kernel}`'s body"
                    ));
                    false
                }
                _ => true,
            }
        })
        .collect();
    let lines = programs
        .par_iter()
        .map(
            |&i| match analyze_program(job, &file, i, config, triton.as_ref()) {
                Ok(mut line) => {
                    line["warnings"] = json!(warnings);
                    line.to_string()
                }
                Err(e) => error_line(&name, Some(&file.programs[i].name), &e),
            },
        )
        .collect();
    FileResult { lines, notes }
}

/// The hints file for a program, if `--hints-dir` has one.
fn hints_path(job: &Job, function: &str, config: &BatchConfig) -> Option<PathBuf> {
    let dir = config.hints_dir.as_ref()?;
    let rel = job.path.strip_prefix(&job.root).unwrap_or(&job.path);
    let stem = dir.join(rel).with_extension("");
    let stem = stem.display().to_string();
    [
        PathBuf::from(format!("{stem}.{function}.toml")),
        PathBuf::from(format!("{stem}.toml")),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// Simulate one program as `analyze --format json` would (without the
/// latency search unless asked), through the same preparing path, and keep
/// the report's summary keys.
fn analyze_program(
    job: &Job,
    file: &ProgramFile,
    index: usize,
    config: &BatchConfig,
    triton: Option<&crate::triton::TritonLaunch>,
) -> Result<Value, String> {
    let program = &file.programs[index];
    // `--set` is already in the chosen model; a program's own model takes it here.
    let (arch, sets) = match &config.chosen {
        Some(a) => (a.clone(), &[][..]),
        None => (
            model_of(program).map_err(|e| e.message())?,
            &config.sets[..],
        ),
    };
    let hints_file = hints_path(job, &program.name, config);
    let hints = hints_file
        .as_ref()
        .map(|p| read_hints(&p.display().to_string()))
        .transpose()
        .map_err(|e| e.message())?;
    let prepared = prepare_program(
        file,
        index,
        arch,
        hints.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
        sets,
        triton,
    )
    .map_err(|e| e.message())?;
    let analysis = analyse(&prepared, config.latency_tolerance).map_err(|e| e.message())?;
    let report = AnalyzeReport::new(&file.file_name, &prepared.sim, &analysis);
    Ok(summary(&report, hints_file.as_deref()))
}

/// The summary keys of the analyze report (everything but the listing and
/// the per-resource bound details), plus `function`, `error` and `hints`.
fn summary(r: &AnalyzeReport, hints: Option<&Path>) -> Value {
    json!({
        "file": r.file,
        "function": r.program,
        "error": null,
        "hints": hints.map(|p| p.display().to_string()),
        "arch": r.arch,
        "isa": r.isa,
        "stage": r.stage,
        "waves": r.waves,
        "workgroups": r.workgroups,
        "clocks": r.clocks,
        "wave_clocks": r.wave_clocks,
        "throughput": value(&r.throughput),
        "utilization": value(&r.utilization),
        "starve_rate": r.starve_rate,
        "stall_rate": r.stall_rate,
        "occupancy": value(&r.occupancy),
        "instruction_count": r.instructions.len(),
        "issued": value(&r.issued),
        "free_ops": r.free_ops,
        "l2_requests_per_wave": r.l2_requests_per_wave,
        "l2_bytes_per_wave": r.l2_bytes_per_wave,
        "bottleneck": {
            "kind": r.bottleneck.kind,
            "statement": r.bottleneck.statement,
            "clocks_per_wave": r.bottleneck.clocks_per_wave,
        },
        "latency_tolerance": value(&r.latency_tolerance),
        "notes": r.notes,
    })
}

/// A report part as JSON (`null` if it cannot be represented, which the
/// report's plain numbers and strings never are).
fn value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

// ---------------------------------------------------------------- diff ----

/// A metric `--diff` compares, and which direction is better.
struct Metric {
    /// Name in the summary.
    name: &'static str,
    /// Where it is in a line.
    pointer: &'static str,
    /// Whether a smaller value helps.
    lower_is_better: bool,
    /// How the summary prints a value (the report's shared formats).
    show: fn(f64) -> String,
}

const METRICS: &[Metric] = &[
    Metric {
        name: "clocks per wave",
        pointer: "/wave_clocks",
        lower_is_better: true,
        show: numbers::clocks,
    },
    Metric {
        name: "throughput",
        pointer: "/throughput/per_clock",
        lower_is_better: false,
        show: numbers::significant,
    },
    Metric {
        name: "occupancy",
        pointer: "/occupancy/waves_per_simd",
        lower_is_better: false,
        show: numbers::amount,
    },
    Metric {
        name: "instructions",
        pointer: "/instruction_count",
        lower_is_better: true,
        show: numbers::amount,
    },
];

/// One program's metric values (in `METRICS` order), or its error.
type Record = Result<Vec<f64>, String>;

/// The lines of one results file, keyed by (file, function), in file order.
struct Results {
    order: Vec<(String, String)>,
    records: HashMap<(String, String), Record>,
}

fn read_results(path: &Path) -> Result<Results, CliError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| crate::error::cannot_read(&shown, &e))?;
    let mut results = Results {
        order: Vec::new(),
        records: HashMap::new(),
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |msg: &str| CliError::Input(format!("{shown}:{}: error: {msg}", i + 1));
        let v: Value =
            serde_json::from_str(line).map_err(|e| at(&format!("not a JSON line: {e}")))?;
        let file = v["file"]
            .as_str()
            .ok_or_else(|| at("no `file` string"))?
            .to_string();
        let function = v["function"].as_str().unwrap_or("").to_string();
        let record = match v["error"].as_str() {
            Some(e) => Err(e.to_string()),
            None => METRICS
                .iter()
                .map(|m| {
                    v.pointer(m.pointer)
                        .and_then(Value::as_f64)
                        .ok_or_else(|| at(&format!("no number at `{}`", m.pointer)))
                })
                .collect::<Result<Vec<f64>, CliError>>()
                .map(Ok)?,
        };
        let key = (file, function);
        if results.records.insert(key.clone(), record).is_some() {
            return Err(at(&format!("`{}` `{}` appears twice", key.0, key.1)));
        }
        results.order.push(key);
    }
    Ok(results)
}

/// One program's change in one metric.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Change {
    /// Program file.
    pub file: String,
    /// Program name.
    pub function: String,
    /// Value before.
    pub before: f64,
    /// Value after.
    pub after: f64,
    /// (after - before) / before in percent (`null` when before is 0).
    pub change_percent: Option<f64>,
}

/// The comparison of one metric over the programs in both runs.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MetricDiff {
    /// Metric name.
    pub metric: String,
    /// `lower` or `higher`: which direction helps.
    pub better: String,
    /// Programs whose value moved in the better direction.
    pub helped: usize,
    /// Programs whose value moved in the worse direction.
    pub hurt: usize,
    /// Programs whose value did not move.
    pub unchanged: usize,
    /// Sum over the compared programs, before.
    pub total_before: f64,
    /// Sum over the compared programs, after.
    pub total_after: f64,
    /// Change of the total in percent (`null` when the total before is 0).
    pub total_change_percent: Option<f64>,
    /// The most helped programs, most helped first.
    pub most_helped: Vec<Change>,
    /// The most hurt programs, most hurt first.
    pub most_hurt: Vec<Change>,
}

/// The whole `--diff` result.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Diff {
    /// Programs with results in both runs.
    pub compared: usize,
    /// Programs only in the first run.
    pub only_before: usize,
    /// Programs only in the second run.
    pub only_after: usize,
    /// Programs in both runs with an error in either (not compared).
    pub errors: usize,
    /// One entry per metric.
    pub metrics: Vec<MetricDiff>,
}

fn percent(before: f64, after: f64) -> Option<f64> {
    (before != 0.0).then(|| (after - before) / before.abs() * 100.0)
}

/// Compare two runs.
fn diff(before: &Results, after: &Results, top: usize) -> Diff {
    let mut compared = Vec::new();
    let mut errors = 0;
    let mut only_before = 0;
    for key in &before.order {
        match (&before.records[key], after.records.get(key)) {
            (_, None) => only_before += 1,
            (Ok(b), Some(Ok(a))) => compared.push((key, b, a)),
            _ => errors += 1,
        }
    }
    let only_after = after
        .order
        .iter()
        .filter(|k| !before.records.contains_key(*k))
        .count();
    let metrics = METRICS
        .iter()
        .enumerate()
        .map(|(mi, m)| {
            let mut helped = Vec::new();
            let mut hurt = Vec::new();
            let mut unchanged = 0;
            let (mut total_before, mut total_after) = (0.0, 0.0);
            for ((file, function), b, a) in &compared {
                let (b, a) = (b[mi], a[mi]);
                total_before += b;
                total_after += a;
                let change = Change {
                    file: file.clone(),
                    function: function.clone(),
                    before: b,
                    after: a,
                    change_percent: percent(b, a),
                };
                if a == b {
                    unchanged += 1;
                } else if (a < b) == m.lower_is_better {
                    helped.push(change);
                } else {
                    hurt.push(change);
                }
            }
            // Largest relative move first; a move from 0 counts as infinite.
            let size = |c: &Change| c.change_percent.map_or(f64::INFINITY, f64::abs);
            let by_size = |x: &Change, y: &Change| size(y).total_cmp(&size(x));
            helped.sort_by(by_size);
            hurt.sort_by(by_size);
            let (n_helped, n_hurt) = (helped.len(), hurt.len());
            helped.truncate(top);
            hurt.truncate(top);
            MetricDiff {
                metric: m.name.to_string(),
                better: if m.lower_is_better { "lower" } else { "higher" }.to_string(),
                helped: n_helped,
                hurt: n_hurt,
                unchanged,
                total_before,
                total_after,
                total_change_percent: percent(total_before, total_after),
                most_helped: helped,
                most_hurt: hurt,
            }
        })
        .collect();
    Diff {
        compared: compared.len(),
        only_before,
        only_after,
        errors,
        metrics,
    }
}

fn fmt_percent(p: Option<f64>) -> String {
    match p {
        Some(p) => numbers::pct_delta(p / 100.0),
        None => "n/a".to_string(),
    }
}

/// How the summary prints the values of the metric named `name`.
fn show(name: &str) -> fn(f64) -> String {
    METRICS
        .iter()
        .find(|m| m.name == name)
        .map_or(numbers::significant, |m| m.show)
}

fn diff_files(
    before: &Path,
    after: &Path,
    format: DiffFormat,
    top: usize,
) -> Result<String, CliError> {
    let d = diff(&read_results(before)?, &read_results(after)?, top);
    if format == DiffFormat::Json {
        return serde_json::to_string_pretty(&d)
            .map(|s| s + "\n")
            .map_err(|e| CliError::input(format!("error: {e}")));
    }
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "programs compared: {} ({} only in {}, {} only in {}, {} with an error in either)",
        d.compared,
        d.only_before,
        before.display(),
        d.only_after,
        after.display(),
        d.errors
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<16} {:>7} {:>7} {:>10} {:>16} {:>16} {:>9}",
        "metric", "helped", "hurt", "unchanged", "total before", "total after", "change"
    );
    for m in &d.metrics {
        let _ = writeln!(
            s,
            "{:<16} {:>7} {:>7} {:>10} {:>16} {:>16} {:>9}",
            m.metric,
            m.helped,
            m.hurt,
            m.unchanged,
            (show(&m.metric))(m.total_before),
            (show(&m.metric))(m.total_after),
            fmt_percent(m.total_change_percent)
        );
    }
    for m in &d.metrics {
        for (label, list) in [("helped", &m.most_helped), ("hurt", &m.most_hurt)] {
            if list.is_empty() {
                continue;
            }
            let _ = writeln!(s);
            let _ = writeln!(s, "most {label}, {} ({} is better):", m.metric, m.better);
            for c in list {
                let _ = writeln!(
                    s,
                    "  {:>9}  {} -> {}  {} `{}`",
                    fmt_percent(c.change_percent),
                    (show(&m.metric))(c.before),
                    (show(&m.metric))(c.after),
                    c.file,
                    c.function
                );
            }
        }
    }
    Ok(s)
}
