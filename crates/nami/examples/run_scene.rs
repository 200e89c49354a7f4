//! Simulate a built-in scene and print the text report (`cargo run --example run_scene -- builtin:small quad`).
use shadersim_nami::params::NamiParams;
use shadersim_nami::report::Report;
use shadersim_nami::scene::Scene;
use shadersim_nami::shader::Program;
use shadersim_nami::sim::simulate;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("builtin:small", |s| s.as_str());
    let mut params = NamiParams::seed().expect("params");
    for a in &args[2.min(args.len())..] {
        params.set_assignment(a).expect("set");
    }
    params.validate().expect("valid");
    let scene = Scene::builtin(name, &params).expect("scene");
    let program = Program::default_shader();
    let t = std::time::Instant::now();
    let result = simulate(&params, &scene, &program).expect("sim");
    let el = t.elapsed();
    let report = Report::new(&params, &scene.name, 0, program.len(), &result, None);
    print!("{}", report.to_text());
    eprintln!(
        "{} clocks in {:?}: {:.1} M clocks/s",
        result.total_clocks(),
        el,
        result.total_clocks() as f64 / el.as_secs_f64() / 1e6
    );
}
