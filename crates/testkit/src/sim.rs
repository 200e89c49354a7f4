//! Preparing an engine run in a test: a built-in model with `--set` pairs,
//! a hints text, and [`Simulation::prepare`], each failure a panic with the
//! library's own message (feature `engine`).

use shadersim_arch::ArchSpec;
use shadersim_asm::Program;
use shadersim_engine::Simulation;
use shadersim_trace::Hints;

/// The built-in model `name` with each `(parameter, value)` of `sets`
/// applied, as `--set` would.
pub fn model(name: &str, sets: &[(&str, &str)]) -> ArchSpec {
    let mut arch = ArchSpec::builtin(name).unwrap_or_else(|e| panic!("{e}"));
    for (key, value) in sets {
        arch.set(key, value)
            .unwrap_or_else(|e| panic!("--set {key}={value}: {e}"));
    }
    arch
}

/// The built-in model `name` with its cache hierarchy off (`memory=flat`):
/// every vector memory op takes `vmem_latency` clocks; then `sets`.
pub fn flat_model(name: &str, vmem_latency: u32, sets: &[(&str, &str)]) -> ArchSpec {
    let latency = vmem_latency.to_string();
    let mut all = vec![("memory", "flat"), ("vmem_latency", latency.as_str())];
    all.extend_from_slice(sets);
    model(name, &all)
}

/// `program` prepared on `arch` with the hints file `hints` (TOML).
pub fn prepare(program: &Program, arch: ArchSpec, hints: &str) -> Simulation {
    let hints = Hints::parse(hints).unwrap_or_else(|e| panic!("{e}"));
    Simulation::prepare(program, arch, &hints).unwrap_or_else(|e| panic!("{e}"))
}

/// `text` read as gfx900 assembly ([`crate::program`]) and prepared on the
/// `gcn` model with `hints`.
pub fn on_gcn(text: &str, hints: &str) -> Simulation {
    prepare(&crate::program(text), model("gcn", &[]), hints)
}

/// Every program of the real-compiler corpus (`tests/fixtures/manifest.toml`) with the models
/// a corpus test runs it on: `gcn`, and its own GPU's model when that is another (`rdna3`
/// for a target no model names). Each item: the fixture's path, the program, the model's name.
pub fn corpus_runs() -> Vec<(String, Program, String)> {
    let dir = crate::fixtures::fixtures_dir();
    let mut out = Vec::new();
    for f in crate::fixtures::Manifest::load().fixture {
        let bytes = std::fs::read(dir.join(&f.path)).unwrap_or_else(|e| panic!("{}: {e}", f.path));
        let target: shadersim_isa::Target = f.target.parse().unwrap_or_else(|e| panic!("{e}"));
        let opts = shadersim_asm::ReadOptions {
            target: Some(target.clone()),
            ..Default::default()
        };
        let file = shadersim_asm::read_program_bytes(&f.path, &bytes, &opts)
            .unwrap_or_else(|e| panic!("{}: {e}", f.path));
        let own = ArchSpec::for_target(&target).map_or_else(|| "rdna3".into(), |a| a.name);
        let mut models = vec!["gcn".to_string()];
        if own != "gcn" {
            models.push(own);
        }
        for p in file.programs {
            for m in &models {
                out.push((f.path.clone(), p.clone(), m.clone()));
            }
        }
    }
    out
}
