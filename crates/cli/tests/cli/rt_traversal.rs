//! A traversal kernel simulated with a real mesh's step counts:
//! `rt --hints-for` writes the hints, `analyze` runs them, and when the ray
//! accelerator is the bottleneck the rays per clock follow from the step
//! counts and the accelerator's rate.

use crate::shadersim_text;

use shadersim_testkit::tools::{glmark2_bunny, GLMARK2_BUNNY as BUNNY};

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("shadersim-rt-traversal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// Write the hints with `rt`, simulate the kernel, return the JSON report
/// and the hints text.
fn simulate(arch: &str, bvh: &str, kernel: &str) -> (serde_json::Value, String) {
    let hints = temp(&format!("{arch}-{bvh}.toml"));
    let (code, out, err) = shadersim_text(&[
        "rt",
        BUNNY,
        "--arch",
        arch,
        "--bvh",
        bvh,
        "--obb",
        "off",
        "--rays",
        "primary:128x128",
        "--hints-for",
        kernel,
        "--hints-out",
        &hints,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hints: "), "{out}");
    let (code, out, err) = shadersim_text(&[
        "analyze",
        kernel,
        "--hints",
        &hints,
        "--format",
        "json",
        "--no-latency-search",
        // Flat latency: the rule checked is the ray accelerator's rate. With
        // the cache hierarchy on, the rays' own loads stream from DRAM at
        // this CU's share of its bandwidth (3.37 bytes per clock on rdna4)
        // and become the limit instead.
        "--set",
        "memory=flat",
    ]);
    assert_eq!(code, 0, "{err}");
    (
        serde_json::from_str(&out).unwrap(),
        std::fs::read_to_string(&hints).unwrap(),
    )
}

#[test]
fn rays_per_clock_follow_from_the_step_counts_when_the_ray_accelerator_limits() {
    if glmark2_bunny().is_none() {
        return;
    }
    for (arch, bvh, kernel) in [
        ("rdna4", "bvh8", "examples/rt/traverse_bvh8_gfx1200.s"),
        ("rdna3", "bvh4", "examples/rt/traverse_bvh4_gfx1100.s"),
    ] {
        let (report, hints) = simulate(arch, bvh, kernel);
        assert_eq!(report["arch"], arch);
        // 128 x 128 rays in waves of 32: 512 waves, one ray per thread.
        assert_eq!(report["waves"], 512, "{arch}");
        assert!(hints.contains("iterations = ["), "{hints}");
        assert_eq!(report["bottleneck"]["kind"], "ray accelerator", "{arch}");
        // The ray accelerator's demand per wave: the BVH instruction's
        // clocks (its node mix at the RA's rates, times the active lanes)
        // times its executions per wave. Rays per clock, RA-bound:
        // 32 rays / that demand; the simulation must come within 10%.
        let bvh_op = report["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["class"] == "vmem.image.bvh")
            .unwrap();
        let demand =
            bvh_op["cost_clocks"].as_f64().unwrap() * bvh_op["executions"].as_f64().unwrap();
        let bound = 32.0 / demand;
        let got = report["throughput"]["per_clock"].as_f64().unwrap();
        assert!(
            (got - bound).abs() / bound < 0.10,
            "{arch}: {got} rays per clock, the RA allows {bound}"
        );
        assert!(
            report["utilization"]["ray"].as_f64().unwrap() > 0.85,
            "{arch}"
        );
    }
}

#[test]
fn hints_for_needs_one_layout_and_a_traversal_kernel() {
    // The kernel is judged after the mesh is read: without the mesh the
    // second refusal would be about the file.
    if glmark2_bunny().is_none() {
        return;
    }
    let out = temp("x.toml");
    let (code, _, err) = shadersim_text(&[
        "rt",
        BUNNY,
        "--arch",
        "rdna3,rdna4",
        "--rays",
        "primary:8x8",
        "--hints-for",
        "examples/rt/traverse_bvh4_gfx1100.s",
        "--hints-out",
        &out,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exactly one layout"), "{err}");
    let (code, _, err) = shadersim_text(&[
        "rt",
        BUNNY,
        "--arch",
        "rdna3",
        "--rays",
        "primary:8x8",
        "--hints-for",
        "tests/fixtures/llvm/gfx1100/loop_sum.s",
        "--hints-out",
        &out,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not a traversal kernel"), "{err}");
}
