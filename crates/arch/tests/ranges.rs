//! Parameters have ranges (issue 17 item 1) and user model files need only
//! what they change.

use shadersim_arch::{ArchError, ArchSpec, ParamRange, BUILTIN};

#[test]
fn every_builtin_parameter_has_a_listed_range_and_lies_in_it() {
    for (name, _) in BUILTIN {
        let arch = ArchSpec::builtin(name).unwrap();
        for (p, v) in &arch.params {
            assert!(
                ParamRange::is_listed(p),
                "{name}.{p} has no range in data/ranges.toml"
            );
            assert!(
                ParamRange::of(p).contains(v.value),
                "{name}.{p} = {}",
                v.value
            );
        }
    }
}

#[test]
fn set_refuses_the_values_issue_17_lists_and_names_the_rule() {
    // Each of these was accepted before (some ran as 1): no SIMD, no LDS
    // queue, an issue turn that never comes, a 0 MHz clock, no CU, a launch
    // rate of zero, and a 3-byte L2 line (not a power of two).
    for (key, value) in [
        ("simds", "0"),
        ("lds_queues", "0"),
        ("issue_interval", "0"),
        ("clock_mhz", "0"),
        ("cu_count", "0"),
        ("compute_waves_per_clock", "0"),
        ("l2_line_bytes", "3"),
        ("simds", "2.5"),
        ("vmem_latency", "nan"),
    ] {
        let mut gcn = ArchSpec::builtin("gcn").unwrap();
        let e = gcn.set(key, value).unwrap_err().to_string();
        assert!(
            e.contains(&format!("`{key}` must be")),
            "{key}={value}: {e}"
        );
        assert!(!e.contains("known parameters"), "{e}");
    }
    let mut gcn = ArchSpec::builtin("gcn").unwrap();
    let e = gcn.set("simds", "0").unwrap_err().to_string();
    assert_eq!(
        e,
        "--set simds=0: `simds` must be a whole number from 1 to 64 (a CU has at least one SIMD)"
    );
    // Inside the range it is taken.
    gcn.set("l2_line_bytes", "128").unwrap();
    assert_eq!(gcn.param("l2_line_bytes"), Some(128.0));
}

#[test]
fn a_user_file_with_base_and_one_number_loads() {
    let a = ArchSpec::from_user_toml(
        "my.toml",
        "base = \"gcn\"\n[params]\nvmem_latency = { value = 500 }\n",
    )
    .unwrap();
    assert_eq!(a.name, "my");
    assert_eq!(a.param("vmem_latency"), Some(500.0));
    assert_eq!(a.params["vmem_latency"].source, "model file my.toml");
    // Inherited from gcn.
    assert_eq!(a.param("valu_clocks"), Some(4.0));
    assert_eq!(a.isa.name, "gfx900");
}

#[test]
fn a_user_file_value_out_of_range_is_an_error_at_its_line() {
    let e = ArchSpec::from_user_toml(
        "my.toml",
        "base = \"gcn\"\n[params]\nsimds = { value = 0 }\n",
    )
    .unwrap_err();
    match &e {
        ArchError::Parse {
            line,
            column,
            message,
            ..
        } => {
            assert_eq!((*line, *column), (3, 11), "{e}");
            assert!(message.contains("`simds` = 0 is out of range"), "{message}");
        }
        other => panic!("{other}"),
    }
    // The message carries one `error:`, which the command line prints as is.
    assert_eq!(e.to_string().matches("error:").count(), 1, "{e}");
}

#[test]
fn the_builtin_rule_still_wants_sources() {
    let e = ArchSpec::from_toml(
        "m.toml",
        "base = \"gcn\"\n[params]\nsimds = { value = 2 }\n",
    )
    .unwrap_err();
    assert!(e.to_string().contains("no source"), "{e}");
}
