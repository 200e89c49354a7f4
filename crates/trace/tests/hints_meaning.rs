//! Hints that used to mean something other than what they say (issue 32
//! item 3, issue 35 item 10): each is now either what it says or an error at
//! its place in the hints file.

use shadersim_asm::{read_program_text, Program, ReadOptions};
use shadersim_cfg::Cfg;
use shadersim_trace::{memory_facts, Hints, TracePlan, WaveTrace};

fn program_for(text: &str, gpu: &str) -> Program {
    let opts = ReadOptions {
        target: Some(gpu.parse().unwrap()),
        ..Default::default()
    };
    read_program_text("t.s", text, &opts)
        .unwrap()
        .programs
        .remove(0)
}

fn program(text: &str) -> Program {
    program_for(text, "gfx900")
}

const GUARDED: &str = include_str!("../../../tests/programs/guarded_loop.s");
const IF_ELSE_IN_LOOP: &str = include_str!("../../../tests/programs/if_else_in_loop.s");

/// The plan for `hints` on `text`, or the rendered error.
fn plan(text: &str, hints: &str) -> Result<(Program, Cfg, TracePlan), String> {
    let p = program(text);
    let cfg = Cfg::build(&p).unwrap();
    let h = Hints::parse(hints).map_err(|e| e.render("h.toml", hints))?;
    let plan = TracePlan::from_hints(&p, &cfg, &h).map_err(|e| e.render("h.toml", hints))?;
    Ok((p, cfg, plan))
}

/// Times wave `wave` runs the guarded loop's body (`v_add_f32`, line 6).
fn body_runs(p: &Program, cfg: &Cfg, plan: &TracePlan, wave: u32) -> u64 {
    let t = WaveTrace::expand_wave(p, cfg, plan, wave).unwrap();
    let body = p
        .instructions
        .iter()
        .position(|s| s.text.starts_with("v_add_f32"))
        .unwrap();
    t.executions[body]
}

fn expect_error(text: &str, hints: &str, expected: &str) {
    let msg = match plan(text, hints) {
        Err(m) => m,
        Ok(_) => panic!("{hints:?} was accepted; want {expected}"),
    };
    assert!(
        msg.starts_with(expected),
        "{hints:?}\n got: {msg}\nwant: {expected}"
    );
}

#[test]
fn a_range_from_zero_draws_at_the_guard() {
    // "0..16" draws uniformly from 0 to 16 per wave: a wave that draws 0
    // takes the guard around the loop, the others run the body as many
    // times as they drew. Before, the guard saw the range's low end (0) and
    // every wave skipped the loop.
    let (p, cfg, plan) = plan(GUARDED, "[[loop]]\nline = 6\niterations = \"0..16\"\n").unwrap();
    let runs: Vec<u64> = (0..200).map(|w| body_runs(&p, &cfg, &plan, w)).collect();
    assert!(runs.iter().all(|&r| r <= 16), "{runs:?}");
    // P(no wave of 200 draws 0) = (16/17)^200 ~ 5e-6; P(all draw 0) is far less.
    assert!(runs.contains(&0), "{runs:?}");
    assert!(runs.iter().any(|&r| r > 0), "{runs:?}");
    // The mean of uniform 0..=16 is 8; 200 draws have a standard error of
    // sqrt(((17^2 - 1) / 12) / 200) ~ 0.35, so 8 +- 1.5 is over 4 sigma.
    let mean = runs.iter().sum::<u64>() as f64 / runs.len() as f64;
    assert!((6.5..=9.5).contains(&mean), "mean {mean}");
}

#[test]
fn a_huge_geometric_mean_reaches_its_cap() {
    // Mean 1e17: p = 1e-17 per trial, so P(a draw below 100) =
    // 1 - (1 - 1e-17)^99 ~ 1e-15: every wave runs the cap, 100. Before,
    // 1 - p rounded to 1 and every draw collapsed to 1.
    let (p, cfg, plan) = plan(
        GUARDED,
        "[[loop]]\nline = 6\niterations = { mean = 1e17, max = 100 }\n",
    )
    .unwrap();
    for w in 0..8 {
        assert_eq!(body_runs(&p, &cfg, &plan, w), 100, "wave {w}");
    }
}

