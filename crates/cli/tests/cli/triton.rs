//! Triton cache entries as input (issue 48 item 1): `K.hsaco` beside `K.json`, read with the
//! launch the json gives (block = num_warps x warp_size, dynamic LDS = shared, the kernel and
//! target), the grid from `--grid`. The fixtures are scripts/regen-triton-fixtures.sh's output:
//! the PyPI `triton` wheel's compilations, with LLVM's `.amdgcn` listing (triton_fixtures.rs checks all).

use crate::{command, root};
use serde_json::Value;

/// The entries of item 1 (the others are triton_fixtures.rs's): `<gfx>/<kernel>`.
const ENTRIES: [&str; 4] = [
    "gfx942/add_kernel",
    "gfx942/softmax_kernel",
    "gfx1100/add_kernel",
    "gfx1100/softmax_kernel",
];

fn entry(rel: &str) -> String {
    root()
        .join("tests/fixtures/triton")
        .join(rel)
        .display()
        .to_string()
}

/// The entry's json, and the `; Occupancy:` LLVM printed in its `.amdgcn`.
fn metadata(rel: &str) -> (Value, u64) {
    let kernel = rel.rsplit('/').next().expect("kernel");
    let dir = root().join("tests/fixtures/triton").join(rel);
    let json = std::fs::read_to_string(dir.join(format!("{kernel}.json"))).expect("json");
    let amdgcn = std::fs::read_to_string(dir.join(format!("{kernel}.amdgcn"))).expect("amdgcn");
    let occupancy = amdgcn
        .lines()
        .find_map(|l| l.strip_prefix("; Occupancy: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("LLVM's occupancy comment");
    (serde_json::from_str(&json).expect("json"), occupancy)
}

fn analyze_json(args: &[&str]) -> Value {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json", "--no-latency-search"]);
    let (code, out, err) = command().args(&all).code_and_text();
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("json report")
}

/// LDS bytes a workgroup is allocated: `shared` rounded up to the model's granule (gcn's 512
/// bytes, which cdna3 inherits, "128 DWORDs"; rdna3's 1024).
fn allocated(shared: u64, gfx: &str) -> u64 {
    let granule = if gfx.starts_with("gfx11") { 1024 } else { 512 };
    shared.div_ceil(granule) * granule
}

#[test]
fn entries_launch_with_their_metadata() {
    for rel in ENTRIES {
        let (md, llvm_occupancy) = metadata(rel);
        let v = analyze_json(&[&entry(rel), "--grid", "1024"]);
        let warps = md["num_warps"].as_u64().expect("num_warps");
        let wave = md["warp_size"].as_u64().expect("warp_size");
        let shared = md["shared"].as_u64().expect("shared");
        // Block = num_warps x warp_size work-items = num_warps waves of warp_size lanes.
        assert_eq!(v["wave_size"].as_u64(), Some(wave), "{rel}");
        let per_group = v["waves"].as_u64().unwrap() / v["workgroups"].as_u64().unwrap();
        assert_eq!(per_group, warps, "{rel}");
        let gfx = rel.split('/').next().unwrap();
        assert_eq!(v["isa"].as_str(), Some(gfx), "{rel}");
        // The code object declares 0 bytes of LDS; the launch adds `shared`.
        assert_eq!(
            v["occupancy"]["lds_bytes"].as_u64(),
            Some(allocated(shared, gfx)),
            "{rel}"
        );
        // LLVM's occupancy leaves out dynamic LDS; 32 bytes of it bind nothing here (the LDS
        // limit is 256 workgroups' worth), so the two agree.
        assert_eq!(
            v["occupancy"]["waves_per_simd"].as_u64(),
            Some(llvm_occupancy),
            "{rel}"
        );
        let notes = v["notes"].to_string();
        let block = format!(
            "block {} work-items (num_warps {warps} x warp_size {wave})",
            warps * wave
        );
        assert!(notes.contains(&block), "{rel}: {notes}");
        assert!(
            notes.contains(&format!("{shared} bytes of dynamic LDS (shared)")),
            "{notes}"
        );
        assert!(
            v["kernel_time_us"].as_f64().is_some_and(|t| t > 0.0),
            "{rel}"
        );
    }
}

#[test]
fn kernel_time_of_an_entry() {
    let v = analyze_json(&[&entry("gfx942/add_kernel"), "--grid", "1024"]);
    let k = &v["kernel_time"];
    // 1024 programs on the cdna3 model's 304 CUs: the busiest CU takes ceil(1024 / 304) = 4
    // workgroups, which it simulates. The kernel time is the launch plus the longer of that
    // CU's clocks at the clock rate and the dispatcher's time starting every workgroup:
    // us = launch_us + max(cu_clocks / clock_mhz, dispatch_us).
    assert_eq!(k["workgroups"], 1024);
    assert_eq!(k["workgroups_per_cu"], 4);
    let f = |key: &str| k[key].as_f64().expect(key);
    let cu_us = f("cu_clocks") / f("clock_mhz");
    let expected = f("launch_us") + cu_us.max(f("dispatch_us"));
    let us = v["kernel_time_us"].as_f64().expect("kernel_time_us");
    assert!((us - expected).abs() < 1e-3, "{us} vs {expected}");
}

#[test]
fn a_hsaco_with_its_json_beside_it() {
    // The .hsaco named directly reads the json beside it: 8 warps x 32 lanes on gfx1100.
    let v = analyze_json(&[&entry("gfx1100/softmax_kernel/softmax_kernel.hsaco")]);
    assert_eq!(
        v["waves"].as_u64().unwrap() / v["workgroups"].as_u64().unwrap(),
        8
    );
    // The same code object alone: the code object's 0 bytes of LDS and the default block.
    let dir = tempfile::tempdir().expect("tempdir");
    let alone = dir.path().join("softmax_kernel.hsaco");
    std::fs::copy(entry("gfx1100/softmax_kernel/softmax_kernel.hsaco"), &alone).expect("copy");
    let v = analyze_json(&[&alone.display().to_string()]);
    assert_eq!(v["occupancy"]["lds_bytes"], 0);
    assert!(!v["notes"].to_string().contains("Triton"), "{}", v["notes"]);
}

#[test]
fn the_command_line_wins_over_the_json() {
    // --block 64 is one wave64 per workgroup; --set shared=4096 is 4096 bytes of LDS (8 of
    // the 512-byte granules).
    let v = analyze_json(&[
        &entry("gfx942/softmax_kernel"),
        "--block",
        "64",
        "--set",
        "shared=4096",
    ]);
    assert_eq!(v["waves"], v["workgroups"]);
    assert_eq!(v["occupancy"]["lds_bytes"], 4096);
    // More dynamic LDS than any AMD GPU has (gfx950's 160 KiB) is a usage error.
    let (code, _, err) = command()
        .args([
            "analyze",
            &entry("gfx942/softmax_kernel"),
            "--set",
            "shared=200000",
        ])
        .code_and_text();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("[launch] shared: 200000 bytes"), "{err}");
}

#[test]
fn batch_over_a_triton_cache() {
    let (code, out, err) = command().args(["batch", &entry("")]).code_and_text();
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("line"))
        .collect();
    // One line per entry (the .amdgcn listings and the json are not programs of their own),
    // none an error (the gfx1200 true16 entries included, issue 48).
    let all = crate::triton_fixtures::entries();
    assert_eq!(lines.len(), all.len(), "{out}");
    let failed = lines.iter().filter(|l| !l["error"].is_null()).count();
    assert_eq!(failed, 0, "{out}");
    for l in &lines {
        assert!(
            l["notes"].to_string().contains("Triton launch metadata"),
            "{l}"
        );
    }
}

#[test]
fn bad_entries_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = entry("gfx942/add_kernel/add_kernel.hsaco");
    std::fs::copy(&src, dir.path().join("add_kernel.hsaco")).expect("copy");
    let json = dir.path().join("add_kernel.json");
    // 32 warps of 64 lanes: 2048 work-items, past a workgroup's 1024.
    std::fs::write(
        &json,
        "{\n  \"name\": \"add_kernel\",\n  \"num_warps\": 32,\n  \"warp_size\": 64\n}",
    )
    .expect("write");
    let d = dir.path().display().to_string();
    let (code, _, err) = command().args(["analyze", &d]).code_and_text();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("add_kernel.json:3: error: `num_warps`"),
        "{err}"
    );
    std::fs::write(&json, "{ \"num_warps\": ").expect("write");
    let (code, _, err) = command().args(["analyze", &d]).code_and_text();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("add_kernel.json:1:"), "{err}");
    // A directory without an entry.
    let empty = tempfile::tempdir().expect("tempdir");
    let (code, _, err) = command()
        .args(["analyze", &empty.path().display().to_string()])
        .code_and_text();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no `K.hsaco` with `K.json`"), "{err}");
}
