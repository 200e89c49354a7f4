//! shadersim-rt (skeleton).
