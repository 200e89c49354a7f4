//! shadersim-cfg (skeleton).
