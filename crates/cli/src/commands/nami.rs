//! `shadersim nami`: run a scene through the cycle model of the seed-003 FPGA
//! GPU and report whether the frame keeps up with the HDMI beam.

use crate::error::{CliError, CliResult};
use shadersim_nami::params::{param_sources, NamiParams};
use shadersim_nami::report::Report;
use shadersim_nami::scene::{Scene, BUILTIN_SCENES};
use shadersim_nami::shader::Program;
use shadersim_nami::sim::simulate;
use std::io::Write;
use std::path::PathBuf;

/// Output format of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// JSON (keys as in the README).
    Json,
}

/// Arguments of `shadersim nami`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scene: a triangle-list file (see the README) or builtin:fullscreen, builtin:small, builtin:rows.
    #[arg(required_unless_present = "params")]
    scene: Option<String>,
    /// Pixel shader in the nami assembly language (default: pack the interpolated colour to RGB565).
    #[arg(long, value_name = "FILE")]
    shader: Option<PathBuf>,
    /// Override a parameter, e.g. --set raster_clocks_per_triangle=512 (repeatable; --params lists them).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the rendered frame as a PNG.
    #[arg(long, value_name = "FILE")]
    image: Option<PathBuf>,
    /// Do not simulate the scene a second time under the other pixel interleave.
    #[arg(long)]
    no_compare: bool,
    /// List every parameter with its default and its source, then exit.
    #[arg(long)]
    params: bool,
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let mut params = NamiParams::seed().map_err(CliError::input)?;
    for assignment in &args.set {
        params
            .set_assignment(assignment)
            .map_err(|e| CliError::Usage(e.to_string()))?;
    }
    params
        .validate()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let mut out = std::io::stdout().lock();
    if args.params {
        for p in param_sources().map_err(CliError::input)? {
            writeln!(out, "{:<36} {:>12}  {}", p.key, p.default, p.source)?;
        }
        return Ok(());
    }
    let Some(scene_arg) = args.scene else {
        return Err(CliError::Usage("a SCENE is required".into()));
    };
    let scene = load_scene(&scene_arg, &params)?;
    let program = match &args.shader {
        None => Program::default_shader(),
        Some(path) => {
            let text = read(path)?;
            Program::parse(&text).map_err(|e| {
                CliError::Input(format!(
                    "{}:{}:{}: error: {}",
                    path.display(),
                    e.line,
                    e.col,
                    e.message
                ))
            })?
        }
    };
    // The comparison run under the other interleave is independent of the
    // main one: both go at once (each also spreads its rows over the cores).
    let mut other_params = params.clone();
    other_params.pixel_interleave = params.pixel_interleave.other();
    let (result, other) = rayon::join(
        || simulate(&params, &scene, &program),
        || (!args.no_compare).then(|| simulate(&other_params, &scene, &program)),
    );
    let result = result.map_err(CliError::input)?;
    let other = other.transpose().map_err(CliError::input)?;
    if let Some(path) = &args.image {
        let png = result
            .framebuffer
            .to_png()
            .map_err(|e| CliError::input(format!("encoding {}: {e}", path.display())))?;
        std::fs::write(path, png)
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))?;
    }
    let report = Report::new(
        &params,
        &scene.name,
        scene.degenerate_dropped,
        program.len(),
        &result,
        other.as_ref(),
    );
    match args.format {
        Format::Text => write!(out, "{}", report.to_text())?,
        Format::Json => writeln!(out, "{}", report.to_json())?,
    }
    Ok(())
}

fn read(path: &PathBuf) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| crate::error::cannot_read(&path.display().to_string(), &e))
}

fn load_scene(arg: &str, params: &NamiParams) -> Result<Scene, CliError> {
    if arg.starts_with("builtin:") {
        return Scene::builtin(arg, params).ok_or_else(|| {
            CliError::input(format!(
                "unknown built-in scene `{arg}` (known: {})",
                BUILTIN_SCENES.join(", ")
            ))
        });
    }
    let path = PathBuf::from(arg);
    let text = read(&path)?;
    Scene::parse(arg, &text).map_err(|e| {
        CliError::Input(format!(
            "{}:{}:{}: error: {}",
            path.display(),
            e.line,
            e.col,
            e.message
        ))
    })
}
