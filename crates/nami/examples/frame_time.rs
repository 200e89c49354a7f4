//! Time one `builtin:rows` frame (`frame_time [raster_clocks_per_triangle] [r20n|quad] [rows]`),
//! to profile the cycle loop without the CLI (e.g. under callgrind).

use shadersim_nami::params::NamiParams;
use shadersim_nami::scene::Scene;
use shadersim_nami::shader::Program;
use shadersim_nami::sim::simulate_rows;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut params = NamiParams::seed().expect("embedded parameters load");
    if let Some(c) = args.get(1) {
        params
            .set_assignment(&format!("raster_clocks_per_triangle={c}"))
            .expect("a clock count");
    }
    if let Some(i) = args.get(2) {
        params
            .set_assignment(&format!("pixel_interleave={i}"))
            .expect("an interleave");
    }
    let rows = args
        .get(3)
        .and_then(|r| r.parse().ok())
        .unwrap_or(params.tile_rows());
    let scene = Scene::builtin("builtin:rows", &params).expect("built-in scene");
    let program = Program::default_shader();
    let start = std::time::Instant::now();
    let r = simulate_rows(&params, &scene, &program, 0..rows).expect("frame simulates");
    println!(
        "{} clocks, {} SKE slots, {:.3} s",
        r.total_clocks(),
        r.ske.slots,
        start.elapsed().as_secs_f64()
    );
}
