//! `shadersim validate --suite kernel-time`: every measured kernel duration of
//! `validation/kernel_times.toml` predicted through the ordinary `analyze` path (the kernel's
//! OpenCL C compiled in place with its `-D` definitions, the launch's grid, block and arguments,
//! the GPU by product name), and the error table (`shadersim_validate::kernel_times`).

use crate::commands::prepare::{analyse, prepare, RunRequest};
use crate::error::{CliError, CliResult};
use rayon::prelude::*;
use shadersim_validate::kernel_times::{
    KernelTimePoint, KernelTimeReport, KernelTimeRow, KernelTimesFile,
};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The kernel-time file to read: `validation/kernel_times.toml` here, else the source tree's.
fn times_path(arg: Option<&str>) -> PathBuf {
    if let Some(p) = arg {
        return PathBuf::from(p);
    }
    let here = PathBuf::from("validation/kernel_times.toml");
    if here.exists() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/kernel_times.toml")
}

/// Predict one point: its kernel time and what bound it, or why it was not run.
fn predict(dir: &Path, p: &KernelTimePoint) -> KernelTimeRow {
    let mut row = KernelTimeRow {
        id: p.id.clone(),
        gpu: p.gpu.clone(),
        kernel: p.function.clone(),
        measured_us: p.measured_us,
        predicted_us: None,
        error: None,
        bound: None,
        skipped: None,
        source: p.source.clone(),
    };
    if shadersim_arch::ArchSpec::target_for_name(&p.gpu).is_none() {
        row.skipped = Some(format!("no model of the `{}`", p.gpu));
        return row;
    }
    let file = dir.join("kernels/time").join(&p.kernel);
    let file = file.to_string_lossy();
    let sets = p.launch_sets();
    let defines = p.define_flags();
    let run = || -> Result<(f64, String), CliError> {
        let prepared = prepare(RunRequest {
            file: &file,
            arch: Some(&p.gpu),
            hints: None,
            sets: &sets,
            function: Some(&p.function),
            source: crate::input::SourceOptions {
                defines: &defines,
                port_es: false,
            },
        })?;
        let analysis = analyse(&prepared, false)?;
        let k =
            shadersim_engine::analysis::kernel_time::kernel_time(&prepared.sim, &analysis.stats)
                .map_err(|e| CliError::Input(e.to_string()))?
                .ok_or_else(|| CliError::Input("the launch gives no grid".into()))?;
        Ok((k.us, format!("{}; {}", k.bound, analysis.bottleneck.kind)))
    };
    match run() {
        Ok((us, bound)) => {
            row.predicted_us = Some(us);
            row.error = Some(us / p.measured_us - 1.0);
            row.bound = Some(bound);
        }
        Err(e) => {
            row.skipped = Some(match e {
                CliError::Input(m) | CliError::Usage(m) => m,
                CliError::Io(e) => e.to_string(),
            })
        }
    }
    row
}

/// Run the kernel-time suite.
pub fn run(path: Option<&str>, json: bool) -> CliResult {
    let path = times_path(path);
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::input(format!("{shown}: error: cannot read: {e}")))?;
    let file =
        KernelTimesFile::parse(&text).map_err(|e| CliError::Input(format!("{shown}:{e}")))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let progress = crate::progress::Progress::start(None, "predicting the measured kernel times");
    // Each point's notes are kept and printed in the points' order, not the threads'.
    let done: Vec<(KernelTimeRow, Vec<String>)> = file
        .kernel
        .par_iter()
        .map(|p| crate::notes::capture(|| predict(&dir, p)))
        .collect();
    drop(progress);
    let mut rows = Vec::with_capacity(done.len());
    for (row, notes) in done {
        for n in notes {
            eprintln!("{n}");
        }
        rows.push(row);
    }
    let report = KernelTimeReport::new(rows);
    let out = if json {
        report.to_json() + "\n"
    } else {
        report.to_text()
    };
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}
