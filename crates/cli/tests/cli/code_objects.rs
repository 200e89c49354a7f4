//! Code objects as input: `analyze`, `cfg`, `liveness`, `hints` and `batch` read AMDGPU ELF files
//! and clang offload bundles with no LLVM tool reachable (PATH is an empty directory), and the
//! kernel's resources come from its metadata note and descriptor as `.amdhsa_*` directives give
//! them; damaged files get a clear error naming the file and the offset.

use crate::{command, root};

fn fixture(rel: &str) -> String {
    root()
        .join("tests/fixtures/codeobj")
        .join(rel)
        .display()
        .to_string()
}

/// `shadersim ARGS` with PATH an empty directory: no llvm-objdump, clang or ld.lld to call.
fn without_llvm(args: &[&str]) -> (i32, String, String) {
    let empty = tempfile::tempdir().expect("tempdir");
    command()
        .env("PATH", empty.path())
        .args(args)
        .code_and_text()
}

fn analyze_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let (code, out, err) = without_llvm(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("json")
}

#[test]
fn analyze_a_gfx900_code_object_without_llvm() {
    let v = analyze_json(&[&fixture("gfx900/loop_sum.co"), "--function", "loop_sum"]);
    let occ = &v["occupancy"];
    // The metadata note says .vgpr_count 7: the gcn model's 4-register granule allocates 8,
    // 256 / 8 = 32 waves by VGPRs. The NAME.numbered_sgpr symbol says 8 (what the listing's
    // .amdhsa_next_free_sgpr says); with the model's 6 reserved SGPRs (VCC, FLAT_SCRATCH,
    // XNACK_MASK) 14, rounded to the 16 granule = 16, 800 / 16 = 50 waves. The 10 wave slots
    // per SIMD are the limit.
    assert_eq!(occ["vgprs"], 8);
    assert_eq!(occ["sgprs"], 16);
    assert_eq!(occ["limits"][1], 32);
    assert_eq!(occ["limits"][2], 50);
    assert_eq!(occ["waves_per_simd"], 10);
    assert_eq!(occ["limiter"], "slots");
    assert_eq!(v["wave_size"], 64);
}

#[test]
fn analyze_a_gfx1100_code_object_and_a_bundle_entry() {
    // .vgpr_count 6 and .wavefront_size 32 in the note: rdna3 allocates 24-row blocks, so
    // 1536 / 24 = 64 waves by VGPRs; 16 slots per SIMD limit.
    for args in [
        vec![fixture("gfx1100/loop_sum.co")],
        // the same code object, inside a clang offload bundle inside a host ELF's .hip_fatbin
        vec![
            fixture("bundle/loop_sum.host.o"),
            "--arch".into(),
            "gfx1100".into(),
        ],
    ] {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.extend_from_slice(&["--function", "loop_sum"]);
        let v = analyze_json(&a);
        let occ = &v["occupancy"];
        assert_eq!(v["wave_size"], 32);
        assert_eq!(occ["vgprs"], 24);
        assert_eq!(occ["limits"][1], 64);
        assert_eq!(occ["waves_per_simd"], 16);
    }
}

