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
    /// 1-based column (in characters) on that line, when known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl MeshError {
    /// Build an error.
    pub fn new(path: &str, line: Option<usize>, message: impl Into<String>) -> MeshError {
        MeshError {
            path: path.to_string(),
            line,
            column: None,
            message: message.into(),
        }
    }

    /// An error at a line and column.
    pub fn at(path: &str, line: usize, column: usize, message: impl Into<String>) -> MeshError {
        MeshError {
            column: Some(column),
            ..MeshError::new(path, Some(line), message)
        }
    }

    /// Text that must be UTF-8: the error at the first byte that is not,
    /// located as the assembly reader locates it.
    pub fn check_utf8<'a>(path: &str, bytes: &'a [u8]) -> Result<&'a str, MeshError> {
        std::str::from_utf8(bytes).map_err(|e| {
            let offset = e.valid_up_to();
            let before = &bytes[..offset];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            // Columns count characters; the bytes before are valid UTF-8.
            let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
            MeshError::at(
                path,
                line,
                column,
                format!(
                    "invalid UTF-8 (byte {:#04x}): this is not a text file",
                    bytes[offset]
                ),
            )
        })
    }
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{}:{}: error: {}", self.path, l, c, self.message),
            (Some(l), None) => write!(f, "{}:{}: error: {}", self.path, l, self.message),
            _ => write!(f, "{}: error: {}", self.path, self.message),
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

#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    const PLY: &str = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const OFF: &str = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const OBJ: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

    fn mutate(src: &str, edits: &[(usize, u8)]) -> Vec<u8> {
        let mut b = src.as_bytes().to_vec();
        for &(at, v) in edits {
            let i = at % (b.len() + 1);
            match v % 3 {
                0 if i < b.len() => b[i] = v,
                1 => b.insert(i, v),
                _ if i < b.len() => {
                    b.remove(i);
                }
                _ => {}
            }
        }
        b
    }

    proptest! {
        // Readers return a mesh or an error for any damaged file; they never panic.
        #[test]
        fn damaged_files_never_panic(edits in proptest::collection::vec((0usize..400, any::<u8>()), 0..12)) {
            for (src, kind) in [(PLY, 0), (OFF, 1), (OBJ, 2)] {
                let bytes = mutate(src, &edits);
                let r = match kind {
                    0 => super::ply::parse(&bytes, "f.ply"),
                    1 => super::off::parse(&bytes, "f.off"),
                    _ => super::obj::parse(&bytes, "f.obj"),
                };
                if let Ok(m) = r {
                    let _ = m.validate("f");
                }
            }
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = super::ply::parse(&bytes, "f.ply");
            let _ = super::off::parse(&bytes, "f.off");
            let _ = super::obj::parse(&bytes, "f.obj");
        }
    }
}
