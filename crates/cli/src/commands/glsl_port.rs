//! OpenGL ES GLSL before 3.10 (`#version 100`, `#version 300 es`, or no
//! `#version`, which GLSL reads as ES 100): SPIR-V for Vulkan, what RADV
//! compiles, takes ES GLSL only from `#version 310 es`, so glslang refuses
//! these with "ES shaders for SPIR-V require version 310 or higher".
//! glmark2's shaders and most GL ES code are written so.
//!
//! By default `compile` refuses them with a message saying exactly how to
//! port them; `compile --port-es` ports them itself ([`port`]), a change of
//! spelling only: the version line becomes `#version 310 es`, and for ES
//! 100 `attribute`/`varying` become `in`/`out`, `gl_FragColor` a declared
//! `out vec4`, `texture2D`/`textureCube` and their `Proj`/`Lod` forms
//! `texture`/`textureProj`/`textureLod`. A `#line` directive after the
//! added lines keeps glslang's line numbers those of the file.

/// An ES GLSL version Vulkan SPIR-V does not take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OldEs {
    /// `#version 100`, or no `#version` line at all (GLSL's default).
    Es100,
    /// `#version 300 es`.
    Es300,
}

/// What the source's `#version` line says: the old ES version, if it is
/// one, and the 1-based line of the `#version` directive (`None` when the
/// file has none).
pub(crate) fn old_es_version(text: &str) -> Option<(OldEs, Option<u32>)> {
    match version_line(text) {
        None => Some((OldEs::Es100, None)),
        Some((line, words)) => match words.as_slice() {
            ["100"] | ["100", "es"] => Some((OldEs::Es100, Some(line))),
            ["300", "es"] => Some((OldEs::Es300, Some(line))),
            _ => None,
        },
    }
}

/// The `#version` line: its 1-based number and the words after
/// `#version`. GLSL wants it first (comments and blank lines may precede).
fn version_line(text: &str) -> Option<(u32, Vec<&str>)> {
    let mut in_block_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let mut line = raw.trim();
        if in_block_comment {
            match line.find("*/") {
                Some(end) => {
                    in_block_comment = false;
                    line = line[end + 2..].trim();
                }
                None => continue,
            }
        }
        if line.starts_with("/*") && !line.contains("*/") {
            in_block_comment = true;
            continue;
        }
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let rest = line.strip_prefix('#')?.trim_start();
        let rest = rest.strip_prefix("version")?;
        let rest = rest.split("//").next().unwrap_or("");
        return Some((i as u32 + 1, rest.split_whitespace().collect()));
    }
    None
}

/// The error for an old ES shader without `--port-es`: where its version
/// is, why glslang refuses it and what porting it by hand changes.
pub(crate) fn port_message(path: &str, version: OldEs, line: Option<u32>) -> String {
    let (place, said) = match (version, line) {
        (_, None) => (
            format!("{path}:1:1"),
            "has no `#version` line, so GLSL reads it as OpenGL ES GLSL 1.00".to_string(),
        ),
        (OldEs::Es100, Some(l)) => (
            format!("{path}:{l}:1"),
            "is OpenGL ES GLSL 1.00 (`#version 100`)".to_string(),
        ),
        (OldEs::Es300, Some(l)) => (
            format!("{path}:{l}:1"),
            "is OpenGL ES GLSL 3.00 (`#version 300 es`)".to_string(),
        ),
    };
    let steps = match version {
        OldEs::Es300 => "change the version line to `#version 310 es` (3.10 keeps everything 3.00 has)",
        OldEs::Es100 => {
            "make the first line `#version 310 es`; in a vertex shader `attribute` -> `in` and \
             `varying` -> `out`, in a fragment shader `varying` -> `in`; replace `gl_FragColor` by \
             your own `out vec4` (e.g. `out vec4 fragColor;`); `texture2D`/`textureCube` -> \
             `texture` (`texture2DProj` -> `textureProj`, `texture2DLod` -> `textureLod`); add \
             `precision mediump float;` to a fragment shader that names no float precision; \
             rename variables called `texture`, `in`, `out`, `sample`, `flat`, `smooth` or `layout` \
             (reserved from 3.00 on). Precision qualifiers and loose uniforms may stay"
        }
    };
    format!(
        "{place}: error: this shader {said}; Vulkan SPIR-V, what RADV compiles, takes ES GLSL only \
         from `#version 310 es` (glslang: \"ES shaders for SPIR-V require version 310 or higher\").\n\
         To port it: {steps}.\n\
         Or let shadersim port it: `shadersim compile --port-es {path} --arch GPU -o OUT.s`, then \
         analyze OUT.s, or `shadersim analyze --port-es {path} --arch GPU` (docs/cli.md, \"GLSL from OpenGL and OpenGL ES\")"
    )
}

