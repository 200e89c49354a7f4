//! `shadersim rt` end to end: outputs, exit codes, files.

use crate::shadersim_text;

fn temp(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-rt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

const SCENE: &str = "[[mesh]]\nname = \"s\"\nprocedural = \"sphere:10\"\n[[instance]]\nmesh = \"s\"\n[[instance]]\nmesh = \"s\"\ntranslate = [3, 0, 0]\n";

#[test]
fn text_report_compares_layouts_and_verifies() {
    let scene = temp("scene.toml", SCENE);
    let (code, out, err) = shadersim_text(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        "primary:24x16",
        "--verify",
        "--published",
    ]);
    assert_eq!(code, 0, "{err}");
    // Seed 000's utilization of the RX 9070 from data/ray_accelerator.toml:
    // 111.76G box tests/s over 56 CUs x 2.5 GHz x 8 box tests per clock
    // (RDNA 4's rate) plus 19.61G triangle tests/s at the seed's one per
    // clock: 111.76 / 1120 + 19.61 / 140 = 0.0998 + 0.1401 = 23.99%; with
    // the table's 2 triangles per clock, 0.0998 + 0.0700 = 16.98%.
    let seed = 111.76 / (56.0 * 2.5 * 8.0) + 19.61 / (56.0 * 2.5);
    let table = 111.76 / (56.0 * 2.5 * 8.0) + 19.61 / (56.0 * 2.5 * 2.0);
    let utilization = format!(
        "{:.2}% (quoted 24%); with the table's triangle rate {:.2}%",
        seed * 100.0,
        table * 100.0
    );
    assert_eq!(format!("{:.2}", seed * 100.0), "23.99");
    for want in [
        "rdna3 bvh4",
        "rdna4 bvh8+obb",
        "steps/ray",
        "RA clocks/ray",
        "identical across layouts",
        "verified",
        &utilization,
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
    ra_clocks_follow_the_rates(&out);
}

/// The cells of a row of the text table, by column.
fn row<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{name}  ")))
        .unwrap_or_else(|| panic!("no `{name}` row in\n{out}"));
    line[name.len()..].split_whitespace().collect()
}

/// Every column's RA clocks per ray follow from its tests per ray and the
/// rates of data/ray_accelerator.toml (crates/rt cost.rs): (box tests + 4 x
/// instance tests) / box rate + triangle tests / triangle rate, with RDNA 3
/// at 4 box and 1 triangle test per clock, RDNA 4 at 8 and 2. The cells are
/// rounded to 0.01, so the sum of three rounded terms is within 0.02.
fn ra_clocks_follow_the_rates(out: &str) {
    let header = out
        .lines()
        .find(|l| l.trim_start().starts_with("rdna"))
        .unwrap_or_else(|| panic!("no layout header in\n{out}"));
    let archs: Vec<&str> = header
        .split_whitespace()
        .filter(|w| w.starts_with("rdna"))
        .collect();
    let num =
        |name: &str| -> Vec<f64> { row(out, name).iter().map(|c| c.parse().unwrap()).collect() };
    let (boxes, tris, insts, clocks) = (
        num("box tests/ray"),
        num("triangle tests/ray"),
        num("instance tests/ray"),
        num("RA clocks/ray"),
    );
    assert_eq!(clocks.len(), archs.len(), "{header}");
    for (i, arch) in archs.iter().enumerate() {
        let (box_rate, tri_rate) = if *arch == "rdna4" {
            (8.0, 2.0)
        } else {
            (4.0, 1.0)
        };
        let want = (boxes[i] + 4.0 * insts[i]) / box_rate + tris[i] / tri_rate;
        assert!(
            (clocks[i] - want).abs() <= 0.02 + 1e-9,
            "column {i} ({arch}): {} vs {want}",
            clocks[i]
        );
    }
}