#[test]
fn the_other_commands_read_code_objects() {
    let co = fixture("gfx900/lds_reduce.co");
    for cmd in ["cfg", "liveness", "hints"] {
        let (code, out, err) = without_llvm(&[cmd, &co, "--function", "lds_reduce"]);
        assert_eq!(code, 0, "{cmd}: {err}");
        assert!(!out.is_empty(), "{cmd} printed nothing");
    }
    // several kernels and no --function: as a listing with several functions (the kernel).
    let (code, _, err) = without_llvm(&["cfg", &fixture("gfx900/loop_sum.o")]);
    assert_eq!(code, 0, "{err}");
    // A bundle with two targets and no --arch: the programs of both, named KERNEL@gfx; the
    // bare kernel name matches both, so it must be spelt out.
    let bundle = fixture("bundle/loop_sum.bundle");
    let (code, out, err) = without_llvm(&["cfg", &bundle, "--function", "loop_sum@gfx1100"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    let (code, _, err) = without_llvm(&["analyze", &bundle, "--function", "loop_sum"]);
    assert_eq!(code, 1);
    assert!(err.contains("`loop_sum` matches several programs"), "{err}");
}

#[test]
fn damaged_code_objects_get_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bytes = std::fs::read(fixture("gfx900/loop_sum.co")).expect("fixture");
    // Cut inside the section headers (the ELF header says they start at e_shoff).
    let truncated = dir.path().join("truncated.co");
    std::fs::write(&truncated, &bytes[..bytes.len() - 200]).expect("write");
    let (code, _, err) = without_llvm(&["analyze", truncated.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("truncated.co: offset 0x"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // e_machine 62 (x86-64) and no bundle inside.
    let mut wrong = bytes.clone();
    wrong[18] = 62;
    wrong[19] = 0;
    let wrong_path = dir.path().join("wrong_machine.co");
    std::fs::write(&wrong_path, &wrong).expect("write");
    let (code, _, err) = without_llvm(&["analyze", wrong_path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("wrong_machine.co: offset 0x12: error: ELF e_machine is 62, not AMDGPU (224)"),
        "{err}"
    );
}

#[test]
fn a_branch_out_of_its_kernel_is_an_error_at_the_branch() {
    // Issue 47 item 17: the code object decodes; the branch whose target is no instruction of
    // its kernel is the error, named at its line of the decoded listing. loop_sum's
    // `s_cbranch_scc1 20` at 0x1938 (BF850014) made `s_cbranch_scc1 4096` (BF851000): target
    // 0x1938 + 4 + 4096 * 4 = 0x593c, past the kernel's end.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut bytes = std::fs::read(fixture("gfx900/loop_sum.co")).expect("fixture");
    let at = bytes
        .windows(4)
        .position(|w| w == 0xBF85_0014u32.to_le_bytes())
        .expect("the branch");
    bytes[at..at + 4].copy_from_slice(&0xBF85_1000u32.to_le_bytes());
    let path = dir.path().join("out.co");
    std::fs::write(&path, &bytes).expect("write");
    for command in ["analyze", "cfg"] {
        let (code, _, err) = without_llvm(&[command, path.to_str().unwrap()]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("out.co:16:2: error: branch target 0x593c (+4096 words from the next instruction) is not the address of an instruction of `loop_sum` (its code spans 0x1900 to 0x19a4)"),
            "{err}"
        );
    }
    // The same branch made `s_cbranch_scc1 26` (BF85001A): 0x1938 + 4 + 26 * 4 = 0x19a4, the
    // first instruction of clang's callable copy `__clang_ocl_kern_imp_loop_sum` (llvm-objdump-22
    // of the fixture: `loop_sum` at 0x1900, the copy at 0x19a4). The error names it.
    bytes[at..at + 4].copy_from_slice(&0xBF85_001Au32.to_le_bytes());
    std::fs::write(&path, &bytes).expect("write");
    let (code, _, err) = without_llvm(&["cfg", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "out.co:16:2: error: branch target 0x19a4 (+26 words from the next instruction)"
        ) && err.contains(
            "it jumps into `__clang_ocl_kern_imp_loop_sum` (at +0x0), another function of the file"
        ),
        "{err}"
    );
}

#[test]
fn batch_walks_code_objects_by_their_magic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bytes = std::fs::read(fixture("gfx900/loop_sum.co")).expect("fixture");
    // No extension, as Triton's cache files: picked up by the ELF header's EM_AMDGPU.
    std::fs::write(dir.path().join("kernel_cache_entry"), &bytes).expect("write");
    std::fs::write(dir.path().join("notes.bin"), b"not a program").expect("write");
    let (code, out, err) = without_llvm(&["batch", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert_eq!(lines[0]["function"], "loop_sum");
    assert_eq!(lines[0]["occupancy"]["waves_per_simd"], 10);
}

/// The code object and the listing clang printed for the same source and processor give the
/// same instructions and resources, so the same simulation, clock for clock.
fn assert_code_object_runs_as_its_listing(gfx: &str, kernel: &str) {
    let co = analyze_json(&[
        &fixture(&format!("{gfx}/{kernel}.co")),
        "--no-latency-search",
    ]);
    let listing = root().join(format!("tests/fixtures/llvm/{gfx}/{kernel}.s"));
    let s = analyze_json(&[&listing.display().to_string(), "--no-latency-search"]);
    for key in ["clocks", "issued", "utilization"] {
        assert_eq!(co[key], s[key], "{gfx} {kernel}: {key}");
    }
    // The verdict's statement names lines, which differ between the two files.
    for key in ["kind", "bounds", "clocks_per_wave"] {
        assert_eq!(
            co["bottleneck"][key], s["bottleneck"][key],
            "{gfx} {kernel}: {key}"
        );
    }
    // Only the listing carries clang's `; Occupancy:` remark (declared_waves_per_simd,
    // declared_by);
    // everything computed agrees.
    let (mut a, mut b) = (co["occupancy"].clone(), s["occupancy"].clone());
    assert_eq!(
        b["declared_waves_per_simd"], a["waves_per_simd"],
        "{gfx} {kernel}"
    );
    assert_eq!(b["declared_by"], "compiler", "{gfx} {kernel}");
    for key in ["declared_waves_per_simd", "declared_by"] {
        a[key] = serde_json::Value::Null;
        b[key] = serde_json::Value::Null;
    }
    assert_eq!(a, b, "{gfx} {kernel}: occupancy");
    assert_eq!(
        co["instructions"].as_array().map(Vec::len),
        s["instructions"].as_array().map(Vec::len)
    );
}

#[test]
fn a_cdna_code_object_runs_as_its_listing_does() {
    // The GEMM tile and the FP64 stencil clang-22 compiled for gfx90a and gfx942, read from
    // the code object (decoded by shadersim, resources from the note and descriptor).
    for gfx in ["gfx90a", "gfx942"] {
        for kernel in ["mfma_gemm", "stencil_f64"] {
            assert_code_object_runs_as_its_listing(gfx, kernel);
        }
    }
}

#[test]
fn an_rdna4_ray_tracing_code_object_runs_as_its_listing_does() {
    // The BVH kernels clang-22 compiled for gfx1200 (the gfx1030/gfx1100 listings are
    // clang-19's, other code): image_bvh_intersect_ray's NSA address list and the LDS stack
    // op decoded from the code object run as the listing's lines do.
    for kernel in ["bvh_traverse", "bvh_lds_stack"] {
        assert_code_object_runs_as_its_listing("gfx1200", kernel);
    }
}

#[test]
fn a_code_object_requiring_an_empty_workgroup_is_an_error_not_a_hang() {
    // stencil_f64's note declares `.reqd_workgroup_size` [64, 4, 1] (msgpack 0x93 0x40 0x04
    // 0x01); one byte makes it [0, 4, 1]. Before issue 47 item 11 the run never ended (its
    // memory grew until killed): exit 1 now, naming the file, in well under the bound.
    let mut bytes = std::fs::read(fixture("gfx942/stencil_f64.co")).expect("fixture");
    let key = b".reqd_workgroup_size\x93\x40";
    let at = bytes
        .windows(key.len())
        .position(|w| w == key)
        .expect("the fixture declares [64, 4, 1]");
    bytes[at + key.len() - 1] = 0;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("empty_group.co");
    std::fs::write(&path, &bytes).expect("write");
    let path = path.display().to_string();
    let out = command()
        .args(["analyze", &path])
        .output_within(std::time::Duration::from_secs(30))
        .expect("the run ends");
    let err = shadersim_testkit::cli::text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with(&format!("{path}: offset 0x")), "{err}");
    assert!(
        err.contains(
            "`.reqd_workgroup_size` [0, 4, 1] is 0 work-items; a workgroup holds 1 to 1024"
        ),
        "{err}"
    );
}

/// The loop's block in the JSON report: `(executions per wave, the inferred count's reason)`.
fn loop_runs(args: &[&str]) -> (f64, String) {
    let v = analyze_json(args);
    let block = v["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .find(|b| !b["loop_id"].is_null())
        .expect("a loop block");
    let reason = v["defaults"]["loops_inferred"][0]["reason"]
        .as_str()
        .unwrap_or("")
        .to_string();
    (block["executions"].as_f64().expect("executions"), reason)
}

#[test]
fn arg_sets_a_code_objects_loop_count() {
    // loop_sum.args.o is loop_sum.cl compiled with -cl-kernel-arg-info: the note names the
    // arguments (`n` at offset 16, 4 bytes, by_value), so `--arg n=N` puts N in the segment
    // the loop's bound is loaded from, and the loop runs N times per wave.
    let file = fixture("gfx1100/loop_sum.args.o");
    for n in [10, 40] {
        let arg = format!("n={n}");
        let (runs, reason) = loop_runs(&[&file, "--arg", &arg, "--grid", "16", "--block", "64"]);
        assert_eq!(runs, f64::from(n), "{reason}");
        assert!(reason.contains(&format!("from {n}")), "{reason}");
    }
    // The same code without the names: `--arg` is refused, naming the flag that adds them.
    let (code, _, err) =
        without_llvm(&["analyze", &fixture("gfx1100/loop_sum.o"), "--arg", "n=10"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-cl-kernel-arg-info"), "{err}");
}

/// `bytes` (a 64-bit little-endian ELF) with the symbol-table entry of the function named
/// `name` made an object symbol (its `st_info` type field 2 -> 1): the damage that leaves a
/// kernel no function of the code object.
fn kernel_symbol_made_object(mut bytes: Vec<u8>, name: &str) -> Vec<u8> {
    let u16_at = |b: &[u8], o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as usize;
    let u32_at = |b: &[u8], o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap()) as usize;
    // ELF64 header: e_shoff at 0x28, e_shnum at 0x3c; section headers of 64 bytes with
    // sh_type at +4, sh_offset at +24, sh_size at +32, sh_link at +40.
    let (shoff, shnum) = (u64_at(&bytes, 0x28), u16_at(&bytes, 0x3c));
    let section = |i: usize| shoff + i * 64;
    let symtab = (0..shnum)
        .map(section)
        .find(|&s| u32_at(&bytes, s + 4) == 2)
        .expect(".symtab");
    let strtab = section(u32_at(&bytes, symtab + 40));
    let (syms, count) = (
        u64_at(&bytes, symtab + 24),
        u64_at(&bytes, symtab + 32) / 24,
    );
    let strings = u64_at(&bytes, strtab + 24);
    for k in 0..count {
        let entry = syms + k * 24;
        let at = strings + u32_at(&bytes, entry);
        let end = at + bytes[at..].iter().position(|&c| c == 0).unwrap();
        if &bytes[at..end] == name.as_bytes() && bytes[entry + 4] & 0xf == 2 {
            bytes[entry + 4] = (bytes[entry + 4] & 0xf0) | 1;
            return bytes;
        }
    }
    panic!("no function symbol `{name}`");
}

/// Issue 47 item 13: when the kernel's own symbol is damaged (here its type: a function made
/// an object) and only clang's callable copy `__clang_ocl_kern_imp_loop_sum` remains, the run
/// says which function it simulates, in `analyze`'s warnings and `batch`'s `warnings`.
#[test]
fn a_kernel_whose_symbol_is_damaged_says_that_its_callable_copy_runs() {
    let bytes = std::fs::read(fixture("gfx1100/loop_sum.co")).unwrap();
    let damaged = kernel_symbol_made_object(bytes, "loop_sum");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("loop_sum_damaged.co");
    std::fs::write(&path, damaged).unwrap();
    let path = path.to_str().unwrap();
    let warning = "warning: `__clang_ocl_kern_imp_loop_sum` is clang's callable copy of kernel `loop_sum`, which is no function of the code object (its symbol is missing or damaged; the metadata note still lists the kernel)";
    let (code, out, err) = without_llvm(&["analyze", path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("{path}: {warning}")), "{err}");
    assert!(out.contains("`__clang_ocl_kern_imp_loop_sum`"), "{out}");
    let (code, out, err) = without_llvm(&["batch", path]);
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(
        line["warnings"]
            .to_string()
            .contains("callable copy of kernel `loop_sum`"),
        "{line}"
    );
    // The undamaged file names no such thing.
    let (_, _, err) = without_llvm(&["analyze", &fixture("gfx1100/loop_sum.co")]);
    assert!(!err.contains("callable copy"), "{err}");
}
