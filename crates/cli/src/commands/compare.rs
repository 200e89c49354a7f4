//! `shadersim compare A B [--arch X] [--hints-a H1 --hints-b H2]` and
//! `shadersim compare FILE --arch X,Y,Z`: the analysis of two programs (or
//! one program on several models) side by side, with deltas against the
//! first and a one-line verdict per variant.

use crate::commands::prepare::{analyse, prepare, Prepared, RunRequest};
use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use shadersim_engine::analysis::latency::{SearchBudget, DEFAULT_PRECISION};
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_report::compare_html::to_html;
use shadersim_report::compare_view::{compare, to_text, Variant};

/// Output formats of `compare`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CompareFormat {
    /// A table and the verdicts.
    Text,
    /// `{ "variants": [...], "deltas": [...], "verdicts": [...] }`.
    Json,
    /// A self-contained HTML page with the same table.
    Html,
}

/// Arguments of `shadersim compare`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Two assembly files (A and B), or one file with several `--arch`.
    #[arg(num_args = 1..=2, required = true)]
    pub files: Vec<String>,
    /// Model, hints, overrides and program.
    #[command(flatten)]
    pub run: crate::input::RunArgs,
    /// Hints file for A.
    #[arg(long)]
    pub hints_a: Option<String>,
    /// Hints file for B.
    #[arg(long)]
    pub hints_b: Option<String>,
    /// Skip the latency-tolerance search (a comparison searches each
    /// variant to a 1/64 bracket: typically 4 to 20 runs).
    #[arg(long)]
    pub no_latency_search: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CompareFormat,
    /// Write the comparison here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
}

/// What one variant runs: label, file, model and hints.
struct Job<'a> {
    label: String,
    /// Its place on the command line (0-based).
    index: usize,
    file: &'a str,
    arch: Option<&'a str>,
    hints: Option<&'a str>,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let text = render(&args)?;
    crate::output::write(args.output.as_deref(), text)
}

/// The comparison `args` asks for, rendered in its format: what `run` prints, and what
/// the library API (`api::compare`) parses.
pub fn render(args: &Args) -> Result<String, CliError> {
    let sets = args.run.sets()?;
    let archs: Vec<&str> = match &args.run.arch {
        Some(a) => a.split(',').map(str::trim).collect(),
        None => Vec::new(),
    };
    if archs.iter().any(|a| a.is_empty()) {
        return Err(CliError::Usage(
            "--arch: empty model name in the list".into(),
        ));
    }
    let jobs: Vec<Job> = if args.files.len() == 2 {
        if archs.len() > 1 {
            return Err(CliError::Usage(
                "compare A B takes one --arch; several models compare one file".into(),
            ));
        }
        let shared = args.run.hints.as_deref();
        vec![
            Job {
                label: "A".into(),
                index: 0,
                file: &args.files[0],
                arch: archs.first().copied(),
                hints: args.hints_a.as_deref().or(shared),
            },
            Job {
                label: "B".into(),
                index: 1,
                file: &args.files[1],
                arch: archs.first().copied(),
                hints: args.hints_b.as_deref().or(shared),
            },
        ]
    } else {
        if archs.len() < 2 {
            return Err(CliError::Usage(
                "compare needs two files, or one file and --arch X,Y[,...]".into(),
            ));
        }
        if args.hints_a.is_some() || args.hints_b.is_some() {
            return Err(CliError::Usage(
                "--hints-a/--hints-b need two files; use --hints with one".into(),
            ));
        }
        archs
            .iter()
            .enumerate()
            .map(|(index, a)| Job {
                label: a.to_string(),
                index,
                file: &args.files[0],
                arch: Some(a),
                hints: args.run.hints.as_deref(),
            })
            .collect()
    };
    // Every variant is read, modelled and fitted with its hints before any
    // is simulated: a hints file that does not fit one model's listing
    // stops the run at once, naming that model, instead of after the
    // others' simulations. The first error in command-line order is the
    // one reported, whichever thread met it first.
    let prepared: Vec<Result<Prepared, CliError>> = jobs
        .par_iter()
        .map(|job| {
            prepare(RunRequest {
                file: job.file,
                arch: job.arch,
                hints: job.hints,
                sets: &sets,
                function: args.run.function.as_deref(),
                source: args.run.source(),
            })
            .map_err(|e| in_variant(e, job, jobs.len()))
        })
        .collect();
    let mut prepared = prepared.into_iter().collect::<Result<Vec<_>, _>>()?;
    // A comparison subtracts the variants' tolerances: they are searched to
    // the 1/64 bracket, not within analyze's two-run budget, whose passing
    // end may lie anywhere in a bracket several times wide.
    for p in &mut prepared {
        p.sim
            .set_latency_budget(SearchBudget::precise(DEFAULT_PRECISION));
    }
    let progress = crate::progress::Progress::start(Some(jobs.len() as u64), "variants");
    let variants: Vec<Result<Variant, CliError>> = jobs
        .par_iter()
        .zip(&prepared)
        .map(|(job, prepared)| {
            let analysis = analyse(prepared, !args.no_latency_search)
                .map_err(|e| in_variant(e, job, jobs.len()))?;
            let report = AnalyzeReport::new(&prepared.file_name, &prepared.sim, &analysis);
            let mut v = Variant::of(job.label.clone(), &report, prepared.sim.arch());
            // What made it, for the HTML page's record.
            v.hints = job.hints.map(str::to_string);
            v.overrides = sets.iter().map(|(k, x)| format!("{k}={x}")).collect();
            Ok(v)
        })
        .inspect(|_| progress.inc())
        .collect();
    drop(progress);
    let variants = variants.into_iter().collect::<Result<Vec<_>, _>>()?;
    let comparison = compare(variants);
    let text = match args.format {
        CompareFormat::Text => to_text(&comparison),
        CompareFormat::Json => {
            serde_json::to_string_pretty(&comparison).expect("plain data serializes") + "\n"
        }
        CompareFormat::Html => to_html(&comparison),
    };
    Ok(text)
}

/// `e`, met while preparing or running `job`, with a note naming the
/// variant: which model's listing (or which of the two files) a hints file
/// or an option did not fit. A usage error stays one (exit code 2).
fn in_variant(e: CliError, job: &Job<'_>, of: usize) -> CliError {
    let which = match job.arch {
        Some(arch) if job.label == arch => format!(
            "this is the `{arch}` variant ({} of the {of} models of `--arch`), reading {}{}",
            ordinal(job.index + 1),
            job.file,
            job.hints
                .map(|h| format!(" with hints {h}"))
                .unwrap_or_default()
        ),
        _ => format!(
            "this is variant {} ({}){}",
            job.label,
            job.file,
            job.hints
                .map(|h| format!(" with hints {h}"))
                .unwrap_or_default()
        ),
    };
    match e {
        CliError::Input(m) => CliError::Input(format!("{m}\nnote: {which}")),
        CliError::Usage(m) => CliError::Usage(format!("{m} ({which})")),
        CliError::Io(e) => CliError::Io(e),
    }
}

/// `n` as an English ordinal ("2nd"), for the note.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
