//! The rendered frame against an independent reference rasterization.
//!
//! The reference below shares no code with the model: it loops over every
//! pixel of the screen and every triangle in submission order in floating
//! point, with the same stated rules (pixel centres at +0.5, an edge owns the
//! pixels exactly on it when it runs upwards or, horizontal, rightwards once
//! the triangle is wound with positive area; colours weighted by barycentric
//! coordinates and rounded; the default shader's RGB565 truncation).

use shadersim_nami::params::{NamiParams, PixelInterleave};
use shadersim_nami::scene::{Scene, Triangle};
use shadersim_nami::shader::Program;
use shadersim_nami::sim::simulate;

fn reference(scene: &Scene, width: usize, height: usize) -> Vec<[u8; 3]> {
    let mut frame = vec![scene.clear; width * height];
    for t in &scene.triangles {
        draw(t, &mut frame, width, height);
    }
    frame
}

fn draw(t: &Triangle, frame: &mut [[u8; 3]], width: usize, height: usize) {
    let mut p: Vec<(f64, f64, [u8; 3])> =
        t.v.iter()
            .map(|v| (v.x as f64 / 16.0, v.y as f64 / 16.0, v.colour))
            .collect();
    let cross = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    let mut area = cross((p[0].0, p[0].1), (p[1].0, p[1].1), (p[2].0, p[2].1));
    if area == 0.0 {
        return;
    }
    if area < 0.0 {
        p.swap(1, 2);
        area = -area;
    }
    for y in 0..height {
        for x in 0..width {
            let c = (x as f64 + 0.5, y as f64 + 0.5);
            let mut w = [0.0; 3];
            let mut inside = true;
            for i in 0..3 {
                let a = (p[(i + 1) % 3].0, p[(i + 1) % 3].1);
                let b = (p[(i + 2) % 3].0, p[(i + 2) % 3].1);
                w[i] = cross(a, b, c);
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let owns_edge = dy < 0.0 || (dy == 0.0 && dx > 0.0);
                if w[i] < 0.0 || (w[i] == 0.0 && !owns_edge) {
                    inside = false;
                }
            }
            if !inside {
                continue;
            }
            let mut rgb = [0u8; 3];
            for (ch, out) in rgb.iter_mut().enumerate() {
                let v: f64 = (0..3).map(|i| w[i] * p[i].2[ch] as f64).sum::<f64>() / area;
                *out = v.round().clamp(0.0, 255.0) as u8;
            }
            frame[y * width + x] = rgb;
        }
    }
}

/// What the default shader does to a colour: RGB565 truncation, then the
/// PNG's expansion back to 8 bits.
fn through_rgb565(c: [u8; 3]) -> [u8; 3] {
    let (r, g, b) = (c[0] >> 3, c[1] >> 2, c[2] >> 3);
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let decoder = png::Decoder::new(bytes);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgb);
    (info.width as usize, info.height as usize, buf)
}

fn compare(scene: &Scene, params: &NamiParams) {
    let result = simulate(params, scene, &Program::default_shader()).unwrap();
    let png = result.framebuffer.to_png().unwrap();
    let (w, h, rgb) = decode_png(&png);
    assert_eq!((w, h), (640, 480));
    let expected = reference(scene, w, h);
    let mut colour_off_by_one = 0;
    for (i, want) in expected.iter().enumerate() {
        let want = through_rgb565(*want);
        let got = [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]];
        if got != want {
            // Rounding at an exact half may differ between the model's
            // integers and the reference's floats by one 8-bit step, which
            // can move the RGB565 value by one step.
            let close = (0..3).all(|c| (got[c] as i32 - want[c] as i32).abs() <= 8);
            assert!(
                close,
                "pixel ({}, {}): model {got:?}, reference {want:?}",
                i % w,
                i / w
            );
            colour_off_by_one += 1;
        }
    }
    assert!(
        colour_off_by_one < expected.len() / 1000,
        "{colour_off_by_one} pixels differ slightly"
    );
}

#[test]
fn fullscreen_frame_matches_the_reference() {
    let params = NamiParams::seed().unwrap();
    compare(
        &Scene::builtin("builtin:fullscreen", &params).unwrap(),
        &params,
    );
}

