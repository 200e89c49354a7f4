//! The path from command-line arguments to a prepared [`Simulation`], shared
//! by `analyze`, `compare` and `sweep` so that all three read files, pick the
//! model and apply hints and `--set` overrides the same way.

use crate::error::CliError;
use crate::input::select_program;
use shadersim_arch::{ArchError, ArchSpec};
use shadersim_asm::ProgramFile;
use shadersim_engine::{Analysis, LatencySearch, SimStats};
use shadersim_engine::{PrepareError, Simulation};
use shadersim_occupancy::VendorModel;
use shadersim_trace::Hints;

/// `[dispatch]` keys that `--set` may override as well as model parameters (and the launch's
/// `[launch]` keys, which `--grid`, `--global` and `--block` set).
pub const DISPATCH_KEYS: &[&str] = &[
    "stage",
    "pixels_per_triangle",
    "vertices_per_triangle",
    "vertex_inputs",
    "workgroup_size",
    "waves",
    "waves_per_simd",
    "wave_size",
    "cus",
    "grid",
    "global",
    "block",
    "shared",
];

/// Put a `--set` dispatch override into the hints (it wins over the file).
/// Values set this way carry an empty span: errors about them have no
/// place in the hints file.
fn set_dispatch(hints: &mut Hints, key: &str, value: &str) -> Result<(), CliError> {
    use toml::Spanned;
    if let Some(name) = key.strip_prefix("arg.") {
        let v = shadersim_trace::ArgValue::parse(value).ok_or_else(|| {
            CliError::Usage(format!(
                "--arg {name}={value}: a kernel argument takes a number"
            ))
        })?;
        hints
            .launch
            .args
            .insert(name.to_string(), Spanned::new(0..0, v));
        return Ok(());
    }
    if key == "shared" {
        let bytes = value.parse::<i64>().map_err(|_| {
            CliError::Usage(format!(
                "--set shared={value}: dynamic LDS takes a whole number of bytes"
            ))
        })?;
        hints.launch.shared = Some(Spanned::new(0..0, bytes));
        return Ok(());
    }
    if let Some(slot) = match key {
        "grid" => Some(&mut hints.launch.grid),
        "global" => Some(&mut hints.launch.global),
        "block" => Some(&mut hints.launch.block),
        _ => None,
    } {
        let dims = shadersim_trace::Dims::Text(value.to_string());
        // Checked here so that a bad size is a usage error (exit 2) naming the option.
        dims.parse(u64::from(u32::MAX))
            .map_err(|m| CliError::Usage(format!("--{key} {value}: {m}")))?;
        *slot = Some(Spanned::new(0..0, dims));
        return Ok(());
    }
    let d = &mut hints.dispatch;
    // A value error states this key's rule (shadersim-engine's
    // `dispatch_range`), the same rule a hints file is held to.
    let number = || -> Result<f64, CliError> {
        let rule = |v: f64| shadersim_engine::check_dispatch(key, v);
        let v = value.parse::<f64>().map_err(|_| {
            let why = rule(f64::NAN).err().unwrap_or_else(|| "a number".into());
            CliError::Usage(format!("--set {key}={value}: {why}"))
        })?;
        rule(v).map_err(|why| CliError::Usage(format!("--set {key}={value}: {why}")))?;
        Ok(v)
    };
    // In range, so a whole number that fits.
    let int = || number().map(|v| Spanned::new(0..0, v as u32));
    let float = || number().map(|v| Spanned::new(0..0, v));
    match key {
        "stage" => d.stage = Some(Spanned::new(0..0, value.to_string())),
        "pixels_per_triangle" => d.pixels_per_triangle = Some(float()?),
        "vertices_per_triangle" => d.vertices_per_triangle = Some(float()?),
        "vertex_inputs" => d.vertex_inputs = Some(int()?),
        "workgroup_size" => d.workgroup_size = Some(int()?),
        "waves" => d.waves = Some(int()?),
        "waves_per_simd" => d.waves_per_simd = Some(int()?),
        "wave_size" => d.wave_size = Some(int()?),
        "cus" => d.cus = Some(int()?),
        _ => unreachable!("only DISPATCH_KEYS are passed"),
    }
    Ok(())
}

