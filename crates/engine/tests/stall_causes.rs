//! Why waves sit: each clock a wave sits on an op goes to one cause
//! (`SimStats::op_stall_causes`). Each case is a small program whose stall
//! has one certain cause; the expected wave-clocks are derived in a comment
//! from the model's rules (gcn-model.md, rdna-model.md) and parameters.

use shadersim_engine::{SimStats, Simulation, StallCause};
use shadersim_isa::Counter;
use shadersim_testkit::sim::{flat_model, prepare};

/// `model` in flat-latency mode (every VMEM op `vmem_latency` = 320, as
/// the rules below are derived), with `sets` applied.
/// `text` read for `target`, on `model` with flat 320-clock vector memory and `sets`.
fn sim(model: &str, target: &str, text: &str, hints: &str, sets: &[(&str, &str)]) -> Simulation {
    let program = shadersim_testkit::program_for(target, text);
    prepare(&program, flat_model(model, 320, sets), hints)
}

fn waves(n: u32, group: u32) -> String {
    format!("[dispatch]\nstage = \"compute\"\nworkgroup_size = {group}\nwaves = {n}\n")
}

/// The wave-clocks per cause of instruction `i` of the program.
fn causes(s: &Simulation, st: &SimStats, i: usize) -> Vec<(StallCause, u64)> {
    st.op_stall_causes(s.op_of_instruction(i))
}

fn valu(st: &SimStats) -> usize {
    st.unit_names.iter().position(|u| u == "valu").unwrap()
}

#[test]
fn a_read_of_an_unwritten_register_is_a_dependency() {
    // RDNA 3, one wave32, issue every clock: the first add issues at 0 and
    // its result is readable at 0 + valu_latency (5); the second reads v0,
    // is looked at from clock 1 (the first add held the wave for its cost,
    // 1 clock) and issues at 5: it sits 4 clocks, all for the register.
    let text = "v_add_f32 v0, v0, v1\nv_add_f32 v0, v0, v1\ns_endpgm\n";
    let hints = format!("{}wave_size = 32\n", waves(1, 32));
    let s = sim("rdna3", "gfx1100", text, &hints, &[]);
    let st = s.run().unwrap();
    assert_eq!(causes(&s, &st, 1), vec![(StallCause::Dependency, 4)]);
    assert_eq!(st.op_sat[s.op_of_instruction(1)], 4);
}

#[test]
fn a_wait_for_a_sample_is_a_vmcnt_wait() {
    // GCN, one wave (rules.rs derives the same run): the sample issues at
    // 0, is served 0-32 (rgba8 trilinear) and returns at 32 + 320 = 352.
    // The wave first fails s_waitcnt vmcnt(0) at its turn at 4 and passes
    // it at the turn at 352: 348 clocks, every one waiting for vmcnt, the
    // counter gfx6-9's wait layout names so.
    let text = "image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf\ns_waitcnt vmcnt(0)\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let hints = format!(
        "{}[[memory]]\nline = 1\nfilter = \"trilinear\"\n",
        waves(1, 64)
    );
    let s = sim("gcn", "gfx900", text, &hints, &[]);
    let st = s.run().unwrap();
    assert_eq!(
        causes(&s, &st, 1),
        vec![(StallCause::Wait(Counter::Vm), 348)]
    );
    assert_eq!(StallCause::Wait(Counter::Vm).name(&st.unit_names), "vmcnt");
}

#[test]
fn a_busy_pipe_and_a_barrier_are_named() {
    // GCN with one SIMD (turns every 4 clocks), one workgroup of two
    // waves, launched one a clock: wave 0 at 0, wave 1 at 1.
    // * Turn 0: wave 0 issues v_mul_lo_u32 (quarter rate: the VALU is busy
    //   0-16; wave 0 is ready again at 16).
    // * Turn 4: wave 1 finds the VALU busy until 16: it sits on its
    //   v_mul_lo_u32 from 4; turns 8 and 12 pass it over (asleep until 16).
    // * Turn 16: wave 0 (older) arrives at the barrier (a free op: the VALU
    //   stays free) and wave 1 issues its multiply (VALU busy 16-32): wave
    //   1 sat 4..16 = 12 clocks, all on the busy VALU (it woke at 16, its
    //   own turn: no clock for arbitration).
    // * Turns 20, 24, 28: wave 0 sits at the barrier (from 20); at 32 it is
    //   still there when wave 1 arrives and releases the group (passing at
    //   once); wave 0 passes at its next turn, 36: 36 - 20 = 16 clocks, all
    //   for the barrier.
    let text = "v_mul_lo_u32 v0, v1, v2\ns_barrier\nv_add_f32 v0, v1, v2\ns_endpgm\n";
    let s = sim("gcn", "gfx900", text, &waves(1, 128), &[("simds", "1")]);
    let st = s.run().unwrap();
    let v = valu(&st);
    assert_eq!(causes(&s, &st, 0), vec![(StallCause::UnitBusy(v), 12)]);
    assert_eq!(StallCause::UnitBusy(v).name(&st.unit_names), "valu busy");
    assert_eq!(causes(&s, &st, 1), vec![(StallCause::Barrier, 16)]);
}

#[test]
fn a_wave_the_older_one_keeps_out_is_arbitration() {
    // GCN with one SIMD, two single-wave groups launched at 0 and 1, ten
    // independent adds each. A VALU op costs 4 clocks, one issue interval,
    // so the VALU is free at every turn, and the older wave 0, ready at each
    // turn, takes it at turns 0, 4, ..., 36 and ends at its turn at 40.
    // Wave 1, looked at first at turn 4, could issue but finds the VALU
    // category taken, and sits on its first add until turn 40: 36 clocks,
    // all arbitration.
    let text = format!("{}s_endpgm\n", "v_add_f32 v0, v1, v2\n".repeat(10));
    let s = sim("gcn", "gfx900", &text, &waves(2, 64), &[("simds", "1")]);
    let st = s.run().unwrap();
    assert_eq!(causes(&s, &st, 0), vec![(StallCause::Arbitration, 36)]);
}

#[test]
fn a_wave_waiting_for_its_store_at_the_end_is_the_drain() {
    // GCN, one wave: the store issues at 0 and is served 0-16 (seed 001's
    // store rule: 64 lanes in aligned groups of 4, one group a clock), so
    // its vmcnt falls at 16 + vmem_latency (320) = 336. The wave reaches
    // s_endpgm at its turn at 4 and leaves at 336: 332 clocks at the end,
    // all drain.
    let text = "buffer_store_dword v0, v1, s[0:3], 0 offen\ns_endpgm\n";
    let s = sim("gcn", "gfx900", text, &waves(1, 64), &[]);
    let st = s.run().unwrap();
    assert_eq!(causes(&s, &st, 1), vec![(StallCause::Drain, 332)]);
    assert_eq!(st.wave_clocks_sum, 336);
}
