//! Stanford PLY, ASCII and binary (little and big endian).
//!
//! Why our own reader: the `ply-rs` crate has been unmaintained since 2020 and
//! its maintained fork needs a newer Rust than this workspace's MSRV (1.80);
//! neither reports the line of an ASCII error. A mesh needs only a subset of
//! PLY: the `vertex` element's `x y z` and the `face` element's index list
//! (`vertex_indices` or `vertex_index`); every other element and property is
//! read past by its declared type and ignored.

use super::{Mesh, MeshError};
use crate::math::Vec3;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(s: &str) -> Option<Scalar> {
        Some(match s {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            _ => return None,
        })
    }
    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }
    fn is_integer(self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64)
    }
}

#[derive(Debug, Clone)]
enum Property {
    Scalar {
        name: String,
        ty: Scalar,
    },
    List {
        name: String,
        count: Scalar,
        item: Scalar,
    },
}

#[derive(Debug, Clone)]
struct Element {
    name: String,
    count: usize,
    properties: Vec<Property>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Ascii,
    BinaryLittle,
    BinaryBig,
}

/// Parse a PLY file held in memory.
pub fn parse(bytes: &[u8], name: &str) -> Result<Mesh, MeshError> {
    let err = |line: Option<usize>, msg: String| MeshError::new(name, line, msg);
    let (format, elements, pos, line_no) = parse_header(bytes, name)?;
    // A lying count must not make us allocate gigabytes before failing.
    for e in &elements {
        if e.count > bytes.len().saturating_sub(pos) + 1 && !e.properties.is_empty() {
            return Err(err(
                None,
                format!(
                    "element `{}` claims {} items, more than the file holds",
                    e.name, e.count
                ),
            ));
        }
    }
    let mut reader: Box<dyn ValueReader> = match format {
        Format::Ascii => Box::new(AsciiReader::new(&bytes[pos..], line_no)),
        Format::BinaryLittle => Box::new(BinaryReader {
            data: &bytes[pos..],
            pos: 0,
            big: false,
        }),
        Format::BinaryBig => Box::new(BinaryReader {
            data: &bytes[pos..],
            pos: 0,
            big: true,
        }),
    };
    let mut mesh = Mesh::default();
    let mut saw_vertex = false;
    let mut saw_face = false;
    for el in &elements {
        let is_vertex = el.name == "vertex";
        let is_face = el.name == "face";
        saw_vertex |= is_vertex;
        saw_face |= is_face;
        let xyz: Vec<Option<usize>> = ["x", "y", "z"]
            .iter()
            .map(|n| {
                el.properties
                    .iter()
                    .position(|p| matches!(p, Property::Scalar { name, .. } if name == n))
            })
            .collect();
        if is_vertex && xyz.iter().any(|p| p.is_none()) {
            return Err(err(
                None,
                "the vertex element lacks an x, y or z property".into(),
            ));
        }
        let index_list = el
            .properties
            .iter()
            .position(|p| matches!(p, Property::List { name, .. } if name == "vertex_indices" || name == "vertex_index"));
        if is_face && index_list.is_none() {
            return Err(err(
                None,
                "the face element has no vertex_indices list".into(),
            ));
        }
        for _ in 0..el.count {
            let mut v = [0.0f32; 3];
            for (pi, p) in el.properties.iter().enumerate() {
                match p {
                    Property::Scalar { ty, .. } => {
                        let x = reader.scalar(*ty, name)?;
                        if is_vertex {
                            for a in 0..3 {
                                if xyz[a] == Some(pi) {
                                    v[a] = x as f32;
                                }
                            }
                        }
                    }
                    Property::List { count, item, .. } => {
                        let n = reader.scalar(*count, name)?;
                        if !(0.0..=1.0e6).contains(&n) || n.fract() != 0.0 {
                            return Err(err(reader.line(), format!("bad list length {n}")));
                        }
                        let n = n as usize;
                        let mut items = Vec::with_capacity(n.min(64));
                        for _ in 0..n {
                            items.push(reader.scalar(*item, name)?);
                        }
                        if is_face && index_list == Some(pi) {
                            if n < 3 {
                                return Err(err(
                                    reader.line(),
                                    format!("a face needs at least 3 vertices, not {n}"),
                                ));
                            }
                            push_face(&mut mesh, items).map_err(|m| err(reader.line(), m))?;
                        }
                    }
                }
            }
            if is_vertex {
                let p = Vec3(v);
                if !p.is_finite() {
                    return Err(err(reader.line(), "vertex coordinate is not finite".into()));
                }
                mesh.positions.push(p);
            }
            reader.end_item(name)?;
        }
    }
    if !saw_vertex || !saw_face {
        return Err(err(
            None,
            "a mesh PLY needs `vertex` and `face` elements".into(),
        ));
    }
    let n = mesh.positions.len();
    if let Some(bad) = mesh.triangles.iter().flatten().find(|&&i| i as usize >= n) {
        return Err(err(
            None,
            format!("face uses vertex {bad} but the file has {n} vertices"),
        ));
    }
    Ok(mesh)
}