#[test]
fn an_iteration_count_that_is_not_one_says_what_one_may_be() {
    let forms = "an iteration count is a whole number of header executions from 0 to 4294967295, \
                 a list of such numbers (one per wave), a range such as \"4..16\", or { mean = 8.0, max = 32 }";
    for (value, found) in [
        ("-1", "found -1"),
        ("-4", "found -4"),
        ("1e12", "found the fraction 1000000000000"),
        ("true", "found true"),
        ("4294967296", "found 4294967296"),
    ] {
        let hints = format!("[[loop]]\nline = 6\niterations = {value}\n");
        expect_error(
            GUARDED,
            &hints,
            &format!("h.toml:3:14: error: {forms}; {found}"),
        );
    }
    expect_error(
        GUARDED,
        "[[loop]]\nline = 6\niterations = [4, -2]\n",
        "h.toml:3:14: error: an iteration count is a whole number",
    );
    expect_error(
        GUARDED,
        "[[loop]]\nline = 6\niterations = { mean = 8.0, max = 32, min = 2 }\n",
        "h.toml:3:14: error: unknown key `min` in an iterations table: it takes `mean` and `max`",
    );
    expect_error(
        GUARDED,
        "[[loop]]\nline = 6\niterations = { mean = 8.0 }\n",
        "h.toml:3:14: error: an iterations table needs both `mean` and `max`",
    );
    // The forms that are allowed still read.
    for value in ["7", "[1, 2, 3]", "\"2..5\"", "{ mean = 4, max = 9 }"] {
        plan(
            GUARDED,
            &format!("[[loop]]\nline = 6\niterations = {value}\n"),
        )
        .unwrap();
    }
}

#[test]
fn a_branch_takes_one_hint_and_one_kind_of_direction() {
    // Line 4 is `s_cbranch_scc1 .Lelse`, the if/else inside the loop.
    expect_error(
        IF_ELSE_IN_LOOP,
        "[[branch]]\nline = 4\ntaken = true\n[[branch]]\nline = 4\ntaken = false\n",
        "h.toml:5:8: error: this branch already has hints",
    );
    expect_error(
        IF_ELSE_IN_LOOP,
        "[[branch]]\nline = 4\ntaken = true\nprobability = 0.5\n",
        "h.toml:4:15: error: give a branch either `taken` or `probability`, not both",
    );
}

const MEMORY: &str = "buffer_load_dword v1, v0, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm\n";

fn memory_error(p: &Program, hints: &str) -> Option<String> {
    let h = Hints::parse(hints).unwrap();
    memory_facts(p, &h).err().map(|e| e.render("h.toml", hints))
}

#[test]
fn the_largest_latency_is_refused_rather_than_read_as_no_hint() {
    // The engine reads u32::MAX as "the unit's own latency".
    let p = program(MEMORY);
    let e = memory_error(&p, "[[memory]]\nline = 1\nlatency = 4294967295\n").unwrap();
    assert_eq!(
        e,
        "h.toml:3:11: error: latency must be at most 4294967294 clocks"
    );
    assert_eq!(
        memory_error(&p, "[[memory]]\nline = 1\nlatency = 4294967294\n"),
        None
    );
}

#[test]
fn a_lane_list_has_one_address_per_lane_of_the_programs_wave() {
    let list32 = (0..32)
        .map(|i| (i * 4).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let hints = format!("[[memory]]\nline = 1\npattern = \"list:{list32}\"\n");
    // gfx1030 code naming `exec_lo` runs wave32: 32 addresses are its lanes.
    let wave32 = program_for(
        "global_load_dword v1, v[0:1], off\ns_and_b32 exec_lo, exec_lo, s0\ns_endpgm\n",
        "gfx1030",
    );
    assert_eq!(memory_error(&wave32, &hints), None);
    // GCN is wave64 only: 32 addresses would leave lanes 32..63 unsaid.
    let e = memory_error(&program(MEMORY), &hints).unwrap();
    assert_eq!(
        e,
        "h.toml:3:11: error: the list has 32 addresses, but the program runs wave64 (GCN runs wave64 only): give 64"
    );
    // A wave size the file does not show can come from the hints.
    let unknown = program_for("global_load_dword v1, v[0:1], off\ns_endpgm\n", "gfx1030");
    let e = memory_error(&unknown, &hints).unwrap();
    assert!(e.starts_with("h.toml:3:11: error: the list has 32 addresses, one per lane of a wave32; the program's wave size is not known"), "{e}");
    let with_size = format!("[dispatch]\nwave_size = 32\n{hints}");
    assert_eq!(memory_error(&unknown, &with_size), None);
}
