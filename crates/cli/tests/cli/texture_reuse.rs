//! Image ops without address hints read a screen-space (pixel shaders) or 2D (compute) tile
//! of texels per wave, neighbouring waves on neighbouring tiles, with a filter chosen by stage
//! and instruction; the report's `defaults` says so (crates/mem/src/footprint.rs).
//!
//! The shaders are GLSL written for these tests, compiled by Mesa RADV on its null device:
//!
//! ```text
//! target/release/shadersim compile tests/texture_reuse/one_sample.frag --arch gfx900 -o tests/texture_reuse/one_sample.s
//! target/release/shadersim compile tests/texture_reuse/lod_sample.frag --arch gfx900 -o tests/texture_reuse/lod_sample.s
//! target/release/shadersim compile tests/texture_reuse/scale_2d.comp --arch gfx900 -o tests/texture_reuse/scale_2d.s
//! ```
//!
//! (each also writes the driver's `.stats.toml` next to the listing). The footprints, in the
//! model's layout: texels in Morton order, so a 64-byte line (gcn.toml `[cache]`:
//! `l1_line_bytes` = `l2_line_bytes_cache` = 64) holds a 4x4 block of 4-byte rgba8 texels
//! (the default format); one texel per pixel; wave k's 8x8 tile at the k-th place of a Z-order
//! walk (wave 1 right of wave 0, wave 2 below it, ...).

use crate::{json_of, stdout_of};

/// `analyze FILE --arch gfx900 --set waves=N` in `format`: its report.
fn analyze(file: &str, waves: u32, format: &str) -> String {
    let waves = format!("waves={waves}");
    stdout_of(&[
        "analyze",
        file,
        "--arch",
        "gfx900",
        "--set",
        &waves,
        "--format",
        format,
        "--no-latency-search",
    ])
}

fn json(file: &str, waves: u32) -> serde_json::Value {
    serde_json::from_str(&analyze(file, waves, "json")).expect("JSON report")
}

/// The instruction of `json` whose text starts with `prefix`.
fn instruction<'a>(json: &'a serde_json::Value, prefix: &str) -> &'a serde_json::Value {
    json["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["text"].as_str().unwrap().starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in {json}"))
}

/// `texture(tex, uv)` in a pixel shader: `image_sample` with implicit derivatives, so the
/// default filter is trilinear, and the default screen-space footprint applies.
///
/// Requests per wave: the 8x8 tile's bilinear footprint is texels 0..=8 each way at mip 0,
/// which in 4x4-texel lines is 3 x 3 = 9 lines; trilinear adds mip 1's 2x2 texels around
/// (x/2, y/2): texels 0..=4 each way (4..=8 for an odd tile), 2 x 2 = 4 lines; 13 in all, for
/// every tile (tiles start on multiples of 8 at mip 0 and of 4 at mip 1).
///
/// First-level hit rate of 16 waves (a 4x4-tile square of the Z walk, 32x32 pixels): the run
/// touches mip 0 texels 0..=32 each way, (32/4 + 1)^2 = 81 distinct lines, and mip 1 texels
/// 0..=16, (16/4 + 1)^2 = 25; 106 lines. The L1 (16 KB, 4-way, 64-byte lines: 64 sets) holds
/// them all: the fullest set, set 0, gets mip 0's lines 0, 64, 128 and 192 and mip 1's first,
/// 5 lines, but the first two are read by wave 0 alone, so the eviction costs no later hit.
/// Every request to a line read before hits: (16 x 13 - 106) / (16 x 13) = 102 / 208 =
/// 0.490385. (With many waves, each tile brings 4 new mip-0 lines and 1 new mip-1 line, and
/// the rate tends to 8/13 = 61.5% less what the L1 evicts before the tile below is drawn.)
#[test]
fn a_pixel_shaders_sample_reads_a_shared_tile_footprint() {
    let file = "tests/texture_reuse/one_sample.s";
    let j = json(file, 16);
    let sample = instruction(&j, "image_sample ");
    assert_eq!(sample["l2_requests"], 13);
    assert_eq!(sample["first_level_hit_rate"], 0.490385);
    // rgba8 trilinear: image_filtered_32bit_clocks 16 x trilinear_factor 2.
    assert_eq!(sample["cost_clocks"], 32);
    let image = &j["defaults"]["images"][0];
    assert_eq!(image["line"], sample["line"]);
    assert_eq!(image["layout"], "screen-space");
    assert_eq!(image["tile"], serde_json::json!([8, 8]));
    assert_eq!(image["texels_per_pixel"], 1);
    assert_eq!(image["requests"], 13);
    assert_eq!(image["format"], "rgba8");
    assert_eq!(image["filter"], "trilinear");
    assert_eq!(
        image["filter_reason"],
        "a pixel-shader sample with implicit derivatives blends two mips"
    );
    let sentence = "image sample: screen-space default: 8x8 pixels per wave (2x2 quads in an 8x8 tile), 1 texel per pixel at the sampled mip, about 13 lines of rgba8 per execution";
    assert!(
        j["defaults"]["text"][0]
            .as_str()
            .unwrap()
            .contains(sentence),
        "{}",
        j["defaults"]
    );
    assert!(analyze(file, 16, "text").contains(sentence));
    assert!(analyze(file, 16, "html").contains(sentence));
}

