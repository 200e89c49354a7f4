//! Any text: the R600 reader returns kernels or an error, and lowering and
//! the control-flow analysis of whatever it read return without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for chip in [None, Some("cypress"), Some("cayman"), Some("rv740")] {
        if let Ok(file) = shadersim_r600::read_r600("fuzz.s", text, chip) {
            let (programs, _) = shadersim_r600::lower_file(&file);
            for p in &programs.programs {
                let _ = shadersim_cfg::Cfg::build(p);
            }
            for k in &file.kernels {
                let _ = shadersim_r600::summary::repack(k, shadersim_r600::table::ChipClass::Evergreen);
            }
        }
    }
});
