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

use crate::commands::analyze::parse_sets;
use crate::error::{CliError, CliResult};
use crate::input::target_for_arch;
use rayon::prelude::*;
use serde_json::{json, Value};
use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_bytes, Program, ReadOptions};
use shadersim_engine::{PrepareError, Simulation};
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_trace::Hints;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// File extensions a directory walk picks up: LLVM assembly (`.s`, `.asm`),
/// `llvm-objdump -d` output (`.dis`) and RADV shader dumps (`.txt`). Files
/// named explicitly on the command line are read whatever their extension.
pub const PROGRAM_EXTENSIONS: &[&str] = &["s", "asm", "dis", "txt"];

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
    /// Also run the latency-tolerance search (about 20 extra simulations per program).
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
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.jobs {
        pool = pool.num_threads(n);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Input(format!("error: cannot start worker threads: {e}")))?;
    match &args.diff {
        Some(files) => {
            let text = diff_files(&files[0], &files[1], args.format, args.top)?;
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(())
        }
        None => pool.install(|| analyze_corpus(&args)),
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

/// One file to analyze and the directory it was found under (for hints).
struct Job {
    path: PathBuf,
    root: PathBuf,
}

fn analyze_corpus(args: &Args) -> CliResult {
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
    let jobs = collect_jobs(&args.paths);
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| {
                CliError::input(format!("{}: error: cannot write: {e}", path.display()))
            })?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
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
    // Several chunks' worth of files per thread keeps every core busy
    // while bounding how many finished lines wait to be written.
    let chunk = rayon::current_num_threads() * 4;
    for part in jobs.chunks(chunk.max(1)) {
        let lines: Vec<Vec<String>> = part
            .par_iter()
            .map(|job| {
                let lines = analyze_file(job, &config);
                if let Some(bar) = &progress {
                    bar.inc(1);
                }
                lines
            })
            .collect();
        for line in lines.iter().flatten() {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(())
}

// `[dispatch]` keys `analyze --set` accepts; batch refuses them (they
// differ per program, so they belong in the hints files).
use super::analyze::DISPATCH_KEYS;

/// Expand the command-line paths into files, in order: a file as given, a
/// directory as its program files in sorted order. A path that does not
/// exist stays in the list so that its line reports the error.
fn collect_jobs(paths: &[PathBuf]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for root in paths {
        if root.is_dir() {
            let mut files = Vec::new();
            walk(root, &mut files);
            files.sort();
            jobs.extend(files.into_iter().map(|path| Job {
                path,
                root: root.clone(),
            }));
        } else {
            jobs.push(Job {
                path: root.clone(),
                root: root.parent().map(Path::to_path_buf).unwrap_or_default(),
            });
        }
    }
    jobs
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| PROGRAM_EXTENSIONS.contains(&e))
        {
            files.push(path);
        }
    }
}

fn error_line(file: &str, function: Option<&str>, error: &str) -> String {
    json!({ "file": file, "function": function, "error": error }).to_string()
}

/// Every line of one file: one per program, or one error line.
fn analyze_file(job: &Job, config: &BatchConfig) -> Vec<String> {
    let name = job.path.display().to_string();
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => {
            return vec![error_line(
                &name,
                None,
                &format!("{name}: error: cannot read: {e}"),
            )]
        }
    };
    let default_target = config
        .chosen
        .as_ref()
        .and_then(|a| target_for_arch(&a.isa.name));
    let r600_text = std::str::from_utf8(&bytes)
        .ok()
        .filter(|t| shadersim_r600::looks_like_r600(t));
    let read = match r600_text {
        // TeraScale files (LLVM's R600 backend) have their own reader.
        Some(text) => {
            let chip = config
                .chosen
                .as_ref()
                .map(|a| a.isa.name.clone())
                .filter(|c| shadersim_r600::table::ChipClass::of_target(c).is_some());
            shadersim_r600::read_r600(&name, text, chip.as_deref())
                .map(|f| shadersim_r600::lower_file(&f).0)
        }
        None => read_program_bytes(
            &name,
            &bytes,
            &ReadOptions {
                target: None,
                default_target,
            },
        ),
    };
    let file = match read {
        Ok(f) => f,
        Err(e) => return vec![error_line(&name, None, &e.to_string())],
    };
    if file.programs.is_empty() {
        return vec![error_line(
            &name,
            None,
            &format!("{name}: error: no program found"),
        )];
    }
    let warnings = file.formatted_warnings();
    file.programs
        .par_iter()
        .map(
            |program| match analyze_program(job, &name, program, config) {
                Ok(mut line) => {
                    line["warnings"] = json!(warnings);
                    line.to_string()
                }
                Err(e) => error_line(&name, Some(&program.name), &e),
            },
        )
        .collect()
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
/// latency search unless asked) and keep the report's summary keys.
fn analyze_program(
    job: &Job,
    name: &str,
    program: &Program,
    config: &BatchConfig,
) -> Result<Value, String> {
    let arch = match &config.chosen {
        Some(a) => a.clone(),
        None => {
            let mut arch = match program.target.as_ref().and_then(ArchSpec::for_target) {
                Some(a) => a,
                // Every generation has a family model; a file that names no
                // GPU runs on `gcn`.
                None => ArchSpec::builtin("gcn").map_err(|e| format!("{name}: error: {e}"))?,
            };
            arch.set_all(&config.sets)
                .map_err(|e| format!("--set: {e}"))?;
            arch
        }
    };
    let hints_file = hints_path(job, &program.name, config);
    let (hints, hints_name, hints_text) = match &hints_file {
        Some(path) => {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("{shown}: error: cannot read: {e}"))?;
            let hints = Hints::parse(&text).map_err(|e| e.render(&shown, &text))?;
            (hints, shown, text)
        }
        None => (Hints::default(), String::new(), String::new()),
    };
    let sim = Simulation::prepare(program, arch, &hints).map_err(|e| match e {
        PrepareError::Hints(h) => h.render(&hints_name, &hints_text),
        other => format!("{name}: error: {other}"),
    })?;

    let analysis = if config.latency_tolerance {
        sim.analyse().map_err(|e| format!("{name}: error: {e}"))?
    } else {
        let stats = sim.run().map_err(|e| format!("{name}: error: {e}"))?;
        let bottleneck = sim.bottleneck(&stats, None);
        shadersim_engine::Analysis {
            stats,
            latency: None,
            bottleneck,
        }
    };
    let report = AnalyzeReport::new(name, &sim, &analysis);
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
}

const METRICS: &[Metric] = &[
    Metric {
        name: "clocks per wave",
        pointer: "/wave_clocks",
        lower_is_better: true,
    },
    Metric {
        name: "throughput",
        pointer: "/throughput/per_clock",
        lower_is_better: false,
    },
    Metric {
        name: "occupancy",
        pointer: "/occupancy/waves_per_simd",
        lower_is_better: false,
    },
    Metric {
        name: "instructions",
        pointer: "/instruction_count",
        lower_is_better: true,
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
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("{shown}: error: cannot read: {e}")))?;
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
        Some(p) => format!("{p:+.2}%"),
        None => "n/a".to_string(),
    }
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
            "{:<16} {:>7} {:>7} {:>10} {:>16.4} {:>16.4} {:>9}",
            m.metric,
            m.helped,
            m.hurt,
            m.unchanged,
            m.total_before,
            m.total_after,
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
                    c.before,
                    c.after,
                    c.file,
                    c.function
                );
            }
        }
    }
    Ok(s)
}
