//! An operation naming more registers than the engine counts per operation
//! (65,535) is an error, not a panic (issue 35: "few slots per op"). The
//! readers refuse such lines; a program built another way still reaches
//! the engine.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_isa::{Operand, RegFile, RegRange};
use shadersim_trace::Hints;

#[test]
fn an_operation_with_too_many_registers_is_an_error() {
    let opts = ReadOptions {
        target: Some("gfx1100".parse().unwrap()),
        ..Default::default()
    };
    let mut program = read_program_text("t.s", "v_add_f32 v0, v1, v2\ns_endpgm\n", &opts)
        .unwrap()
        .programs
        .remove(0);
    // 65,534 more sources of 1 register each: 65,536 reads.
    let extra = Operand::Reg {
        range: RegRange::single(RegFile::Vgpr, 1),
        neg: false,
        abs: false,
        half: None,
    };
    let ops = &mut program.instructions[0].inst.operands;
    ops.extend(std::iter::repeat_n(extra, 65_534));
    let hints = Hints::parse("[dispatch]\nstage = \"compute\"\nwaves = 1\n").unwrap();
    let e = Simulation::prepare(&program, ArchSpec::builtin("rdna3").unwrap(), &hints)
        .unwrap()
        .run()
        .unwrap_err();
    // 65,536 VGPR reads, plus whatever the op reads implicitly (EXEC):
    // more than 65,535 in any case.
    let text = e.to_string();
    let named: u32 = text
        .strip_prefix("operation 0 of the program names ")
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(named >= 65_536, "{text}");
    assert!(
        text.ends_with("registers; the engine holds at most 65535 per operation"),
        "{text}"
    );
}
