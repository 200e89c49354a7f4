//! shadersim-isa (skeleton).
