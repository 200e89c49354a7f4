//! shadersim-report (skeleton).
