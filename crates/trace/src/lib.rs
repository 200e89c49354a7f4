//! shadersim-trace (skeleton).
