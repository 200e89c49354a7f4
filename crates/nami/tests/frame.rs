//! Whole-pipeline tests: the seed's frame budget, its best case, the effect
//! of the pixel interleave on partial Nami, and backpressure.

use shadersim_nami::params::{NamiParams, PixelInterleave};
use shadersim_nami::report::{partial_nami_fraction, Report};
use shadersim_nami::scene::Scene;
use shadersim_nami::shader::Program;
use shadersim_nami::sim::{simulate_rows, SimError};

fn seed() -> NamiParams {
    NamiParams::seed().unwrap()
}

#[test]
fn rows_scene_fills_a_tile_row_with_66_triangles_and_fits_the_budget() {
    let params = seed();
    let scene = Scene::builtin("builtin:rows", &params).unwrap();
    let program = Program::default_shader();
    let r = simulate_rows(&params, &scene, &program, 0..1).unwrap();
    let clocks = r.row_clocks[0];
    // 66 triangles x 3,072 clocks, plus the pipeline draining behind the
    // last pixel: the Nami's 8 instructions, the ELT and the cache.
    assert!(clocks >= 66 * 3072, "{clocks}");
    assert!(clocks < 66 * 3072 + 100, "{clocks}");
    assert!(clocks <= 204_800);
    // Every triangle covers all 1,024 pixels of every rasterizer: full Nami only.
    assert_eq!(r.elt.pixels_written, 66 * 20 * 1024);
    assert_eq!(partial_nami_fraction(&r), 0.0);
    assert_eq!(r.sdn.fill_histogram[8], 66 * 20 * 1024 / 8);
    // Rasterizers A and B of a pair stay in step: every Nami is completed
    // exactly by both (figure 3 lower left), never by overflow.
    assert_eq!(r.sdn.completed_exactly, r.sdn.fill_histogram[8]);
    let report = Report::new(&params, &scene.name, 0, program.len(), &r, None);
    assert!(report.fits_60hz);
    assert_eq!(report.tile_row_budget_clocks, 204_800);
}

#[test]
fn a_67th_triangle_overruns_the_budget() {
    // The seed's 67 is 66.67 rounded up: 67 x 3,072 = 205,824 > 204,800.
    let params = seed();
    let mut scene = Scene::builtin("builtin:rows", &params).unwrap();
    let first_row: Vec<_> = scene.triangles[..66].to_vec();
    scene.triangles = first_row.clone();
    scene.triangles.push(first_row[0]);
    let r = simulate_rows(&params, &scene, &Program::default_shader(), 0..1).unwrap();
    assert!(r.row_clocks[0] > 204_800);
    let report = Report::new(&params, &scene.name, 0, 8, &r, None);
    assert!(!report.fits_60hz);
    assert!(report.achievable_frame_rate_hz < 60.0);
}

