//! `shadersim rt` end to end: outputs, exit codes, files.

use std::process::Command;

fn shadersim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shadersim"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
    let (code, out, err) = shadersim(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        "primary:24x16",
        "--verify",
    ]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "rdna3 bvh4",
        "rdna4 bvh8+obb",
        "steps/ray",
        "RA clocks/ray",
        "identical across layouts",
        "verified",
        "23.99%",
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
}

#[test]
fn json_has_the_documented_keys_and_one_hit_per_ray() {
    let scene = temp("scene2.toml", SCENE);
    let (code, out, err) = shadersim(&[
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
        assert!(hits
            .iter()
            .all(|h| h == &serde_json::json!(-1) || h.as_array().map(|a| a.len()) == Some(3)));
    }
}

#[test]
fn diffuse_rays_trace() {
    let scene = temp("scene5.toml", SCENE);
    let (code, out, err) = shadersim(&[
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
}

#[test]
fn heatmap_is_written_as_png() {
    let mesh = temp(
        "quad.obj",
        "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nf 1 2 3 4\n",
    );
    let png = mesh.with_file_name("steps.png");
    let (code, _, err) = shadersim(&[
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
}

#[test]
fn bad_input_exits_1_with_the_line() {
    let mesh = temp("bad.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 one 0\n3 0 1 2\n");
    let (code, _, err) = shadersim(&["rt", mesh.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.off:5: error:"), "{err}");
    let rays = temp("rays.txt", "0 0 5 0 0 -1\n0 0 5 0 0\n");
    let scene = temp("scene3.toml", SCENE);
    let (code, _, err) = shadersim(&[
        "rt",
        scene.to_str().unwrap(),
        "--rays",
        &format!("file:{}", rays.display()),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("rays.txt:2: error:"), "{err}");
    let (code, _, _) = shadersim(&["rt", "/nonexistent/mesh.obj"]);
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
        let (code, _, err) = shadersim(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// Issue 17 item 5: node counts are whole numbers (no `9.00 instance
/// nodes`), and a stack of 0 entries is refused, not run as 1.
#[test]
fn counts_print_as_integers_and_stack_0_is_refused() {
    let scene = temp("counts.toml", SCENE);
    let (code, out, err) = shadersim(&[
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
        let (code, _, err) = shadersim(&["rt", scene.to_str().unwrap(), "--stack", stack]);
        assert_eq!(code, 2, "--stack {stack}: {err}");
        assert!(err.contains("--stack"), "{err}");
    }
}
