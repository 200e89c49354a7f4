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

/// RGB pixels of a heatmap: `steps` row-major, scaled so that `max_steps`
/// is the brightest colour. A strip of the ramp along the bottom 6% of the
/// image serves as the legend (0 at the left, `max_steps` at the right).
pub fn render(steps: &[u32], width: u32, height: u32, max_steps: u64) -> Vec<u8> {
    let legend = (height / 16).max(1);
    let mut rgb = Vec::with_capacity((width * (height + legend)) as usize * 3);
    let scale = 1.0 / max_steps.max(1) as f32;
    for &s in steps.iter().take((width * height) as usize) {
        rgb.extend_from_slice(&ramp(s as f32 * scale));
    }
    for _ in 0..legend {
        for x in 0..width {
            rgb.extend_from_slice(&ramp(x as f32 / (width.max(2) - 1) as f32));
        }
    }
    rgb
}

/// Write a PNG heatmap (image height grows by the legend strip).
pub fn write_png(
    path: &std::path::Path,
    steps: &[u32],
    width: u32,
    height: u32,
    max_steps: u64,
) -> std::io::Result<()> {
    let rgb = render(steps, width, height, max_steps);
    let legend = (height / 16).max(1);
    let mut buf = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut buf, width, height + legend);
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
        assert_eq!(px.len(), 2 * 3 * 3);
        assert_eq!(&px[9..12], &ramp(1.0)); // 20 clamps to the top
    }
}
