//! `shadersim analyze FILE [--arch NAME] [--hints H.toml] [--set K=V]... [--format text|json|html] [-o PATH]
//! [--timeline FILE.json [--timeline-waves N] [--timeline-clocks A..B]]`.

use crate::commands::prepare::{analyse_run, prepare, RunRequest};
use crate::error::{CliError, CliResult};
use shadersim_engine::analysis::latency::SearchBudget;
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_report::timeline::{Timeline, TimelineCap};

/// Output formats of `analyze`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ReportFormat {
    /// Summary and annotated listing.
    Text,
    /// The JSON report of cli.md.
    Json,
    /// A self-contained HTML page.
    Html,
}

/// Arguments of `shadersim analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Assembly file (`-` for standard input).
    pub file: String,
    /// Model, hints, overrides and program.
    #[command(flatten)]
    pub run: crate::input::RunArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    /// Write the report here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Skip the latency-tolerance search (by default it spends at most
    /// three runs' worth of work, the zero-latency base included).
    #[arg(long)]
    pub no_latency_search: bool,
    /// Search the latency tolerance until its bracket is at most P wide
    /// relative to its passing end (0.015625, i.e. 1/64, is 1.5%), however
    /// many runs that takes, instead of within the default budget of two
    /// runs.
    #[arg(long, value_name = "P", conflicts_with = "no_latency_search")]
    pub latency_precision: Option<f64>,
    /// Also show the program's VGPR count on the other vendors' occupancy
    /// models (text and JSON).
    #[arg(long)]
    pub occupancy_compare: bool,
    /// Also write the run as Chrome trace-event JSON (open in Perfetto or
    /// chrome://tracing): a track per SIMD wave slot, a slice per issued
    /// instruction and stall, unit busy and waves resident as counters.
    #[arg(long, value_name = "FILE.json")]
    pub timeline: Option<String>,
    /// Timeline: show the slices of the first N waves (launch order).
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub timeline_waves: u32,
    /// Timeline: show only slices starting in clocks A..B.
    #[arg(long, value_name = "A..B")]
    pub timeline_clocks: Option<String>,
    /// TeraScale files: also re-pack the ALU clauses greedily under the
    /// model's slot, literal and constant rules (the `vliw.repack` report).
    #[arg(long)]
    pub repack: bool,
}

/// Parse `A..B` (clocks, A < B).
fn parse_window(s: &str) -> Result<(u64, u64), CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--timeline-clocks expects A..B with A < B, got `{s}`"
        ))
    };
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let a: u64 = a.trim().parse().map_err(|_| bad())?;
    let b: u64 = b.trim().parse().map_err(|_| bad())?;
    if a >= b {
        return Err(bad());
    }
    Ok((a, b))
}

pub use crate::commands::prepare::DISPATCH_KEYS;

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let text = render(&args)?;
    crate::output::write(args.output.as_deref(), text)
}

/// The report `args` asks for, rendered in its format (the timeline, when asked, is written
/// to its file): what `run` prints, and what the library API (`api::analyze`) parses.
pub fn render(args: &Args) -> Result<String, CliError> {
    if args.file == "-" && args.run.hints.as_deref() == Some("-") {
        return Err(CliError::Usage(
            "the program and the hints cannot both be read from standard input".into(),
        ));
    }
    let sets = args.run.sets()?;
    let window = args
        .timeline_clocks
        .as_deref()
        .map(parse_window)
        .transpose()?;
    if args.timeline_waves == 0 {
        return Err(CliError::Usage(
            "--timeline-waves must be at least 1".into(),
        ));
    }
    if let Some(p) = args.latency_precision {
        if !(p > 0.0 && p < 1.0) {
            return Err(CliError::Usage(format!(
                "--latency-precision expects a relative width above 0 and below 1 (0.015625 is a 1.5625% bracket), got `{p}`"
            )));
        }
    }
    let mut prepared = prepare(RunRequest {
        file: &args.file,
        arch: args.run.arch.as_deref(),
        hints: args.run.hints.as_deref(),
        sets: &sets,
        function: args.run.function.as_deref(),
        source: args.run.source(),
    })?;
    if let Some(p) = args.latency_precision {
        prepared.sim.set_latency_budget(SearchBudget::precise(p));
    }
    let progress =
        crate::progress::Progress::start(None, "simulating (and searching the latency tolerance)");
    let (file_name, sim, vgprs) = (&prepared.file_name, &prepared.sim, prepared.vgprs);
    // The run is recorded (time per block and loop, the page's charts and
    // the timeline): observing changes no number, so this one run is also
    // the analysis's run and a probe of the latency search.
    // Slices (one per op of the first waves) grow with the trace: record
    // them only for the outputs that show them (the timeline, the page's
    // wave-slot chart). The binned series and time per op are bounded.
    let shows_slices = args.timeline.is_some() || matches!(args.format, ReportFormat::Html);
    let mut timeline = Timeline::new(
        sim,
        TimelineCap {
            max_waves: if shows_slices { args.timeline_waves } else { 0 },
            window,
            // The same outputs draw the binned series.
            series: shows_slices,
        },
    );
    // The latency search's first simulation runs beside the recorded run.
    let (stats, search) =
        sim.beside_latency_head(!args.no_latency_search, || sim.run_observed(&mut timeline));
    let input_error =
        |e: &dyn std::fmt::Display| CliError::Input(format!("{file_name}: error: {e}"));
    let stats = stats.map_err(|e| input_error(&e))?;
    let search = search.map_err(|e| input_error(&e))?;
    let analysis = analyse_run(&prepared, stats.clone(), search)?;
    drop(progress);
    if let Some(path) = &args.timeline {
        // Streamed to the file event by event: memory stays the recording's.
        let cannot =
            |e: std::io::Error| CliError::input(format!("{path}: error: cannot write: {e}"));
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(cannot)?);
        timeline
            .write_chrome_json(&mut out, sim, &stats)
            .and_then(|()| std::io::Write::flush(&mut out))
            .map_err(cannot)?;
        if let Some(note) = timeline.cap_note() {
            eprintln!("note: {note}");
        }
    }
    let mut report =
        AnalyzeReport::new(file_name, sim, &analysis).with_profile(sim, &stats, &timeline);
    report.name_source_files(&prepared.source_files);
    report.vliw = crate::commands::vliw::summary(
        prepared.r600.as_ref(),
        sim.arch(),
        &report,
        &analysis.stats,
        args.repack,
    )?;
    let mut text = match args.format {
        ReportFormat::Text => report.to_text(),
        ReportFormat::Json => report.to_json() + "\n",
        ReportFormat::Html => shadersim_report::html::analyze_page(
            &report,
            sim.cfg(),
            &shadersim_report::html::MadeFrom {
                hints: args.run.hints.clone(),
                overrides: sets.iter().map(|(k, x)| format!("{k}={x}")).collect(),
            },
        ),
    };
    if args.occupancy_compare && matches!(args.format, ReportFormat::Html) {
        eprintln!("note: --occupancy-compare is shown in text and JSON reports, not HTML");
    } else if args.occupancy_compare {
        let json = matches!(args.format, ReportFormat::Json);
        text = crate::commands::occupancy::append_comparison(text, json, vgprs);
    }
    Ok(text)
}
