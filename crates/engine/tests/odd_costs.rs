//! A cost that is not a multiple of the issue interval frees its unit
//! between two issue turns. Found by the `--set` property test (issue 17):
//! `salu_clocks = 981` on gcn was reported as a deadlock, because the
//! deadlock check counted the idle turns before the unit freed up.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

#[test]
fn a_unit_freeing_between_turns_is_no_deadlock() {
    let opts = ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    // Two SALU ops per wave on the one CU-wide SALU pipe, waves on all four
    // SIMDs: each op holds the pipe 981 clocks (981 mod 4 = 1), so it frees
    // one clock after some SIMD's turn, and another SIMD issues next.
    let text = "s_add_u32 s0, s0, 1\ns_add_u32 s1, s1, 1\ns_endpgm\n";
    let program = read_program_text("t.s", text, &opts)
        .unwrap()
        .programs
        .remove(0);
    for cost in ["981", "982", "983", "984"] {
        let mut arch = ArchSpec::builtin("gcn").unwrap();
        arch.set("salu_clocks", cost).unwrap();
        let hints = Hints::parse("[dispatch]\nstage = \"compute\"\nwaves = 8\n").unwrap();
        let s = Simulation::prepare(&program, arch, &hints).unwrap();
        let stats = s
            .run()
            .unwrap_or_else(|e| panic!("salu_clocks = {cost}: {e}"));
        // 8 waves x 2 ops, one at a time on the pipe: at least 16 x cost.
        // At most: each op starts within one issue rotation (issue_interval
        // 4: every SIMD has a turn each 4 clocks) of the pipe freeing, and
        // s_endpgm ends the last wave one rotation after its last op: 16 x
        // (cost + 4) + 4. A deadlock-check stall or a lost turn per op
        // exceeds it.
        let c: u64 = cost.parse().unwrap();
        let (min, max) = (16 * c, 16 * (c + 4) + 4);
        assert!(
            (min..=max).contains(&stats.clocks),
            "salu_clocks = {cost}: {} not in {min}..={max}",
            stats.clocks
        );
    }
}
