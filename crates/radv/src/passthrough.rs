//! The vertex shader that feeds a fragment shader given alone.
//!
//! A fragment shader is compiled as part of a graphics pipeline, which
//! needs a vertex shader whose outputs match the fragment shader's inputs
//! location by location. RADV links the two stages: it propagates an
//! output the vertex shader sets to a constant into the fragment shader
//! and merges outputs that carry the same value, so a vertex shader that
//! wrote zeros would change the fragment shader's code. The one written
//! here copies a vertex attribute of its own to each output (values the
//! driver cannot know or merge) and takes the position from one more
//! attribute, which is what a real mesh's vertex shader looks like to the
//! fragment stage.

use crate::reflect::{InterfaceVariable, ScalarKind};

/// GLSL source of a vertex shader writing every one of `inputs` (the
/// fragment shader's located inputs) from an attribute of its own. Integer
/// varyings are `flat`, as GLSL requires.
pub fn vertex_shader_for(inputs: &[InterfaceVariable]) -> String {
    let mut src = String::from(
        "#version 450\n// Pass-through vertex shader written by shadersim for a fragment shader compiled alone.\n",
    );
    let position = inputs.iter().map(|v| v.location + 1).max().unwrap_or(0);
    src.push_str(&format!(
        "layout(location = {position}) in vec4 position;\n"
    ));
    for v in inputs {
        let (qualifier, ty) = glsl_type(v);
        src.push_str(&format!(
            "layout(location = {l}) in {ty} a{l};\nlayout(location = {l}) {qualifier}out {ty} v{l};\n",
            l = v.location
        ));
    }
    src.push_str("void main() {\n    gl_Position = position;\n");
    for v in inputs {
        src.push_str(&format!("    v{l} = a{l};\n", l = v.location));
    }
    src.push_str("}\n");
    src
}

fn glsl_type(v: &InterfaceVariable) -> (&'static str, String) {
    let (flat, scalar, prefix) = match v.scalar {
        ScalarKind::Float => ("", "float", ""),
        ScalarKind::Int => ("flat ", "int", "i"),
        ScalarKind::Uint => ("flat ", "uint", "u"),
    };
    let ty = if v.components == 1 {
        scalar.to_string()
    } else {
        format!("{prefix}vec{}", v.components)
    };
    (flat, ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_match_inputs_location_by_location() {
        let src = vertex_shader_for(&[
            InterfaceVariable {
                location: 0,
                scalar: ScalarKind::Float,
                components: 2,
            },
            InterfaceVariable {
                location: 3,
                scalar: ScalarKind::Uint,
                components: 1,
            },
        ]);
        assert!(src.contains("layout(location = 0) out vec2 v0;"));
        assert!(src.contains("layout(location = 3) flat out uint v3;"));
        assert!(src.contains("layout(location = 3) in uint a3;"));
        assert!(src.contains("v3 = a3;"));
        assert!(src.contains("layout(location = 4) in vec4 position;"));
    }
}
