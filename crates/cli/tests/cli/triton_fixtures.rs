//! Real Triton kernels (issue 48 item 4): vector add, row softmax, layer norm, a `tl.dot`
//! GEMM and a flash-attention forward, as users write them (scripts/triton/kernels.py),
//! compiled by the PyPI `triton` wheel for gfx90a, gfx942, gfx1100 and gfx1200
//! (scripts/regen-triton-fixtures.sh). Every entry's launch and registers are checked against
//! what Triton's metadata json and LLVM's comments in its `.amdgcn` listing state.

use crate::{command, root};
use serde_json::Value;
use std::path::PathBuf;

/// The targets and kernels the script compiles.
const TARGETS: [&str; 4] = ["gfx90a", "gfx942", "gfx1100", "gfx1200"];
const KERNELS: [&str; 5] = [
    "add_kernel",
    "softmax_kernel",
    "layernorm_kernel",
    "matmul_kernel",
    "attn_fwd_kernel",
];

/// Every committed entry, `<gfx>/<kernel>`, as the folder holds them (sorted).
pub fn entries() -> Vec<String> {
    let dir = root().join("tests/fixtures/triton");
    let mut out = Vec::new();
    for gfx in std::fs::read_dir(&dir).expect("fixtures").flatten() {
        for k in std::fs::read_dir(gfx.path()).expect("target").flatten() {
            out.push(format!(
                "{}/{}",
                gfx.file_name().to_string_lossy(),
                k.file_name().to_string_lossy()
            ));
        }
    }
    out.sort();
    out
}

fn dir(rel: &str) -> PathBuf {
    root().join("tests/fixtures/triton").join(rel)
}

/// What the entry says of itself: the metadata json, and LLVM's `; NAME: N` comment.
struct Stated {
    json: Value,
    amdgcn: String,
}

impl Stated {
    fn read(rel: &str) -> Stated {
        let kernel = rel.rsplit('/').next().expect("kernel");
        let text = |ext: &str| {
            std::fs::read_to_string(dir(rel).join(format!("{kernel}.{ext}"))).expect("entry file")
        };
        Stated {
            json: serde_json::from_str(&text("json")).expect("json"),
            amdgcn: text("amdgcn"),
        }
    }

    fn meta(&self, key: &str) -> u64 {
        self.json[key].as_u64().expect(key)
    }

    /// LLVM's `; NAME: N` comment (the kernel's resource summary).
    fn llvm(&self, name: &str) -> Option<u64> {
        let prefix = format!("; {name}: ");
        self.amdgcn
            .lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .and_then(|n| n.split_whitespace().next()?.parse().ok())
    }
}

fn analyze_json(args: &[&str]) -> Value {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json", "--no-latency-search"]);
    let (code, out, err) = command().args(&all).code_and_text();
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).expect("json report")
}

/// VGPRs a wave is allocated: LLVM's count (`TotalNumVgprs`, the VGPRs and AGPRs together on
/// CDNA, else `NumVgprs`) rounded up to the model's granule: 8 on gfx90a and gfx942 (cdna2
/// and cdna3 models, LLVM's getVGPRAllocGranule), 24 for wave32 on the 1536-VGPR gfx1100
/// and gfx1200 (rdna3 model, rdna-model.md 5.1, inherited by rdna4).
fn allocated_vgprs(llvm: u64, gfx: &str) -> u64 {
    let granule = if gfx.starts_with("gfx9") { 8 } else { 24 };
    llvm.div_ceil(granule) * granule
}

/// LDS bytes a workgroup is allocated: `shared` rounded up to the model's granule (gcn's
/// 512 bytes, "128 DWORDs", on CDNA; 1024 on RDNA 3 and 4).
fn allocated_lds(shared: u64, gfx: &str) -> u64 {
    let granule = if gfx.starts_with("gfx9") { 512 } else { 1024 };
    shared.div_ceil(granule) * granule
}

#[test]
fn every_kernel_is_committed_for_every_target() {
    let want: Vec<String> = TARGETS
        .iter()
        .flat_map(|g| KERNELS.iter().map(move |k| format!("{g}/{k}")))
        .collect();
    let mut want = want;
    want.sort();
    assert_eq!(entries(), want);
}

