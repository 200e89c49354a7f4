//! Ray sets: primary rays from a camera, random (incoherent) rays, diffuse
//! bounce rays, and rays read from a text file.

use crate::math::{Aabb, Vec3};
use crate::mesh::MeshError;
use crate::ray::{Hit, Ray};
use crate::rng::SplitMix64;
use crate::scene::Scene;
use std::ops::Range;
use std::path::PathBuf;

/// Which rays to trace.
#[derive(Debug, Clone, PartialEq)]
pub enum RaySpec {
    /// `primary:WxH`: one ray per pixel from the default camera.
    Primary {
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// `random:N`: origins in the scene box, directions uniform on the sphere.
    Random(u32),
    /// `diffuse:N`: cosine-distributed bounce rays leaving primary hit points.
    Diffuse(u32),
    /// `file:RAYS.txt`: six numbers per line (origin, direction).
    File(PathBuf),
}

/// Most rays a spec may ask for (keeps a typo from eating all memory).
pub const MAX_RAYS: u64 = 1 << 26;

impl RaySpec {
    /// Parse `primary:WxH`, `random:N`, `diffuse:N` or `file:PATH`.
    pub fn parse(s: &str) -> Result<RaySpec, String> {
        let (kind, arg) = s.split_once(':').ok_or_else(|| {
            format!("`{s}`: expected primary:WxH, random:N, diffuse:N or file:PATH")
        })?;
        let count = |a: &str| -> Result<u32, String> {
            let n = a
                .parse::<u32>()
                .map_err(|_| format!("`{a}` is not a ray count"))?;
            if n == 0 || n as u64 > MAX_RAYS {
                return Err(format!("ray count must be 1..={MAX_RAYS}"));
            }
            Ok(n)
        };
        match kind {
            "primary" => {
                let (w, h) = arg
                    .split_once('x')
                    .ok_or_else(|| format!("`{arg}`: expected WIDTHxHEIGHT"))?;
                let (w, h) = (count(w)?, count(h)?);
                if w as u64 * h as u64 > MAX_RAYS {
                    return Err(format!("{w}x{h} is more than {MAX_RAYS} rays"));
                }
                Ok(RaySpec::Primary {
                    width: w,
                    height: h,
                })
            }
            "random" => Ok(RaySpec::Random(count(arg)?)),
            "diffuse" => Ok(RaySpec::Diffuse(count(arg)?)),
            "file" if !arg.is_empty() => Ok(RaySpec::File(PathBuf::from(arg))),
            _ => Err(format!(
                "`{s}`: expected primary:WxH, random:N, diffuse:N or file:PATH"
            )),
        }
    }
}

/// A pinhole camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Eye position.
    pub eye: Vec3,
    /// Unit view direction.
    pub forward: Vec3,
    /// Unit right vector.
    pub right: Vec3,
    /// Unit up vector.
    pub up: Vec3,
    /// tan(vertical field of view / 2).
    pub tan_half_fov: f32,
}

impl Camera {
    /// The default view of a scene: from the front (+z), a little above and
    /// to the right, 40 degree field of view, framing the bounding sphere.
    pub fn looking_at(bounds: &Aabb) -> Camera {
        let center = bounds.center();
        let radius = (bounds.extent().length() * 0.5).max(1e-6);
        let tan_half_fov = (20.0f32).to_radians().tan();
        let dir = Vec3::new(0.35, 0.25, 1.0).normalized();
        // Close enough that a compact mesh fills most of the frame (the
        // bounding sphere is a loose fit for most meshes).
        let dist = radius / (20.0f32).to_radians().sin() * 0.8;
        let eye = center + dir * dist;
        let forward = (center - eye).normalized();
        let right = forward.cross(Vec3::new(0.0, 1.0, 0.0)).normalized();
        let up = right.cross(forward);
        Camera {
            eye,
            forward,
            right,
            up,
            tan_half_fov,
        }
    }

    /// Primary rays, row-major, top row first, through pixel centres.
    pub fn primary_rays(&self, width: u32, height: u32) -> Vec<Ray> {
        let n = width as u64 * height as u64;
        self.primary_ray_range(width, height, 0..n)
    }

