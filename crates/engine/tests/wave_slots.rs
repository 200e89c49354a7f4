//! Wave slots are reused (issue 30): the simulator holds one slot per wave
//! resident at once, not one per wave of the dispatch, so its memory
//! follows the waves resident. Real compiler output: RADV's lighting pixel
//! shader on Vega (gfx900) and LLVM's BVH8 traversal on RDNA 4 with the
//! bunny's per-wave step counts; and a slot whose retired wave still has
//! a counter-less op in flight waits for its release.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

const LIGHTING: &str = include_str!("../../../tests/fixtures/radv/vega10/lighting.txt");
const TRAVERSE_BVH8: &str = include_str!("../../../examples/rt/traverse_bvh8_gfx1200.s");
const BUNNY_BVH8: &str = include_str!("../../../examples/rt/bunny_bvh8.toml");

fn prepare(
    name: &str,
    text: &str,
    target: &str,
    model: &str,
    hints: &str,
    pick: &str,
) -> Simulation {
    let opts = ReadOptions {
        target: Some(target.parse().unwrap()),
        ..Default::default()
    };
    let file = read_program_text(name, text, &opts).unwrap();
    let program = file
        .programs
        .iter()
        .find(|p| p.name.starts_with(pick))
        .unwrap();
    Simulation::prepare(
        program,
        ArchSpec::builtin(model).unwrap(),
        &Hints::parse(hints).unwrap(),
    )
    .unwrap()
}

/// Run `sim` and check its slots: every resident wave holds one, so there
/// are at least `peak_waves`; a slot is reused as soon as its wave retires
/// unless a unit op of it that counts no counter is still in flight (the
/// end of program waits for every counter), and none of these programs
/// has such an op (their memory ops count vmcnt, lgkmcnt or expcnt), so a
/// new slot is made only when every slot holds a resident wave: never
/// more than the SIMDs' wave slots, `simds x waves_per_simd`.
fn check_slots(sim: &Simulation, waves: u32) {
    let stats = sim.run().unwrap();
    let simds = sim.arch().param("simds").unwrap() as u32;
    let capacity = simds * sim.occupancy().waves_per_simd;
    assert_eq!(stats.waves, waves, "every wave ran");
    assert_eq!(stats.wave_life.len(), waves as usize, "lives by launch id");
    assert!(stats.peak_waves <= stats.wave_slots, "{stats:?}");
    assert!(
        stats.wave_slots <= capacity,
        "{} slots for {capacity} wave slots of the SIMDs",
        stats.wave_slots
    );
    assert!(stats.wave_slots < waves / 4, "{}", stats.wave_slots);
}

#[test]
fn the_lighting_shader_holds_a_slot_per_resident_wave() {
    let hints = "[dispatch]\nstage = \"pixel\"\nwaves = 500\n";
    let sim = prepare("lighting.txt", LIGHTING, "gfx900", "gcn", hints, "Pixel");
    check_slots(&sim, 500);
}

#[test]
fn the_bvh8_traversal_holds_a_slot_per_resident_wave() {
    let sim = prepare(
        "traverse_bvh8_gfx1200.s",
        TRAVERSE_BVH8,
        "gfx1200",
        "rdna4",
        BUNNY_BVH8,
        "",
    );
    let waves = sim.total_waves();
    check_slots(&sim, waves);
}

/// The GCN model with SALU ops served by the scalar memory queue: an op
/// that counts no counter (the ISA counts none for SALU) on a queue unit,
/// whose release comes `smem_latency` = 20 clocks after its service.
fn gcn_with_queued_salu() -> ArchSpec {
    let text = include_str!("../../arch/data/gcn.toml");
    let from = r#""salu" = { issue = "scalar", unit = "salu", cost = "salu_clocks" }"#;
    assert!(text.contains(from));
    let text = text.replace(
        from,
        r#""salu" = { issue = "scalar", unit = "smem", cost = "salu_clocks" }"#,
    );
    ArchSpec::from_toml("gcn-queued-salu.toml", &text).unwrap()
}

#[test]
fn a_slot_waits_for_the_releases_of_its_retired_wave() {
    // Each wave issues `s_mov_b32` to the smem queue (1 clock of service,
    // released 20 clocks later, counting no counter) and reaches
    // `s_endpgm`, which waits only for counters: it retires at once while
    // the release is still in flight. Its slot drains until the release
    // comes, so the slots outnumber the waves ever resident together, and
    // the releases of retired waves still reach their unit (every wave
    // runs; debug builds check that no event comes for a freed slot and
    // that no count underflows).
    let program = shadersim_testkit::program("s_mov_b32 s0, 0\ns_endpgm\n");
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 64\nwaves = 300\n";
    let sim = Simulation::prepare(
        &program,
        gcn_with_queued_salu(),
        &Hints::parse(hints).unwrap(),
    )
    .unwrap();
    let stats = sim.run().unwrap();
    assert_eq!(stats.waves, 300);
    // One wave launches per clock (compute_waves_per_clock = 1; occupancy
    // never stops it). A wave launched at clock t issues at its SIMD's next
    // turn t + d (d < issue_interval = 4), is ready at t + d + 1, and
    // passes `s_endpgm` at its next turn t + d + 4: at most 4 waves are
    // resident at the end of a clock (launched t - 3 .. t when d = 0).
    // Its slot stays held until the release at t + d + 1 + 20, applied
    // before that clock's launch: 21 + d clocks, so 21 to 24 slots.
    assert!(stats.peak_waves <= 4, "{}", stats.peak_waves);
    assert!(
        (21..=24).contains(&stats.wave_slots),
        "{} slots, {} resident at most",
        stats.wave_slots,
        stats.peak_waves
    );
}
