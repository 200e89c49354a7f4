//! Issue 35 item 17: GLSL as OpenGL and OpenGL ES programs write it.
//! Desktop GLSL without `layout(location = N)` or `binding` compiles
//! (glslang's automatic mapping); ES GLSL older than 3.10 (glmark2's) is
//! an error saying how to port it, and `compile --port-es` ports it.

use crate::shadersim_text;
use shadersim_testkit::tools::have_radv;

const ES100: &str = "crates/cli/tests/cli/data/glmark2_light_phong.frag";
const DESKTOP: &str = "crates/cli/tests/cli/data/desktop_no_locations.frag";

#[test]
fn desktop_glsl_without_locations_or_bindings_compiles_and_analyzes() {
    if !have_radv() {
        return;
    }
    let (code, out, err) = shadersim_text(&["compile", DESKTOP, "--arch", "gfx1030"]);
    assert_eq!(code, 0, "{err}");
    // The sample (texture) and the two interpolated inputs are in the listing.
    assert!(out.contains("image_sample"), "{out}");
    assert!(out.contains("v_interp"), "{out}");
    let (code, _, err) = shadersim_text(&["analyze", DESKTOP, "--arch", "gfx1030"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn old_es_glsl_is_an_error_that_says_how_to_port_it() {
    if !have_radv() {
        return;
    }
    // No #version line: GLSL reads it as ES 1.00, at line 1.
    for cmd in ["compile", "analyze"] {
        let (code, _, err) = shadersim_text(&[cmd, ES100, "--arch", "gfx1030"]);
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains(&format!("{ES100}:1:1: error:")),
            "{cmd}: {err}"
        );
        assert!(err.contains("`#version 310 es`"), "{err}");
        assert!(err.contains("`varying` -> `in`"), "{err}");
        assert!(err.contains("`gl_FragColor`"), "{err}");
        assert!(err.contains("--port-es"), "{err}");
        // Not glslang's bare message alone.
        assert!(!err.starts_with("ERROR"), "{err}");
    }
}

#[test]
fn port_es_compiles_a_glmark2_shader() {
    if !have_radv() {
        return;
    }
    let (code, out, err) = shadersim_text(&["compile", "--port-es", ES100, "--arch", "gfx1030"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("image_sample"), "{out}");
    // A port that breaks (a 3.00 keyword used as a name) names the user's
    // file and line, not the temporary one.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.frag");
    std::fs::write(
        &bad,
        "#version 100\nprecision mediump float;\nvarying vec2 uv;\nuniform sampler2D sample;\n\
         void main() { gl_FragColor = texture2D(sample, uv); }\n",
    )
    .unwrap();
    let bad_s = bad.display().to_string();
    let (code, _, err) = shadersim_text(&["compile", "--port-es", &bad_s, "--arch", "gfx1030"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("{bad_s}:4")), "{err}");
    assert!(err.contains("after --port-es"), "{err}");
    assert!(!err.contains("ported.frag"), "{err}");
}

#[test]
fn analyze_ports_old_es_glsl_as_compile_does() {
    // Issue 47 item 8: `analyze` had no `--port-es`; it passes the option
    // to the compile, and its note names the command that prints the same
    // listing.
    if !have_radv() {
        return;
    }
    let (code, out, err) = shadersim_text(&[
        "analyze",
        "--port-es",
        ES100,
        "--arch",
        "gfx1030",
        "--no-latency-search",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("image_sample"), "{out}");
    assert!(
        err.contains(&format!(
            "`shadersim compile --port-es {ES100} --arch gfx1030`"
        )),
        "{err}"
    );
    // Without it the error offers it.
    let (code, _, err) = shadersim_text(&["analyze", ES100, "--arch", "gfx1030"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("shadersim analyze --port-es"), "{err}");
}
