//! shadersim-cfg: the control flow of one program.
//!
//! Basic blocks and edges, dominators and post-dominators, natural loops
//! with their nesting, and the kind of every conditional branch (loop back
//! edge, loop exit, loop skip, if/else fork, skip). The tracer uses the
//! kinds to decide, from the user's hints, which way each branch goes.
//!
//! Invariants: the analysis is a pure function of the program; an
//! irreducible graph is reported as [`CfgError::Irreducible`] naming the
//! offending edge, never a panic.

mod graph;

pub use graph::*;
