//! Liveness on every real compiler output in `tests/fixtures`: the peak of
//! live VGPRs never exceeds what the compiler declared
//! (`manifest.toml` `vgprs`; for RADV, ACO's allocated count per shader),
//! and it is close to it. The agreement is printed (run with
//! `--nocapture`) and bounded.

use shadersim_asm::{read_program_bytes, Program, ReadOptions};
use shadersim_liveness::Liveness;
use shadersim_testkit::fixtures::Manifest;
use std::path::PathBuf;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// (fixture, declared VGPRs, computed max register + 1, live peak, ACO's pre-scheduling demand).
type Row = (String, u32, u32, u32, Option<u32>);

fn check(name: String, p: &Program, declared: u32, wave: u32, pre: Option<u32>) -> Row {
    let live = Liveness::analyse(p, wave).unwrap_or_else(|e| panic!("{name}: {e}"));
    let peak = live.peak_vgprs().map_or(0, |a| a.vgprs);
    let named = p.register_usage().computed_vgprs;
    assert!(
        peak <= declared,
        "{name}: live peak {peak} > declared {declared}"
    );
    assert!(
        peak <= named,
        "{name}: live peak {peak} > registers named {named}"
    );
    (name, declared, named, peak, pre)
}

#[test]
fn live_peak_never_exceeds_the_compilers_count_and_is_close() {
    let m = Manifest::load();
    let mut rows: Vec<Row> = Vec::new();
    for f in m.fixture {
        let bytes = std::fs::read(fixtures_dir().join(&f.path)).unwrap();
        let file = read_program_bytes(
            &f.path,
            &bytes,
            &ReadOptions {
                target: Some(f.target.parse().unwrap()),
                ..Default::default()
            },
        )
        .unwrap();
        if f.dialect == "radv" {
            for (p, s) in file.programs.iter().zip(&f.shaders) {
                let name = format!("{} {}", f.path, p.name);
                rows.push(check(
                    name,
                    p,
                    s.vgprs,
                    s.wave_size.unwrap_or(64),
                    s.pre_sched_vgprs,
                ));
            }
            continue;
        }
        let Some(declared) = f.vgprs else { continue };
        let p = file.program(f.function.as_deref()).unwrap();
        rows.push(check(
            f.path.clone(),
            p,
            declared,
            f.wave_size.unwrap_or(64),
            None,
        ));
    }
    let exact = rows.iter().filter(|r| r.3 == r.2).count();
    let within2 = rows.iter().filter(|r| r.2 - r.3 <= 2).count();
    let ratio: f64 = rows
        .iter()
        .map(|r| f64::from(r.3) / f64::from(r.2.max(1)))
        .sum::<f64>()
        / rows.len() as f64;
    println!("fixture: declared / highest named + 1 / live peak / ACO pre-sched");
    for r in &rows {
        println!("  {}: {} / {} / {} / {:?}", r.0, r.1, r.2, r.3, r.4);
    }
    println!(
        "{} programs: live peak = registers named in {exact}, within 2 in {within2}; mean peak / named = {ratio:.3}",
        rows.len()
    );
    assert!(rows.len() >= 80, "{} programs", rows.len());
    // Close: on average the peak is at least 85% of the registers the
    // allocator used (a register allocator packs live values tightly).
    assert!(ratio >= 0.85, "mean peak / named = {ratio:.3}");
}
