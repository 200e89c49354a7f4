//! Scenes: screen-space triangles with per-vertex colours, from a small text
//! format or built in.
//!
//! The text format, one item per line; a line whose first word starts with
//! `#`, or the rest of a line after a lone `# `, is a comment (so `#rrggbb`
//! colours are not):
//!
//! ```text
//! # a comment
//! clear #102030                                   optional, the colour the frame starts with
//! tri 10 20 #ff0000   100 20 #00ff00   50 80.5 #0000ff
//! ```
//!
//! `tri` takes three vertices, each `X Y #RRGGBB`, in screen pixels with the
//! origin at the top-left corner (y grows downwards). Coordinates may have a
//! fraction; they are snapped to 1/16 pixel (assumption: the seed gives no
//! sub-pixel precision) and must lie within +-32768. Either winding is
//! accepted. Triangles with no area are dropped (counted in the report).

use crate::params::NamiParams;

/// Sub-pixel bits of vertex positions (1/16 pixel).
pub const SUBPIXEL_BITS: u32 = 4;
/// One pixel in sub-pixel units.
pub const SUBPIXEL_ONE: i64 = 1 << SUBPIXEL_BITS;
/// Largest accepted coordinate magnitude in pixels.
pub const COORD_LIMIT: f64 = 32768.0;

/// A triangle corner: position in 1/16 pixel, colour in 8-bit RGB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// x in 1/16 pixel.
    pub x: i64,
    /// y in 1/16 pixel.
    pub y: i64,
    /// Colour.
    pub colour: [u8; 3],
}

impl Vertex {
    /// A vertex at whole-pixel coordinates.
    pub fn at(x: f64, y: f64, colour: [u8; 3]) -> Vertex {
        Vertex {
            x: (x * SUBPIXEL_ONE as f64).round() as i64,
            y: (y * SUBPIXEL_ONE as f64).round() as i64,
            colour,
        }
    }
}

/// A screen-space triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triangle {
    /// The three corners.
    pub v: [Vertex; 3],
}

impl Triangle {
    /// Twice the signed area in sub-pixel units squared.
    pub fn doubled_area(&self) -> i64 {
        let [a, b, c] = self.v;
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}

/// A triangle list and the colour the frame is cleared to.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// A name for the report (file name or `builtin:...`).
    pub name: String,
    /// Triangles in submission order.
    pub triangles: Vec<Triangle>,
    /// Colour of the frame before drawing.
    pub clear: [u8; 3],
    /// Triangles dropped because they have no area.
    pub degenerate_dropped: usize,
}

/// A scene file error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct SceneError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// Names of the built-in scenes.
pub const BUILTIN_SCENES: &[&str] = &["builtin:fullscreen", "builtin:small", "builtin:rows"];

fn scene_err(line: usize, col: usize, message: impl Into<String>) -> SceneError {
    SceneError {
        line,
        col,
        message: message.into(),
    }
}

/// Words of a line with their 1-based columns, up to a comment.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut col = 0;
    let mut start_col = 0;
    for (byte, ch) in line.char_indices() {
        col += 1;
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((start_col, &line[s..byte]));
            }
            continue;
        }
        if start.is_none() {
            if ch == '#' && (out.is_empty() || is_comment_mark(&line[byte..])) {
                return out;
            }
            start = Some(byte);
            start_col = col;
        }
    }
    if let Some(s) = start {
        out.push((start_col, &line[s..]));
    }
    out
}

/// Inside a line, a `#` standing alone (followed by whitespace or the end)
/// starts a comment; `#` glued to a word is a colour.
fn is_comment_mark(s: &str) -> bool {
    s[1..].chars().next().is_none_or(char::is_whitespace)
}

fn parse_colour(word: &str, line: usize, col: usize) -> Result<[u8; 3], SceneError> {
    let bad = || {
        scene_err(
            line,
            col,
            format!("expected a colour #RRGGBB, found `{word}`"),
        )
    };
    let hex = word.strip_prefix('#').ok_or_else(bad)?;
    if hex.len() != 6 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let v = u32::from_str_radix(hex, 16).map_err(|_| bad())?;
    Ok([(v >> 16) as u8, (v >> 8) as u8, v as u8])
}