#[test]
fn quads_send_fewer_partial_nami_than_r20n_on_small_triangles() {
    let mut params = seed();
    let scene = Scene::builtin("builtin:small", &params).unwrap();
    let program = Program::default_shader();
    let r20n = simulate_rows(&params, &scene, &program, 0..1).unwrap();
    params.pixel_interleave = PixelInterleave::Quad;
    let quad = simulate_rows(&params, &scene, &program, 0..1).unwrap();
    let (a, b) = (partial_nami_fraction(&r20n), partial_nami_fraction(&quad));
    // With R + 20N a 12-pixel-wide triangle gives each rasterizer at most one
    // pixel per line, 96 clocks apart: the 32-clock timer sends every Nami
    // partial. Quads keep a triangle's pixels together in one rasterizer.
    assert_eq!(a, 1.0);
    // Tile row 0 holds the cells cy = 0, 1 (y0 = 2, 18): 2 x 40 triangles,
    // half of each orientation. With dx, dy the pixel's offset from (x0, y0)
    // and centres at +0.5:
    // * right angle top-left ((cx + cy) even): dx + dy + 1 < 12, the
    //   hypotenuse a bottom-right edge (top-left rule: centres on it are
    //   out): line dy has 11 - dy pixels, 66 in all;
    // * right angle bottom-right: dx + dy + 1 >= 12 with dx, dy <= 11, the
    //   hypotenuse a top-left edge (centres on it are in): line dy has
    //   dy + 1 pixels, 78 in all.
    // 40 x 66 + 40 x 78 = 5,760 pixels.
    assert_eq!(quad.elt.pixels_written, 5760);
    assert_eq!(r20n.elt.pixels_written, 5760);
    // Quads: the triangle lies in one 32x32 tile, so one rasterizer; its
    // SDN partner owns the next tile and has no pixel of it while it is
    // walked. x0, y0 are even, so the quad rows are the line pairs (2k,
    // 2k + 1). The walk takes a position every 3 clocks (1,024 in 3,072);
    // inside a quad row the covered positions are at most 2 apart (6 clocks
    // < the 32-clock timer): one run; from one quad row's last covered
    // pixel to the next's first lie more than 8 uncovered quads (> 96
    // clocks): the timer sends what is left. A run of n pixels gives
    // n / 8 full Nami and, unless 8 divides n, one partial.
    // * 66-pixel triangle: runs 21, 17, 13, 9, 5, 1: full 2, 2, 1, 1, 0, 0;
    //   partial ones of 5, 1, 5, 1, 5, 1 lanes.
    // * 78-pixel triangle: runs 3, 7, 11, 15, 19, 23: full 0, 0, 1, 1, 2, 2;
    //   partial ones of 3, 7, 3, 7, 3, 7 lanes.
    // Per triangle 6 full and 6 partial Nami: a share of exactly 0.5.
    let mut histogram = [0u64; 9];
    histogram[8] = 80 * 6;
    for lanes in [5, 1, 3, 7] {
        histogram[lanes] = 40 * 3;
    }
    assert_eq!(quad.sdn.fill_histogram, histogram);
    assert_eq!(b, 0.5, "quad partial share {b}");
    let report = Report::new(&params, &scene.name, 0, program.len(), &quad, Some(&r20n));
    let cmp = report.interleave_comparison.unwrap();
    assert_eq!((cmp.interleave, cmp.other_interleave), ("quad", "r20n"));
    // The comparison is (other - this) / this with this = quad's 0.5 and
    // other = R + 20N's 1.0 (both derived above): exactly +100%.
    assert_eq!(cmp.relative_change, 1.0);
    assert_eq!(cmp.other_max_tile_row_clocks, 80 * 3072);
}

#[test]
fn horizontal_culling_shortens_the_small_triangle_row() {
    let mut params = seed();
    let scene = Scene::builtin("builtin:small", &params).unwrap();
    let program = Program::default_shader();
    // 80 triangles reach tile row 0; without horizontal culling every
    // rasterizer walks all of them: 80 x 3,072 clocks.
    let plain = simulate_rows(&params, &scene, &program, 0..1).unwrap();
    assert_eq!(plain.row_clocks[0], 80 * 3072);
    params.pixel_interleave = PixelInterleave::Quad;
    params.horizontal_culling = true;
    let culled = simulate_rows(&params, &scene, &program, 0..1).unwrap();
    // A 32-pixel tile holds two 16-pixel cells across, two cell rows: four
    // triangles per rasterizer, each a whole 3,072-clock walk of the tile.
    // The pipeline tail (timer, Nami, ELT, cache: under 100 clocks, the
    // rows test) hides behind the last walk: the last triangle's covered
    // pixels end on line y0 + 11 = 29 of the tile (y0 = 18), in quad row
    // 14, and the walk still visits quad row 15 after it: 16 quads x 4
    // positions x 3 clocks = 192 clocks > the tail. So the row ends with
    // the walk, exactly.
    assert_eq!(culled.row_clocks[0], 4 * 3072);
    assert_eq!(culled.elt.pixels_written, plain.elt.pixels_written);
}

