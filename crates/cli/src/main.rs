//! `shadersim`: the command-line front of the shadersim libraries.
//!
//! The binary is deliberately thin: it parses arguments (clap), reads files,
//! calls the libraries and maps errors to exit codes (0 success, 1 bad input,
//! 2 bad usage). Everything that computes something lives in a library crate.

use clap::{Parser, Subcommand};
use shadersim_cli::commands;
use std::process::ExitCode;

/// Cycle-level simulator of AMD GPU shaders: where does the time go?
#[derive(Debug, Parser)]
#[command(name = "shadersim", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate a program on a compute unit and report where the time goes.
    Analyze(commands::analyze::Args),
    /// The analysis of two programs, or one program on several models, side by side with a verdict.
    Compare(commands::compare::Args),
    /// Analyze every program of a corpus in parallel (JSON lines), or compare two runs (--diff).
    Batch(commands::batch::Args),
    /// Simulate over a grid of --set / dispatch parameters in parallel (CSV, JSON, SVG plot).
    Sweep(commands::sweep::Args),
    /// List the built-in architecture models (or one model's parameters).
    Archs(commands::archs::Args),
    /// Show the control-flow graph: blocks, edges, loops and branch kinds.
    Cfg(commands::cfg::Args),
    /// Print a complete, commented hints template for a program.
    Hints(commands::hints::Args),
    /// Compile shader source (OpenCL C, GLSL, SPIR-V) for a GPU and print the listing shadersim reads.
    Compile(commands::compile::Args),
    /// Internal: build one pipeline with Mesa RADV in this process (run by `compile` as a child).
    #[command(hide = true)]
    RadvCapture(commands::radv_capture::Args),
    /// GCN memory coalescing: what one wave64 memory instruction costs for a lane address pattern.
    Coalesce(commands::coalesce::Args),
    /// Build, encode and traverse RDNA BVHs over a mesh and report what the Ray Accelerator does.
    Rt(commands::rt::Args),
    /// Cycle model of the FPGA GPU of seed 003 (rasterizers, SDN, AKB/NMB, SKE, ELT) rendering a scene.
    Nami(commands::nami::Args),
    /// Live VGPRs and SGPRs per line, the peak, and the occupancy cliff next to it.
    Liveness(commands::liveness::Args),
    /// Waves per SIMD (XVE, SM sub-partition) at a register count on AMD, Intel and NVIDIA models.
    Occupancy(commands::occupancy::Args),
    /// Reproduce published hardware measurements and print measured, simulated and error per point.
    Validate(commands::validate::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Compare(args) => commands::compare::run(args),
        Command::Batch(args) => commands::batch::run(args),
        Command::Sweep(args) => commands::sweep::run(args),
        Command::Archs(args) => commands::archs::run(args),
        Command::Cfg(args) => commands::cfg::run(args),
        Command::Hints(args) => commands::hints::run(args),
        Command::Compile(args) => commands::compile::run(args),
        Command::RadvCapture(args) => commands::radv_capture::run(args),
        Command::Coalesce(args) => commands::coalesce::run(args),
        Command::Rt(args) => commands::rt::run(args),
        Command::Nami(args) => commands::nami::run(args),
        Command::Liveness(args) => commands::liveness::run(args),
        Command::Occupancy(args) => commands::occupancy::run(args),
        Command::Validate(args) => commands::validate::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}
