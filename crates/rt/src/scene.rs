//! Scenes: meshes (BLASes) placed by instances (a TLAS), read from a small
//! TOML file.
//!
//! ```toml
//! [[mesh]]
//! name = "bunny"
//! path = "bunny.obj"          # relative to the scene file; or:
//! # procedural = "rods:27"    # sphere:N | rods:N
//!
//! [[instance]]
//! mesh = "bunny"
//! transform = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]   # 3x4 object-to-world rows
//! # or: translate = [x, y, z], rotate = [ax, ay, az, degrees], scale = s
//! ```

use crate::math::{Affine3x4, Vec3};
use crate::mesh::{load_mesh, procedural, Mesh, MeshError};
use serde::Deserialize;
use std::path::Path;

pub use crate::limits::{MAX_INSTANCES, MAX_SCENE_TRIANGLES};

/// Refuse a scene whose meshes would hold `triangles` triangles.
fn check_triangles(name: &str, line: Option<usize>, triangles: u64) -> Result<(), MeshError> {
    if triangles > MAX_SCENE_TRIANGLES as u64 {
        return Err(MeshError::new(
            name,
            line,
            format!(
                "the scene's meshes hold {triangles} triangles, more than the limit of {MAX_SCENE_TRIANGLES} (MAX_SCENE_TRIANGLES)"
            ),
        ));
    }
    Ok(())
}

/// One placement of a mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Index into [`Scene::meshes`].
    pub mesh: usize,
    /// Object-to-world transform.
    pub object_to_world: Affine3x4,
    /// World-to-object transform (the inverse, as stored in instance nodes).
    pub world_to_object: Affine3x4,
}

/// Meshes and their instances. With no instances the scene is one mesh
/// traced directly (one BLAS, no TLAS).
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Mesh names, parallel to `meshes`.
    pub names: Vec<String>,
    /// Meshes.
    pub meshes: Vec<Mesh>,
    /// Instances; empty for a single mesh.
    pub instances: Vec<Instance>,
}

impl Scene {
    /// A single mesh, no TLAS.
    pub fn single(name: &str, mesh: Mesh) -> Scene {
        Scene {
            names: vec![name.to_string()],
            meshes: vec![mesh],
            instances: Vec::new(),
        }
    }

    /// True when traced through a TLAS.
    pub fn is_two_level(&self) -> bool {
        !self.instances.is_empty()
    }

    /// Add an instance of mesh `mesh`. Fails for a singular transform.
    pub fn add_instance(&mut self, mesh: usize, object_to_world: Affine3x4) -> Result<(), String> {
        let world_to_object = object_to_world
            .inverse()
            .ok_or_else(|| "the instance transform is not invertible".to_string())?;
        self.instances.push(Instance {
            mesh,
            object_to_world,
            world_to_object,
        });
        Ok(())
    }

    /// Total triangles seen by rays (instanced triangles counted per instance).
    pub fn triangle_count(&self) -> usize {
        if self.is_two_level() {
            self.instances
                .iter()
                .map(|i| self.meshes[i.mesh].triangles.len())
                .sum()
        } else {
            self.meshes[0].triangles.len()
        }
    }

