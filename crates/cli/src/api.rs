//! The typed calls behind the Python package: `analyze`, `compare` and `occupancy` as
//! functions returning the JSON report the CLI prints with `--format json`. Each builds the
//! subcommand's own arguments and renders through the subcommand's own `render`, so the
//! binary and the bindings share one path (a report from Python cannot drift from the CLI's).

use crate::commands::{analyze, compare, occupancy};
use crate::error::CliError;
use crate::input::RunArgs;
use serde_json::Value;

/// How a program is run: the command line's `--arch`, `--hints`, `--set`, `--function`,
/// `--grid`, `--block`, `--arg` and `-D`, typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Architecture model, model file or GPU name (`--arch`); `compare` of one file takes a
    /// comma-separated list.
    pub arch: Option<String>,
    /// Hints file (TOML) path (`--hints`).
    pub hints: Option<String>,
    /// Model parameters and dispatch keys overridden (`--set KEY=VALUE`), in order.
    pub sets: Vec<(String, String)>,
    /// Program to run when the file holds several (`--function`).
    pub function: Option<String>,
    /// Workgroups per dimension, `4096` or `64x64` (`--grid`).
    pub grid: Option<String>,
    /// Work-items per workgroup, `256` or `16x16` (`--block`).
    pub block: Option<String>,
    /// Kernel arguments by source name (`--arg NAME=VALUE`), in order.
    pub args: Vec<(String, String)>,
    /// OpenCL C preprocessor definitions (`-D NAME[=VALUE]`).
    pub defines: Vec<String>,
}

impl RunOptions {
    /// The clap arguments these options stand for.
    fn run_args(&self) -> RunArgs {
        let pairs = |v: &[(String, String)]| v.iter().map(|(k, x)| format!("{k}={x}")).collect();
        RunArgs {
            arch: self.arch.clone(),
            hints: self.hints.clone(),
            set: pairs(&self.sets),
            function: self.function.clone(),
            grid: self.grid.clone(),
            global: None,
            block: self.block.clone(),
            args: pairs(&self.args),
            define: self.defines.clone(),
            port_es: false,
        }
    }
}

/// What `occupancy` is asked: `--regs`, `--arch`, `--wave-size`, `--lds`, `--workgroup`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OccupancyOptions {
    /// Registers per thread (AMD: VGPRs per wave), 1 to 4096.
    pub regs: u32,
    /// Models to show; empty: every model with occupancy rules.
    pub archs: Vec<String>,
    /// AMD wave size, 32 or 64 (default: each model's own).
    pub wave_size: Option<u32>,
    /// LDS bytes per workgroup (needs `workgroup`).
    pub lds: Option<u32>,
    /// Threads per workgroup.
    pub workgroup: Option<u32>,
}

/// Whether an [`Error`] is about the input (the CLI's exit code 1) or the usage (2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad input: a file that does not parse, a value out of range (exit code 1).
    Input,
    /// Bad usage: options that do not go together (exit code 2).
    Usage,
}

/// A failed call: the message exactly as the CLI prints it on standard error (its first line
/// `FILE:LINE:COL: error: ...` when it is about a place, then the source snippet and notes),
/// and the place parsed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Input or usage.
    pub kind: ErrorKind,
    /// The CLI's standard-error text, without the trailing newline.
    pub message: String,
    /// The file, line and column (1-based) the error is about, when it names one.
    pub location: Option<(String, usize, usize)>,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<CliError> for Error {
    fn from(e: CliError) -> Self {
        let kind = match e {
            CliError::Usage(_) => ErrorKind::Usage,
            CliError::Input(_) | CliError::Io(_) => ErrorKind::Input,
        };
        let first = e.message();
        let location =
            crate::diagnostic::place(&first).map(|(file, line, col)| (file.to_string(), line, col));
        Error {
            kind,
            message: e.rendered().trim_end().to_string(),
            location,
        }
    }
}

/// Parse a report the CLI rendered as JSON.
fn parse(text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| {
        Error::from(CliError::input(format!(
            "error: the JSON report does not parse (a bug): {e}"
        )))
    })
}

/// `shadersim analyze PATH --format json` with `options`: the report as JSON.
pub fn analyze(path: &str, options: &RunOptions) -> Result<Value, Error> {
    parse(&analyze_text(path, options)?)
}

/// [`analyze`]'s report as the CLI prints it (keys in the CLI's order, which a parsed
/// [`Value`] sorts): what the Python package parses.
pub fn analyze_text(path: &str, options: &RunOptions) -> Result<String, Error> {
    let args = analyze::Args {
        file: path.to_string(),
        run: options.run_args(),
        format: analyze::ReportFormat::Json,
        output: None,
        no_latency_search: false,
        latency_precision: None,
        occupancy_compare: false,
        timeline: None,
        timeline_waves: 64,
        timeline_clocks: None,
        repack: false,
    };
    Ok(analyze::render(&args)?)
}

/// `shadersim compare PATHS... --format json` with `options` (two files, or one file with
/// several models in `options.arch`): the comparison as JSON.
pub fn compare(paths: &[String], options: &RunOptions) -> Result<Value, Error> {
    parse(&compare_text(paths, options)?)
}

/// [`compare`]'s report as the CLI prints it.
pub fn compare_text(paths: &[String], options: &RunOptions) -> Result<String, Error> {
    if paths.is_empty() || paths.len() > 2 {
        return Err(CliError::Usage(format!(
            "compare takes one or two files, got {}",
            paths.len()
        ))
        .into());
    }
    let args = compare::Args {
        files: paths.to_vec(),
        run: options.run_args(),
        hints_a: None,
        hints_b: None,
        no_latency_search: false,
        format: compare::CompareFormat::Json,
        output: None,
    };
    Ok(compare::render(&args)?)
}

/// `shadersim occupancy --regs N ... --format json`: one row per model unit, as JSON.
pub fn occupancy(options: &OccupancyOptions) -> Result<Value, Error> {
    parse(&occupancy_text(options)?)
}

/// [`occupancy`]'s table as the CLI prints it.
pub fn occupancy_text(options: &OccupancyOptions) -> Result<String, Error> {
    if !(1..=4096).contains(&options.regs) {
        return Err(
            CliError::Usage(format!("regs must be from 1 to 4096, got {}", options.regs)).into(),
        );
    }
    if options.workgroup.is_some_and(|t| !(1..=4096).contains(&t)) {
        return Err(CliError::Usage("workgroup must be from 1 to 4096 threads".into()).into());
    }
    if let Some(w) = options.wave_size.filter(|w| *w != 32 && *w != 64) {
        return Err(CliError::Usage(format!("wave_size must be 32 or 64, got {w}")).into());
    }
    if options.lds.is_some() && options.workgroup.is_none() {
        return Err(CliError::Usage("lds needs workgroup (threads per workgroup)".into()).into());
    }
    let args = occupancy::Args {
        regs: options.regs,
        arch: options.archs.clone(),
        wave_size: options.wave_size.map(|w| w.to_string()),
        lds: options.lds,
        workgroup: options.workgroup,
        format: occupancy::OccupancyFormat::Json,
        plot: None,
    };
    Ok(occupancy::render(&args)?)
}
