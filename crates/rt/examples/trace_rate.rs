//! Rays per second of each layout on the bunny (or a procedural sphere),
//! single-threaded and on all cores, the best of several runs. The
//! single-core figure divides by the time the thread was on a CPU (the
//! thread's CPU-time clock, to the nanosecond), so other work on a shared
//! machine inflates it less than wall time would; the all-cores figure is
//! wall time. (`/proc/thread-self/schedstat`, used before, counts in
//! scheduler ticks on some kernels: 4 ms steps that moved a 40 ms run's
//! rate by 10%.)
//!
//! `cargo run --release -p shadersim-rt --example trace_rate [SIZE] [RUNS] [LABEL]`
//! (LABEL: only the layouts whose label contains it)

use rayon::prelude::*;
use shadersim_rt::encode::{encode_scene, Arch, BvhKind, LayoutConfig};
use shadersim_rt::mesh::{load_mesh, procedural};
use shadersim_rt::rays::Camera;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::{trace, TraversalOptions};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let size: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(256);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let only = args.next().unwrap_or_default();
    let path = std::path::Path::new("/usr/share/glmark2/models/bunny.obj");
    let s = match load_mesh(path) {
        Ok(m) => Scene::single("bunny", m),
        Err(_) => Scene::single("sphere", procedural::bumpy_sphere(128, 256)),
    };
    let rays = Camera::looking_at(&s.bounds()).primary_rays(size, size);
    let opts = TraversalOptions::default();
    println!(
        "{} primary {size}x{size}, best of {runs}, {} threads",
        s.names[0],
        rayon::current_num_threads()
    );
    for cfg in [
        LayoutConfig::new(Arch::parse("rdna3").unwrap(), BvhKind::Bvh4),
        LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh4x2),
        LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8),
        LayoutConfig {
            obb: true,
            ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8)
        },
    ]
    .into_iter()
    .filter(|c| c.label().contains(&only))
    {
        let e = encode_scene(&s, cfg).expect("valid layout");
        let best = |parallel: bool| {
            (0..runs)
                .map(|_| {
                    let t0 = Instant::now();
                    let cpu0 = on_cpu_seconds();
                    let hits = if parallel {
                        rays.par_iter()
                            .filter(|r| trace(&e, r, &opts).hit.is_some())
                            .count()
                    } else {
                        rays.iter()
                            .filter(|r| trace(&e, r, &opts).hit.is_some())
                            .count()
                    };
                    std::hint::black_box(hits);
                    if parallel {
                        t0.elapsed().as_secs_f64()
                    } else {
                        on_cpu_seconds() - cpu0
                    }
                })
                .fold(f64::INFINITY, f64::min)
        };
        let (one, all) = (best(false), best(true));
        println!(
            "{:<18} {:>7.2} M rays/s single-core {:>7.2} M rays/s all cores",
            cfg.label(),
            rays.len() as f64 / one / 1e6,
            rays.len() as f64 / all / 1e6
        );
    }
}

/// Seconds this thread has spent on a CPU.
fn on_cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}
