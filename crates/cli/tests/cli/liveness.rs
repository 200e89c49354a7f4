//! `shadersim liveness`: the peak, the cliff sentence, JSON keys, errors.

use crate::shadersim;

#[test]
fn text_names_the_peak_and_the_cliff() {
    let o = shadersim(&["liveness", "examples/lighting_ps.txt", "--arch", "gfx900"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("peak VGPRs"), "{text}");
    // GCN: 28 VGPRs -> 256 / 28 = 9 waves; 24 -> 256 / 24 = 10 (slots).
    assert!(text.contains("(9 -> 10 at 24 VGPRs)"), "{text}");
}

#[test]
fn json_has_per_instruction_counts() {
    let o = shadersim(&[
        "liveness",
        "tests/fixtures/llvm/gfx1100/loop_sum.s",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["arch"], "rdna3");
    assert_eq!(v["wave_size"], 32);
    let peak = v["peak_vgprs"]["count"].as_u64().unwrap();
    assert!(peak >= 1 && peak <= v["vgprs"].as_u64().unwrap());
    assert!(!v["instructions"].as_array().unwrap().is_empty());
    assert!(v["occupancy"]["summary"].is_string());
}

#[test]
fn bad_input_and_usage() {
    let o = shadersim(&["liveness", "no/such/file.s"]);
    assert_eq!(o.status.code(), Some(1));
    let o = shadersim(&["liveness", "examples/lighting_ps.txt", "--arch", "xe3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("occupancy-only"));
}
