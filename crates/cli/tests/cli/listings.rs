//! Listings as users have them: bare ACO listings with the driver's
//! statistics beside them, and the resource hints for files that declare
//! nothing.

use crate::{command, root};
use std::path::PathBuf;
use std::process::Output;

/// `shadersim ARGS` fed `stdin` (empty when None).
fn shadersim(args: &[&str], stdin: Option<&[u8]>) -> Output {
    command()
        .args(args)
        .stdin(stdin.unwrap_or_default())
        .output()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// The driver's statistic for the one executable of a compute pipeline.
fn driver(stats: &str, key: &str) -> u64 {
    let text = std::fs::read_to_string(root().join(stats)).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("\"{key}\" = ")))
        .unwrap();
    line.split(" = ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

const LDS_TILE: &str = "tests/fixtures/aco/vega10/lds_tile.cs.s";
const LDS_TILE_STATS: &str = "tests/fixtures/aco/vega10/lds_tile.stats.toml";

fn hints_file(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-listings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
fn cfg_reads_a_bare_aco_listing_with_the_drivers_count() {
    let o = shadersim(
        &["cfg", "tests/fixtures/aco/navi21/repeat_store.cs.s"],
        None,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let expected = driver(
        "tests/fixtures/aco/navi21/repeat_store.stats.toml",
        "Instructions",
    );
    assert!(
        text(&o.stdout).contains(&format!(": {expected} instructions,")),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn occupancy_follows_the_drivers_statistics_beside_the_listing() {
    // lds_tile.comp: 256 threads per workgroup (local_size_x; the listing
    // does not say it), 8 KB of LDS. The driver: 8 waves per SIMD.
    let hints = hints_file("wg.toml", "[dispatch]\nworkgroup_size = 256\n");
    let o = shadersim(
        &[
            "analyze",
            LDS_TILE,
            "--arch",
            "gfx900",
            "--hints",
            hints.to_str().unwrap(),
            "--format",
            "json",
            "--no-latency-search",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("driver's statistics"));
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(
        v["occupancy"]["waves_per_simd"].as_u64(),
        Some(driver(LDS_TILE_STATS, "Subgroups per SIMD"))
    );
    assert_eq!(
        v["occupancy"]["lds_bytes"].as_u64(),
        Some(driver(LDS_TILE_STATS, "LDS size"))
    );
}

#[test]
fn resource_hints_stand_in_for_a_file_that_declares_nothing() {
    // The same listing on standard input: no statistics beside it, so the
    // hints give the LDS size and VGPRs the driver reported.
    let listing = std::fs::read(root().join(LDS_TILE)).unwrap();
    let hints = hints_file(
        "res.toml",
        &format!(
            "[dispatch]\nworkgroup_size = 256\nlds_bytes = {}\nvgprs = {}\n",
            driver(LDS_TILE_STATS, "LDS size"),
            driver(LDS_TILE_STATS, "VGPRs")
        ),
    );
    let args = |h: &str| {
        vec![
            "analyze".to_string(),
            "-".into(),
            "--arch".into(),
            "gfx900".into(),
            "--hints".into(),
            h.to_string(),
            "--format".into(),
            "json".into(),
            "--no-latency-search".into(),
        ]
    };
    let run = |h: &str| {
        let a = args(h);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        shadersim(&a, Some(&listing))
    };
    let o = run(hints.to_str().unwrap());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(
        v["occupancy"]["waves_per_simd"].as_u64(),
        Some(driver(LDS_TILE_STATS, "Subgroups per SIMD"))
    );
    // A value no GPU has is an error at its place in the hints file.
    let bad = hints_file("bad.toml", "[dispatch]\nvgprs = 0\n");
    let o = run(bad.to_str().unwrap());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("bad.toml:2:9: error: vgprs must be between 1 and 512"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_hints_template_shows_declared_resources() {
    let o = shadersim(&["hints", LDS_TILE], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let t = text(&o.stdout);
    let vgprs = driver(LDS_TILE_STATS, "VGPRs");
    assert!(
        t.contains(&format!("# vgprs = {vgprs}")) && t.contains("the file declares it"),
        "{t}"
    );
    assert!(t.contains("# lds_bytes = 8192"), "{t}");
}

#[test]
fn occupancy_matches_the_driver_for_every_vega10_listing() {
    // Threads per workgroup of the compute shaders (their GLSL
    // local_size_x; bare listings do not carry it).
    let workgroup = |name: &str| match name {
        "reduce" | "lds_tile" => Some(256),
        "repeat_store" => Some(64),
        _ => None,
    };
    let dir = root().join("tests/fixtures/aco/vega10");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix(".s") else {
            continue;
        };
        let (pipeline, stage) = stem.rsplit_once('.').unwrap();
        let stats = format!("tests/fixtures/aco/vega10/{pipeline}.stats.toml");
        // The executable of this listing's stage in the statistics file.
        let text = std::fs::read_to_string(root().join(&stats)).unwrap();
        let stage_name = match stage {
            "ps" => "fragment",
            "vs" => "vertex",
            _ => "compute",
        };
        let block = text
            .split("[[executable]]")
            .find(|b| b.contains(&format!("stages = \"{stage_name}\"")))
            .unwrap();
        let driver: u64 = block
            .lines()
            .find(|l| l.starts_with("\"Subgroups per SIMD\" = "))
            .and_then(|l| l.split_whitespace().nth(4))
            .unwrap()
            .parse()
            .unwrap();
        let hints = hints_file(
            &format!("{stem}.toml"),
            &workgroup(pipeline).map_or(String::new(), |w| {
                format!("[dispatch]\nworkgroup_size = {w}\n")
            }),
        );
        let listing = format!("tests/fixtures/aco/vega10/{name}");
        let o = shadersim(
            &[
                "analyze",
                &listing,
                "--arch",
                "gfx900",
                "--hints",
                hints.to_str().unwrap(),
                "--format",
                "json",
                "--no-latency-search",
            ],
            None,
        );
        assert!(o.status.success(), "{listing}: {}", text_of(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&text_of(&o.stdout)).unwrap();
        assert_eq!(
            v["occupancy"]["waves_per_simd"].as_u64(),
            Some(driver),
            "{listing}"
        );
        checked += 1;
    }
    assert_eq!(checked, 11);
}

fn text_of(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn the_hints_templates_resource_comments_match_the_model_and_the_file() {
    // Issue 47 item 8: the gfx1100 template offered `# waves_per_simd = 10`
    // on a 16-slot model, and the gfx942 template's `sgprs` did not say it
    // counts as `.amdhsa_next_free_sgpr` does (LLVM's NumSgprs adds VCC
    // and the other reserved SGPRs).
    // The comment also gives the SGPRs the report's occupancy allocates for
    // that count (issue 47 item 8: the template said 28 where the report
    // used 48): RDNA 3 gives every wave a fixed 128 (rdna2.toml
    // sgpr_granule 128, sgpr_reserved 0); GCN and CDNA 3 add
    // sgpr_reserved 6 (VCC, FLAT_SCRATCH, XNACK_MASK) and round to the
    // granule of 16 (gcn.toml): gfx942 lds_reduce 10 + 6 = 16, gfx900
    // loop_sum 8 + 6 = 14 -> 16.
    for (file, slots, allocated) in [
        ("tests/fixtures/llvm/gfx1100/loop_sum.s", 16, 128),
        ("tests/fixtures/llvm/gfx942/lds_reduce.s", 8, 16),
        ("tests/fixtures/llvm/gfx900/loop_sum.s", 10, 16),
    ] {
        let o = shadersim(&["hints", file], None);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let t = text(&o.stdout);
        assert!(
            t.contains(&format!("# waves_per_simd = {slots} ")),
            "{file}: {t}"
        );
        assert!(
            t.contains(&format!("the model's {slots} wave slots")),
            "{t}"
        );
        // The template's SGPRs are the file's next_free_sgpr.
        let listing = std::fs::read_to_string(root().join(file)).unwrap();
        let free: u32 = listing
            .lines()
            .find_map(|l| l.trim().strip_prefix(".amdhsa_next_free_sgpr "))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let line = t.lines().find(|l| l.starts_with("# sgprs = ")).unwrap();
        assert!(line.starts_with(&format!("# sgprs = {free} ")), "{line}");
        assert!(
            line.contains(".amdhsa_next_free_sgpr") && line.contains("NumSgprs"),
            "{line}"
        );
        assert!(
            line.contains(&format!(
                "the model's occupancy allocates {allocated} for it"
            )),
            "{line}"
        );
        // ... which is the report's figure.
        let o = shadersim(
            &["analyze", file, "--no-latency-search", "--format", "json"],
            None,
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["occupancy"]["sgprs"], allocated, "{file}");
    }
}
