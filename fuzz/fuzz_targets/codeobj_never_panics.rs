//! The code-object reader (ELF, offload bundles, descriptors, metadata notes) and the decoder
//! never panic on any bytes. Seed the corpus with tests/fixtures/codeobj/**/*.co for depth:
//! `cargo fuzz run codeobj_never_panics fuzz/corpus/codeobj tests/fixtures/codeobj/gfx900`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(objects) = shadersim_codeobj::read_code_objects("fuzz.co", data, None) {
        for o in &objects {
            let _ = shadersim_codeobj::listing::decode_object(o);
        }
    }
    for cpu in ["gfx900", "gfx942", "gfx1030", "gfx1100", "gfx1200"] {
        let _ = shadersim_codeobj::decode::decode(cpu, data, 0);
    }
});