#[test]
fn launch_lds_vgprs_and_occupancy_are_what_triton_and_llvm_state() {
    // Every entry, the gfx1200 GEMM and flash attention included: Triton's LLVM writes their
    // fp16 code with real true16 instructions (`v_mov_b16_e32 v1.l, 0`), which the decoder reads
    // as llvm-objdump-22 --mattr=+real-true16 does (issue 48).
    for rel in entries() {
        let s = Stated::read(&rel);
        let gfx = rel.split('/').next().unwrap();
        let v = analyze_json(&[&dir(&rel).display().to_string(), "--grid", "1024"]);
        // Block = num_warps x warp_size work-items: num_warps waves of warp_size lanes.
        assert_eq!(v["wave_size"].as_u64(), Some(s.meta("warp_size")), "{rel}");
        let per_group = v["waves"].as_u64().unwrap() / v["workgroups"].as_u64().unwrap();
        assert_eq!(per_group, s.meta("num_warps"), "{rel}");
        assert_eq!(v["isa"].as_str(), Some(gfx), "{rel}");
        assert_eq!(v["kernel_time"]["workgroups"], 1024, "{rel}");
        // Dynamic LDS = shared (the code object declares none: LLVM's LDSByteSize is 0).
        assert_eq!(s.llvm("LDSByteSize"), Some(0), "{rel}");
        let lds = allocated_lds(s.meta("shared"), gfx);
        assert_eq!(v["occupancy"]["lds_bytes"].as_u64(), Some(lds), "{rel}");
        let llvm_vgprs = s
            .llvm("TotalNumVgprs")
            .or_else(|| s.llvm("NumVgprs"))
            .expect("NumVgprs");
        assert_eq!(
            v["occupancy"]["vgprs"].as_u64(),
            Some(allocated_vgprs(llvm_vgprs, gfx)),
            "{rel}"
        );
        // LLVM's occupancy counts no dynamic LDS. It binds nowhere here: the most is 16 KiB
        // for 4 or 8 waves, which a 64 KiB LDS holds 4 times (16 or 32 waves, above the
        // VGPR-bound occupancy of those kernels), so the two must agree.
        assert_eq!(
            v["occupancy"]["waves_per_simd"].as_u64(),
            s.llvm("Occupancy"),
            "{rel}"
        );
    }
}

#[test]
fn gemm_kernel_time_from_its_clocks() {
    let v = analyze_json(&[
        &dir("gfx942/matmul_kernel").display().to_string(),
        "--grid",
        "1024",
    ]);
    let k = &v["kernel_time"];
    let f = |key: &str| k[key].as_f64().expect(key);
    // 1024 programs (128x128 tiles of C) on the cdna3 model's 304 CUs: the busiest CU takes
    // ceil(1024 / 304) = 4 workgroups, the CU the run simulated.
    assert_eq!(k["workgroups_per_cu"], 4);
    assert_eq!(v["workgroups"], 4);
    // 104 VGPRs -> 4 waves per SIMD (LLVM's `; Occupancy: 4`), 16 waves on the CU's 4
    // SIMDs: 2 workgroups of num_warps = 8 waves resident, so the 4 run in 2 rounds.
    assert_eq!(k["resident_workgroups_per_cu"], 2);
    assert_eq!(k["rounds"], 2);
    // The CU's time is its simulated clocks at the model's 2100 MHz.
    assert_eq!(f("cu_clocks"), v["clocks"].as_f64().unwrap());
    assert_eq!(f("clock_mhz"), 2100.0);
    let cu_us = f("cu_clocks") / 2100.0;
    // W / dispatch rate: 1024 workgroups started at the model's 32 per clock (one per
    // shader engine, `dispatch_workgroups_per_clock`) = 32 clocks = 0.0152 us.
    let dispatch_us = 1024.0 / 32.0 / 2100.0;
    assert!((f("dispatch_us") - dispatch_us).abs() < 1e-6);
    // kernel_time_us = kernel_launch_us (2.0, gcn.toml's assumption) + max(the two).
    let expected = 2.0 + cu_us.max(dispatch_us);
    let us = v["kernel_time_us"].as_f64().expect("kernel_time_us");
    assert!((us - expected).abs() < 1e-5, "{us} vs {expected}");
}