/// What to simulate: the arguments `analyze` takes, already parsed.
#[derive(Debug, Clone, Copy)]
pub struct RunRequest<'a> {
    /// Assembly file (`-` for standard input).
    pub file: &'a str,
    /// Architecture model name or model file; `None`: the file's GPU.
    pub arch: Option<&'a str>,
    /// Hints file (TOML).
    pub hints: Option<&'a str>,
    /// `--set` pairs, model parameters and dispatch keys mixed.
    pub sets: &'a [(String, String)],
    /// Program to simulate when the file holds several.
    pub function: Option<&'a str>,
    /// How source handed instead of a listing is compiled (`-D`, `--port-es`).
    pub source: crate::input::SourceOptions<'a>,
}

/// A simulation ready to run, with what the reports need besides it.
#[derive(Debug)]
pub struct Prepared {
    /// The file's name as reports print it.
    pub file_name: String,
    /// The prepared run.
    pub sim: Simulation,
    /// VGPRs the program declares (at least 1), before hints override them.
    pub vgprs: u32,
    /// The listing's source files (`.file`: number and path).
    pub source_files: Vec<(u32, String)>,
    /// The TeraScale file the program came from, if it is one.
    pub r600: Option<shadersim_r600::R600File>,
}

/// Load an architecture model by name, pointing occupancy-only models at
/// the command that handles them.
///
/// A GPU name that is not a model (`gfx1031`, `navi21`, `vega10`) picks
/// the model of that chip or its family, as a file naming the GPU would.
pub fn load_arch(name: &str) -> Result<ArchSpec, CliError> {
    // A model file: the arch crate words a missing one its own way.
    if name.ends_with(".toml") || name.contains('/') {
        crate::error::require_file(name)?;
    }
    ArchSpec::load(name, &[]).or_else(|e| {
        // A GPU name picks its chip's or family's model.
        if let Some(model) = name
            .parse::<shadersim_isa::Target>()
            .ok()
            .and_then(|t| ArchSpec::for_target(&t))
        {
            return Ok(model);
        }
        Err(match e {
            // A model file that is wrong is bad input (exit 1), printed once
            // with its own `FILE:LINE:COL: error:`.
            ArchError::Parse { .. } => CliError::Input(e.to_string()),
            ArchError::Invalid { .. } => CliError::Input(format!("{name}: error: {e}")),
            _ => occupancy_only_error(name).unwrap_or_else(|| CliError::Usage(e.to_string())),
        })
    })
}

/// A file read and its program and model chosen: what stays the same when
/// only `--set` values change (a sweep prepares many runs from one).
#[derive(Debug)]
pub struct Loaded {
    /// The file read.
    pub file: ProgramFile,
    /// Index of the program simulated in `file.programs`.
    pub program: usize,
    /// The model, before `--set` overrides.
    pub arch: ArchSpec,
    /// The TeraScale file the programs came from, if it is one.
    pub r600: Option<shadersim_r600::R600File>,
    /// The launch a Triton cache entry's json gives.
    pub triton: Option<crate::triton::TritonLaunch>,
}

/// Read the file, pick the program and the model (the file's GPU unless
/// `arch` names one). Notes and warnings about the file print here, once.
pub fn load(file: &str, arch: Option<&str>, function: Option<&str>) -> Result<Loaded, CliError> {
    load_with(file, arch, function, Default::default())
}

/// [`load`] compiling source with `source`'s options (`-D`, `--port-es`).
pub fn load_with(
    file: &str,
    arch: Option<&str>,
    function: Option<&str>,
    source: crate::input::SourceOptions<'_>,
) -> Result<Loaded, CliError> {
    let chosen = arch.map(load_arch).transpose()?;
    // Read (or compile) for the GPU named, else the chosen model's.
    let named_gpu = arch
        .and_then(|a| a.parse::<shadersim_isa::Target>().ok())
        .map(|t| t.name);
    let gpu = named_gpu.or_else(|| chosen.as_ref().map(|a| a.isa.name.clone()));
    let crate::input::Listing { file, r600, triton } =
        crate::input::read_listing_with(file, gpu.as_deref(), source)?;
    // A Triton entry's json names its kernel.
    let function = function.or(triton.as_ref().map(|t| t.kernel.as_str()));
    let program = select_program(&file, function)?;
    let arch = match chosen {
        Some(a) => a,
        None => model_of(program)?,
    };
    let program = file
        .programs
        .iter()
        .position(|p| std::ptr::eq(p, program))
        .expect("select_program returns one of the file's programs");
    Ok(Loaded {
        file,
        program,
        arch,
        r600,
        triton,
    })
}