#[test]
fn example_scene_matches_the_reference_under_both_interleaves() {
    let text = include_str!("../../../examples/nami/pinwheel.tri");
    let scene = Scene::parse("pinwheel", text).unwrap();
    let mut params = NamiParams::seed().unwrap();
    compare(&scene, &params);
    params.pixel_interleave = PixelInterleave::Quad;
    params.horizontal_culling = true;
    compare(&scene, &params);
}

/// How many of the scene's triangles cover each pixel, by the reference's
/// rules: a triangle covers a pixel when drawing it alone changes the pixel
/// on at least one of two frames cleared to different colours (its colour
/// cannot equal both).
fn coverage(scene: &Scene, width: usize, height: usize) -> Vec<u32> {
    let mut count = vec![0; width * height];
    for t in &scene.triangles {
        let (c1, c2) = ([1, 2, 3], [4, 5, 6]);
        let mut f1 = vec![c1; width * height];
        let mut f2 = vec![c2; width * height];
        draw(t, &mut f1, width, height);
        draw(t, &mut f2, width, height);
        for (i, n) in count.iter_mut().enumerate() {
            *n += u32::from(f1[i] != c1 || f2[i] != c2);
        }
    }
    count
}

#[test]
fn example_png_in_the_repository_is_the_blend_shader_render() {
    // A regression snapshot: examples/nami/pinwheel.png was written by the
    // program itself (`shadersim nami examples/nami/pinwheel.tri --shader
    // examples/nami/blend.s --image ...`), so equality says only that the
    // picture did not change. The derived checks beside it say what the
    // picture must be, from the reference rasterization and the shader's
    // rule (50% of the interpolated colour over the cache's, then RGB565).
    let text = include_str!("../../../examples/nami/pinwheel.tri");
    let scene = Scene::parse("examples/nami/pinwheel.tri", text).unwrap();
    let shader = Program::parse(include_str!("../../../examples/nami/blend.s")).unwrap();
    let params = NamiParams::seed().unwrap();
    let result = simulate(&params, &scene, &shader).unwrap();
    let got = result.framebuffer.to_rgb8();
    let (_, _, stored) = decode_png(include_bytes!("../../../examples/nami/pinwheel.png"));
    assert_eq!(got, stored, "regression snapshot");
    // Derived: a pixel no triangle covers keeps the clear colour (the
    // shader never runs there); a pixel one triangle covers is the mean of
    // its interpolated colour and the clear colour, through RGB565. The
    // model's integer interpolation and the shader's truncating average may
    // differ from the reference's rounded floats by one 8-bit step each,
    // which moves the RGB565 value by at most one step: 8 or 9 once a
    // 5-bit red or blue is expanded to 8 bits, 4 or 5 for the 6-bit green.
    let (w, h) = (640, 480);
    let cover = coverage(&scene, w, h);
    let colour = reference(&scene, w, h);
    let (mut uncovered, mut once) = (0, 0);
    for (i, n) in cover.iter().enumerate() {
        let px = [got[3 * i], got[3 * i + 1], got[3 * i + 2]];
        let want = match n {
            0 => through_rgb565(scene.clear),
            1 => {
                let c = colour[i];
                let mean = |ch: usize| ((u16::from(c[ch]) + u16::from(scene.clear[ch])) / 2) as u8;
                through_rgb565([mean(0), mean(1), mean(2)])
            }
            _ => continue,
        };
        let step = [9, 5, 9];
        let close = (0..3).all(|c| (px[c] as i32 - want[c] as i32).abs() <= step[c]);
        assert!(
            close,
            "pixel ({}, {}) covered {n}: {px:?} vs {want:?}",
            i % w,
            i / w
        );
        if *n == 0 {
            assert_eq!(px, want, "pixel ({}, {}) is the clear colour", i % w, i / w);
            uncovered += 1;
        } else {
            once += 1;
        }
    }
    // Both kinds of pixel occur, so both rules were exercised.
    assert!(
        uncovered > 0 && once > 0,
        "{uncovered} uncovered, {once} once"
    );
}