    /// The primary rays with row-major pixel indices in `range` (pixel
    /// `i` is column `i % width` of row `i / width`): the same rays
    /// [`Camera::primary_rays`] gives at those positions, so an image can be
    /// generated a chunk at a time.
    pub fn primary_ray_range(&self, width: u32, height: u32, range: Range<u64>) -> Vec<Ray> {
        let aspect = width as f32 / height as f32;
        let mut out = Vec::with_capacity((range.end - range.start) as usize);
        for i in range {
            let (x, y) = ((i % width as u64) as u32, (i / width as u64) as u32);
            let u = ((x as f32 + 0.5) / width as f32 * 2.0 - 1.0) * self.tan_half_fov * aspect;
            let v = (1.0 - (y as f32 + 0.5) / height as f32 * 2.0) * self.tan_half_fov;
            let d = (self.forward + self.right * u + self.up * v).normalized();
            out.push(Ray::new(self.eye, d));
        }
        out
    }
}

fn unit_sphere(rng: &mut SplitMix64) -> Vec3 {
    let z = rng.next_f32() * 2.0 - 1.0;
    let phi = rng.next_f32() * std::f32::consts::TAU;
    let r = (1.0 - z * z).max(0.0).sqrt();
    Vec3::new(r * phi.cos(), r * phi.sin(), z)
}

/// `n` incoherent rays: origins uniform in the scene box, directions
/// uniform on the sphere.
pub fn random_rays(bounds: &Aabb, n: u32, seed: u64) -> Vec<Ray> {
    RandomRays::new(bounds, seed).take(n as usize).collect()
}

/// The endless sequence [`random_rays`] takes its rays from, so a large set
/// can be generated a chunk at a time (`take` the next chunk).
#[derive(Debug, Clone)]
pub struct RandomRays {
    rng: SplitMix64,
    bounds: Aabb,
}

impl RandomRays {
    /// The sequence for `bounds` from `seed`.
    pub fn new(bounds: &Aabb, seed: u64) -> RandomRays {
        RandomRays {
            rng: SplitMix64::new(seed),
            bounds: *bounds,
        }
    }
}

impl Iterator for RandomRays {
    type Item = Ray;

    fn next(&mut self) -> Option<Ray> {
        let (b, rng) = (&self.bounds, &mut self.rng);
        let e = b.extent();
        let o = Vec3::new(
            b.min.x() + rng.next_f32() * e.x(),
            b.min.y() + rng.next_f32() * e.y(),
            b.min.z() + rng.next_f32() * e.z(),
        );
        Some(Ray::new(o, unit_sphere(rng)))
    }
}

/// World-space corners of the triangle a hit names.
pub fn hit_triangle(scene: &Scene, hit: &Hit) -> [Vec3; 3] {
    if scene.is_two_level() {
        let inst = &scene.instances[hit.instance as usize];
        scene.meshes[inst.mesh]
            .triangle(hit.triangle as usize)
            .map(|v| inst.object_to_world.transform_point(v))
    } else {
        scene.meshes[0].triangle(hit.triangle as usize)
    }
}

/// `n` diffuse bounce rays: camera rays through random pixels are traced
/// with `tracer`; from each hit a cosine-distributed ray leaves the surface
/// on the side the camera ray came from, its origin lifted off the surface
/// by 1e-4 of the scene size. Fails if the camera sees nothing.
pub fn diffuse_rays(
    scene: &Scene,
    n: u32,
    seed: u64,
    tracer: &(dyn Fn(&Ray) -> Option<Hit> + Sync),
) -> Result<Vec<Ray>, String> {
    DiffuseRays::new(scene, seed, n).take(n as usize, tracer)
}

/// The sequence [`diffuse_rays`] takes its rays from, generated a chunk at
/// a time: the chunks together are exactly the rays `diffuse_rays` gives.
#[derive(Debug, Clone)]
pub struct DiffuseRays<'a> {
    scene: &'a Scene,
    cam: Camera,
    rng: SplitMix64,
    eps: f32,
    /// Rays the whole set will have (bounds the tries while nothing hits).
    total: u32,
    /// Camera rays tried so far, and bounce rays made.
    tries: u64,
    made: u64,
}