fn parse_coord(word: &str, line: usize, col: usize) -> Result<f64, SceneError> {
    match word.parse::<f64>() {
        Ok(v) if v.is_finite() && v.abs() <= COORD_LIMIT => Ok(v),
        Ok(_) => Err(scene_err(
            line,
            col,
            format!("coordinate `{word}` is outside +-{COORD_LIMIT}"),
        )),
        Err(_) => Err(scene_err(
            line,
            col,
            format!("expected a number, found `{word}`"),
        )),
    }
}

impl Scene {
    /// Parse the text format described in the module documentation.
    pub fn parse(name: &str, text: &str) -> Result<Scene, SceneError> {
        let mut scene = Scene {
            name: name.to_string(),
            triangles: Vec::new(),
            clear: [0, 0, 0],
            degenerate_dropped: 0,
        };
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let w = words(line);
            let Some(&(col, keyword)) = w.first() else {
                continue;
            };
            match keyword {
                "clear" => {
                    if w.len() != 2 {
                        let c = w.get(2).map_or(line.chars().count() + 1, |x| x.0);
                        return Err(scene_err(line_no, c, "`clear` takes one colour #RRGGBB"));
                    }
                    scene.clear = parse_colour(w[1].1, line_no, w[1].0)?;
                }
                "tri" => {
                    if w.len() != 10 {
                        let c = w.get(10).map_or(line.chars().count() + 1, |x| x.0);
                        return Err(scene_err(
                            line_no,
                            c,
                            format!(
                                "`tri` takes three vertices `X Y #RRGGBB` (9 values), found {}",
                                w.len() - 1
                            ),
                        ));
                    }
                    let mut v = [Vertex::at(0.0, 0.0, [0; 3]); 3];
                    for (k, vertex) in v.iter_mut().enumerate() {
                        let (xc, xw) = w[1 + 3 * k];
                        let (yc, yw) = w[2 + 3 * k];
                        let (cc, cw) = w[3 + 3 * k];
                        let x = parse_coord(xw, line_no, xc)?;
                        let y = parse_coord(yw, line_no, yc)?;
                        let colour = parse_colour(cw, line_no, cc)?;
                        *vertex = Vertex::at(x, y, colour);
                    }
                    scene.push(Triangle { v });
                }
                other => {
                    return Err(scene_err(
                        line_no,
                        col,
                        format!("expected `tri` or `clear`, found `{other}`"),
                    ))
                }
            }
        }
        Ok(scene)
    }

    /// Add a triangle, dropping it if it has no area.
    pub fn push(&mut self, t: Triangle) {
        if t.doubled_area() == 0 {
            self.degenerate_dropped += 1;
        } else {
            self.triangles.push(t);
        }
    }

    /// A built-in scene by name (`builtin:fullscreen`, `builtin:small`,
    /// `builtin:rows`); `None` for an unknown name. `builtin:rows` depends on
    /// the parameters: it puts as many full-row triangles in each tile row as
    /// the seed's arithmetic says fit (budget / clocks per triangle).
    pub fn builtin(name: &str, params: &NamiParams) -> Option<Scene> {
        let mut scene = Scene {
            name: name.to_string(),
            triangles: Vec::new(),
            clear: [0, 0, 0],
            degenerate_dropped: 0,
        };
        let w = params.screen_width as f64;
        let h = params.screen_height as f64;
        match name {
            "builtin:fullscreen" => {
                // Two triangles covering the screen exactly: a colour gradient.
                let tl = Vertex::at(0.0, 0.0, [255, 0, 0]);
                let tr = Vertex::at(w, 0.0, [0, 255, 0]);
                let bl = Vertex::at(0.0, h, [0, 0, 255]);
                let br = Vertex::at(w, h, [255, 255, 255]);
                scene.push(Triangle { v: [tl, tr, bl] });
                scene.push(Triangle { v: [tr, br, bl] });
            }
            "builtin:small" => {
                // A 16x16-pixel grid with one right triangle of 12-pixel legs
                // per cell, alternating orientation: many small triangles,
                // the case where the seed expects R + 20N to send partial Nami.
                scene.clear = [16, 16, 32];
                let cells_x = (params.screen_width / 16) as usize;
                let cells_y = (params.screen_height / 16) as usize;
                for cy in 0..cells_y {
                    for cx in 0..cells_x {
                        let x0 = cx as f64 * 16.0 + 2.0;
                        let y0 = cy as f64 * 16.0 + 2.0;
                        let hue = [
                            (cx * 255 / cells_x.max(1)) as u8,
                            (cy * 255 / cells_y.max(1)) as u8,
                            160,
                        ];
                        let dim = [hue[0] / 2, hue[1] / 2, 255];
                        let t = if (cx + cy) % 2 == 0 {
                            [
                                Vertex::at(x0, y0, hue),
                                Vertex::at(x0 + 12.0, y0, dim),
                                Vertex::at(x0, y0 + 12.0, [255, 255, 255]),
                            ]
                        } else {
                            [
                                Vertex::at(x0 + 12.0, y0, hue),
                                Vertex::at(x0 + 12.0, y0 + 12.0, dim),
                                Vertex::at(x0, y0 + 12.0, [255, 255, 255]),
                            ]
                        };
                        scene.push(Triangle { v: t });
                    }
                }
            }
            "builtin:rows" => {
                // The seed's best case: every tile row has its own set of
                // triangles, each covering the whole 640x32 row. A triangle
                // whose bounding box stays inside the row cannot cover it with
                // a short base, so the base runs far off screen: at the last
                // pixel centre (y0 + 31.5) the width is (w + 2 * 30,000) / 64.
                let per_row = params.tile_row_budget_clocks() / params.raster_clocks_per_triangle;
                let tile = params.tile_size as f64;
                let reach = 30_000.0;
                for row in 0..params.tile_rows() {
                    let y0 = row as f64 * tile;
                    for i in 0..per_row {
                        let shade = (i * 255 / per_row.max(1)) as u8;
                        let band = (row * 255 / params.tile_rows().max(1)) as u8;
                        scene.push(Triangle {
                            v: [
                                Vertex::at(-reach, y0, [shade, band, 255 - band]),
                                Vertex::at(w + reach, y0, [band, shade, 128]),
                                Vertex::at(w / 2.0, y0 + tile, [255 - shade, 64, band]),
                            ],
                        });
                    }
                }
            }
            _ => return None,
        }
        Some(scene)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_format() {
        let s = Scene::parse(
            "t",
            "# header\nclear #102030\n\ntri 10 20 #ff0000 100 20.5 #00ff00 50 80 #0000ff # note\n",
        )
        .unwrap();
        assert_eq!(s.clear, [0x10, 0x20, 0x30]);
        assert_eq!(s.triangles.len(), 1);
        assert_eq!(s.triangles[0].v[1].y, 328);
        assert_eq!(s.triangles[0].v[2].colour, [0, 0, 255]);
    }

    #[test]
    fn errors_have_positions() {
        let e = Scene::parse("t", "tri 1 2 #ff0000 3 4 #00ff00 5 x #000000").unwrap_err();
        assert_eq!((e.line, e.col), (1, 31));
        let e = Scene::parse("t", "\n  quad 1 2").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        let e = Scene::parse("t", "tri 1 2 #ff0000").unwrap_err();
        assert_eq!(e.line, 1);
        let e = Scene::parse("t", "tri 1 2 #ff00 3 4 #00ff00 5 6 #000000").unwrap_err();
        assert_eq!(e.col, 9);
        let e = Scene::parse("t", "tri 1e9 2 #ff0000 3 4 #00ff00 5 6 #000000").unwrap_err();
        assert!(e.message.contains("outside"));
    }

    #[test]
    fn degenerate_triangles_are_dropped() {
        let s = Scene::parse("t", "tri 0 0 #000000 5 5 #000000 10 10 #000000").unwrap();
        assert_eq!((s.triangles.len(), s.degenerate_dropped), (0, 1));
    }

    #[test]
    fn builtins_exist() {
        let p = NamiParams::seed().unwrap();
        for name in BUILTIN_SCENES {
            assert!(
                !Scene::builtin(name, &p).unwrap().triangles.is_empty(),
                "{name}"
            );
        }
        // 204,800 / 3,072 = 66.67: 66 whole triangles per tile row fit.
        assert_eq!(
            Scene::builtin("builtin:rows", &p).unwrap().triangles.len(),
            66 * 15
        );
        assert!(Scene::builtin("builtin:nope", &p).is_none());
    }
}