/// The header: the format, the elements with their properties, where the
/// data starts (the byte after `end_header`'s line) and the header's lines.
fn parse_header(
    bytes: &[u8],
    name: &str,
) -> Result<(Format, Vec<Element>, usize, usize), MeshError> {
    let err = |line: Option<usize>, msg: String| MeshError::new(name, line, msg);
    // The header is ASCII lines up to `end_header`.
    let mut pos = 0usize;
    let mut line_no = 0usize;
    let mut format = None;
    let mut elements: Vec<Element> = Vec::new();
    let mut ended = false;
    while pos < bytes.len() {
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|e| pos + e)
            .unwrap_or(bytes.len());
        let raw = std::str::from_utf8(&bytes[pos..end])
            .map_err(|_| err(Some(line_no + 1), "the header is not text".into()))?;
        pos = (end + 1).min(bytes.len());
        line_no += 1;
        let line = raw.trim_end_matches('\r').trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        if line_no == 1 {
            if line != "ply" {
                return Err(err(
                    Some(1),
                    "not a PLY file: the first line must be `ply`".into(),
                ));
            }
            continue;
        }
        match words.first().copied() {
            None | Some("comment") | Some("obj_info") => {}
            Some("format") => {
                format = Some(match words.get(1).copied() {
                    Some("ascii") => Format::Ascii,
                    Some("binary_little_endian") => Format::BinaryLittle,
                    Some("binary_big_endian") => Format::BinaryBig,
                    other => {
                        return Err(err(Some(line_no), format!("unknown PLY format {other:?}")))
                    }
                });
            }
            Some("element") => {
                if words.len() != 3 {
                    return Err(err(Some(line_no), "expected `element NAME COUNT`".into()));
                }
                let count = words[2]
                    .parse::<usize>()
                    .map_err(|_| err(Some(line_no), format!("bad element count `{}`", words[2])))?;
                elements.push(Element {
                    name: words[1].to_string(),
                    count,
                    properties: Vec::new(),
                });
            }
            Some("property") => {
                let el = elements
                    .last_mut()
                    .ok_or_else(|| err(Some(line_no), "property before any element".into()))?;
                let prop = parse_property(&words).map_err(|m| err(Some(line_no), m))?;
                el.properties.push(prop);
            }
            Some("end_header") => {
                ended = true;
                break;
            }
            Some(other) => {
                return Err(err(
                    Some(line_no),
                    format!("unknown header keyword `{other}`"),
                ))
            }
        }
    }
    if !ended {
        return Err(err(Some(line_no), "the header has no `end_header`".into()));
    }
    let format = format.ok_or_else(|| err(None, "the header has no `format` line".into()))?;
    Ok((format, elements, pos, line_no))
}

/// A `property` header line (split into words): a scalar or a list.
fn parse_property(words: &[&str]) -> Result<Property, String> {
    if words.get(1) == Some(&"list") {
        if words.len() != 5 {
            return Err("expected `property list COUNT ITEM NAME`".into());
        }
        let count = Scalar::parse(words[2])
            .filter(|s| s.is_integer())
            .ok_or_else(|| format!("bad list count type `{}`", words[2]))?;
        let item = Scalar::parse(words[3]).ok_or_else(|| format!("unknown type `{}`", words[3]))?;
        Ok(Property::List {
            name: words[4].to_string(),
            count,
            item,
        })
    } else {
        if words.len() != 3 {
            return Err("expected `property TYPE NAME`".into());
        }
        let ty = Scalar::parse(words[1]).ok_or_else(|| format!("unknown type `{}`", words[1]))?;
        Ok(Property::Scalar {
            name: words[2].to_string(),
            ty,
        })
    }
}

/// A face's vertex indices (at least three) as a fan of triangles.
fn push_face(mesh: &mut Mesh, items: Vec<f64>) -> Result<(), String> {
    let n = items.len();
    let mut idx = Vec::with_capacity(n);
    for x in items {
        if x < 0.0 || x.fract() != 0.0 || x >= u32::MAX as f64 {
            return Err(format!("bad vertex index {x}"));
        }
        idx.push(x as u32);
    }
    for k in 1..n - 1 {
        mesh.triangles.push([idx[0], idx[k], idx[k + 1]]);
    }
    Ok(())
}

trait ValueReader {
    fn scalar(&mut self, ty: Scalar, name: &str) -> Result<f64, MeshError>;
    fn end_item(&mut self, name: &str) -> Result<(), MeshError>;
    fn line(&self) -> Option<usize>;
}

struct AsciiReader<'a> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    first_line: usize,
    current: Vec<&'a str>,
    word: usize,
    line_no: usize,
    bad_utf8: bool,
}

