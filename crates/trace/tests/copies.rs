//! Lines with several copies: a device function followed from two calls
//! has its loop twice, at the same source line; a hint on that line is for
//! both, and the template names the line once.

use shadersim_asm::{read_program_bytes, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_trace::{hints_template, memory_facts, Hints, TracePlan, WaveTrace};

#[test]
fn a_line_hint_applies_to_every_copy() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../asm/tests/data/calls_gfx900.s"
    );
    let bytes = std::fs::read(path).unwrap();
    let file = read_program_bytes("calls_gfx900.s", &bytes, &ReadOptions::default()).unwrap();
    let p = file.program(None).unwrap();
    let cfg = Cfg::build(p).unwrap();
    // helper's one loop, once per call.
    assert_eq!(cfg.loops.len(), 2);
    let line = |l: usize| {
        p.instructions[cfg.blocks[cfg.loops[l].header].start]
            .pos
            .line
    };
    assert_eq!(line(0), line(1));
    let text = format!("[[loop]]\nline = {}\niterations = 8\n", line(0));
    let hints = Hints::parse(&text).unwrap();
    let plan = TracePlan::from_hints(p, &cfg, &hints).unwrap();
    assert_eq!(plan.iterations, vec![8, 8]);
    let mem = format!("[[memory]]\nline = {}\npattern = \"uniform\"\n", {
        let i = p
            .instructions
            .iter()
            .position(|i| i.inst.mnemonic.starts_with("global_load"))
            .unwrap();
        p.instructions[i].pos.line
    });
    let facts = memory_facts(p, &Hints::parse(&mem).unwrap()).unwrap();
    assert_eq!(facts.len(), 2, "both copies of the load");
    let trace = WaveTrace::expand(p, &cfg, &plan).unwrap();
    assert!(!trace.ops.is_empty());
    let template = hints_template(
        "calls_gfx900.s",
        p,
        &cfg,
        shadersim_trace::ModelFigures::default(),
    );
    assert_eq!(template.matches("[[loop]]").count(), 1, "{template}");
}