/// Replace every whole-identifier occurrence of `from` in `text` by `to`.
fn replace_identifier(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before_ok = rest[..at].chars().next_back().is_none_or(|c| !is_ident(c))
            && !(out.chars().next_back().is_some_and(is_ident) && at == 0);
        let after_ok = rest[at + from.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c));
        out.push_str(&rest[..at]);
        out.push_str(if before_ok && after_ok { to } else { from });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The ES 3.10 spelling of an old ES shader of `stage` (`vert`, `frag`,
/// `comp`), with glslang's line numbers kept those of `text`. An error
/// names what cannot be ported by spelling (`gl_FragData`).
pub(crate) fn port(text: &str, stage: &str, version: OldEs) -> Result<String, String> {
    let version_at = version_line(text).map(|(l, _)| l);
    let mut body: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            // The version line becomes empty: the header takes its place.
            if Some(i as u32 + 1) == version_at {
                String::new()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    body.push('\n');
    let mut header = String::from("#version 310 es\n");
    if version == OldEs::Es100 {
        if body.contains("gl_FragData") {
            return Err(
                "`gl_FragData` has no spelling in ES 3.10: declare `layout(location = N) out vec4` \
                 outputs and write them instead"
                    .to_string(),
            );
        }
        if stage == "frag" {
            // ES 1.00 fragment shaders must name a float precision
            // themselves, but glmark2's (and other GL apps') get theirs
            // from a prefix the application adds; mediump is glmark2's.
            // A precision statement in the file still overrides it.
            header.push_str("precision mediump float;\n");
        }
        let varying = if stage == "vert" { "out" } else { "in" };
        body = replace_identifier(&body, "varying", varying);
        if stage == "vert" {
            body = replace_identifier(&body, "attribute", "in");
        }
        for (old, new) in [
            ("texture2DProjLod", "textureProjLod"),
            ("texture2DProj", "textureProj"),
            ("texture2DLod", "textureLod"),
            ("textureCubeLod", "textureLod"),
            ("texture2D", "texture"),
            ("textureCube", "texture"),
        ] {
            body = replace_identifier(&body, old, new);
        }
        if stage == "frag" && body.contains("gl_FragColor") {
            header.push_str("layout(location = 0) out vec4 shadersim_FragColor;\n");
            body = replace_identifier(&body, "gl_FragColor", "shadersim_FragColor");
        }
    }
    // The next line is the file's first (its version line, now empty, or
    // its first line when it had none).
    header.push_str("#line 1\n");
    Ok(header + &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_told_apart() {
        assert_eq!(old_es_version("void main(){}"), Some((OldEs::Es100, None)));
        assert_eq!(
            old_es_version("// c\n\n#version 100\n"),
            Some((OldEs::Es100, Some(3)))
        );
        assert_eq!(
            old_es_version("/* a\n b */\n#version 300 es\n"),
            Some((OldEs::Es300, Some(3)))
        );
        assert_eq!(old_es_version("#version 310 es\n"), None);
        assert_eq!(old_es_version("#version 450\n"), None);
        assert_eq!(old_es_version("#version 450 core\n"), None);
    }

    #[test]
    fn es100_is_respelled_whole_identifiers_only() {
        let src = "#version 100\nvarying vec2 uv;\nuniform sampler2D t;\nvoid main() {\n  \
                   gl_FragColor = texture2D(t, uv) + vec4(my_texture2D_x);\n}\n";
        let out = port(src, "frag", OldEs::Es100).unwrap();
        assert!(out.starts_with("#version 310 es\nprecision mediump float;\n"));
        assert!(out.contains("layout(location = 0) out vec4 shadersim_FragColor;\n#line 1\n\n"));
        assert!(out.contains("in vec2 uv;"));
        assert!(out.contains("shadersim_FragColor = texture(t, uv) + vec4(my_texture2D_x);"));
        // The file's lines keep their numbers: line 2 of the file is the
        // second after `#line 1`.
        let after = out.split("#line 1\n").nth(1).unwrap();
        assert_eq!(after.lines().nth(1), Some("in vec2 uv;"));
        let vs = port("attribute vec3 p;\nvarying vec3 n;\n", "vert", OldEs::Es100).unwrap();
        assert!(vs.contains("in vec3 p;\nout vec3 n;"), "{vs}");
        assert!(port(
            "void main(){gl_FragData[0]=vec4(1.0);}",
            "frag",
            OldEs::Es100
        )
        .is_err());
    }
}
