//! shadersim-nami (skeleton).
