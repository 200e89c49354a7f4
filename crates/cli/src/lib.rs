//! The shadersim command-line tool as a library: every subcommand's arguments and `run`, and
//! [`api`], the typed calls the Python package (`crates/python`) makes in-process. The binary
//! (`main.rs`) and the bindings share this one path, so a report from Python is the CLI's
//! `--format json` report, byte for byte before parsing.

pub mod api;
pub mod commands;
mod diagnostic;
pub mod error;
pub mod input;
mod notes;
mod output;
mod progress;
pub mod triton;