    /// World-space bounds.
    pub fn bounds(&self) -> crate::math::Aabb {
        if self.is_two_level() {
            let mut b = crate::math::Aabb::EMPTY;
            for i in &self.instances {
                b = b.union(
                    &i.object_to_world
                        .transform_aabb(&self.meshes[i.mesh].bounds()),
                );
            }
            b
        } else {
            self.meshes[0].bounds()
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    #[serde(default)]
    mesh: Vec<MeshEntry>,
    #[serde(default)]
    instance: Vec<InstanceEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MeshEntry {
    name: String,
    path: Option<String>,
    procedural: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceEntry {
    mesh: String,
    transform: Option<[[f32; 4]; 3]>,
    translate: Option<[f32; 3]>,
    rotate: Option<[f32; 4]>,
    scale: Option<f32>,
}

/// Load a mesh file, or a `.toml` scene file.
pub fn load_scene(path: &Path) -> Result<Scene, MeshError> {
    let name = path.display().to_string();
    let is_toml = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.eq_ignore_ascii_case("toml"))
        == Some(true);
    if !is_toml {
        let mesh = load_mesh(path)?;
        check_triangles(&name, None, mesh.triangles.len() as u64)?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("mesh");
        return Ok(Scene::single(stem, mesh));
    }
    let bytes = std::fs::read(path).map_err(|e| MeshError::new(&name, None, e.to_string()))?;
    let text = MeshError::check_utf8(&name, &bytes)?;
    parse_scene(text, &name, path.parent().unwrap_or(Path::new(".")))
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Parse scene TOML; mesh paths are relative to `dir`.
pub fn parse_scene(text: &str, name: &str, dir: &Path) -> Result<Scene, MeshError> {
    let file: SceneFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        MeshError::new(name, line, e.message().to_string())
    })?;
    // Lines of each [[mesh]] / [[instance]] header, to point errors at them.
    let header_lines = |h: &str| -> Vec<usize> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| l.trim() == h)
            .map(|(i, _)| i + 1)
            .collect()
    };
    let mesh_lines = header_lines("[[mesh]]");
    let inst_lines = header_lines("[[instance]]");
    if file.mesh.is_empty() {
        return Err(MeshError::new(name, None, "the scene has no [[mesh]]"));
    }
    if file.instance.is_empty() {
        return Err(MeshError::new(name, None, "the scene has no [[instance]]"));
    }
    if file.instance.len() > MAX_INSTANCES {
        return Err(MeshError::new(
            name,
            inst_lines.get(MAX_INSTANCES).copied(),
            format!(
                "the scene places {} instances, more than the limit of {MAX_INSTANCES} (MAX_INSTANCES)",
                file.instance.len()
            ),
        ));
    }
    let mut scene = Scene {
        names: Vec::new(),
        meshes: Vec::new(),
        instances: Vec::new(),
    };
    let mut triangles: u64 = 0;
    for (i, m) in file.mesh.iter().enumerate() {
        let line = mesh_lines.get(i).copied();
        if scene.names.contains(&m.name) {
            return Err(MeshError::new(
                name,
                line,
                format!("mesh `{}` is defined twice", m.name),
            ));
        }
        let mesh = match (&m.path, &m.procedural) {
            (Some(p), None) => load_mesh(&dir.join(p))?,
            (None, Some(spec)) => {
                let n =
                    procedural::spec_triangles(spec).map_err(|e| MeshError::new(name, line, e))?;
                check_triangles(name, line, triangles + n)?;
                procedural::from_spec(spec).map_err(|e| MeshError::new(name, line, e))?
            }
            _ => {
                return Err(MeshError::new(
                    name,
                    line,
                    format!(
                        "mesh `{}` needs exactly one of `path` or `procedural`",
                        m.name
                    ),
                ))
            }
        };
        mesh.validate(name)?;
        triangles += mesh.triangles.len() as u64;
        check_triangles(name, line, triangles)?;
        scene.names.push(m.name.clone());
        scene.meshes.push(mesh);
    }
    for (i, inst) in file.instance.iter().enumerate() {
        let line = inst_lines.get(i).copied();
        let mesh = scene
            .names
            .iter()
            .position(|n| *n == inst.mesh)
            .ok_or_else(|| {
                MeshError::new(
                    name,
                    line,
                    format!("instance refers to unknown mesh `{}`", inst.mesh),
                )
            })?;
        let xf = match (
            inst.transform,
            inst.translate.is_some() || inst.rotate.is_some() || inst.scale.is_some(),
        ) {
            (Some(_), true) => {
                return Err(MeshError::new(
                    name,
                    line,
                    "give either `transform` or `translate`/`rotate`/`scale`, not both",
                ))
            }
            (Some(m), false) => Affine3x4(m),
            (None, _) => {
                let t = inst.translate.unwrap_or([0.0; 3]);
                let r = inst.rotate.unwrap_or([0.0, 1.0, 0.0, 0.0]);
                Affine3x4::from_rotation_scale_translation(
                    Vec3::new(r[0], r[1], r[2]),
                    r[3],
                    inst.scale.unwrap_or(1.0),
                    Vec3(t),
                )
            }
        };
        if xf.0.iter().flatten().any(|v| !v.is_finite()) {
            return Err(MeshError::new(
                name,
                line,
                "the transform has a non-finite value",
            ));
        }
        scene
            .add_instance(mesh, xf)
            .map_err(|e| MeshError::new(name, line, e))?;
    }
    Ok(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scene file that is not UTF-8 is an error at its first bad byte
    /// (line and column), as the assembly reader locates one.
    #[test]
    fn invalid_utf8_is_located() {
        let path =
            std::env::temp_dir().join(format!("shadersim-scene-{}.toml", std::process::id()));
        std::fs::write(&path, b"[[mesh]]\nname = \"a\xffb\"\n").unwrap();
        let e = load_scene(&path).unwrap_err().to_string();
        let _ = std::fs::remove_file(&path);
        assert!(
            e.ends_with(":2:10: error: invalid UTF-8 (byte 0xff): this is not a text file"),
            "{e}"
        );
    }

    #[test]
    fn parses_instances_of_procedural_meshes() {
        let s = parse_scene(
            "[[mesh]]\nname = \"s\"\nprocedural = \"sphere:6\"\n\n[[instance]]\nmesh = \"s\"\ntranslate = [3, 0, 0]\n\n[[instance]]\nmesh = \"s\"\ntransform = [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0]]\n",
            "t.toml",
            Path::new("."),
        )
        .unwrap();
        assert_eq!(s.instances.len(), 2);
        assert!(s.is_two_level());
        assert_eq!(s.triangle_count(), 2 * s.meshes[0].triangles.len());
    }

    #[test]
    fn errors_point_at_lines() {
        let e = parse_scene(
            "[[mesh]]\nname = \"s\"\nprocedural = \"sphere:6\"\n\n[[instance]]\nmesh = \"nope\"\n",
            "t.toml",
            Path::new("."),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(5), "{e}");
        let e = parse_scene(
            "[[mesh]]\nname = \"s\"\nprocedural = 3\n",
            "t.toml",
            Path::new("."),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = parse_scene(
            "[[mesh]]\nname = \"s\"\nprocedural = \"sphere:6\"\n[[instance]]\nmesh = \"s\"\ntransform = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]\n",
            "t.toml",
            Path::new("."),
        )
        .unwrap_err();
        assert!(e.message.contains("invertible"), "{e}");
    }

    #[test]
    fn oversized_scenes_are_refused_naming_the_limit() {
        // Two sphere:500 meshes: (2*500 - 2) * 1000 = 998,000 triangles
        // each; the first fits under 2^20 = 1,048,576, the two together
        // (1,996,000) do not, and the second is refused before it is built.
        let e = parse_scene(
            "[[mesh]]\nname = \"a\"\nprocedural = \"sphere:500\"\n[[mesh]]\nname = \"b\"\nprocedural = \"sphere:500\"\n[[instance]]\nmesh = \"a\"\n",
            "t.toml",
            Path::new("."),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("1996000 triangles"), "{e}");
        assert!(e.message.contains("MAX_SCENE_TRIANGLES"), "{e}");
        // One instance past MAX_INSTANCES, refused at the first instance
        // past the limit (the header of instance number 32,769).
        let mut text = String::from("[[mesh]]\nname = \"s\"\nprocedural = \"sphere:3\"\n");
        for _ in 0..=MAX_INSTANCES {
            text.push_str("[[instance]]\nmesh = \"s\"\n");
        }
        let e = parse_scene(&text, "t.toml", Path::new(".")).unwrap_err();
        assert_eq!(e.line, Some(4 + 2 * MAX_INSTANCES), "{e}");
        assert!(e.message.contains("32769 instances"), "{e}");
        assert!(e.message.contains("MAX_INSTANCES"), "{e}");
    }
}
