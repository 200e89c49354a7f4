//! `shadersim occupancy`, `archs` listing of the occupancy-only models and
//! `analyze --arch` refusing them; RDNA 4 through the engine's own rule.

use crate::json_of as json;
use crate::shadersim;
use std::path::PathBuf;

fn waves(v: &serde_json::Value, arch: &str) -> u64 {
    v.as_array()
        .unwrap()
        .iter()
        .find(|r| r["arch"] == arch)
        .unwrap_or_else(|| panic!("no {arch}"))["waves"]
        .as_u64()
        .unwrap()
}

/// RDNA 4 static mode as the lead's model will have it: rdna3 with 1536
/// rows, a 24-row granule and 16 slots (rdna-model.md 5.1-5.2; seed 000).
const RDNA4: &str = r#"
base = "rdna3"
name = "rdna4"
description = "RDNA 4 test model"
isa = "gfx1200"

[params]
vgprs_per_simd = { value = 1536, source = "seed 000: 192 KB per SIMD" }
vgpr_granule = { value = 24, source = "seed 000: 24-register blocks" }
wave_slots_per_simd = { value = 16, source = "seed 000: 16 thread slots" }
# The dynamic VGPR mode is the model's data (what `occupancy` keys its note on).
dynamic_vgpr_max_blocks = { value = 8, source = "seed 000: at most 8 blocks per wave" }
dynamic_vgpr_reserve_blocks = { value = 7, source = "seed 000: deadlock avoidance keeps 7 blocks" }
"#;

fn rdna4_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-occ-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rdna4.toml");
    std::fs::write(&path, RDNA4).unwrap();
    path
}

#[test]
fn rdna4_keeps_16_waves_up_to_96_vgprs() {
    // Seed 000: 192 KB per SIMD = 1536 wave32 VGPR rows; 96 or fewer VGPRs
    // use all 16 slots: 1536 / alignTo(96, 24) = 1536 / 96 = 16;
    // 97 -> 1536 / 120 = 12.8 -> 12.
    let path = rdna4_file();
    let p = path.to_str().unwrap();
    for (regs, expected) in [("1", 16), ("64", 16), ("96", 16), ("97", 12)] {
        let v = json(&["occupancy", "--regs", regs, "--arch", p, "--format", "json"]);
        assert_eq!(waves(&v, "rdna4"), expected, "{regs} VGPRs");
    }
    let v = json(&["occupancy", "--regs", "96", "--arch", p, "--format", "json"]);
    assert_eq!(v[0]["cliffs"][0]["registers"], 97);
    assert_eq!(v[0]["cliffs"][0]["waves"], 12);
    assert_eq!(v[0]["granule"], 24);
    assert_eq!(v[0]["allocation"], "granules");
    // The text names the dynamic mode with scenario 19's numbers at 128.
    let o = shadersim(&["occupancy", "--regs", "128", "--arch", p]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("block 16: pool 1168 + reserve 112, 10 waves can hold 128 VGPRs at once (11 with the reserve), LLVM estimates 12"),
        "{text}"
    );
}

#[test]
fn the_seed_question_96_registers() {
    // "96 registers: how many waves on RDNA 3 (1536 rows), on Xe3, on
    // Blackwell?" 16 (1536/96), 10 (seed 000), 5 per sub-partition (seed 000).
    let v = json(&[
        "occupancy",
        "--regs",
        "96",
        "--arch",
        "rdna3,xe3,blackwell,xe2",
        "--format",
        "json",
    ]);
    assert_eq!(waves(&v, "rdna3"), 16);
    assert_eq!(waves(&v, "xe3"), 10);
    assert_eq!(waves(&v, "blackwell"), 5);
    assert_eq!(waves(&v, "xe2"), 8);
    for r in v.as_array().unwrap() {
        for key in ["arch", "unit", "waves", "limiter", "granule", "cliffs"] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
    }
    assert_eq!(v[1]["unit"], "XVE (threads)");
}

