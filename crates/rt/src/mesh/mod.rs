//! Triangle meshes: the in-memory form, loaders for OBJ, PLY and OFF, and
//! procedural generators.
//!
//! Loaders never panic on bad input: every problem becomes a [`MeshError`]
//! naming the file and, where the format has lines, the line.

pub mod obj;
pub mod off;
pub mod ply;
pub mod procedural;

use crate::math::{Aabb, Vec3};
use std::fmt;
use std::path::Path;

/// An indexed triangle mesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Triangles as three indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    /// The three corners of triangle `i`.
    #[inline]
    pub fn triangle(&self, i: usize) -> [Vec3; 3] {
        let t = self.triangles[i];
        [
            self.positions[t[0] as usize],
            self.positions[t[1] as usize],
            self.positions[t[2] as usize],
        ]
    }

    /// Bounds of every vertex used by a triangle.
    pub fn bounds(&self) -> Aabb {
        let mut b = Aabb::EMPTY;
        for t in &self.triangles {
            for &v in t {
                b.grow(self.positions[v as usize]);
            }
        }
        b
    }

    /// Check the invariants the rest of the crate relies on: at least one
    /// triangle, indices in range, finite coordinates.
    pub fn validate(&self, path: &str) -> Result<(), MeshError> {
        if self.triangles.is_empty() {
            return Err(MeshError::new(path, None, "the mesh has no triangles"));
        }
        let n = self.positions.len();
        for (i, t) in self.triangles.iter().enumerate() {
            if let Some(&bad) = t.iter().find(|&&v| v as usize >= n) {
                return Err(MeshError::new(
                    path,
                    None,
                    format!("triangle {i} uses vertex {bad} but the mesh has {n} vertices"),
                ));
            }
        }
        if let Some(i) = self.positions.iter().position(|p| !p.is_finite()) {
            return Err(MeshError::new(
                path,
                None,
                format!("vertex {i} has a non-finite coordinate"),
            ));
        }
        if self.triangles.len() >= (1 << 29) {
            return Err(MeshError::new(
                path,
                None,
                "more than 2^29 triangles cannot be addressed",
            ));
        }
        Ok(())
    }
}

/// A mesh or scene file that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshError {
    /// The file.
    pub path: String,
    /// 1-based line, when the problem is at a line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl MeshError {
    /// Build an error.
    pub fn new(path: &str, line: Option<usize>, message: impl Into<String>) -> MeshError {
        MeshError {
            path: path.to_string(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: error: {}", self.path, l, self.message),
            None => write!(f, "{}: error: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for MeshError {}

/// Load a mesh, choosing the reader by file extension (`.obj`, `.ply`, `.off`).
pub fn load_mesh(path: &Path) -> Result<Mesh, MeshError> {
    let name = path.display().to_string();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .unwrap_or_default();
    let mesh = match ext.as_str() {
        "obj" => obj::load(path)?,
        "ply" => {
            let bytes =
                std::fs::read(path).map_err(|e| MeshError::new(&name, None, e.to_string()))?;
            ply::parse(&bytes, &name)?
        }
        "off" => {
            let bytes =
                std::fs::read(path).map_err(|e| MeshError::new(&name, None, e.to_string()))?;
            off::parse(&bytes, &name)?
        }
        _ => {
            return Err(MeshError::new(
                &name,
                None,
                "unknown mesh format: expected .obj, .ply, .off (or a .toml scene)",
            ))
        }
    };
    mesh.validate(&name)?;
    Ok(mesh)
}
