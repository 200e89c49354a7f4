//! shadersim-mem (skeleton).
