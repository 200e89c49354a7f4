//! Rule tests from vliw5-model.md section 6 on the `cypress` model: every
//! expected number is derived in a comment from the model's rules
//! (vliw_group_clocks = 4, vliw_group_result_clocks = 8, fetch 4 clocks per
//! DWORD per wavefront). Differences between two runs cancel the fixed cost
//! of the clause words and the end of the program.

use shadersim_arch::ArchSpec;
use shadersim_engine::Simulation;
use shadersim_r600::reader::read_r600;
use shadersim_r600::summary::repack;
use shadersim_r600::table::ChipClass;
use shadersim_trace::Hints;

/// A kernel of one ALU clause holding `n` copies of `group` (text lines).
fn alu_kernel(group: &[&str], n: usize) -> String {
    let mut s = String::from(
        "\t.text\nk:\n\tALU 0, @2, KC0[], KC1[]\n\tCF_END\n\tALU clause starting at 2:\n",
    );
    for _ in 0..n {
        for l in group {
            s.push_str("\t  ");
            s.push_str(l);
            s.push('\n');
        }
    }
    s.push_str(".Lfunc_end0:\n");
    s
}

fn clocks(text: &str, waves: u32) -> u64 {
    let file = read_r600("t.s", text, Some("cypress")).unwrap();
    let lowered = shadersim_r600::lower(&file, &file.kernels[0]);
    let hints = Hints::parse(&format!(
        "[dispatch]\nwaves = {waves}\nworkgroup_size = 64\n"
    ))
    .unwrap();
    let sim = Simulation::prepare(
        &lowered.program,
        ArchSpec::builtin("cypress").unwrap(),
        &hints,
    )
    .unwrap();
    sim.run().unwrap().clocks
}

/// Five independent operations, x y z w t.
const FULL: &[&str] = &[
    "ADD T1.X, T0.X, T0.Y,",
    "ADD T1.Y, T0.X, T0.Z,",
    "ADD T1.Z, T0.Y, T0.Z,",
    "ADD T1.W, T0.W, T0.X,",
    "ADD * T2.X, T0.W, T0.Y,",
];

/// One operation reading the previous group's result.
const CHAIN: &[&str] = &["ADD * T1.X, PV.X, 1.0,"];

#[test]
fn full_groups_one_wavefront_issue_every_8_clocks() {
    // Scenario 1: a lone wavefront issues one group per
    // vliw_group_result_clocks = 8 (the two-wavefront interleave), so 8
    // more groups add 8 x 8 = 64 clocks.
    let d = clocks(&alu_kernel(FULL, 9), 1) - clocks(&alu_kernel(FULL, 1), 1);
    assert_eq!(d, 64);
}

#[test]
fn two_wavefronts_fill_the_alu_and_a_third_waits() {
    // Scenario 1: two wavefronts alternate groups in the 4-clock windows,
    // 2 groups per 8 clocks = peak: 8 more groups each still add 64 clocks.
    let d2 = clocks(&alu_kernel(FULL, 9), 2) - clocks(&alu_kernel(FULL, 1), 2);
    assert_eq!(d2, 64);
    // Three wavefronts: a wavefront keeps its interleave phase for its whole
    // ALU clause (vliw5-model.md 4.2), so with oldest-first arbitration the
    // third waits until the first two have finished their clauses and then
    // runs alone: 8 more groups for the pair (64) + 8 alone (64) = 128.
    let d3 = clocks(&alu_kernel(FULL, 9), 3) - clocks(&alu_kernel(FULL, 1), 3);
    assert_eq!(d3, 128);
}

#[test]
fn dependent_chain_takes_the_same_time_for_a_fifth_of_the_work() {
    // Scenario 2: one operation per group, each reading PV: still one group
    // per 8 clocks per wavefront (64 clocks for 8 more groups with two
    // wavefronts), but 1 of 5 slots: 1/5 of the full groups' work.
    let d = clocks(&alu_kernel(CHAIN, 9), 2) - clocks(&alu_kernel(CHAIN, 1), 2);
    assert_eq!(d, 64);
    let file = read_r600("t.s", &alu_kernel(CHAIN, 9), Some("cypress")).unwrap();
    let k = &file.kernels[0];
    assert_eq!((k.static_bundles(), k.static_operations()), (9, 9));
    let full = read_r600("t.s", &alu_kernel(FULL, 9), Some("cypress")).unwrap();
    assert_eq!(full.kernels[0].static_operations(), 5 * 9);
}

