//! Wavefront OBJ through the `tobj` crate.
//!
//! `tobj` reports what is wrong but not where, so when it refuses a file we
//! scan the text ourselves for the first line that explains the refusal and
//! report that line.

use super::{Mesh, MeshError};
use crate::math::Vec3;
use std::path::Path;

/// Load an OBJ file: every object's triangles (polygons are fan-triangulated
/// by tobj) into one mesh.
pub fn load(path: &Path) -> Result<Mesh, MeshError> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| MeshError::new(&name, None, e.to_string()))?;
    parse(&text, &name)
}

/// Parse OBJ text held in memory (materials are ignored).
pub fn parse(bytes: &[u8], name: &str) -> Result<Mesh, MeshError> {
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = std::io::BufReader::new(bytes);
    let result = tobj::load_obj_buf(&mut reader, &opts, |_| Err(tobj::LoadError::GenericFailure));
    let models = match result {
        Ok((models, _materials)) => models,
        Err(e) => {
            let line = first_bad_line(bytes);
            let msg = match &line {
                Some((_, why)) => why.clone(),
                None => format!("not a valid OBJ file ({e})"),
            };
            return Err(MeshError::new(name, line.map(|l| l.0), msg));
        }
    };
    let mut mesh = Mesh::default();
    for m in models {
        let base = mesh.positions.len() as u64;
        let p = &m.mesh.positions;
        for v in p.chunks_exact(3) {
            mesh.positions.push(Vec3::new(v[0], v[1], v[2]));
        }
        for t in m.mesh.indices.chunks_exact(3) {
            let idx = |i: u32| -> Result<u32, MeshError> {
                let g = base + i as u64;
                u32::try_from(g).map_err(|_| MeshError::new(name, None, "too many vertices"))
            };
            mesh.triangles.push([idx(t[0])?, idx(t[1])?, idx(t[2])?]);
        }
    }
    if mesh.triangles.is_empty() {
        let line = first_bad_line(bytes);
        return Err(MeshError::new(
            name,
            line.as_ref().map(|l| l.0),
            line.map(|l| l.1)
                .unwrap_or_else(|| "the OBJ file has no faces".to_string()),
        ));
    }
    Ok(mesh)
}

/// Find the first `v` or `f` line that cannot be right: a vertex without
/// three numbers, or a face index that is not a number or is out of range.
fn first_bad_line(bytes: &[u8]) -> Option<(usize, String)> {
    let text = String::from_utf8_lossy(bytes);
    let mut vertices: i64 = 0;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let mut words = raw.split_whitespace();
        match words.next() {
            Some("v") => {
                let nums: Vec<&str> = words.collect();
                if nums.len() < 3 || nums.iter().take(3).any(|w| w.parse::<f32>().is_err()) {
                    return Some((
                        line_no,
                        format!("vertex needs three numbers: `{}`", raw.trim()),
                    ));
                }
                vertices += 1;
            }
            Some("f") => {
                let refs: Vec<&str> = words.collect();
                if refs.len() < 3 {
                    return Some((
                        line_no,
                        format!("face needs at least three vertices: `{}`", raw.trim()),
                    ));
                }
                for r in refs {
                    let first = r.split('/').next().unwrap_or("");
                    match first.parse::<i64>() {
                        Ok(i) if i > 0 && i <= vertices => {}
                        Ok(i) if i < 0 && -i <= vertices => {}
                        Ok(i) => {
                            return Some((
                                line_no,
                                format!("face refers to vertex {i} but only {vertices} vertices are defined above it"),
                            ))
                        }
                        Err(_) => return Some((line_no, format!("face index `{r}` is not a number"))),
                    }
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_quad_as_two_triangles() {
        let m = parse(b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", "q.obj").unwrap();
        assert_eq!(m.positions.len(), 4);
        assert_eq!(m.triangles.len(), 2);
    }

    #[test]
    fn reports_the_line_of_a_bad_face() {
        let e = parse(b"v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n", "bad.obj").unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        let e = parse(b"v 0 0 0\nv 1 zero 0\nv 1 1 0\nf 1 2 3\n", "bad.obj").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }
}
