//! Errors about a place: the first line stays `FILE:LINE:COL: error: ...`
//! for scripts, and the source line follows with a caret under the column.

use crate::shadersim;

#[test]
fn a_place_error_shows_its_line_with_a_caret() {
    let dir = std::env::temp_dir().join(format!("shadersim-diag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hints = dir.join("bad.toml");
    // `waves = 0` is refused; the value starts at line 2, column 9.
    std::fs::write(&hints, "[dispatch]\nwaves = 0\n").unwrap();
    let h = hints.to_str().unwrap();
    let o = shadersim(&[
        "analyze",
        "tests/programs/samples8.s",
        "--arch",
        "gfx900",
        "--hints",
        h,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(": error:"))
        .expect("an error line");
    assert_eq!(
        lines[at],
        format!("{h}:2:9: error: `waves` must be a whole number from 1 to 100000 (waves or workgroups to simulate)")
    );
    assert_eq!(lines[at + 1].trim_start(), format!("--> {h}:2:9"));
    let source = lines.iter().find(|l| l.ends_with("| waves = 0")).unwrap();
    let caret = lines.iter().find(|l| l.contains('^')).unwrap();
    // The caret sits under the `0`, column 9 of the source line.
    let col = |l: &str| l.find('|').unwrap() + 2;
    assert_eq!(caret.find('^').unwrap() - col(caret), 8);
    assert_eq!(&source[col(source) + 8..], "0");
}