impl<'a> DiffuseRays<'a> {
    /// The sequence of `total` rays for `scene` from `seed`.
    pub fn new(scene: &'a Scene, seed: u64, total: u32) -> DiffuseRays<'a> {
        let bounds = scene.bounds();
        DiffuseRays {
            scene,
            cam: Camera::looking_at(&bounds),
            rng: SplitMix64::new(seed),
            eps: bounds.extent().length() * 1e-4,
            total,
            tries: 0,
            made: 0,
        }
    }

    /// The next `n` rays. Fails when no camera ray has hit anything after
    /// 64 tries per ray of the whole set (plus 1024): the camera sees nothing.
    pub fn take(
        &mut self,
        n: usize,
        tracer: &(dyn Fn(&Ray) -> Option<Hit> + Sync),
    ) -> Result<Vec<Ray>, String> {
        let cam = self.cam;
        let eps = self.eps;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            self.tries += 1;
            if self.made == 0 && self.tries > 64 * u64::from(self.total) + 1024 {
                return Err("diffuse rays: the default camera sees no triangle".into());
            }
            let rng = &mut self.rng;
            let (px, py) = (rng.next_f32(), rng.next_f32());
            let u = (px * 2.0 - 1.0) * cam.tan_half_fov;
            let v = (1.0 - py * 2.0) * cam.tan_half_fov;
            let d = (cam.forward + cam.right * u + cam.up * v).normalized();
            let r = Ray::new(cam.eye, d);
            let Some(h) = tracer(&r) else { continue };
            let [a, b, c] = hit_triangle(self.scene, &h);
            let mut nrm = (b - a).cross(c - a).normalized();
            if nrm.dot(d) > 0.0 {
                nrm = nrm * -1.0;
            }
            let p = r.origin + d * h.t + nrm * eps;
            // Cosine-weighted direction around the normal.
            let t = if nrm.x().abs() > 0.5 {
                Vec3::new(0.0, 1.0, 0.0)
            } else {
                Vec3::new(1.0, 0.0, 0.0)
            };
            let tx = nrm.cross(t).normalized();
            let ty = nrm.cross(tx);
            let (r1, r2) = (rng.next_f32(), rng.next_f32());
            let phi = std::f32::consts::TAU * r1;
            let s = r2.sqrt();
            let dir =
                tx * (phi.cos() * s) + ty * (phi.sin() * s) + nrm * (1.0 - r2).max(0.0).sqrt();
            out.push(Ray::new(p, dir.normalized()));
            self.made += 1;
        }
        Ok(out)
    }
}

/// Read rays from text: six numbers per line (origin xyz, direction xyz);
/// blank lines and `#` comments are skipped.
pub fn parse_ray_file(text: &str, name: &str) -> Result<Vec<Ray>, MeshError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let nums: Result<Vec<f32>, _> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse::<f32>)
            .collect();
        let nums = nums.map_err(|_| {
            MeshError::new(
                name,
                Some(i + 1),
                format!("expected six numbers, found `{line}`"),
            )
        })?;
        if nums.len() != 6 {
            return Err(MeshError::new(
                name,
                Some(i + 1),
                format!(
                    "expected six numbers (origin xyz, direction xyz), found {}",
                    nums.len()
                ),
            ));
        }
        let r = Ray::new(
            Vec3::new(nums[0], nums[1], nums[2]),
            Vec3::new(nums[3], nums[4], nums[5]),
        );
        if !r.origin.is_finite() || !r.dir.is_finite() || r.dir.length() == 0.0 {
            return Err(MeshError::new(
                name,
                Some(i + 1),
                "a ray needs a finite origin and a non-zero direction",
            ));
        }
        out.push(r);
        if out.len() as u64 > MAX_RAYS {
            return Err(MeshError::new(
                name,
                Some(i + 1),
                format!("more than {MAX_RAYS} rays"),
            ));
        }
    }
    if out.is_empty() {
        return Err(MeshError::new(name, None, "the ray file has no rays"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_reject() {
        assert_eq!(
            RaySpec::parse("primary:64x32").unwrap(),
            RaySpec::Primary {
                width: 64,
                height: 32
            }
        );
        assert_eq!(RaySpec::parse("random:10").unwrap(), RaySpec::Random(10));
        assert!(RaySpec::parse("random:0").is_err());
        assert!(RaySpec::parse("primary:64").is_err());
        assert!(RaySpec::parse("laser:3").is_err());
    }

    #[test]
    fn ray_file_errors_carry_the_line() {
        let r = parse_ray_file("# o d\n0 0 5 0 0 -1\n\n1,2,3, 0,1,0\n", "r.txt").unwrap();
        assert_eq!(r.len(), 2);
        let e = parse_ray_file("0 0 5 0 0 -1\n0 0 5 0 0\n", "r.txt").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = parse_ray_file("0 0 5 0 0 0\n", "r.txt").unwrap_err();
        assert_eq!(e.line, Some(1));
    }

    #[test]
    fn primary_rays_fill_the_image() {
        let b = Aabb {
            min: Vec3::new(-1.0, -1.0, -1.0),
            max: Vec3::new(1.0, 1.0, 1.0),
        };
        let cam = Camera::looking_at(&b);
        let rays = cam.primary_rays(8, 4);
        assert_eq!(rays.len(), 32);
        // The centre pixels look at the centre of the box.
        let c = rays[4 * 2 + 4 - 8].dir;
        assert!(c.dot(cam.forward) > 0.95);
    }
}
