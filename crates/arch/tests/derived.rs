//! Issue 27 item 5: derived numbers follow from their stated inputs, in
//! every model, after inheritance and after `--set`.

use shadersim_arch::{ArchSpec, BUILTIN};

fn p(a: &ArchSpec, name: &str) -> f64 {
    a.param(name)
        .unwrap_or_else(|| panic!("{}: no `{name}`", a.name))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn bandwidth_per_clock_is_the_cards_bandwidth_over_its_cus_and_clock() {
    for (name, _) in BUILTIN {
        let a = ArchSpec::builtin(name).unwrap();
        if a.param("dram_bytes_per_clock").is_none() {
            continue; // TeraScale: no cache hierarchy yet
        }
        // GB/s x 1000 = MB/s, of which a stream achieves dram_stream_fraction; per CU; per
        // million clocks = bytes per clock.
        let want = p(&a, "dram_gb_per_s") * p(&a, "dram_stream_fraction") * 1000.0
            / p(&a, "gpu_cus")
            / p(&a, "clock_mhz");
        assert!(close(p(&a, "dram_bytes_per_clock"), want), "{name}");
        if a.param("l2_bytes_per_clock").is_some() {
            // 64 bytes per clock per L2 channel (GCN-WP), shared by the CUs; cdna3 states its
            // own channel width (CDNA3-WP: 128 bytes per clock).
            let channel = a.param("l2_channel_bytes_per_clock").unwrap_or(64.0);
            let want = p(&a, "l2_channels") * channel / p(&a, "gpu_cus");
            assert!(close(p(&a, "l2_bytes_per_clock"), want), "{name}");
        }
    }
}

#[test]
fn each_chip_has_its_own_bandwidth() {
    // Vega 64: 484 GB/s x 0.848 achieved by a stream (gcn's dram_stream_fraction) over 64
    // CUs at 1546 MHz = 4.148 bytes per clock per CU (not 484 x 0.848 / 64 / 1000 = 6.41,
    // the generic model's 1 GHz).
    let v = ArchSpec::builtin("gfx900").unwrap();
    assert!(close(
        p(&v, "dram_bytes_per_clock"),
        484_000.0 * 0.848 / 64.0 / 1546.0
    ));
    // HD 7970: 264 GB/s / 32 CUs / 925 MHz = 8.919; R9 290X: 320 / 44 / 1000
    // = 7.273; RX 480: 256 / 36 / 1266 = 5.617; RX 7600: 288 / 32 / 2655 =
    // 3.390 (before, each inherited its base's figure).
    for (chip, gbs, cus, mhz) in [
        ("gfx600", 264.0, 32.0, 925.0),
        ("gfx701", 320.0, 44.0, 1000.0),
        ("gfx803", 256.0, 36.0, 1266.0),
        ("gfx1102", 288.0, 32.0, 2655.0),
    ] {
        let a = ArchSpec::builtin(chip).unwrap();
        assert!(
            close(
                p(&a, "dram_bytes_per_clock"),
                gbs * p(&a, "dram_stream_fraction") * 1000.0 / cus / mhz
            ),
            "{chip}: {}",
            p(&a, "dram_bytes_per_clock")
        );
    }
}

#[test]
fn derived_numbers_follow_set_unless_set_themselves() {
    let mut a = ArchSpec::builtin("gfx900").unwrap();
    a.set("clock_mhz", "1000").unwrap();
    assert!(close(
        p(&a, "dram_bytes_per_clock"),
        484_000.0 * 0.848 / 64.0 / 1000.0
    ));
    a.set("dram_bytes_per_clock", "2").unwrap();
    a.set("clock_mhz", "1546").unwrap();
    assert_eq!(p(&a, "dram_bytes_per_clock"), 2.0);
}

#[test]
fn formulas_are_checked() {
    let e = ArchSpec::from_user_toml(
        "m.toml",
        "base = \"gcn\"\n[params]\ndram_bytes_per_clock = { formula = \"dram_gb_per_s / nonsense\" }\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("unknown parameter `nonsense`"), "{e}");
    let e = ArchSpec::from_user_toml(
        "m.toml",
        "base = \"gcn\"\n[params]\nl2_latency = { value = 3, formula = \"1\" }\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("not both"), "{e}");
    // A user's formula over the base's numbers.
    let a = ArchSpec::from_user_toml(
        "m.toml",
        "base = \"gcn\"\n[params]\nl2_latency = { formula = \"l1_latency * 3\" }\n",
    )
    .unwrap();
    assert_eq!(p(&a, "l2_latency"), 3.0 * p(&a, "l1_latency"));
}

#[test]
fn unknown_names_and_the_memory_switch() {
    let e = ArchSpec::from_user_toml("m.toml", "base = \"gcn\"\n[params]\nfrob = { value = 1 }\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("m.toml:3:") && e.contains("unknown parameter `frob`"),
        "{e}"
    );
    let a = ArchSpec::from_user_toml("m.toml", "base = \"gcn\"\nmemory = \"flat\"\n").unwrap();
    assert!(!a.hierarchy_on());
    let e = ArchSpec::from_user_toml("m.toml", "base = \"gcn\"\nmemory = \"fast\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("m.toml:2:") && e.contains("expected `flat`"),
        "{e}"
    );
    let mut g = ArchSpec::builtin("gcn").unwrap();
    // A latency never switches the model.
    g.set("vmem_latency", "900").unwrap();
    assert!(g.hierarchy_on());
    g.set_all(&[
        ("vmem_latency".into(), "100".into()),
        ("memory".into(), "flat".into()),
    ])
    .unwrap();
    assert!(!g.hierarchy_on());
    assert_eq!(g.param("vmem_latency"), Some(100.0));
}
