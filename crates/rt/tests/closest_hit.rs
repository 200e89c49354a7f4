//! Every layout and option must find exactly the brute-force closest hit.

use shadersim_rt::encode::{encode_scene, BvhKind};
use shadersim_rt::mesh::procedural;
use shadersim_rt::ray::{Hit, Ray};
use shadersim_rt::rays::{random_rays, Camera};
use shadersim_rt::reference::closest_hit;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::{trace, TraversalOptions};

mod common;

fn options() -> Vec<TraversalOptions> {
    let mut v = Vec::new();
    for stack_entries in [16, 4] {
        for wide_sort in [true, false] {
            v.push(TraversalOptions {
                stack_entries,
                wide_sort,
                ..Default::default()
            });
        }
    }
    v.push(TraversalOptions {
        stack_entries: 8,
        sort_triangles_first: true,
        ..Default::default()
    });
    v
}

fn rays_for(scene: &Scene, n: u32) -> Vec<Ray> {
    let b = scene.bounds();
    let mut rays = Camera::looking_at(&b).primary_rays(12, 12);
    rays.extend(random_rays(&b, n, 42));
    rays
}

fn check(scene: &Scene, rays: &[Ray], all_options: bool, deep: bool) {
    let want: Vec<Option<Hit>> = rays.iter().map(|r| closest_hit(scene, r)).collect();
    assert!(
        want.iter().filter(|h| h.is_some()).count() >= 10,
        "the rays hit something"
    );
    for cfg in common::layouts() {
        let e = encode_scene(scene, cfg).unwrap();
        let opts = if all_options {
            options()
        } else {
            vec![TraversalOptions::default(), options()[3]]
        };
        for o in opts {
            let mut walk_backs = 0;
            for (i, r) in rays.iter().enumerate() {
                let got = trace(&e, r, &o);
                walk_backs += got.counters.walk_backs;
                assert_eq!(got.hit, want[i], "{cfg} {o:?} ray {i} {r:?}");
            }
            // A 4-entry ring overflows on any tree; BVH8/BVH4x2 use at least 8
            // entries, which the bunny's deeper tree overflows (and the bunny
            // runs the 4-entry option on every layout).
            let small = o.stack_entries <= 4 && (cfg.bvh == BvhKind::Bvh4 || deep);
            if small {
                assert!(
                    walk_backs > 0,
                    "{cfg}: the smallest stack must overflow and walk back"
                );
            }
        }
    }
}

#[test]
fn procedural_sphere_every_layout_and_option() {
    let s = Scene::single("sphere", procedural::bumpy_sphere(14, 28));
    check(&s, &rays_for(&s, 200), true, false);
}

#[test]
fn thin_rotated_parts_every_layout_and_option() {
    let s = Scene::single("rods", procedural::thin_rotated_parts(8, 16, 3));
    check(&s, &rays_for(&s, 200), true, false);
}

#[test]
fn instanced_scene_every_layout() {
    let s = common::instanced_scene();
    check(&s, &rays_for(&s, 200), true, false);
}

#[test]
fn stanford_bunny_every_layout() {
    let Some(bunny) = shadersim_testkit::tools::glmark2_bunny() else {
        return;
    };
    let path = bunny.as_path();
    let mesh = shadersim_rt::mesh::load_mesh(path).unwrap();
    assert_eq!(mesh.triangles.len(), 69_666);
    let s = Scene::single("bunny", mesh);
    let b = s.bounds();
    let mut rays = Camera::looking_at(&b).primary_rays(10, 10);
    rays.extend(random_rays(&b, 60, 7));
    check(&s, &rays, false, false);
}

#[test]
fn shipped_example_scene_with_walk_backs_in_every_layout() {
    // Incoherent rays through this TLAS overflow even the 8-entry stacks of
    // BVH8 and BVH4x2, so every layout's walk-back is checked here.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rt/scene.toml");
    let s = shadersim_rt::scene::load_scene(&path).unwrap();
    let b = s.bounds();
    let mut rays = Camera::looking_at(&b).primary_rays(8, 8);
    rays.extend(random_rays(&b, 400, 0x5EED));
    check(&s, &rays, false, true);
}

#[test]
fn narrow_sort_walk_back_keeps_the_siblings_after_a_child_no_longer_hit() {
    // BVH8 without the wide sort orders a node's boxes half by half, not by distance. A
    // walk-back that retested the node against the committed hit's distance lost the
    // children after `last` when `last` itself was no longer hit (the shipped scene's 64 x 64
    // primary rays with an 8-entry stack: 4 rays missed their closest hit). The hardware
    // retests against the ray's own extent on a walk-back, which keeps them.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rt/scene.toml");
    let s = shadersim_rt::scene::load_scene(&path).unwrap();
    let rays = Camera::looking_at(&s.bounds()).primary_rays(64, 64);
    let opts = TraversalOptions {
        stack_entries: 8,
        wide_sort: false,
        ..Default::default()
    };
    for cfg in common::layouts()
        .into_iter()
        .filter(|c| c.bvh == BvhKind::Bvh8)
    {
        let e = encode_scene(&s, cfg).unwrap();
        let mut walk_backs = 0;
        for (i, r) in rays.iter().enumerate() {
            let got = trace(&e, r, &opts);
            walk_backs += got.counters.walk_backs;
            assert_eq!(got.hit, closest_hit(&s, r), "{cfg} ray {i}");
        }
        assert!(walk_backs > 0, "{cfg}: the 8-entry stack walks back");
    }
}
