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
    // tobj skips lines it cannot read (a vertex line with a NUL byte, a
    // two-vertex face), which shifts every later index: check first.
    check(bytes, name)?;
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

/// Refuse what tobj would skip or take wrongly, at its line and column:
/// bytes that are not text (invalid UTF-8, control characters such as NUL),
/// a vertex without three finite coordinates, a face with fewer than three
/// vertices, an index that is not a number or names no vertex defined
/// above it.
fn check(bytes: &[u8], name: &str) -> Result<(), MeshError> {
    let text = MeshError::check_utf8(name, bytes)?;
    let mut vertices: i64 = 0;
    for (n, raw) in text.split('\n').enumerate() {
        let line = n + 1;
        // Column (in characters) of a byte offset of this line.
        let col = |offset: usize| raw[..offset].chars().count() + 1;
        if let Some((i, c)) = raw
            .char_indices()
            .find(|&(_, c)| c.is_control() && c != '\t' && c != '\r')
        {
            return Err(MeshError::at(
                name,
                line,
                col(i),
                format!("control character U+{:04X}: an OBJ file is text", c as u32),
            ));
        }
        // Each word with its byte offset in the line.
        let words: Vec<(usize, &str)> = raw
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - raw.as_ptr() as usize, w))
            .collect();
        match words.first().map(|w| w.1) {
            Some("v") => {
                for k in 1..=3 {
                    let Some(&(at, w)) = words.get(k) else {
                        return Err(MeshError::at(
                            name,
                            line,
                            col(raw.trim_end().len()),
                            format!(
                                "a vertex needs three coordinates; this one has {}",
                                words.len() - 1
                            ),
                        ));
                    };
                    match w.parse::<f32>() {
                        Ok(x) if x.is_finite() => {}
                        Ok(_) => {
                            return Err(MeshError::at(
                                name,
                                line,
                                col(at),
                                format!("vertex coordinate `{w}` is not finite"),
                            ))
                        }
                        Err(_) => {
                            return Err(MeshError::at(
                                name,
                                line,
                                col(at),
                                format!("vertex coordinate `{w}` is not a number"),
                            ))
                        }
                    }
                }
                vertices += 1;
            }
            Some("f") => {
                if words.len() < 4 {
                    return Err(MeshError::at(
                        name,
                        line,
                        col(words[0].0),
                        format!(
                            "a face needs at least three vertices; this one has {}",
                            words.len() - 1
                        ),
                    ));
                }
                for &(at, r) in &words[1..] {
                    let first = r.split('/').next().unwrap_or("");
                    match first.parse::<i64>() {
                        Ok(i) if (i > 0 && i <= vertices) || (i < 0 && -i <= vertices) => {}
                        Ok(i) => {
                            return Err(MeshError::at(
                                name,
                                line,
                                col(at),
                                format!("face refers to vertex {i} but only {vertices} vertices are defined above it"),
                            ))
                        }
                        Err(_) => {
                            return Err(MeshError::at(
                                name,
                                line,
                                col(at),
                                format!("face index `{r}` is not a number"),
                            ))
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
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

    /// Issue 32 item 4: what tobj skipped or took silently is an error at
    /// its line and column.
    #[test]
    fn broken_lines_are_errors_at_their_place() {
        let tri = "v 0 0 0\nv 1 0 0\nv 1 1 0\n";
        let (short, bare, high, negative) = (
            format!("{tri}f 1 2\n"),
            format!("{tri}f\n"),
            format!("{tri}f 1 2 4\n"),
            format!("{tri}f 1 -4 3\n"),
        );
        let cases: &[(&[u8], &str)] = &[
            (
                b"v 0 0 0\nv 1 \0 0\nv 1 1 0\nf 1 2 3\n",
                "bad.obj:2:5: error: control character U+0000",
            ),
            (
                short.as_bytes(),
                "bad.obj:4:1: error: a face needs at least three vertices; this one has 2",
            ),
            (
                bare.as_bytes(),
                "bad.obj:4:1: error: a face needs at least three vertices; this one has 0",
            ),
            (
                high.as_bytes(),
                "bad.obj:4:7: error: face refers to vertex 4 but only 3 vertices",
            ),
            (
                negative.as_bytes(),
                "bad.obj:4:5: error: face refers to vertex -4",
            ),
            (
                b"v 0 0 0\nv 1 1e999 0\nv 1 1 0\nf 1 2 3\n",
                "bad.obj:2:5: error: vertex coordinate `1e999` is not finite",
            ),
            (
                b"v 0 0 0\nv 1 nan 0\nv 1 1 0\nf 1 2 3\n",
                "bad.obj:2:5: error: vertex coordinate `nan` is not finite",
            ),
            (
                b"v 0 0\n",
                "bad.obj:1:6: error: a vertex needs three coordinates; this one has 2",
            ),
            (
                b"v 0 0 0\n\xff\xfe\n",
                "bad.obj:2:1: error: invalid UTF-8 (byte 0xff)",
            ),
        ];
        for (bytes, want) in cases {
            let e = parse(bytes, "bad.obj").unwrap_err().to_string();
            assert!(
                e.starts_with(want),
                "{:?}\n got: {e}\nwant: {want}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn reports_the_line_of_a_bad_face() {
        let e = parse(b"v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n", "bad.obj").unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        let e = parse(b"v 0 0 0\nv 1 zero 0\nv 1 1 0\nf 1 2 3\n", "bad.obj").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }
}
