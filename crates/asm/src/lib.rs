//! shadersim-asm (skeleton).