#[test]
fn t_only_operations_cannot_share_a_group() {
    // Scenario 6: two independent RECIP_IEEE are two groups although four
    // slots stay empty: both are t-only (the table), the re-pack keeps 2.
    let text = alu_kernel(&["RECIP_IEEE * T1.X, T0.X,", "RECIP_IEEE * T1.Y, T0.Y,"], 1);
    let file = read_r600("t.s", &text, Some("cypress")).unwrap();
    let k = &file.kernels[0];
    assert_eq!(k.static_bundles(), 2);
    assert_eq!(repack(k, ChipClass::Evergreen).static_bundles, 2);
    // Two independent ADDs written as two groups re-pack into one (x, y).
    let adds = alu_kernel(&["ADD * T1.X, T0.X, T0.Y,", "ADD * T1.Y, T0.Z, T0.W,"], 1);
    let file = read_r600("t.s", &adds, Some("cypress")).unwrap();
    assert_eq!(
        repack(&file.kernels[0], ChipClass::Evergreen).static_bundles,
        1
    );
}

#[test]
fn fetch_bound_kernel_costs_the_fetch_path_per_wavefront() {
    // Scenario 10: six VTX_READ_32 per wavefront at 4 clocks each = 24
    // clocks of the SIMD's fetch path; the ALU work is one group (4 clocks).
    // NUM_GPRS = 8 (config word 8): floor(248 / 8) = 31 wavefronts fit.
    // From 20 wavefronts on, 20 x 24 = 480 clocks of fetches exceed the
    // 300-clock fetch latency (vmem_latency), so the path stays busy: 10 more wavefronts
    // add 10 x 24 = 240 clocks.
    let mut text = String::from("\t.section .AMDGPU.config\n\t.long 166100\n\t.long 8\n\t.text\nk:\n\tTEX 5 @2\n\tALU 0, @14, KC0[], KC1[]\n\tCF_END\n\tPAD\n\tFetch clause starting at 2:\n");
    for i in 0..6 {
        text.push_str(&format!("\t  VTX_READ_32 T{}.X, T0.X, 0, #1\n", i + 1));
    }
    text.push_str("\tALU clause starting at 14:\n\t  ADD * T7.X, T1.X, T2.X,\n.Lfunc_end0:\n");
    let d = clocks(&text, 30) - clocks(&text, 20);
    assert_eq!(d, 240);
}

#[test]
fn read_ports_limit_the_repack() {
    // Scenario 4's port rule: three read cycles, one X-channel GPR each.
    // Two ADDs reading T1.X, T2.X and T3.X, T4.X need four X addresses:
    // they stay in 2 groups. Reading T1.X and T3.Y instead: 3 X addresses
    // at most, 1 group.
    let four = alu_kernel(&["ADD * T5.X, T1.X, T2.X,", "ADD * T5.Y, T3.X, T4.X,"], 1);
    let file = read_r600("t.s", &four, Some("cypress")).unwrap();
    assert_eq!(
        repack(&file.kernels[0], ChipClass::Evergreen).static_bundles,
        2
    );
    let shared = alu_kernel(&["ADD * T5.X, T1.X, T2.X,", "ADD * T5.Y, T1.X, T3.Y,"], 1);
    let file = read_r600("t.s", &shared, Some("cypress")).unwrap();
    assert_eq!(
        repack(&file.kernels[0], ChipClass::Evergreen).static_bundles,
        1
    );
}

#[test]
fn the_interleave_is_a_parameter() {
    // Multi2Sim's pipelined variant (vliw_group_result_clocks = 4): a lone
    // wavefront's full groups now issue every 4 clocks, so 8 more groups add
    // 8 x 4 = 32 clocks instead of 64.
    let run = |n| {
        let file = read_r600("t.s", &alu_kernel(FULL, n), Some("cypress")).unwrap();
        let lowered = shadersim_r600::lower(&file, &file.kernels[0]);
        let mut arch = ArchSpec::builtin("cypress").unwrap();
        arch.set("vliw_group_result_clocks", "4").unwrap();
        let hints = Hints::parse("[dispatch]\nwaves = 1\nworkgroup_size = 64\n").unwrap();
        Simulation::prepare(&lowered.program, arch, &hints)
            .unwrap()
            .run()
            .unwrap()
            .clocks
    };
    assert_eq!(run(9) - run(1), 32);
}
