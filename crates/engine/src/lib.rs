//! shadersim-engine (skeleton).
