//! Encode/decode round trips over whole structures, and the effects seed 000
//! reports: BVH8 takes fewer steps and more box tests than BVH4; oriented
//! bounding boxes cut box tests on long thin rotated parts.

use shadersim_rt::encode::{
    decode_blas, encode_built, encode_scene, Arch, BvhKind, LayoutConfig, MeshBuilds,
};
use shadersim_rt::math::Vec3;
use shadersim_rt::mesh::procedural;
use shadersim_rt::rays::{random_rays, Camera};
use shadersim_rt::report::run_layout;
use shadersim_rt::scene::Scene;
use shadersim_rt::traverse::TraversalOptions;

mod common;

#[test]
fn every_layout_decodes_back_to_the_mesh_and_boxes_contain_their_contents() {
    for mesh in [
        procedural::bumpy_sphere(10, 20),
        procedural::thin_rotated_parts(6, 16, 9),
    ] {
        let scene = Scene::single("m", mesh.clone());
        for cfg in common::layouts() {
            let e = encode_scene(&scene, cfg).unwrap();
            let (tris, violations) = decode_blas(&e, &e.blases[0], &mesh);
            assert_eq!(
                violations, 0,
                "{cfg}: a decoded box does not contain its child"
            );
            let mut got: Vec<u32> = tris.iter().map(|t| t.0).collect();
            got.sort();
            let want: Vec<u32> = (0..mesh.triangles.len() as u32).collect();
            assert_eq!(got, want, "{cfg}: every triangle exactly once");
            for (p, v) in tris {
                // Stored corners are the mesh's corners, up to a rotation of the
                // triangle (pair nodes rotate to share an edge), bit for bit.
                let orig = mesh.triangle(p as usize);
                let rotated = (0..3).any(|r| (0..3).all(|k| v[k] == orig[(k + r) % 3]));
                assert!(rotated, "{cfg}: triangle {p} corners differ");
            }
        }
    }
}

#[test]
fn layouts_sharing_one_build_encode_as_each_built_alone() {
    // The tree of a mesh depends only on the layout's width, so a run builds
    // it once for every layout of that width, and a run with BVH8 both
    // without and with OBBs encodes it once and rotates a copy's box nodes;
    // each layout's memory, counts, costs and box table must be those
    // of a build and an encoding of its own.
    // Two meshes, each placed twice: a TLAS over BLASes; and one mesh alone.
    let mut scene = Scene::single("parts", procedural::thin_rotated_parts(6, 16, 9));
    scene.names.push("sphere".into());
    scene.meshes.push(procedural::bumpy_sphere(10, 20));
    for (mesh, x) in [(0, 0.0), (1, 5.0), (0, 10.0), (1, -5.0)] {
        let place = shadersim_rt::math::Affine3x4::from_rotation_scale_translation(
            Vec3::new(0.0, 0.0, 1.0),
            30.0,
            1.0,
            Vec3::new(x, 0.0, 0.0),
        );
        scene.add_instance(mesh, place).unwrap();
    }
    let single = Scene::single("sphere", procedural::bumpy_sphere(12, 24));
    let configs = common::layouts();
    assert!(
        configs.iter().any(|c| c.bvh == BvhKind::Bvh8 && c.obb)
            && configs.iter().any(|c| c.bvh == BvhKind::Bvh8 && !c.obb),
        "BVH8 both ways, so one encoding is shared"
    );
    let reversed: Vec<LayoutConfig> = configs.iter().rev().copied().collect();
    // In reverse too: the layout with OBBs may be the one that encodes first.
    for (scene, order) in [&scene, &single]
        .into_iter()
        .flat_map(|s| [(s, &configs), (s, &reversed)])
    {
        let builds = MeshBuilds::for_layouts(scene, &configs);
        for &cfg in order {
            let shared = encode_built(&builds, cfg).unwrap();
            let alone = encode_scene(scene, cfg).unwrap();
            assert_eq!(shared.config, cfg);
            assert!(shared.memory == alone.memory, "{cfg}: memory differs");
            assert_eq!(shared.counts, alone.counts, "{cfg}");
            assert_eq!(shared.depth, alone.depth, "{cfg}");
            assert_eq!(shared.sah_cost.to_bits(), alone.sah_cost.to_bits(), "{cfg}");
            assert_eq!(
                shared.bvh2_sah_cost.to_bits(),
                alone.bvh2_sah_cost.to_bits(),
                "{cfg}"
            );
            assert_eq!(
                (
                    shared.top,
                    &shared.blases,
                    shared.two_level,
                    shared.triangles
                ),
                (alone.top, &alone.blases, alone.two_level, alone.triangles),
                "{cfg}"
            );
            // The decoded tables are derived from the memory (the shared
            // primitive table from equal bytes at equal addresses) and not
            // compared: `==` on them fails even for the 4-wide layouts, which
            // share nothing (float entries that are NaN, presumably).
            assert!(shared.box8_table == alone.box8_table, "{cfg}: box table");
        }
    }
    // A single mesh with OBBs gets some rotated nodes (the shared path is
    // not trivially the plain one).
    let obb = LayoutConfig {
        obb: true,
        ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8)
    };
    let builds = MeshBuilds::for_layouts(&single, &configs);
    assert!(encode_built(&builds, obb).unwrap().counts.with_obb > 0);
}

