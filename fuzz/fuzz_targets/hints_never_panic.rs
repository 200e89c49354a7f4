//! Any text as a hints file: parsed or rejected with a message.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = shadersim_trace::Hints::parse(text) {
            let _ = e.render("fuzz.toml", text);
        }
    }
});
