//! shadersim-arch (skeleton).
