//! `shadersim coalesce` from the outside: output, JSON keys and exit codes.

use crate::{json_of, shadersim};
use shadersim_testkit::cli::{stderr, stdout};

#[test]
fn text_output_has_one_fact_per_line() {
    let output = shadersim(&[
        "coalesce",
        "--op",
        "buffer_load_dword",
        "--pattern",
        "linear",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let expected_starts = [
        "op:           buffer_load_dword (buffer load, single channel, 32 bits per lane)",
        "pattern:      linear (compute lane order, 4-byte elements, base 0x0)",
        "active lanes: 64 of 64 (exec 0xffffffffffffffff)",
        "L2 requests:  4 x 64-byte lines = 256 bytes",
        "lines:        0x0 0x40 0x80 0xc0",
        "accesses:     64",
        "L1 groups:    4 of 16 lanes",
        "clocks:       4 (full wave: 4; buffer_coalesced_load_clocks 4)",
        "rule:         16-lane case 3 of seed 001",
    ];
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected_starts.len(), "{text}");
    for (line, start) in lines.iter().zip(expected_starts) {
        assert!(
            line.starts_with(start),
            "{line:?} should start with {start:?}"
        );
    }
    assert!(stderr(&output).is_empty());
}

#[test]
fn json_has_the_contract_keys() {
    let value = json_of(&[
        "coalesce",
        "--op",
        "buffer_load_dword",
        "--pattern",
        "quad-uniform",
        "--format",
        "json",
    ]);
    for key in ["l2_requests", "l1_groups", "group_size", "clocks", "rule"] {
        assert!(value.get(key).is_some(), "missing {key}: {value}");
    }
    assert_eq!(value["l2_requests"], 1);
    assert_eq!(value["l1_groups"], 4);
    assert_eq!(value["group_size"], 16);
    assert_eq!(value["clocks"], 4);
    assert_eq!(value["rule_id"], "buffer16-quad-uniform");
    assert!(value["rule"].as_str().unwrap().contains("case 2"));
    assert_eq!(value["active_lanes"], 64);
    assert_eq!(value["exec"], "0xffffffffffffffff");
    assert_eq!(value["lines"], serde_json::json!([0]));
}

#[test]
fn exec_mask_base_and_stage_are_used() {
    let value = json_of(&[
        "coalesce",
        "--op",
        "buffer_load_dword",
        "--pattern",
        "linear",
        "--exec",
        "0xffff",
        "--base",
        "0x1000",
        "--format",
        "json",
    ]);
    assert_eq!(value["active_lanes"], 16);
    assert_eq!(value["l1_groups"], 1);
    assert_eq!(value["clocks"], 1);
    assert_eq!(value["lines"], serde_json::json!([4096]));

    // Pixel-quad order breaks the consecutive blocks of a row-major buffer.
    let compute = json_of(&[
        "coalesce",
        "--op",
        "buffer_load_dword",
        "--pattern",
        "tile2d:8x8",
        "--format",
        "json",
    ]);
    let pixel = json_of(&[
        "coalesce",
        "--op",
        "buffer_load_dword",
        "--pattern",
        "tile2d:8x8",
        "--stage",
        "pixel",
        "--format",
        "json",
    ]);
    assert_eq!(
        (compute["clocks"].as_u64(), pixel["clocks"].as_u64()),
        (Some(4), Some(16))
    );
    assert_eq!(pixel["lane_order"], "pixel");
}

#[test]
fn image_ops_take_texel_format_and_filter() {
    let value = json_of(&[
        "coalesce",
        "--op",
        "image_sample",
        "--pattern",
        "tile2d:8x8",
        "--stage",
        "pixel",
        "--format-texel",
        "rgba32f",
        "--filter",
        "bilinear",
        "--format",
        "json",
    ]);
    assert_eq!(value["clocks"], 64);
    assert_eq!(value["group_size"], 4);
    assert_eq!(value["texel_format"], "rgba32f");
    // Defaults of gcn-model.md: rgba8 + trilinear = 32 clocks; gradients double it.
    assert_eq!(
        json_of(&[
            "coalesce",
            "--op",
            "image_sample",
            "--pattern",
            "linear",
            "--format",
            "json"
        ])["clocks"],
        32
    );
    assert_eq!(
        json_of(&[
            "coalesce",
            "--op",
            "image_sample_d",
            "--pattern",
            "linear",
            "--format",
            "json"
        ])["clocks"],
        64
    );
}

#[test]
fn stores_collapse_and_atomics_do_not() {
    let store = json_of(&[
        "coalesce",
        "--op",
        "buffer_store_dword",
        "--pattern",
        "uniform",
        "--format",
        "json",
    ]);
    let atomic = json_of(&[
        "coalesce",
        "--op",
        "buffer_atomic_add",
        "--pattern",
        "uniform",
        "--format",
        "json",
    ]);
    assert_eq!(store["l2_requests"], 1);
    assert_eq!(atomic["l2_requests"], 64);
}

#[test]
fn rates_can_be_overridden() {
    let value = json_of(&[
        "coalesce",
        "--op",
        "buffer_load_dword",
        "--pattern",
        "linear",
        "--set",
        "l2_line_bytes=128",
        "--set",
        "buffer_coalesced_load_clocks=8",
        "--format",
        "json",
    ]);
    assert_eq!(value["l2_requests"], 2);
    assert_eq!(value["clocks"], 8);
}

#[test]
fn bad_option_values_exit_2_with_a_clear_message() {
    // Issue 17 item 5: every input of `coalesce` is an option value, so a
    // bad one is a usage error (exit 2), like clap's own.
    let cases: &[(&[&str], &str)] = &[
        (
            &["--op", "buffer_load_dword", "--pattern", "stride:4k"],
            "error: bad lane pattern `stride:4k` at column 8",
        ),
        (
            &["--op", "buffer_load_dword", "--pattern", "lineer"],
            "unknown pattern `lineer`",
        ),
        (
            &["--op", "buffer_load_dword", "--pattern", "list:1,2,3"],
            "has 3 addresses",
        ),
        (
            &["--op", "buffer_lod_dword", "--pattern", "linear"],
            "bad memory instruction `buffer_lod_dword`",
        ),
        (
            &["--op", "s_buffer_load_dword", "--pattern", "linear"],
            "scalar memory",
        ),
        (
            &[
                "--op",
                "buffer_load_dword",
                "--pattern",
                "linear",
                "--exec",
                "0xzz",
            ],
            "--exec: `0xzz` is not a number",
        ),
        (
            &[
                "--op",
                "buffer_load_dword",
                "--pattern",
                "linear",
                "--base",
                "4k",
            ],
            "--base: `4k` is not a number",
        ),
        (
            &[
                "--op",
                "image_sample",
                "--pattern",
                "linear",
                "--format-texel",
                "rgb565",
            ],
            "unknown texel format `rgb565`",
        ),
        (
            &[
                "--op",
                "image_sample",
                "--pattern",
                "tile2d:3x3",
                "--stage",
                "pixel",
            ],
            "must be even",
        ),
        (
            &[
                "--op",
                "buffer_load_dword",
                "--pattern",
                "linear",
                "--set",
                "nope=1",
            ],
            "unknown VMEM rate `nope`",
        ),
        (
            &[
                "--op",
                "buffer_load_dword",
                "--pattern",
                "linear",
                "--base",
                "0xffffffffffffffff",
            ],
            "does not fit in 64 bits",
        ),
    ];
    for (args, expected) in cases {
        let output = shadersim(&[&["coalesce"], *args].concat());
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        let message = stderr(&output);
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(message.starts_with("error: "), "{message}");
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn bad_usage_exits_2() {
    let cases: &[&[&str]] = &[
        &["--op", "buffer_load_dword"],
        &["--pattern", "linear"],
        &[
            "--op",
            "buffer_load_dword",
            "--pattern",
            "linear",
            "--format",
            "xml",
        ],
        &[
            "--op",
            "buffer_load_dword",
            "--pattern",
            "linear",
            "--stage",
            "geometry",
        ],
        &[
            "--op",
            "buffer_load_dword",
            "--pattern",
            "linear",
            "--filter",
            "point",
        ],
        &[
            "--op",
            "global_load_b32",
            "--pattern",
            "linear",
            "--format-texel",
            "r32f",
        ],
        &[
            "--op",
            "buffer_load_dword",
            "--pattern",
            "linear",
            "--bogus",
        ],
    ];
    for args in cases {
        let output = shadersim(&[&["coalesce"], *args].concat());
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).is_empty());
    }
}

#[test]
fn help_documents_the_patterns() {
    let output = shadersim(&["coalesce", "--help"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    for word in [
        "--op",
        "--pattern",
        "--exec",
        "quad-permuted",
        "tile2d",
        "random:SEED",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
}

/// The README's examples are real output: each `$ shadersim coalesce ...` block of the
/// "Memory coalescing" section whose output is not abridged must match a run of the command.
#[test]
fn readme_examples_are_real_output() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("read README.md");
    let section = readme
        .split("## Memory coalescing (`shadersim coalesce`)")
        .nth(1)
        .expect("README has the coalescing section");
    let mut checked = 0;
    for block in section.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap_or("");
        // Commands and their output within the block, split at each `$ ` line.
        for example in block.split("$ ").skip(1) {
            let (command, expected) = example.split_once('\n').unwrap_or((example, ""));
            if expected.contains("...") {
                continue;
            }
            let args: Vec<&str> = command.split_whitespace().skip(1).collect();
            let output = shadersim(&args);
            assert_eq!(output.status.code(), Some(0), "{command}");
            assert_eq!(
                stdout(&output).trim_end(),
                expected.trim_end(),
                "README example `{command}` is out of date"
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} README examples checked");
}