#[test]
fn a_slow_cache_pushes_back_through_elt_ske_akb_to_the_rasterizers() {
    let mut params = seed();
    params.cache_clocks_per_pixel = 16;
    let scene = Scene::builtin("builtin:fullscreen", &params).unwrap();
    let r = simulate_rows(&params, &scene, &Program::default_shader(), 0..1).unwrap();
    // Every pixel still arrives: 640 x 32.
    assert_eq!(r.elt.pixels_written, 640 * 32);
    // Each of the 20 cache banks (2 per ELT, 10 ELTs) writes 640 x 32 / 20
    // = 1,024 pixels at one per 16 clocks: 16,384 clocks at least. The
    // rasterizers offer a pixel every 3 clocks, so apart from two windows
    // the cache is the bottleneck and never idles: before the first pixel
    // reaches it, and while the second triangle, which covers only the
    // row's right end (x > 640 x (1 - 32/480) = 597), is walked for 3,072
    // clocks with few pixels and the buffers in front of the cache drain.
    // Those two windows and the tail bound the excess: under 3,072 + 100.
    let clocks = r.row_clocks[0];
    assert!(
        (1024 * 16..1024 * 16 + 3072 + 100).contains(&clocks),
        "{clocks}"
    );
    // Seed, AKB function 4: every clock the AKB's NMBs are all full gates
    // the SDN and both of its rasterizers. Both rasterizers of an SDN walk
    // the same triangles in step and finish together, after the last full
    // clock: exactly two gated rasterizer clocks per full clock.
    assert_eq!(r.raster.gated_clocks, 2 * r.akb.all_full_clocks);
    // A rasterizer walks 2 triangles x 3,072 clocks and is otherwise gated
    // until it is done, at most the row's clocks: each of the 10 AKBs is
    // full for at most clocks - 6,144 clocks. It is full for at least the
    // clocks by which the cache, not the walk, sets a rasterizer's pace:
    // its bank's 16,384 clocks less the walk's 6,144 and less the pixels
    // the pipeline holds past the AKB (2 NMBs x 32 Nami x 8 pixels for 2
    // banks: 256 per bank, 4,096 clocks at 16 per pixel).
    let full = r.akb.all_full_clocks;
    assert!(full <= 10 * (clocks - 6144), "{full}");
    assert!(full >= 10 * (16_384 - 6144 - 4096), "{full}");
    // Behind the AKB the same backpressure shows: an AKB stays full only
    // while the SKE cannot retire a Nami, that is while its export is
    // refused, which happens only while the ELT's Nami FIFO is full behind a
    // head pixel whose bank FIFO is full; the ELT counts each such clock.
    assert!(
        r.elt.pixel_fifo_full_clocks >= full,
        "{}",
        r.elt.pixel_fifo_full_clocks
    );
    assert!(r.ske.export_retries > 0);
}

#[test]
fn four_rasterizers_per_sdn_break_the_akbs_spacing_assumption() {
    // Seed, AKB notes: the AKB relies on at most one Nami every four clocks.
    // Four rasterizers at full rate give one every six: fine. At the 512
    // target each rasterizer sends a pixel per clock and two of them fill a
    // Nami every four clocks; four of them every two.
    let mut params = seed();
    params.raster_clocks_per_triangle = 512;
    params.rasterizers_per_sdn = 4;
    params.validate().unwrap();
    let scene = Scene::builtin("builtin:fullscreen", &params).unwrap();
    let r = simulate_rows(&params, &scene, &Program::default_shader(), 0..1).unwrap();
    assert!(r.akb.add_spacing_violations > 0);
    assert_eq!(r.elt.pixels_written, 640 * 32);
}

#[test]
fn overlapping_triangles_in_flight_lose_ordering() {
    // The same full-screen pair drawn twice back to back: every pixel of the
    // second copy is rasterized 3,072 clocks after the first, long after it
    // was written; but at 512 clocks with a slow cache they overlap in flight.
    let mut params = seed();
    params.raster_clocks_per_triangle = 512;
    params.cache_clocks_per_pixel = 8;
    let mut scene = Scene::builtin("builtin:fullscreen", &params).unwrap();
    let copy = scene.triangles.clone();
    scene.triangles.extend(copy);
    let r = simulate_rows(&params, &scene, &Program::default_shader(), 0..1).unwrap();
    assert!(r.framebuffer.stale_previous_reads > 0);
}

#[test]
fn a_shader_longer_than_the_icache_is_an_error() {
    let mut params = seed();
    params.icache_instructions = 4;
    let scene = Scene::builtin("builtin:fullscreen", &params).unwrap();
    let e = simulate_rows(&params, &scene, &Program::default_shader(), 0..1).unwrap_err();
    assert!(matches!(
        e,
        SimError::ShaderTooLong {
            len: 8,
            capacity: 4
        }
    ));
    let e = simulate_rows(&seed(), &scene, &Program::default_shader(), 3..99).unwrap_err();
    assert!(matches!(e, SimError::RowsOutOfRange { .. }));
}
