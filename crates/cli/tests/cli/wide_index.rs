//! Buffers found through a 64-bit index (`wide_index.cl`, clang-22 for gfx942): the index carries
//! the hidden global offset, a kernel argument the metadata says is a number, into the same
//! 64-bit add that adds the buffer's pointer. The pointer is the op's buffer; the offset is part of
//! the index, as a lane's data would be.

use crate::json_of as json;
use shadersim_testkit::tools::have_clang_22;

const FILE: &str = "tests/fixtures/src/opencl/wide_index.cl";

/// `data[i]` is the first pointer argument (kernel-argument segment + 0x0), `bins[...]` the
/// second (+ 0x8); both are found from the code, and no op falls back to the default buffer 0.
#[test]
fn a_hidden_global_offset_in_the_index_is_not_the_buffer() {
    if !have_clang_22() {
        return;
    }
    let j = json(&[
        "analyze",
        FILE,
        "--function",
        "bin_count",
        "--arch",
        "gfx942",
        "--global",
        "65536",
        "--block",
        "256",
        "--arg",
        "n=65536",
        "--no-latency-search",
        "--format",
        "json",
    ]);
    let buffers: Vec<(String, String, String)> = j["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter(|i| i["class"].as_str().is_some_and(|c| c.starts_with("vmem")))
        .map(|i| {
            let b = &i["buffer"];
            let s = |k: &str| b[k].as_str().unwrap_or("").to_string();
            (
                i["text"].as_str().unwrap_or("").to_string(),
                s("found"),
                s("origin"),
            )
        })
        .collect();
    assert_eq!(buffers.len(), 2, "{buffers:?}");
    let (load, atomic) = (&buffers[0], &buffers[1]);
    assert!(load.0.starts_with("global_load_dword"), "{buffers:?}");
    assert_eq!(load.1, "program", "{buffers:?}");
    assert!(load.2.ends_with("+ 0x0"), "{buffers:?}");
    assert!(atomic.0.starts_with("global_atomic_add"), "{buffers:?}");
    assert_eq!(atomic.1, "program", "{buffers:?}");
    assert!(atomic.2.ends_with("+ 0x8"), "{buffers:?}");
}