#[test]
fn default_lists_amd_and_vendor_models() {
    let v = json(&["occupancy", "--regs", "64", "--format", "json"]);
    let archs: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["arch"].as_str().unwrap())
        .collect();
    for a in [
        "gcn",
        "rdna3",
        "ampere",
        "hopper",
        "blackwell",
        "xe2",
        "xe3",
        "nv40",
    ] {
        assert!(archs.contains(&a), "{a} missing: {archs:?}");
    }
}

#[test]
fn plot_is_an_svg_with_every_model() {
    let dir = std::env::temp_dir().join(format!("shadersim-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("occ.svg");
    let o = shadersim(&["occupancy", "--regs", "96", "--plot", out.to_str().unwrap()]);
    assert!(o.status.success());
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(!svg.contains("<script"));
    for a in ["rdna3", "xe3", "blackwell", "nv40 pixel core"] {
        assert!(svg.contains(a), "{a} missing");
    }
}

#[test]
fn lds_and_workgroup_reach_the_amd_rule() {
    // rdna-model.md scenario 16: 256-thread wave32 workgroups with 32 KB LDS
    // on gfx10.3/11 -> 8 waves per SIMD (128 KB / 32 KB = 4 workgroups x 8
    // waves over 4 SIMDs).
    let v = json(&[
        "occupancy",
        "--regs",
        "32",
        "--arch",
        "rdna3",
        "--lds",
        "32768",
        "--workgroup",
        "256",
        "--format",
        "json",
    ]);
    assert_eq!(waves(&v, "rdna3"), 8);
    assert_eq!(v[0]["limiter"], "lds");
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        vec!["occupancy", "--regs", "0"],
        vec!["occupancy", "--regs", "x"],
        vec!["occupancy", "--regs", "32", "--arch", "nosuch"],
        vec!["occupancy", "--regs", "32", "--wave-size", "16"],
        vec!["occupancy", "--regs", "32", "--lds", "1024"],
        vec![
            "analyze",
            "tests/fixtures/llvm/gfx900/loop_sum.s",
            "--arch",
            "xe3",
        ],
    ] {
        let o = shadersim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    let o = shadersim(&[
        "analyze",
        "tests/fixtures/llvm/gfx900/loop_sum.s",
        "--arch",
        "xe3",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("occupancy-only"));
}

#[test]
fn archs_marks_vendor_models() {
    let o = shadersim(&["archs"]);
    let text = String::from_utf8(o.stdout).unwrap();
    for a in ["xe2", "xe3", "ampere", "hopper", "blackwell", "nv40"] {
        let line = text.lines().find(|l| l.starts_with(a)).unwrap();
        assert!(line.contains("occupancy only, not simulated"), "{line}");
    }
    let o = shadersim(&["archs", "--params", "xe3"]);
    assert!(o.status.success());
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("32-entry blocks"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    #[test]
    fn any_arguments_give_an_answer_or_a_clean_error(
        regs in 0u32..5000,
        wave in proptest::sample::select(vec!["32", "64", "48"]),
        group in proptest::option::of(0u32..5000),
        lds in proptest::option::of(0u32..200_000),
    ) {
        let regs = regs.to_string();
        let mut args = vec!["occupancy".to_string(), "--regs".into(), regs, "--wave-size".into(), wave.to_string(), "--format".into(), "json".into()];
        if let Some(g) = group {
            args.extend(["--workgroup".into(), g.to_string()]);
        }
        if let Some(l) = lds {
            args.extend(["--lds".into(), l.to_string()]);
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = shadersim(&refs);
        let code = o.status.code();
        proptest::prop_assert!(matches!(code, Some(0) | Some(1) | Some(2)), "{refs:?}: {code:?} {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn analyze_compares_occupancy_across_vendors() {
    // loop_sum on gfx900 declares 7 VGPRs (manifest.toml): 7 registers
    // per thread give every slot on the vendor models but NV40's pixel
    // cores (1024 / 7 = 146 of 256 threads).
    let v = json(&[
        "analyze",
        "tests/fixtures/llvm/gfx900/loop_sum.s",
        "--no-latency-search",
        "--occupancy-compare",
        "--format",
        "json",
    ]);
    let cmp = &v["occupancy_compare"];
    assert_eq!(cmp["registers"], 7);
    let models = cmp["models"].as_array().unwrap();
    assert_eq!(models.len(), 7);
    assert_eq!(waves(&cmp["models"], "xe3"), 10);
    assert!(v["occupancy"].is_object(), "the report's own keys stay");
    let o = shadersim(&[
        "analyze",
        "tests/fixtures/llvm/gfx900/loop_sum.s",
        "--no-latency-search",
        "--occupancy-compare",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("other vendors' models"), "{text}");
}

/// `occupancy --arch` takes the names `analyze --arch` takes (GPU names
/// standing for their chip's or family's model), and refuses a workgroup
/// LDS the model's CU cannot hold (`lds_bytes_per_cu`, 64 KB on RDNA).
#[test]
fn gpu_names_and_the_workgroup_lds_limit() {
    let o = shadersim(&["occupancy", "--regs", "40", "--arch", "vega10,gfx1100"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = shadersim(&[
        "occupancy",
        "--regs",
        "40",
        "--arch",
        "rdna3",
        "--lds",
        "70000",
        "--workgroup",
        "256",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: --lds 70000: a workgroup may use at most 65536 bytes of LDS on `rdna3` (lds_bytes_per_cu)\n"
    );
}

#[test]
fn a_cdna_wave_holds_up_to_512_vgprs_and_agprs() {
    // cdna2/cdna3: a wave's architectural VGPRs then its AGPRs share the
    // 512-register file (max_vgprs_per_wave 512, granule 8). 300 registers
    // allocate 304, 512 / 304 = 1 wave per SIMD, as clang states for the
    // 304-register mfma_gemm_agpr on gfx942; GCN and RDNA waves address at
    // most 256 (max_vgprs_per_wave 256), so none fits there. 513 fits nowhere.
    let v = json(&[
        "occupancy",
        "--regs",
        "300",
        "--arch",
        "cdna2,cdna3,gcn,rdna3",
        "--format",
        "json",
    ]);
    assert_eq!(waves(&v, "cdna2"), 1);
    assert_eq!(waves(&v, "cdna3"), 1);
    assert_eq!(waves(&v, "gcn"), 0);
    assert_eq!(waves(&v, "rdna3"), 0);
    let v = json(&[
        "occupancy",
        "--regs",
        "513",
        "--arch",
        "cdna2",
        "--format",
        "json",
    ]);
    assert_eq!(waves(&v, "cdna2"), 0);
}

#[test]
fn a_clang_listings_occupancy_comment_is_not_read_in_radvs_convention() {
    // Issue 47 item 8: on a clang listing the note spoke of "RADV's
    // convention" (wave32-sized waves), which is RADV's statistics' alone;
    // LLVM's `; Occupancy:` counts hardware waves. Reduced: gfx1100's
    // loop_sum listing with its comment changed to 32 (RADV's way of
    // saying 16) and to 12.
    let text =
        std::fs::read_to_string(crate::root().join("tests/fixtures/llvm/gfx1100/loop_sum.s"))
            .unwrap();
    assert!(text.contains("; Occupancy: 16"));
    let dir = std::env::temp_dir().join(format!("shadersim-occupancy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (figure, shown) in [
        ("32", "differs from shadersim's 16"),
        ("12", "differs from shadersim's 16"),
    ] {
        let path = dir.join(format!("loop_sum_occ{figure}.s"));
        std::fs::write(
            &path,
            text.replace("; Occupancy: 16", &format!("; Occupancy: {figure}")),
        )
        .unwrap();
        let p = path.display().to_string();
        let o = shadersim(&["analyze", &p, "--no-latency-search"]);
        assert_eq!(o.status.code(), Some(0));
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let line = out
            .lines()
            .find(|l| l.contains("the compiler's own figure"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains(shown), "{line}");
        assert!(!line.contains("RADV"), "{line}");
        let v = json(&["analyze", &p, "--no-latency-search", "--format", "json"]);
        assert_eq!(v["occupancy"]["declared_by"], "compiler");
    }
}
