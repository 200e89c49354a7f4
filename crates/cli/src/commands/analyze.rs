//! `shadersim analyze FILE [--arch NAME] [--hints H.toml] [--set K=V]... [--format text|json|html] [-o PATH]`.

use crate::error::{CliError, CliResult};
use crate::input::{read_input, select_program};
use shadersim_arch::ArchSpec;
use shadersim_engine::run::{PrepareError, Simulation};
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_trace::Hints;
use std::io::Write;

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
    /// Architecture model (see `shadersim archs`) or a model file (.toml).
    /// Default: the model of the file's GPU, else `gcn`.
    #[arg(long)]
    pub arch: Option<String>,
    /// Hints file (TOML): loop counts, branches, formats, dispatch (`-` for standard input).
    #[arg(long)]
    pub hints: Option<String>,
    /// Override one model parameter, e.g. `--set vmem_latency=300` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    /// Write the report here instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Program to simulate when the file holds several.
    #[arg(long)]
    pub function: Option<String>,
    /// Skip the latency-tolerance search (it re-runs the simulation ~30 times).
    #[arg(long)]
    pub no_latency_search: bool,
    /// Also show the program's VGPR count on the other vendors' occupancy
    /// models (text and JSON).
    #[arg(long)]
    pub occupancy_compare: bool,
}

/// `[dispatch]` keys that `--set` may override as well as model parameters.
pub const DISPATCH_KEYS: &[&str] = &[
    "stage",
    "pixels_per_triangle",
    "vertices_per_triangle",
    "vertex_inputs",
    "workgroup_size",
    "waves",
    "waves_per_simd",
    "wave_size",
];

/// Put a `--set` dispatch override into the hints (it wins over the file).
/// Values set this way carry an empty span: errors about them have no
/// place in the hints file.
fn set_dispatch(hints: &mut Hints, key: &str, value: &str) -> Result<(), CliError> {
    use toml::Spanned;
    let d = &mut hints.dispatch;
    let bad = || CliError::Usage(format!("--set {key}={value}: expected a number"));
    let int = || {
        value
            .parse::<u32>()
            .map(|v| Spanned::new(0..0, v))
            .map_err(|_| bad())
    };
    let float = || {
        value
            .parse::<f64>()
            .map(|v| Spanned::new(0..0, v))
            .map_err(|_| bad())
    };
    match key {
        "stage" => d.stage = Some(Spanned::new(0..0, value.to_string())),
        "pixels_per_triangle" => d.pixels_per_triangle = Some(float()?),
        "vertices_per_triangle" => d.vertices_per_triangle = Some(float()?),
        "vertex_inputs" => d.vertex_inputs = Some(int()?),
        "workgroup_size" => d.workgroup_size = Some(int()?),
        "waves" => d.waves = Some(int()?),
        "waves_per_simd" => d.waves_per_simd = Some(int()?),
        "wave_size" => d.wave_size = Some(int()?),
        _ => unreachable!("only DISPATCH_KEYS are passed"),
    }
    Ok(())
}

/// Parse `--set KEY=VALUE` pairs.
pub fn parse_sets(sets: &[String]) -> Result<Vec<(String, String)>, CliError> {
    sets.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| CliError::Usage(format!("--set expects KEY=VALUE, got `{s}`")))
        })
        .collect()
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    if args.file == "-" && args.hints.as_deref() == Some("-") {
        return Err(CliError::Usage(
            "the program and the hints cannot both be read from standard input".into(),
        ));
    }
    let sets = parse_sets(&args.set)?;
    let chosen = match &args.arch {
        Some(a) => Some(ArchSpec::load(a, &[]).map_err(|e| {
            crate::commands::occupancy::occupancy_only_error(a)
                .unwrap_or_else(|| CliError::Usage(e.to_string()))
        })?),
        None => None,
    };
    let file = read_input(&args.file, chosen.as_ref().map(|a| a.isa.name.as_str()))?;
    let program = select_program(&file, args.function.as_deref())?;
    let mut notes = Vec::new();
    let mut arch = match chosen {
        Some(a) => a,
        None => match program.target.as_ref().and_then(ArchSpec::for_target) {
            Some(a) => a,
            None => {
                // The newest model stands in for a newer GPU's code.
                let stand_in = match &program.target {
                    Some(t) if !t.gen.is_gcn() => "rdna3",
                    _ => "gcn",
                };
                if let Some(t) = &program.target {
                    notes.push(format!(
                        "no model for {t} yet; simulating on `{stand_in}` (choose one with --arch)"
                    ));
                }
                ArchSpec::builtin(stand_in).map_err(|e| CliError::Input(e.to_string()))?
            }
        },
    };
    let (dispatch_sets, arch_sets): (Vec<_>, Vec<_>) = sets
        .iter()
        .partition(|(k, _)| DISPATCH_KEYS.contains(&k.as_str()));
    for (k, v) in &arch_sets {
        arch.set(k, v).map_err(|e| {
            CliError::Usage(format!("{e}; dispatch keys: {}", DISPATCH_KEYS.join(", ")))
        })?;
    }
    let (mut hints, hints_name, hints_text) = match &args.hints {
        Some(path) => {
            // `--hints -` reads the hints from standard input (the program
            // then has to come from a file).
            let (name, text) = if path == "-" {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                    .map_err(|e| CliError::input(format!("<stdin>: error: cannot read: {e}")))?;
                ("<stdin>".to_string(), text)
            } else {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| CliError::input(format!("{path}: error: cannot read: {e}")))?;
                (path.clone(), text)
            };
            let hints = Hints::parse(&text).map_err(|e| CliError::Input(e.render(&name, &text)))?;
            (hints, name, text)
        }
        None => (Hints::default(), String::new(), String::new()),
    };
    for (k, v) in &dispatch_sets {
        set_dispatch(&mut hints, k, v)?;
    }
    let vgprs = program.register_usage().vgprs.max(1);
    let prepared = Simulation::prepare(program, arch, &hints).map_err(|e| match e {
        PrepareError::Hints(h) if h.span.as_ref().is_some_and(|s| s.is_empty()) => {
            CliError::Usage(format!("--set: {}", h.message))
        }
        PrepareError::Hints(h) => CliError::Input(h.render(&hints_name, &hints_text)),
        other => CliError::Input(format!("{}: error: {other}", file.file_name)),
    })?;
    let mut sim = prepared;
    sim.notes.splice(0..0, notes);
    let analysis = if args.no_latency_search {
        let stats = sim
            .run()
            .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?;
        let bottleneck = sim.bottleneck(&stats, None);
        shadersim_engine::Analysis {
            stats,
            latency: None,
            bottleneck,
        }
    } else {
        sim.analyse()
            .map_err(|e| CliError::Input(format!("{}: error: {e}", file.file_name)))?
    };
    let report = AnalyzeReport::new(&file.file_name, &sim, &analysis);
    let mut text = match args.format {
        ReportFormat::Text => report.to_text(),
        ReportFormat::Json => report.to_json() + "\n",
        ReportFormat::Html => report.to_html(),
    };
    if args.occupancy_compare && matches!(args.format, ReportFormat::Html) {
        eprintln!("note: --occupancy-compare is shown in text and JSON reports, not HTML");
    } else if args.occupancy_compare {
        let json = matches!(args.format, ReportFormat::Json);
        text = crate::commands::occupancy::append_comparison(text, json, vgprs);
    }
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| CliError::input(format!("{path}: error: cannot write: {e}")))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}