#[test]
fn node_byte_sizes_are_the_hardware_sizes() {
    let scene = Scene::single("s", procedural::bumpy_sphere(16, 32));
    let b4 = encode_scene(
        &scene,
        LayoutConfig::new(Arch::parse("rdna3").unwrap(), BvhKind::Bvh4),
    )
    .unwrap();
    let b8 = encode_scene(
        &scene,
        LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8),
    )
    .unwrap();
    let c = b4.counts;
    let parent_table = (c.box_fp32 * 128 + c.triangle_pair * 64) / 64 * 4;
    // header + nodes + parent table, rounded up to 128 bytes
    let expect4 =
        (128 + c.box_fp32 * 128 + c.triangle_pair * 64 + parent_table).div_ceil(128) * 128;
    assert_eq!(b4.bytes(), expect4);
    let c = b8.counts;
    assert_eq!(b8.bytes(), 128 + (c.box_quantized + c.primitive) * 128);
    // Compression: more than one pair per 128-byte primitive node on a smooth mesh.
    let tris = scene.meshes[0].triangles.len() as f64;
    assert!(
        tris / c.primitive as f64 > 3.0,
        "{} triangles per primitive node",
        tris / c.primitive as f64
    );
}

#[test]
fn bvh8_takes_fewer_steps_and_more_box_tests_than_bvh4_on_the_bunny() {
    let Some(bunny) = shadersim_testkit::tools::glmark2_bunny() else {
        return;
    };
    let path = bunny.as_path();
    let scene = Scene::single("bunny", shadersim_rt::mesh::load_mesh(path).unwrap());
    let b = scene.bounds();
    let opts = TraversalOptions::default();
    for rays in [
        Camera::looking_at(&b).primary_rays(48, 48),
        random_rays(&b, 1500, 3),
    ] {
        let (r4, hits4) = run_layout(
            &scene,
            LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh4),
            &rays,
            &opts,
        )
        .unwrap();
        let (r8, hits8) = run_layout(
            &scene,
            LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8),
            &rays,
            &opts,
        )
        .unwrap();
        let steps = (r4.per_ray(|c| c.steps), r8.per_ray(|c| c.steps));
        let boxes = (r4.per_ray(|c| c.box_tests), r8.per_ray(|c| c.box_tests));
        assert!(
            steps.1 < steps.0,
            "BVH8 steps {} vs BVH4 {}",
            steps.1,
            steps.0
        );
        assert!(
            boxes.1 > boxes.0,
            "BVH8 box tests {} vs BVH4 {}",
            boxes.1,
            boxes.0
        );
        assert!(r8.bvh_bytes < r4.bvh_bytes);
        assert_eq!(hits4, hits8);
    }
}

#[test]
fn oriented_boxes_cut_box_tests_on_thin_rotated_parts() {
    let scene = Scene::single("rods", procedural::thin_rotated_parts(27, 16, 7));
    let rays = random_rays(&scene.bounds(), 3000, 11);
    let opts = TraversalOptions::default();
    for bvh in [BvhKind::Bvh8, BvhKind::Bvh4] {
        let (plain, plain_hits) = run_layout(
            &scene,
            LayoutConfig::new(Arch::parse("rdna4").unwrap(), bvh),
            &rays,
            &opts,
        )
        .unwrap();
        let (obb, obb_hits) = run_layout(
            &scene,
            LayoutConfig {
                obb: true,
                ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), bvh)
            },
            &rays,
            &opts,
        )
        .unwrap();
        assert!(obb.nodes.with_obb > obb.nodes.box_quantized.max(obb.nodes.box_fp32) / 2);
        let (a, b) = (plain.per_ray(|c| c.box_tests), obb.per_ray(|c| c.box_tests));
        assert!(b < 0.9 * a, "{bvh:?}: OBB box tests {b} vs {a}");
        assert_eq!(plain_hits, obb_hits);
    }
    // An axis-aligned sphere gains nothing from a rotation.
    let sphere = Scene::single("s", procedural::bumpy_sphere(12, 24));
    let e = encode_scene(
        &sphere,
        LayoutConfig {
            obb: true,
            ..LayoutConfig::new(Arch::parse("rdna4").unwrap(), BvhKind::Bvh8)
        },
    )
    .unwrap();
    assert!(e.counts.with_obb < e.counts.box_quantized);
}
