//! Wave slots are reused (issue 30): the simulator holds one slot per wave
//! resident at once, not one per wave of the dispatch, so its memory
//! follows the waves resident. Real compiler output: RADV's lighting pixel
//! shader on Vega (gfx900) and LLVM's BVH8 traversal on RDNA 4 with the
//! bunny's per-wave step counts.

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
    let simds = sim.arch.param("simds").unwrap() as u32;
    let capacity = simds * sim.occupancy.waves_per_simd;
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
