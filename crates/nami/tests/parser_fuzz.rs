//! No input makes the shader or scene parsers panic, and their errors point
//! inside the input.

use proptest::prelude::*;
use shadersim_nami::scene::Scene;
use shadersim_nami::shader::Program;

fn shader_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("add".to_string()),
        Just("mul".to_string()),
        Just("shl".to_string()),
        Just("li".to_string()),
        Just("export".to_string()),
        Just("mov".to_string()),
        "[ab]{1,2}[0-9]{1,2}",
        "0x[0-9a-fA-F]{0,6}",
        "[0-9]{1,7}",
        Just(",".to_string()),
        Just(";".to_string()),
        Just("//".to_string()),
        Just("\n".to_string()),
        Just(" ".to_string()),
        "\\PC{0,3}",
    ];
    proptest::collection::vec(token, 0..40).prop_map(|t| t.join(" "))
}

fn scene_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("tri".to_string()),
        Just("clear".to_string()),
        Just("#".to_string()),
        "#[0-9a-fA-F]{0,8}",
        "-?[0-9]{1,6}(\\.[0-9]{0,3})?",
        Just("1e308".to_string()),
        Just("NaN".to_string()),
        Just("\n".to_string()),
        "\\PC{0,3}",
    ];
    proptest::collection::vec(token, 0..40).prop_map(|t| t.join(" "))
}

fn position_is_inside(text: &str, line: usize, col: usize) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    line >= 1
        && col >= 1
        && (lines.is_empty() && line == 1
            || lines
                .get(line - 1)
                .is_some_and(|l| col <= l.chars().count() + 1))
}

proptest! {
    #[test]
    fn shader_parser_never_panics(text in shader_like()) {
        if let Err(e) = Program::parse(&text) {
            prop_assert!(position_is_inside(&text, e.line, e.col), "{e} for {text:?}");
        }
    }

    #[test]
    fn shader_parser_survives_arbitrary_text(text in "\\PC{0,200}") {
        let _ = Program::parse(&text);
    }

    #[test]
    fn scene_parser_never_panics(text in scene_like()) {
        if let Err(e) = Scene::parse("fuzz", &text) {
            prop_assert!(position_is_inside(&text, e.line, e.col), "{e} for {text:?}");
        }
    }

    #[test]
    fn scene_parser_survives_arbitrary_text(text in "\\PC{0,200}") {
        let _ = Scene::parse("fuzz", &text);
    }
}
