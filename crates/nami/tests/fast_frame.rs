//! The fast ways of simulating a frame (shader groups in parallel, idle clocks
//! skipped, repeated tile rows replayed) give exactly what rendering the tile rows one after the other
//! on one set of blocks, stepping every clock, gives: every counter, every
//! row's clocks and every pixel.

use shadersim_nami::params::NamiParams;
use shadersim_nami::scene::Scene;
use shadersim_nami::shader::Program;
use shadersim_nami::sim::{simulate_rows_with, FrameResult, SimOptions};

fn assert_same(a: &FrameResult, b: &FrameResult, what: &str) {
    assert_eq!(a.row_clocks, b.row_clocks, "{what}: row clocks");
    assert_eq!(a.triangle_rows, b.triangle_rows, "{what}");
    assert_eq!(a.triangles_drawn, b.triangles_drawn, "{what}");
    assert_eq!(a.raster, b.raster, "{what}: rasterizers");
    assert_eq!(a.sdn, b.sdn, "{what}: SDN");
    assert_eq!(a.akb, b.akb, "{what}: AKB");
    assert_eq!(a.ske, b.ske, "{what}: SKE");
    assert_eq!(a.elt, b.elt, "{what}: ELT");
    assert!(a.framebuffer == b.framebuffer, "{what}: framebuffer");
}

fn check(params: &NamiParams, scene: &Scene, program: &Program, rows: std::ops::Range<u64>) {
    let reference = simulate_rows_with(
        params,
        scene,
        program,
        rows.clone(),
        &SimOptions {
            parallel_groups: false,
            skip_idle: false,
            replay_repeated_rows: false,
        },
    )
    .unwrap();
    for (parallel_groups, skip_idle, replay_repeated_rows) in [
        (false, true, false),
        (true, true, false),
        (true, true, true),
    ] {
        let options = SimOptions {
            parallel_groups,
            skip_idle,
            replay_repeated_rows,
        };
        let fast = simulate_rows_with(params, scene, program, rows.clone(), &options).unwrap();
        assert_same(&fast, &reference, &format!("{} {options:?}", scene.name));
    }
}

#[test]
fn fast_frames_equal_stepping_every_clock_on_the_builtin_scenes() {
    let program = Program::default_shader();
    for interleave in ["r20n", "quad"] {
        let mut params = NamiParams::seed().unwrap();
        params
            .set_assignment(&format!("pixel_interleave={interleave}"))
            .unwrap();
        for name in ["builtin:fullscreen", "builtin:small"] {
            let scene = Scene::builtin(name, &params).unwrap();
            check(&params, &scene, &program, 0..params.tile_rows());
        }
        // Its rows are slow to step in a test build: five rows show the
        // blocks handing their state from row to row.
        let rows = Scene::builtin("builtin:rows", &params).unwrap();
        check(&params, &rows, &program, 3..8);
    }
}

#[test]
fn fast_frames_equal_stepping_every_clock_under_backpressure_and_a_long_shader() {
    let mut params = NamiParams::seed().unwrap();
    for kv in [
        "elt_nami_fifo_depth=1",
        "cache_clocks_per_pixel=5",
        "horizontal_culling=true",
        "raster_clocks_per_triangle=512",
    ] {
        params.set_assignment(kv).unwrap();
    }
    let blend = Program::parse(include_str!("../../../examples/nami/blend.s")).unwrap();
    let text = include_str!("../../../examples/nami/pinwheel.tri");
    let pinwheel = Scene::parse("pinwheel.tri", text).unwrap();
    check(&params, &pinwheel, &blend, 0..params.tile_rows());
    let small = Scene::builtin("builtin:small", &params).unwrap();
    check(&params, &small, &blend, 2..9);
}

#[test]
fn replayed_rows_keep_stale_reads_and_out_of_order_writes() {
    // A slow cache behind one-entry FIFOs: pixels of later triangles read
    // addresses still in flight and overtake older ones. The rows repeat,
    // so all but the first (two) are replayed from their end state.
    let mut params = NamiParams::seed().unwrap();
    for kv in [
        "elt_nami_fifo_depth=1",
        "elt_pixel_fifo_depth=1",
        "cache_clocks_per_pixel=3",
        "raster_clocks_per_triangle=512",
    ] {
        params.set_assignment(kv).unwrap();
    }
    let rows = Scene::builtin("builtin:rows", &params).unwrap();
    let program = Program::default_shader();
    check(&params, &rows, &program, 0..3);
    let fast = simulate_rows_with(&params, &rows, &program, 0..3, &SimOptions::default()).unwrap();
    assert!(fast.framebuffer.stale_previous_reads > 0);
    assert!(fast.framebuffer.out_of_order_writes > 0);
}
