//! Issue 47 items 14 and 17 through the CLI: every command that reads a listing (analyze, cfg,
//! hints, liveness) refuses `s_delay_alu ,,` at its place, and a bare listing's numeric branch
//! offsets (no addresses, no `; encoding:` comments) resolve by the instructions' sizes
//! (shadersim_isa::size, checked against llvm-mc-22 in crates/asm/tests/instruction_sizes.rs).

use crate::shadersim;

/// `text` written to a file of its own; the runs of `commands` on it for `arch`: exit code and
/// stderr, the directory replaced by `DIR`.
fn run_each(name: &str, text: &str, arch: &str, commands: &[&str]) -> Vec<(Option<i32>, String)> {
    let dir = std::env::temp_dir().join(format!("shadersim-bare-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.s"));
    std::fs::write(&file, text).unwrap();
    let out = commands
        .iter()
        .map(|c| {
            let o = shadersim(&[c, file.to_str().unwrap(), "--arch", arch]);
            let err = String::from_utf8(o.stderr).unwrap();
            (o.status.code(), err.replace(dir.to_str().unwrap(), "DIR"))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn an_s_delay_alu_without_fields_is_an_error_in_every_command() {
    // llvm-mc-22 -mcpu=gfx1100 refuses `s_delay_alu ,,` ("invalid operand for instruction").
    let text = "v_mov_b32 v0, 0\ns_delay_alu ,,\ns_endpgm\n";
    for (i, (code, err)) in run_each(
        "delay",
        text,
        "gfx1100",
        &["analyze", "cfg", "hints", "liveness"],
    )
    .into_iter()
    .enumerate()
    {
        assert_eq!(code, Some(1), "command {i}: {err}");
        assert!(
            err.contains("DIR/delay.s:2:1: error:"),
            "command {i}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_bare_listings_numeric_branches_resolve_by_instruction_sizes() {
    // A counted loop on gfx1100: v_add_nc_u32 with a literal (8 bytes), s_add_u32 (4),
    // s_cmp_lg_u32 with 0x100 (8, a literal), so s_cbranch_scc1 sits at 20 and -6 words from
    // the next instruction (24 - 24) is the loop's top; llvm-mc-22 encodes `s_cbranch_scc1 -6`
    // there as [0xfa,0xff,0xa2,0xbf].
    let text = "\tv_add_nc_u32 v0, 0x1234, v0\n\ts_add_u32 s0, s0, 1\n\ts_cmp_lg_u32 s0, 0x100\n\ts_cbranch_scc1 -6\n\ts_endpgm\n";
    for (i, (code, err)) in run_each(
        "loop",
        text,
        "gfx1100",
        &["analyze", "cfg", "hints", "liveness"],
    )
    .into_iter()
    .enumerate()
    {
        assert_eq!(code, Some(0), "command {i}: {err}");
    }
    // One word further back is no instruction of the listing: an error at the branch.
    let text = text.replace("-6", "-7");
    let (code, err) = &run_each("outside", &text, "gfx1100", &["analyze"])[0];
    assert_eq!(*code, Some(1), "{err}");
    assert!(
        err.contains(
            "DIR/outside.s:4:2: error: branch target -0x4 (-7 words from the next instruction)"
        ),
        "{err}"
    );
    assert!(err.contains("spans 0x0 to 0x1c"), "{err}");
}