/// The model a program runs on when `--arch` names none: its GPU's chip or
/// family model. Every generation has a family model; a file that names no
/// GPU runs on the arch crate's default model.
pub fn model_of(program: &shadersim_asm::Program) -> Result<ArchSpec, CliError> {
    match program.target.as_ref().and_then(ArchSpec::for_target) {
        Some(a) => Ok(a),
        None => ArchSpec::builtin(shadersim_arch::default_model())
            .map_err(|e| CliError::Input(e.to_string())),
    }
}

/// Read a hints file (`-`: standard input) as `(name, text)`, the name for
/// error messages.
pub fn read_hints(path: &str) -> Result<(String, String), CliError> {
    if path == "-" {
        // `--hints -` reads the hints from standard input (the program
        // then has to come from a file).
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|e| crate::error::cannot_read("<stdin>", &e))?;
        let text = shadersim_trace::hints_text(&bytes)
            .map_err(|e| CliError::Input(e.render("<stdin>", &String::from_utf8_lossy(&bytes))))?;
        return Ok(("<stdin>".to_string(), text.to_string()));
    }
    let bytes = std::fs::read(path).map_err(|e| crate::error::cannot_read(path, &e))?;
    let text = shadersim_trace::hints_text(&bytes)
        .map_err(|e| CliError::Input(e.render(path, &String::from_utf8_lossy(&bytes))))?;
    Ok((path.to_string(), text.to_string()))
}

/// Apply the `--set` overrides and the hints file (read here) to a loaded
/// program and prepare the simulation.
pub fn prepare_loaded(
    loaded: &Loaded,
    hints: Option<&str>,
    sets: &[(String, String)],
) -> Result<Prepared, CliError> {
    let text = hints.map(read_hints).transpose()?;
    prepare_loaded_text(
        loaded,
        text.as_ref().map(|(n, t)| (n.as_str(), t.as_str())),
        sets,
    )
}

/// [`prepare_loaded`] with the hints already read: `(name, text)`, the name
/// for error messages.
pub fn prepare_loaded_text(
    loaded: &Loaded,
    hints: Option<(&str, &str)>,
    sets: &[(String, String)],
) -> Result<Prepared, CliError> {
    let mut prepared = prepare_program(
        &loaded.file,
        loaded.program,
        loaded.arch.clone(),
        hints,
        sets,
        loaded.triton.as_ref(),
    )?;
    prepared.r600.clone_from(&loaded.r600);
    Ok(prepared)
}