/// `textureLod`: ACO's `image_sample_l` names its mip, so the default filter is bilinear: 9
/// lines per wave (above), 16 clocks (image_filtered_32bit_clocks 16 x bilinear_factor 1).
/// 16 waves touch the 81 mip-0 lines (set 0 holds 4: no eviction): (144 - 81) / 144 = 0.4375.
#[test]
fn a_sample_at_an_explicit_lod_defaults_to_bilinear() {
    let j = json("tests/texture_reuse/lod_sample.s", 16);
    let sample = instruction(&j, "image_sample_l ");
    assert_eq!(sample["l2_requests"], 9);
    assert_eq!(sample["first_level_hit_rate"], 0.4375);
    assert_eq!(sample["cost_clocks"], 16);
    let image = &j["defaults"]["images"][0];
    assert_eq!(image["op"], "sample at an explicit LOD");
    assert_eq!(image["filter"], "bilinear");
}

/// A compute kernel loading and storing its own texel: the listing does not carry the
/// workgroup size, so each wave is an 8x8 tile of threads (point footprint: 2 x 2 = 4 lines);
/// the tiles of distinct waves share no line, so the load misses every time, and the store
/// writes the lines its own load just brought: it hits every time.
#[test]
fn a_compute_image_load_reads_a_2d_tile() {
    let j = json("tests/texture_reuse/scale_2d.s", 8);
    let load = instruction(&j, "image_load ");
    let store = instruction(&j, "image_store ");
    assert_eq!(load["l2_requests"], 4);
    assert_eq!(store["l2_requests"], 4);
    assert_eq!(load["first_level_hit_rate"], 0.0);
    assert_eq!(store["first_level_hit_rate"], 1.0);
    let image = &j["defaults"]["images"][0];
    assert_eq!(image["layout"], "2d");
    assert_eq!(image["tile"], serde_json::json!([8, 8]));
    assert_eq!(image["filter"], "point");
    assert_eq!(
        image["filter_reason"],
        "image loads, stores and atomics have no sampler: one texel per lane"
    );
}

/// From the GLSL source the declared 16x16 workgroup is known: a wave64 is 16x4 threads of
/// it, 4 waves per workgroup; a 16x4 strip of rgba8 is 4 lines of 4x4 texels in a row.
/// Needs RADV and glslang (CI installs them).
#[test]
fn a_declared_workgroup_shapes_the_2d_tile() {
    if !shadersim_testkit::tools::have_radv() {
        return;
    }
    let j = json("tests/texture_reuse/scale_2d.comp", 2);
    let image = &j["defaults"]["images"][0];
    assert_eq!(image["tile"], serde_json::json!([16, 4]));
    assert_eq!(image["tile_basis"], "rows of the declared 16x16 workgroup");
    assert_eq!(image["requests"], 4);
}

/// A `wave_stride = 0` hint replaces the walk: every wave reads wave 0's 13 lines, so of 16
/// waves' 208 requests only the first wave's 13 miss: 195 / 208 = 0.9375.
#[test]
fn a_stride_hint_replaces_the_walk() {
    let dir = std::env::temp_dir().join(format!("shadersim-texture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hints = dir.join("stride.toml");
    std::fs::write(
        &hints,
        "[dispatch]\nwaves = 16\n[[memory]]\nline = 16\nwave_stride = 0\n",
    )
    .unwrap();
    let j = json_of(&[
        "analyze",
        "tests/texture_reuse/one_sample.s",
        "--arch",
        "gfx900",
        "--hints",
        hints.to_str().unwrap(),
        "--format",
        "json",
        "--no-latency-search",
    ]);
    let sample = instruction(&j, "image_sample ");
    assert_eq!(sample["l2_requests"], 13);
    assert_eq!(sample["first_level_hit_rate"], 0.9375);
    assert_eq!(j["defaults"]["images"][0]["walked"], false);
    assert!(j["defaults"]["text"][0]
        .as_str()
        .unwrap()
        .contains("the first wave's tile moved by the hinted strides"));
}
