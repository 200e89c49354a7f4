//! The compiled half of the `shadersim` Python package: `shadersim._shadersim`, thin pyo3
//! wrappers over `shadersim_cli::api`. Each returns the CLI's `--format json` report as a
//! string (python/shadersim/__init__.py parses it), so the JSON is the CLI's own, not a
//! second serialization. A failure raises `ValueError` with the arguments
//! `(message, file, line, column, kind)`; the Python half turns it into `ShadersimError`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use shadersim_cli::api::{self, ErrorKind, OccupancyOptions, RunOptions};

/// The Python exception for an API error: the CLI's message and its place as arguments.
fn to_py(e: api::Error) -> PyErr {
    let (file, line, column) = match e.location {
        Some((f, l, c)) => (Some(f), Some(l), Some(c)),
        None => (None, None, None),
    };
    let kind = match e.kind {
        ErrorKind::Input => "input",
        ErrorKind::Usage => "usage",
    };
    PyValueError::new_err((e.message, file, line, column, kind))
}

/// The run options from the keyword arguments the Python half passes through.
#[allow(clippy::too_many_arguments)]
fn run_options(
    arch: Option<String>,
    hints: Option<String>,
    sets: Vec<(String, String)>,
    function: Option<String>,
    grid: Option<String>,
    block: Option<String>,
    args: Vec<(String, String)>,
    defines: Vec<String>,
) -> RunOptions {
    RunOptions {
        arch,
        hints,
        sets,
        function,
        grid,
        block,
        args,
        defines,
    }
}

/// Analyze the program at `path`: the CLI's `analyze --format json` report as a JSON string.
#[pyfunction]
#[pyo3(signature = (path, arch=None, hints=None, sets=vec![], function=None, grid=None, block=None, args=vec![], defines=vec![]))]
#[allow(clippy::too_many_arguments)]
fn analyze_json(
    py: Python<'_>,
    path: String,
    arch: Option<String>,
    hints: Option<String>,
    sets: Vec<(String, String)>,
    function: Option<String>,
    grid: Option<String>,
    block: Option<String>,
    args: Vec<(String, String)>,
    defines: Vec<String>,
) -> PyResult<String> {
    let options = run_options(arch, hints, sets, function, grid, block, args, defines);
    // The simulation runs without the GIL: other Python threads go on meanwhile.
    py.detach(|| api::analyze_text(&path, &options))
        .map_err(to_py)
}

/// Compare one or two programs: the CLI's `compare --format json` report as a JSON string.
#[pyfunction]
#[pyo3(signature = (paths, arch=None, hints=None, sets=vec![], function=None, grid=None, block=None, args=vec![], defines=vec![]))]
#[allow(clippy::too_many_arguments)]
fn compare_json(
    py: Python<'_>,
    paths: Vec<String>,
    arch: Option<String>,
    hints: Option<String>,
    sets: Vec<(String, String)>,
    function: Option<String>,
    grid: Option<String>,
    block: Option<String>,
    args: Vec<(String, String)>,
    defines: Vec<String>,
) -> PyResult<String> {
    let options = run_options(arch, hints, sets, function, grid, block, args, defines);
    py.detach(|| api::compare_text(&paths, &options))
        .map_err(to_py)
}

/// Occupancy at `regs` registers per thread: the CLI's `occupancy --format json` as a string.
#[pyfunction]
#[pyo3(signature = (regs, archs=vec![], wave_size=None, lds=None, workgroup=None))]
fn occupancy_json(
    regs: u32,
    archs: Vec<String>,
    wave_size: Option<u32>,
    lds: Option<u32>,
    workgroup: Option<u32>,
) -> PyResult<String> {
    let options = OccupancyOptions {
        regs,
        archs,
        wave_size,
        lds,
        workgroup,
    };
    api::occupancy_text(&options).map_err(to_py)
}

/// The module `shadersim._shadersim`.
#[pymodule]
fn _shadersim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(occupancy_json, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