#[test]
fn json_has_the_documented_keys_and_one_hit_per_ray() {
    let scene = temp("scene2.toml", SCENE);
    let (code, out, err) = shadersim_text(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        "random:50",
        "--format",
        "json",
        "--arch",
        "rdna4",
        "--bvh",
        "bvh8",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let layouts = v["layouts"].as_array().unwrap();
    assert_eq!(layouts.len(), 2, "bvh8 with and without OBB");
    for l in layouts {
        for k in [
            "bvh_bytes",
            "nodes",
            "rays",
            "steps_per_ray",
            "box_tests_per_ray",
            "triangle_tests_per_ray",
            "bytes_per_ray",
            "hits",
        ] {
            assert!(!l[k].is_null(), "missing {k}");
        }
        let hits = l["hits"].as_array().unwrap();
        assert_eq!(hits.len(), 50);
        // RDNA 4's rates (8 box, 2 triangle tests per clock; an instance
        // node costs 4 box tests): (box + 4 x instance) / 8 + triangle / 2.
        let f = |k: &str| l[k].as_f64().unwrap();
        let want = (f("box_tests_per_ray") + 4.0 * f("instance_tests_per_ray")) / 8.0
            + f("triangle_tests_per_ray") / 2.0;
        assert!((f("ra_clocks_per_ray") - want).abs() < 0.02, "{l}");
        // Every RT IP 3.1 node a BVH8 ray fetches (a quantized box node or
        // a compressed primitive node) is 128 bytes.
        let want = 128.0 * f("nodes_fetched_per_ray");
        assert!((f("bytes_per_ray") - want).abs() < 0.01 * 128.0, "{l}");
        assert!(hits
            .iter()
            .all(|h| h == &serde_json::json!(-1) || h.as_array().map(|a| a.len()) == Some(3)));
    }
}

#[test]
fn diffuse_rays_trace() {
    let scene = temp("scene5.toml", SCENE);
    let (code, out, err) = shadersim_text(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        "diffuse:64",
        "--arch",
        "rdna4",
        "--verify",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("64 rays (diffuse:64)"), "{out}");
    // The brute-force check passed, and the RA clocks follow the rates.
    assert!(out.contains("verified: every closest hit equals"), "{out}");
    ra_clocks_follow_the_rates(&out);
}

#[test]
fn heatmap_is_written_as_png() {
    let mesh = temp(
        "quad.obj",
        "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nf 1 2 3 4\n",
    );
    let png = mesh.with_file_name("steps.png");
    let (code, _, err) = shadersim_text(&[
        "rt",
        mesh.to_str().unwrap(),
        "--arch",
        "rdna4",
        "--bvh",
        "bvh8",
        "--obb",
        "off",
        "--rays",
        "primary:20x10",
        "--heatmap",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // One pixel per primary ray, 20 x 10 for `primary:20x10`, and below
    // them the legend strip of max(10 / 16, 4) = 4 rows and the band of
    // numbers, 7 rows at scale max(20 / 256, 1) = 1 (crates/rt
    // heatmap.rs): the IHDR chunk (after the 8-byte signature and the
    // chunk's length and type) gives 20 x 21.
    let be = |b: &[u8]| u32::from_be_bytes(b.try_into().unwrap());
    assert_eq!(&bytes[12..16], b"IHDR");
    assert_eq!((be(&bytes[16..20]), be(&bytes[20..24])), (20, 10 + 4 + 7));
}

#[test]
fn bad_input_exits_1_with_the_line() {
    let mesh = temp("bad.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 one 0\n3 0 1 2\n");
    let (code, _, err) = shadersim_text(&["rt", mesh.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.off:5: error:"), "{err}");
    let rays = temp("rays.txt", "0 0 5 0 0 -1\n0 0 5 0 0\n");
    let scene = temp("scene3.toml", SCENE);
    let (code, _, err) = shadersim_text(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        &format!("file:{}", rays.display()),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("rays.txt:2: error:"), "{err}");
    let (code, _, _) = shadersim_text(&["rt", "/nonexistent/mesh.obj"]);
    assert_eq!(code, 1);
}

#[test]
fn bad_usage_exits_2() {
    let scene = temp("scene4.toml", SCENE);
    let s = scene.to_str().unwrap();
    for args in [
        vec!["rt", s, "--arch", "rdna3", "--obb", "on"],
        vec!["rt", s, "--arch", "rdna3", "--bvh", "bvh8"],
        vec!["rt", s, "--rays", "random:10", "--heatmap", "x.png"],
        vec!["rt", s, "--rays", "laser:3"],
        vec!["rt", s, "--format", "xml"],
    ] {
        let (code, _, err) = shadersim_text(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// Issue 17 item 5: node counts are whole numbers (no `9.00 instance
/// nodes`), and a stack of 0 entries is refused, not run as 1.
#[test]
fn counts_print_as_integers_and_stack_0_is_refused() {
    let scene = temp("counts.toml", SCENE);
    let (code, out, err) = shadersim_text(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        "primary:8x8",
        "--arch",
        "rdna4",
        "--bvh",
        "bvh8",
    ]);
    assert_eq!(code, 0, "{err}");
    for row in [
        "box nodes",
        "  with OBB",
        "triangle/primitive nodes",
        "instance nodes",
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{row} ")))
            .unwrap_or_else(|| panic!("no `{row}` row: {out}"));
        for cell in line[row.len()..].split_whitespace() {
            assert!(cell.parse::<u64>().is_ok(), "{row}: `{cell}` in {line}");
        }
    }
    // Two instances of one mesh: 2 instance nodes, printed as `2`.
    assert!(
        out.lines()
            .any(|l| l.starts_with("instance nodes") && l.split_whitespace().nth(2) == Some("2")),
        "{out}"
    );
    for stack in ["0", "65"] {
        let (code, _, err) = shadersim_text(&["rt", scene.to_str().unwrap(), "--stack", stack]);
        assert_eq!(code, 2, "--stack {stack}: {err}");
        assert!(err.contains("--stack"), "{err}");
    }
}

/// Issue 32 item 5: an oversized procedural scene is refused at once, the
/// limit named, instead of building 100 million triangles. `sphere:5000` is
/// (2*5000 - 2) * 10000 = 99,980,000 triangles, above MAX_SCENE_TRIANGLES
/// = 2^20 = 1,048,576; the error points at the `[[mesh]]` on line 1.
#[test]
fn oversized_scene_is_refused_at_once_naming_the_limit() {
    let scene = temp(
        "huge.toml",
        "[[mesh]]\nname = \"s\"\nprocedural = \"sphere:5000\"\n[[instance]]\nmesh = \"s\"\n",
    );
    let t0 = std::time::Instant::now();
    let (code, out, err) = shadersim_text(&["rt", scene.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("huge.toml:1"), "{err}");
    assert!(err.contains("99980000 triangles"), "{err}");
    assert!(err.contains("1048576 (MAX_SCENE_TRIANGLES)"), "{err}");
    // Refused before anything is built (building it took minutes).
    assert!(t0.elapsed().as_secs() < 20);
}

/// Issue 35 item 16: the report holds nothing host-dependent (rays/s go to
/// stderr with --timing) and the published GPUs' utilization only when
/// asked; two runs print the same bytes.
#[test]
fn report_is_deterministic_and_timing_goes_to_stderr() {
    let scene = temp("determinism.toml", SCENE);
    let s = scene.to_str().unwrap();
    let args = ["rt", s, "--rays", "primary:16x16", "--timing"];
    let (code, out, err) = shadersim_text(&args);
    assert_eq!(code, 0, "{err}");
    let (_, again, _) = shadersim_text(&args);
    assert_eq!(out, again);
    assert!(!out.contains("rays/s per core"), "{out}");
    assert!(!out.contains("RX 9070"), "{out}");
    assert!(out.contains("Ray Accelerator per CU"), "{out}");
    // One timing line per layout (rdna3 bvh4, rdna4 bvh4, bvh4x2, bvh8,
    // bvh8+obb: the defaults), on stderr.
    assert_eq!(err.matches("timing: ").count(), 5, "{err}");
    assert!(err.contains("rays/s per thread"), "{err}");
}
