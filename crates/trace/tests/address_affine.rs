//! Address patterns read from the code (issue 33 item 3).

use shadersim_asm::{read_program_bytes, Program, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_trace::{derive_address_patterns, DerivedAddress};

fn fixture(rel: &str) -> Program {
    let path = format!("{}/../../tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap();
    let file = read_program_bytes(rel, &bytes, &ReadOptions::default()).unwrap();
    file.program(None).unwrap().clone()
}

fn derived(p: &Program, wave: u32) -> Vec<DerivedAddress> {
    let cfg = Cfg::build(p).unwrap();
    derive_address_patterns(p, &cfg, wave)
}

#[test]
#[ignore]
fn print_all() {
    for dir in [
        "llvm/gfx900",
        "llvm/gfx1100",
        "objdump/gfx900",
        "debug-lines/gfx900",
    ] {
        let root = format!("{}/../../tests/fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        for n in names {
            let rel = format!("{dir}/{n}");
            let bytes = std::fs::read(format!("{root}/{n}")).unwrap();
            let Ok(file) = read_program_bytes(&rel, &bytes, &ReadOptions::default()) else {
                continue;
            };
            for p in &file.programs {
                let Ok(cfg) = Cfg::build(p) else { continue };
                for d in derive_address_patterns(p, &cfg, 64) {
                    println!(
                        "{rel} {} line {}: {:?} | {} | {} | {}",
                        p.name,
                        d.line,
                        d.pattern.as_ref().map(|p| p.to_string()),
                        d.pattern_reason,
                        d.wave_stride_reason,
                        d.iteration_stride_reason
                    );
                }
            }
        }
    }
}