/// Prepare program `program` of `file` on `arch` with the hints `(name,
/// text)` and the `--set` pairs (model parameters and dispatch keys): the
/// one preparing path of `analyze`, `compare`, `sweep`, `validate` and
/// `batch`. A Triton entry's launch (`triton`) fills what the hints and `--set` leave open.
pub fn prepare_program(
    file: &ProgramFile,
    program: usize,
    mut arch: ArchSpec,
    hints: Option<(&str, &str)>,
    sets: &[(String, String)],
    triton: Option<&crate::triton::TritonLaunch>,
) -> Result<Prepared, CliError> {
    let program = &file.programs[program];
    let (dispatch_sets, mut arch_sets): (Vec<_>, Vec<_>) = sets
        .iter()
        .partition(|(k, _)| DISPATCH_KEYS.contains(&k.as_str()) || k.starts_with("arg."));
    // The memory switch first, so a flat latency set before it on the
    // command line still applies to the flat model (`ArchSpec::set_all`).
    arch_sets.sort_by_key(|(k, _)| k != shadersim_arch::MEMORY_KEY);
    for (k, v) in &arch_sets {
        arch.set(k, v).map_err(|e| {
            if arch.params.contains_key(k.as_str()) {
                // A value error: the message states the parameter's rule.
                CliError::Usage(e.to_string())
            } else {
                CliError::Usage(format!(
                    "{e}; dispatch keys: {}; a kernel argument: arg.NAME (as `--arg NAME=N`)",
                    DISPATCH_KEYS.join(", ")
                ))
            }
        })?;
    }
    let (mut hints, hints_name, hints_text) = match hints {
        Some((name, text)) => {
            let hints = Hints::parse(text).map_err(|e| CliError::Input(e.render(name, text)))?;
            (hints, name.to_string(), text.to_string())
        }
        None => (Hints::default(), String::new(), String::new()),
    };
    for (k, v) in &dispatch_sets {
        set_dispatch(&mut hints, k, v)?;
    }
    if let Some(t) = triton {
        t.apply(&mut hints);
    }
    // `--set` wins over the hints file: a `cu_count` given on the command
    // line (a model parameter) is not overridden by the file's.
    if arch_sets.iter().any(|(k, _)| k == "cu_count") {
        hints.dispatch.cu_count = None;
    }
    // `source =` hints become this listing's lines here, where the file's
    // `.file` names are known (a program whose graph cannot be built fails
    // below with that error instead).
    let uses_source = hints.loops.iter().any(|h| h.source.is_some())
        || hints.branches.iter().any(|h| h.source.is_some())
        || hints.memory.iter().any(|h| h.source.is_some());
    if uses_source {
        if let Ok(cfg) = shadersim_cfg::Cfg::build(program) {
            hints =
                shadersim_trace::resolve_source_hints(&hints, program, &cfg, &file.source_files)
                    .map_err(|e| CliError::Input(e.render(&hints_name, &hints_text)))?;
        }
    }
    let vgprs = program.register_usage().vgprs.max(1);
    let sim = Simulation::prepare(program, arch, &hints).map_err(|e| match e {
        PrepareError::Hints(h) if h.span.as_ref().is_some_and(|s| s.is_empty()) => {
            CliError::Usage(format!("--set: {}", h.message))
        }
        PrepareError::Hints(h) => CliError::Input(h.render(&hints_name, &hints_text)),
        // A trace over its bound is about a loop: point at its header.
        PrepareError::Trace(
            ref t @ shadersim_trace::TraceError::TooLong {
                loop_line: Some(line),
                ..
            },
        ) => {
            let column = program
                .instructions
                .iter()
                .find(|i| i.pos.line == line)
                .map_or(1, |i| i.pos.column);
            CliError::Input(format!("{}:{line}:{column}: error: {t}", file.file_name))
        }
        other => CliError::Input(format!("{}: error: {other}", file.file_name)),
    })?;
    let mut sim = sim;
    if let Some(t) = triton {
        // What the launch took from Triton's json, first among the report's notes.
        sim.prepend_notes(t.notes.iter().cloned());
    }
    Ok(Prepared {
        file_name: file.file_name.clone(),
        sim,
        vgprs,
        source_files: file.source_files.clone(),
        r600: None,
    })
}

/// Read the file and hints, pick the model, apply the overrides and
/// prepare the simulation.
pub fn prepare(req: RunRequest<'_>) -> Result<Prepared, CliError> {
    let loaded = load_with(req.file, req.arch, req.function, req.source)?;
    prepare_loaded(&loaded, req.hints, req.sets)
}

/// Run the prepared simulation; with `latency_search` also search how much
/// extra VMEM latency it tolerates (that re-runs it a few times).
pub fn analyse(prepared: &Prepared, latency_search: bool) -> Result<Analysis, CliError> {
    let sim = &prepared.sim;
    // The latency search's first simulation runs beside the run.
    let (stats, search) = sim.beside_latency_head(latency_search, || sim.run());
    let input_error =
        |e: &dyn std::fmt::Display| CliError::Input(format!("{}: error: {e}", prepared.file_name));
    analyse_run(
        prepared,
        stats.map_err(|e| input_error(&e))?,
        search.map_err(|e| input_error(&e))?,
    )
}

/// [`analyse`] for a run already done (`stats`, e.g. a recorded run), as
/// [`Simulation::analyse_run`].
pub fn analyse_run(
    prepared: &Prepared,
    stats: SimStats,
    latency_search: LatencySearch,
) -> Result<Analysis, CliError> {
    prepared
        .sim
        .analyse_run(stats, latency_search)
        .map_err(|e| CliError::Input(format!("{}: error: {e}", prepared.file_name)))
}

/// The error for `--arch` naming an occupancy-only model where a simulated
/// one is needed (exit code 2), or `None` when the name is something else.
pub fn occupancy_only_error(name: &str) -> Option<CliError> {
    VendorModel::builtin(name).ok().map(|m| {
        CliError::Usage(format!(
            "`{name}` ({}) is an occupancy-only model, not simulated; try `shadersim occupancy --arch {name} --regs N`",
            m.description
        ))
    })
}