impl<'a> AsciiReader<'a> {
    fn new(body: &'a [u8], header_lines: usize) -> AsciiReader<'a> {
        let (text, bad_utf8) = match std::str::from_utf8(body) {
            Ok(t) => (t, false),
            Err(_) => ("", true),
        };
        AsciiReader {
            lines: text.lines().enumerate().peekable(),
            first_line: header_lines + 1,
            current: Vec::new(),
            word: 0,
            line_no: header_lines,
            bad_utf8,
        }
    }
}

impl ValueReader for AsciiReader<'_> {
    fn scalar(&mut self, ty: Scalar, name: &str) -> Result<f64, MeshError> {
        if self.bad_utf8 {
            return Err(MeshError::new(name, None, "the ASCII body is not text"));
        }
        while self.word >= self.current.len() {
            match self.lines.next() {
                Some((i, l)) => {
                    self.line_no = self.first_line + i;
                    self.current = l.split_whitespace().collect();
                    self.word = 0;
                }
                None => {
                    return Err(MeshError::new(
                        name,
                        Some(self.line_no),
                        "the file ends inside an element",
                    ))
                }
            }
        }
        let w = self.current[self.word];
        self.word += 1;
        let v = w.parse::<f64>().map_err(|_| {
            MeshError::new(
                name,
                Some(self.line_no),
                format!("expected a number, found `{w}`"),
            )
        })?;
        if ty.is_integer() && v.fract() != 0.0 {
            return Err(MeshError::new(
                name,
                Some(self.line_no),
                format!("expected an integer, found `{w}`"),
            ));
        }
        Ok(v)
    }
    fn end_item(&mut self, name: &str) -> Result<(), MeshError> {
        // One item per line: trailing words mean the header does not describe the body.
        if self.word < self.current.len() {
            return Err(MeshError::new(
                name,
                Some(self.line_no),
                "more values on the line than the header declares",
            ));
        }
        Ok(())
    }
    fn line(&self) -> Option<usize> {
        Some(self.line_no)
    }
}

struct BinaryReader<'a> {
    data: &'a [u8],
    pos: usize,
    big: bool,
}

impl ValueReader for BinaryReader<'_> {
    fn scalar(&mut self, ty: Scalar, name: &str) -> Result<f64, MeshError> {
        let n = ty.size();
        let bytes = self.data.get(self.pos..self.pos + n).ok_or_else(|| {
            MeshError::new(
                name,
                None,
                format!("the binary body ends early (byte {})", self.pos),
            )
        })?;
        self.pos += n;
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(bytes);
        if self.big {
            b[..n].reverse();
        }
        Ok(match ty {
            Scalar::I8 => b[0] as i8 as f64,
            Scalar::U8 => b[0] as f64,
            Scalar::I16 => i16::from_le_bytes([b[0], b[1]]) as f64,
            Scalar::U16 => u16::from_le_bytes([b[0], b[1]]) as f64,
            Scalar::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Scalar::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Scalar::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Scalar::F64 => f64::from_le_bytes(b),
        })
    }
    fn end_item(&mut self, _name: &str) -> Result<(), MeshError> {
        Ok(())
    }
    fn line(&self) -> Option<usize> {
        None
    }
}

/// Write a mesh as binary little-endian PLY (used by tests and examples).
pub fn write_binary(mesh: &Mesh) -> Vec<u8> {
    let mut out = format!(
        "ply\nformat binary_little_endian 1.0\nelement vertex {}\nproperty float x\nproperty float y\nproperty float z\nelement face {}\nproperty list uchar int vertex_indices\nend_header\n",
        mesh.positions.len(),
        mesh.triangles.len()
    )
    .into_bytes();
    for p in &mesh.positions {
        for c in p.0 {
            out.extend_from_slice(&c.to_le_bytes());
        }
    }
    for t in &mesh.triangles {
        out.push(3);
        for &i in t {
            out.extend_from_slice(&(i as i32).to_le_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASCII: &str = "ply\nformat ascii 1.0\ncomment made by hand\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0 1\n1 0 0 1\n1 1 0 1\n0 1 0 1\n4 0 1 2 3\n";

    #[test]
    fn reads_ascii_and_skips_unknown_properties() {
        let m = parse(ASCII.as_bytes(), "q.ply").unwrap();
        assert_eq!(m.positions.len(), 4);
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn binary_round_trip() {
        let m = parse(ASCII.as_bytes(), "q.ply").unwrap();
        let b = write_binary(&m);
        assert_eq!(parse(&b, "q.ply").unwrap(), m);
        let mut big = b.clone();
        big.truncate(b.len() - 3);
        assert!(parse(&big, "q.ply").is_err());
    }

    #[test]
    fn ascii_errors_carry_the_line() {
        let bad = ASCII.replace("1 1 0 1", "1 one 0 1");
        let e = parse(bad.as_bytes(), "q.ply").unwrap_err();
        assert_eq!(e.line, Some(14), "{e}");
        let bad = ASCII.replace("4 0 1 2 3", "4 0 1 2 9");
        assert!(parse(bad.as_bytes(), "q.ply")
            .unwrap_err()
            .message
            .contains("vertex 9"));
    }
}
