//! Any bytes as a SPIR-V module: reflected or rejected with a message.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(words) = shadersim_radv::reflect::words_from_bytes(data) {
        let _ = shadersim_radv::reflect::reflect(&words);
    }
});
