//! Heatmap of traversal steps per pixel for primary rays, the view Radeon
//! Raytracing Analyzer gives of a dispatch: dark = few steps, bright = many.

use std::io::Write;

/// Colour ramp control points (black, deep blue, magenta, orange, pale yellow).
const RAMP: [[f32; 3]; 5] = [
    [0.0, 0.0, 4.0],
    [40.0, 11.0, 84.0],
    [187.0, 55.0, 84.0],
    [249.0, 142.0, 9.0],
    [252.0, 255.0, 164.0],
];

/// Colour of `v` in 0..=1.
pub fn ramp(v: f32) -> [u8; 3] {
    let v = v.clamp(0.0, 1.0) * (RAMP.len() - 1) as f32;
    let i = (v.floor() as usize).min(RAMP.len() - 2);
    let f = v - i as f32;
    let mut out = [0u8; 3];
    for c in 0..3 {
        out[c] = (RAMP[i][c] + (RAMP[i + 1][c] - RAMP[i][c]) * f).round() as u8;
    }
    out
}

/// Digits 0-9 in a 3x5 pixel font, one row of three bits (left = 4) each.
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 1, 1],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];

/// Heights of the legend below the image: the colour ramp strip (1/16 of
/// the image, at least 4 pixels) and the band of numbers under it (the
/// 5-pixel font at `scale`, a pixel of space above and below).
fn legend_heights(width: u32, height: u32) -> (u32, u32, u32) {
    let strip = (height / 16).max(4);
    let scale = (width / 256).clamp(1, 4);
    (strip, 7 * scale, scale)
}

/// Rows the legend adds below an image of `width` x `height` pixels.
pub fn legend_rows(width: u32, height: u32) -> u32 {
    let (strip, band, _) = legend_heights(width, height);
    strip + band
}

/// Draw `text` (digits only) into the label band `band` (RGB rows of
/// `width` pixels) at column `x`, in white at `scale`.
fn draw_number(band: &mut [u8], width: u32, x: u32, text: &str, scale: u32) {
    for (i, ch) in text.bytes().enumerate() {
        let Some(glyph) = ch.checked_sub(b'0').and_then(|d| DIGITS.get(d as usize)) else {
            continue;
        };
        let gx = x + i as u32 * 4 * scale;
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..3u32 {
                if bits & (4 >> col) == 0 {
                    continue;
                }
                for dy in 0..scale {
                    for dx in 0..scale {
                        let (px, py) = (gx + col * scale + dx, scale + row as u32 * scale + dy);
                        if px < width {
                            let at = ((py * width + px) * 3) as usize;
                            if let Some(p) = band.get_mut(at..at + 3) {
                                p.copy_from_slice(&[255, 255, 255]);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// RGB pixels of a heatmap: `steps` row-major, scaled so that `max_steps`
/// is the brightest colour. Below the image a strip of the ramp serves as
/// the legend (0 at the left, `max_steps` at the right), with the step
/// counts at its ends and middle written under it on black.
pub fn render(steps: &[u32], width: u32, height: u32, max_steps: u64) -> Vec<u8> {
    let (strip, band_rows, scale) = legend_heights(width, height);
    let mut rgb = Vec::with_capacity((width * (height + strip + band_rows)) as usize * 3);
    let scale_f = 1.0 / max_steps.max(1) as f32;
    for &s in steps.iter().take((width * height) as usize) {
        rgb.extend_from_slice(&ramp(s as f32 * scale_f));
    }
    for _ in 0..strip {
        for x in 0..width {
            rgb.extend_from_slice(&ramp(x as f32 / (width.max(2) - 1) as f32));
        }
    }
    let mut band = vec![0u8; (width * band_rows * 3) as usize];
    // A number is 4*scale pixels a digit (3 of glyph, 1 of space).
    let text_width = |t: &str| t.len() as u32 * 4 * scale;
    let max = max_steps.max(1);
    let (lo, mid, hi) = ("0".to_string(), (max / 2).to_string(), max.to_string());
    draw_number(&mut band, width, 0, &lo, scale);
    let hi_x = width.saturating_sub(text_width(&hi) - scale);
    if hi_x > text_width(&lo) {
        draw_number(&mut band, width, hi_x, &hi, scale);
    }
    let mid_x = (width / 2).saturating_sub(text_width(&mid) / 2);
    if max >= 2 && mid_x > text_width(&lo) && mid_x + text_width(&mid) < hi_x {
        draw_number(&mut band, width, mid_x, &mid, scale);
    }
    rgb.extend_from_slice(&band);
    rgb
}

/// Write a PNG heatmap (image height grows by the legend, [`legend_rows`]).
pub fn write_png(
    path: &std::path::Path,
    steps: &[u32],
    width: u32,
    height: u32,
    max_steps: u64,
) -> std::io::Result<()> {
    let rgb = render(steps, width, height, max_steps);
    let mut buf = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut buf, width, height + legend_rows(width, height));
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(std::io::Error::other)?;
        w.write_image_data(&rgb).map_err(std::io::Error::other)?;
    }
    std::fs::File::create(path)?.write_all(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_ends_and_image_size() {
        assert_eq!(ramp(0.0), [0, 0, 4]);
        assert_eq!(ramp(1.0), [252, 255, 164]);
        let px = render(&[0, 5, 10, 20], 2, 2, 10);
        // 2x2 image, a 4-row strip (2/16 rounds to 0, at least 4) and a
        // 7-row number band (scale 1): 2 x (2 + 4 + 7) pixels.
        assert_eq!(legend_rows(2, 2), 4 + 7);
        assert_eq!(px.len(), 2 * 13 * 3);
        assert_eq!(&px[9..12], &ramp(1.0)); // 20 clamps to the top
    }

    #[test]
    fn the_scale_bar_has_numbers() {
        // 64 x 32 image: strip of 4 rows (32/16 = 2, at least 4), band of 7
        // rows at scale 1. "0" is drawn at column 0: its top row (font row
        // 0, bits 111) lands on band row 1, columns 0..3, in white; the
        // maximum, "30", ends at the right edge: 2 digits of 3 columns with
        // 1 between = 7 columns from 57, the "0" at columns 61..63.
        let (w, h) = (64u32, 32u32);
        let px = render(&vec![0; (w * h) as usize], w, h, 30);
        let band_top = h + 4;
        let at = |x: u32, y: u32| {
            let i = ((y * w + x) * 3) as usize;
            [px[i], px[i + 1], px[i + 2]]
        };
        let white = [255, 255, 255];
        assert_eq!(at(0, band_top + 1), white);
        assert_eq!(at(2, band_top + 1), white);
        assert_eq!(at(3, band_top + 1), [0, 0, 0]);
        assert_eq!(at(60, band_top + 1), [0, 0, 0]);
        assert_eq!(at(61, band_top + 1), white);
        assert_eq!(at(63, band_top + 1), white);
        // Middle "15" starts at 32 - 4 = 28: "1" is 010 on its top row.
        assert_eq!(at(28, band_top + 1), [0, 0, 0]);
        assert_eq!(at(29, band_top + 1), white);
        // The band's first row is empty space.
        assert!((0..w).all(|x| at(x, band_top) == [0, 0, 0]));
    }
}
