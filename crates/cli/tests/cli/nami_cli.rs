//! `shadersim nami` end to end: output keys, exit codes, error positions.

use crate::shadersim;
use std::path::PathBuf;

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-nami-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn json_report_has_the_documented_keys() {
    let out = shadersim(&["nami", "builtin:fullscreen", "--format", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for key in [
        "\"tile_row_budget_clocks\": 204800",
        "\"max_tile_row_clocks\"",
        "\"fits_60hz\": true",
        "\"triangles_per_second\"",
        "\"pixels_per_second\"",
        "\"partial_nami_fraction\"",
        "\"ske_utilization\"",
        "\"triangles_per_rasterizer_per_tile_row_rounded\": 67",
        "\"triangles_per_second_rounded\": 60300",
        "\"other_interleave\": \"quad\"",
    ] {
        assert!(text.contains(key), "missing {key}");
    }
}

#[test]
fn text_report_and_png() {
    let png = std::env::temp_dir().join(format!("shadersim-nami-{}.png", std::process::id()));
    let out = shadersim(&[
        "nami",
        "builtin:fullscreen",
        "--no-compare",
        "--set",
        "pixel_interleave=quad",
        "--image",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("tile row budget"));
    assert!(text.contains("204,800"));
    assert!(text.contains("fits 60 Hz"));
    assert!(text.contains("interleave quad"));
    assert!(!text.contains("percentage points"));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let _ = std::fs::remove_file(png);
}

#[test]
fn unknown_parameter_is_a_usage_error_listing_the_known_ones() {
    let out = shadersim(&["nami", "builtin:small", "--set", "rasterizer_speed=2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown parameter `rasterizer_speed`"));
    for known in [
        "raster_clocks_per_triangle",
        "pixel_interleave",
        "rasterizers_per_sdn",
        "nami_timeout_clocks",
        "nmb_count",
        "nami_per_nmb",
        "elt_nami_fifo_depth",
        "cache_clocks_per_pixel",
    ] {
        assert!(err.contains(known), "{known} not listed");
    }
    let out = shadersim(&["nami", "builtin:small", "--set", "nmb_count=2"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn shader_error_points_at_file_line_column() {
    let path = temp_file("bad.s", "li a1, 7\nadd a0, a1, a2\nexport a0\n");
    let out = shadersim(&[
        "nami",
        "builtin:fullscreen",
        "--shader",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let expected = format!("{}:2:13: error:", path.display());
    assert!(err.starts_with(&expected), "{err}");
    assert!(err.contains("bank A"));
}

#[test]
fn scene_error_points_at_file_line_column() {
    let path = temp_file(
        "bad.tri",
        "clear #000000\ntri 0 0 #ffffff 10 0 #ffffff 0 ten #ffffff\n",
    );
    let out = shadersim(&["nami", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let expected = format!("{}:2:32: error:", path.display());
    assert!(err.starts_with(&expected), "{err}");
    let out = shadersim(&["nami", "builtin:teapot"]);
    assert_eq!(out.status.code(), Some(1));
    let out = shadersim(&["nami", "/nonexistent/scene.tri"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn params_lists_every_source() {
    let out = shadersim(&["nami", "--params"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("raster_clocks_per_triangle"));
    assert!(text.contains("assumption"));
}
