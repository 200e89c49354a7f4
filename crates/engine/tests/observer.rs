//! The observer sees the run the statistics count, and observing changes
//! no number.

use shadersim_arch::ArchSpec;
use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_engine::observer::{Event, EventLog};
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

fn lighting() -> Simulation {
    let opts = ReadOptions {
        target: Some("gfx900".parse().unwrap()),
        ..Default::default()
    };
    let text = include_str!("../../../tests/fixtures/radv/vega10/lighting.txt");
    let file = read_program_text("lighting.txt", text, &opts).unwrap();
    let program = file
        .programs
        .iter()
        .find(|p| p.name.starts_with("Pixel"))
        .unwrap();
    let hints = Hints::parse("[dispatch]\nstage = \"pixel\"\nwaves = 24\n").unwrap();
    Simulation::prepare(program, ArchSpec::builtin("gfx900").unwrap(), &hints).unwrap()
}

#[test]
fn every_issue_and_free_op_is_told_once_and_numbers_do_not_change() {
    let sim = lighting();
    let plain = sim.run().unwrap();
    let mut log = EventLog::default();
    let observed = sim.run_observed(&mut log).unwrap();
    assert_eq!(plain, observed);
    let issues = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Issue(_)))
        .count() as u64;
    let passes = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Pass(..)))
        .count() as u64;
    assert_eq!(issues, plain.issues);
    assert_eq!(passes, plain.free_ops);
    // Each wave advances one op per issue or pass: together they are its
    // whole trace but the final `s_endpgm`, which ends it instead.
    let per_wave = sim.wave_instructions(&plain) / u64::from(plain.waves);
    assert_eq!(issues + passes, (per_wave - 1) * u64::from(plain.waves));
    let launches = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Launch(..)))
        .count();
    let ends = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::End(..)))
        .count();
    assert_eq!((launches, ends), (24, 24));
    // A wave sits at most once at a time: every sit is followed by a rise
    // of the same wave before its next sit.
    let mut sitting = [false; 24];
    for e in &log.events {
        match *e {
            Event::Sit(_, w, _) => {
                assert!(!sitting[w as usize]);
                sitting[w as usize] = true;
            }
            Event::Rise(_, w) => {
                assert!(sitting[w as usize]);
                sitting[w as usize] = false;
            }
            _ => {}
        }
    }
    assert!(sitting.iter().all(|s| !s));
}
