//! The vertex shader that feeds a fragment shader given alone, and the
//! fragment shader that consumes a vertex shader given alone.
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

/// GLSL source of a fragment shader reading every one of `outputs` (a
/// vertex shader's located outputs) and summing them into its colour, so
/// the driver, which removes the outputs no later stage reads, keeps them
/// all. Integer varyings are `flat`, as GLSL requires.
pub fn fragment_shader_for(outputs: &[InterfaceVariable]) -> String {
    let mut src = String::from(
        "#version 450\n// Fragment shader written by shadersim to read every output of a vertex shader compiled alone.\n",
    );
    for v in outputs {
        let (qualifier, ty) = glsl_type(v);
        src.push_str(&format!(
            "layout(location = {l}) {qualifier}in {ty} v{l};\n",
            l = v.location
        ));
    }
    src.push_str(
        "layout(location = 0) out vec4 colour;\nvoid main() {\n    vec4 sum = vec4(0.0);\n",
    );
    for v in outputs {
        // Each output widened to a vec4 (missing components zero).
        let value = match v.components {
            1 => format!("vec4(float(v{}), 0.0, 0.0, 0.0)", v.location),
            4 => format!("vec4(v{})", v.location),
            n => format!(
                "vec4(vec{n}(v{}){})",
                v.location,
                ", 0.0".repeat(4 - n as usize)
            ),
        };
        src.push_str(&format!("    sum += {value};\n"));
    }
    src.push_str("    colour = sum;\n}\n");
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

    #[test]
    fn the_consumer_reads_every_output() {
        let src = fragment_shader_for(&[
            InterfaceVariable {
                location: 0,
                scalar: ScalarKind::Float,
                components: 3,
            },
            InterfaceVariable {
                location: 1,
                scalar: ScalarKind::Float,
                components: 2,
            },
            InterfaceVariable {
                location: 2,
                scalar: ScalarKind::Int,
                components: 1,
            },
        ]);
        assert!(src.contains("layout(location = 0) in vec3 v0;"));
        assert!(src.contains("layout(location = 2) flat in int v2;"));
        assert!(src.contains("sum += vec4(vec3(v0), 0.0);"));
        assert!(src.contains("sum += vec4(vec2(v1), 0.0, 0.0);"));
        assert!(src.contains("sum += vec4(float(v2), 0.0, 0.0, 0.0);"));
    }
}
