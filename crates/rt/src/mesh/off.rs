//! Object File Format (OFF), as CGAL and Geomview write it.
//!
//! No well-kept crate reads OFF, and the format is a few lines: an optional
//! `OFF` keyword (also `COFF`, `NOFF`, `CNOFF`), the counts
//! `vertices faces edges`, the vertices, then faces as `n i0 .. i(n-1)`
//! (extra numbers such as colours are ignored). Polygons are fan-triangulated.
//! `#` starts a comment. Numbers are read as a token stream so a file that
//! wraps a record over several lines still reads.

use super::{Mesh, MeshError};
use crate::math::Vec3;

struct Tokens<'a> {
    lines: Vec<(usize, Vec<&'a str>)>,
    line: usize,
    word: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        let lines = text
            .lines()
            .enumerate()
            .map(|(n, l)| {
                let l = l.split('#').next().unwrap_or("");
                (n + 1, l.split_whitespace().collect::<Vec<_>>())
            })
            .filter(|(_, w)| !w.is_empty())
            .collect();
        Tokens {
            lines,
            line: 0,
            word: 0,
        }
    }
    fn line_no(&self) -> Option<usize> {
        self.lines
            .get(self.line)
            .map(|l| l.0)
            .or_else(|| self.lines.last().map(|l| l.0))
    }
    fn peek(&self) -> Option<&'a str> {
        self.lines
            .get(self.line)
            .and_then(|l| l.1.get(self.word).copied())
    }
    fn next(&mut self) -> Option<(usize, &'a str)> {
        let (n, words) = self.lines.get(self.line)?;
        let w = words[self.word];
        let n = *n;
        self.word += 1;
        if self.word >= words.len() {
            self.line += 1;
            self.word = 0;
        }
        Some((n, w))
    }
    /// Skip what remains of the current line (face colours and the like).
    fn finish_line(&mut self, line: usize) {
        if self.lines.get(self.line).map(|l| l.0) == Some(line) && self.word != 0 {
            self.line += 1;
            self.word = 0;
        }
    }
}

fn number<T: std::str::FromStr>(
    t: &mut Tokens<'_>,
    name: &str,
    what: &str,
) -> Result<(usize, T), MeshError> {
    match t.next() {
        Some((line, w)) => w
            .parse::<T>()
            .map(|v| (line, v))
            .map_err(|_| MeshError::new(name, Some(line), format!("expected {what}, found `{w}`"))),
        None => Err(MeshError::new(
            name,
            t.line_no(),
            format!("the file ends where {what} was expected"),
        )),
    }
}

/// Parse OFF text.
pub fn parse(bytes: &[u8], name: &str) -> Result<Mesh, MeshError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| MeshError::new(name, None, format!("not text: {e}")))?;
    let mut t = Tokens::new(text);
    if let Some(w) = t.peek() {
        if w.ends_with("OFF") {
            if w != "OFF" && w != "COFF" && w != "NOFF" && w != "CNOFF" {
                return Err(MeshError::new(
                    name,
                    t.line_no(),
                    format!("unsupported OFF variant `{w}`"),
                ));
            }
            t.next();
        }
    }
    let (_, nv) = number::<usize>(&mut t, name, "the vertex count")?;
    let (_, nf) = number::<usize>(&mut t, name, "the face count")?;
    let (line, _ne) = number::<usize>(&mut t, name, "the edge count")?;
    t.finish_line(line);
    // Guard the allocations against a lying header.
    if nv > bytes.len() || nf > bytes.len() {
        return Err(MeshError::new(
            name,
            Some(line),
            "the counts are larger than the file could hold",
        ));
    }
    let mut mesh = Mesh {
        positions: Vec::with_capacity(nv),
        triangles: Vec::with_capacity(nf),
    };
    for _ in 0..nv {
        let (_, x) = number::<f32>(&mut t, name, "a vertex coordinate")?;
        let (_, y) = number::<f32>(&mut t, name, "a vertex coordinate")?;
        let (line, z) = number::<f32>(&mut t, name, "a vertex coordinate")?;
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            return Err(MeshError::new(
                name,
                Some(line),
                "vertex coordinate is not finite",
            ));
        }
        mesh.positions.push(Vec3::new(x, y, z));
        t.finish_line(line);
    }
    for _ in 0..nf {
        let (line, n) = number::<usize>(&mut t, name, "a face vertex count")?;
        if n < 3 {
            return Err(MeshError::new(
                name,
                Some(line),
                format!("a face needs at least 3 vertices, not {n}"),
            ));
        }
        let mut idx = Vec::with_capacity(n.min(64));
        let mut last = line;
        for _ in 0..n {
            let (l, i) = number::<u32>(&mut t, name, "a vertex index")?;
            if i as usize >= nv {
                return Err(MeshError::new(
                    name,
                    Some(l),
                    format!("vertex index {i} is out of range (the file has {nv} vertices)"),
                ));
            }
            idx.push(i);
            last = l;
        }
        for k in 1..n - 1 {
            mesh.triangles.push([idx[0], idx[k], idx[k + 1]]);
        }
        t.finish_line(last);
    }
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_tetrahedron_with_comments_and_colours() {
        let src = "OFF\n# a comment\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2 255 0 0\n3 0 1 3\n3 0 2 3\n3 1 2 3\n";
        let m = parse(src.as_bytes(), "t.off").unwrap();
        assert_eq!(m.positions.len(), 4);
        assert_eq!(
            m.triangles,
            vec![[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
        );
    }

    #[test]
    fn reports_lines() {
        let e = parse(b"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n", "t.off").unwrap_err();
        assert_eq!(e.line, Some(6), "{e}");
        let e = parse(b"OFF\n3 1 0\n0 0 0\n1 x 0\n", "t.off").unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        let e = parse(b"OFF\n3 1 0\n0 0 0\n", "t.off").unwrap_err();
        assert!(e.message.contains("ends"), "{e}");
    }
}
