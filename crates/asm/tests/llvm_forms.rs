//! Issue 35 item 3: the operand grammar against llvm-mc-22, for every
//! mnemonic of the instruction table on every generation that lists it.
//!
//! `data/llvm_forms.tsv` (written by scripts/isa/gen_operand_counts.py,
//! no llvm tool needed here) holds one whole line per mnemonic and
//! generation that llvm-mc-22 assembled with `-show-encoding` for that
//! generation's probe processor, and the VGPRs, SGPRs and AGPRs the line
//! names. shadersim's reader must accept each line for that processor,
//! with the same mnemonic and the same registers.

use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_isa::{Instruction, RegFile};

const CORPUS: &str = include_str!("data/llvm_forms.tsv");

/// One corpus line: generation, mnemonic, processor, text, registers.
struct Form<'a> {
    gen: &'a str,
    mnemonic: &'a str,
    cpu: &'a str,
    line: &'a str,
    regs: (u32, u32, u32),
}

fn forms() -> Vec<Form<'static>> {
    CORPUS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 8, "bad corpus line {l:?}");
            let n = |i: usize| c[i].parse::<u32>().expect("a count");
            Form {
                gen: c[0],
                mnemonic: c[1],
                cpu: c[2],
                line: c[3],
                regs: (n(4), n(5), n(6)),
            }
        })
        .collect()
}

fn read(cpu: &str, text: &str) -> Result<shadersim_asm::ProgramFile, shadersim_asm::AsmError> {
    let opts = ReadOptions {
        target: Some(cpu.parse().expect("a processor shadersim knows")),
        ..Default::default()
    };
    read_program_text("f.s", text, &opts)
}

/// (VGPRs, SGPRs, AGPRs) of an instruction and its VOPD second half, as
/// 32-bit registers summed over operands; ttmp and named scalar registers
/// (vcc, m0, null, ...) count as SGPRs, as the corpus counts them.
fn registers(inst: &Instruction) -> (u32, u32, u32) {
    let mut n = (0, 0, 0);
    let mut add = |i: &Instruction| {
        for op in &i.operands {
            for r in op.regs() {
                let c = u32::from(r.count);
                match r.file {
                    RegFile::Vgpr => n.0 += c,
                    RegFile::Agpr => n.2 += c,
                    RegFile::Sgpr | RegFile::Ttmp | RegFile::Special => n.1 += c,
                }
            }
        }
    };
    add(inst);
    if let Some(d) = &inst.dual {
        add(d);
    }
    n
}

#[test]
fn every_llvm_form_of_the_table_reads_with_its_mnemonic_and_registers() {
    let forms = forms();
    // Every generation gfx6-gfx12 is in the corpus, and most of the
    // table's ~2078 mnemonics several times over.
    assert!(forms.len() > 5000, "{} corpus lines", forms.len());
    let mut failures = Vec::new();
    for f in &forms {
        let mut text = format!("{}\ns_endpgm\n", f.line);
        // llvm-mc takes a branch offset as a number (`s_branch 0`); the
        // reader wants a label in text without addresses (what compilers
        // print): the same line with a label there.
        if let Some(head) = f.line.strip_suffix(" 0").filter(|_| {
            f.mnemonic.starts_with("s_cbranch")
                || f.mnemonic.starts_with("s_branch")
                || f.mnemonic.starts_with("s_call")
        }) {
            text = format!(".LBB0:\n{head} .LBB0\ns_endpgm\n");
        }
        let file = match read(f.cpu, &text) {
            Ok(file) => file,
            // llvm-mc assembles `v_illegal`, but the GPU traps on it: the reader refuses it
            // at its line (issue 47 item 12).
            Err(e)
                if f.mnemonic == "v_illegal" && e.to_string().contains("illegal instruction") =>
            {
                continue;
            }
            Err(e) => {
                failures.push(format!("gfx{} {} `{}`: {e}", f.gen, f.cpu, f.line));
                continue;
            }
        };
        let inst = &file.programs[0].instructions[0].inst;
        let named = inst.mnemonic == f.mnemonic
            || inst.dual.as_ref().is_some_and(|d| d.mnemonic == f.mnemonic);
        if !named {
            failures.push(format!(
                "gfx{} {} `{}`: read as `{}`",
                f.gen, f.cpu, f.line, inst.mnemonic
            ));
        }
        let got = registers(inst);
        if got != f.regs {
            failures.push(format!(
                "gfx{} {} `{}`: (VGPRs, SGPRs, AGPRs) read {got:?}, llvm-mc's line names {:?}",
                f.gen, f.cpu, f.line, f.regs
            ));
        }
        if !inst.valid_for_gen {
            failures.push(format!(
                "gfx{} {} `{}`: not listed for its generation",
                f.gen, f.cpu, f.line
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} llvm-mc-22 forms misread:\n{}",
        failures.len(),
        forms.len(),
        failures[..failures.len().min(60)].join("\n")
    );
}

#[test]
fn forms_llvm_mc_refuses_are_refused() {
    // Each line is refused by llvm-mc-22 with the -mcpu given, its message
    // quoted; shadersim's reader must refuse it too (an error at the line).
    for (cpu, line, llvm) in [
        // A VALU destination is a VGPR: "invalid operand for instruction".
        ("gfx900", "v_add_f32 s0, v1, v2", "invalid operand"),
        ("gfx1100", "v_mov_b32 s0, v1", "invalid operand"),
        // A scalar op takes no VGPR: "invalid operand for instruction".
        ("gfx1030", "s_add_u32 s0, v1, s2", "invalid operand"),
        // An LDS address is a VGPR; a buffer resource is SGPRs.
        ("gfx900", "ds_read_b32 v0, s0", "invalid operand"),
        (
            "gfx900",
            "buffer_load_dword v0, v1, v[0:3], 0 offen",
            "invalid operand",
        ),
        // Too few: "too few operands for instruction".
        ("gfx803", "v_mad_f32 v0, v1, v2", "too few operands"),
        (
            "gfx1100",
            "v_interp_mov_f32 v2, p0",
            "instruction not supported",
        ),
        ("gfx906", "v_interp_mov_f32 v2, p0", "too few operands"),
        // llvm-mc-22 names the last operand here ("invalid operand for
        // instruction" at the third v[0:1]): the fourth is missing.
        (
            "tahiti",
            "v_fma_f64 v[0:1], v[0:1], v[0:1]",
            "invalid operand",
        ),
    ] {
        let r = read(cpu, &format!("{line}\ns_endpgm\n"));
        assert!(
            r.is_err(),
            "{cpu} `{line}` read, llvm-mc-22 refuses it ({llvm})"
        );
    }
}

#[test]
fn interpolation_parameters_read_on_every_generation_with_v_interp() {
    // RADV's flat-shaded varyings: `v_interp_mov_f32 v2, p0, attr2.x`
    // (llvm-mc-22 assembles p0, p10 and p20 on tahiti, gfx803, gfx900,
    // gfx1010 and gfx1030; gfx11 has no v_interp_mov_f32).
    for cpu in [
        "tahiti", "hawaii", "gfx803", "gfx900", "gfx906", "gfx1010", "gfx1030",
    ] {
        for p in ["p0", "p10", "p20"] {
            let line = format!("v_interp_mov_f32 v2, {p}, attr2.x");
            let file = read(cpu, &format!("{line}\ns_endpgm\n"))
                .unwrap_or_else(|e| panic!("{cpu} `{line}`: {e}"));
            let inst = &file.programs[0].instructions[0].inst;
            assert_eq!(registers(inst), (1, 0, 0), "{cpu} `{line}`");
        }
    }
}
