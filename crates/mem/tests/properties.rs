//! Property tests of the coalescing model, the lane patterns, the mnemonic parser and the
//! image footprint's lines.

use proptest::prelude::*;
use shadersim_mem::{
    coalesce, CoalesceRule, ImageAccess, ImageFootprint, ImageOp, LaneOrder, LanePattern,
    MemAccess, MemOp, TexelFormat, TextureFilter, TileWalk, VmemRates, WaveLanes, WAVE64,
};

const MNEMONICS: &[&str] = &[
    "buffer_load_dword",
    "buffer_load_ubyte",
    "buffer_load_sshort",
    "buffer_load_dwordx2",
    "buffer_load_dwordx3",
    "buffer_load_dwordx4",
    "buffer_load_format_x",
    "buffer_load_format_xyzw",
    "buffer_store_dword",
    "buffer_store_short",
    "buffer_store_dwordx4",
    "buffer_atomic_add",
    "buffer_atomic_cmpswap_x2",
    "global_load_b32",
    "flat_store_dword",
    "scratch_load_dword",
    "image_sample",
    "image_sample_d",
    "image_gather4",
    "image_load",
    "image_store",
    "image_atomic_add",
];

fn access() -> impl Strategy<Value = MemAccess> {
    let formats: Vec<TexelFormat> = TexelFormat::all().collect();
    (
        prop::sample::select(MNEMONICS),
        prop::sample::select(formats),
        prop::sample::select(TextureFilter::ALL.to_vec()),
    )
        .prop_map(|(mnemonic, format, filter)| {
            match MemAccess::from_mnemonic(mnemonic).expect("known mnemonic") {
                MemAccess::Image(image) => MemAccess::Image(ImageAccess {
                    op: image.op,
                    format,
                    filter,
                }),
                buffer => buffer,
            }
        })
}

/// Addresses that hit the interesting cases often: small element offsets from a few bases, so
/// lanes share addresses, blocks and lines, plus some anywhere at all.
fn addresses() -> impl Strategy<Value = [u64; WAVE64]> {
    let lane = prop_oneof![
        4 => (0u64..4, 0u64..24).prop_map(|(base, element)| base * 4096 + element * 4),
        2 => 0u64..512,
        1 => any::<u64>(),
    ];
    let structured = prop::sample::select(vec![
        "uniform",
        "linear",
        "quad-uniform",
        "quad-permuted",
        "stride:2",
        "stride:8",
        "tile2d:8x8",
        "random:9:1024",
    ])
    .prop_flat_map(|p| {
        let pattern: LanePattern = p.parse().expect("valid pattern");
        (
            Just(pattern),
            0u64..1 << 40,
            prop::sample::select(vec![1u32, 2, 4, 8, 16]),
        )
    })
    .prop_map(|(pattern, base, element)| {
        pattern
            .addresses(base, element, LaneOrder::Compute)
            .expect("fits")
    });
    prop_oneof![
        prop::collection::vec(lane, WAVE64)
            .prop_map(|v| <[u64; WAVE64]>::try_from(v).expect("64 lanes")),
        structured,
    ]
}

fn exec() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => Just(u64::MAX),
        1 => Just(0u64),
        3 => any::<u64>(),
        1 => (0u32..64).prop_map(|lane| 1u64 << lane),
    ]
}

/// Lines one access of `bytes` can touch: it spans at most `bytes` consecutive bytes.
fn max_lines_per_access(bytes: u32, line: u32) -> u32 {
    (bytes - 1) / line + 2
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn l2_requests_never_exceed_active_lanes_times_lines_per_access(
        access in access(), addresses in addresses(), exec in exec()
    ) {
        let r = coalesce(&access, &addresses, exec, &VmemRates::GCN);
        let bound = r.active_lanes * max_lines_per_access(r.bytes_per_lane, r.l2_line_bytes);
        prop_assert!(r.l2_requests <= bound, "{} > {}", r.l2_requests, bound);
        prop_assert_eq!(r.active_lanes, exec.count_ones());
        prop_assert_eq!(r.l2_requests == 0, exec == 0);
        prop_assert!(r.lines.len() as u32 <= r.l2_requests);
        prop_assert!(r.lines.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(r.lines.iter().all(|line| line % 64 == 0));
        prop_assert!(r.distinct_accesses <= r.active_lanes);
        if access.mem_op() == MemOp::Atomic {
            prop_assert!(r.l2_requests >= r.active_lanes);
            prop_assert_eq!(r.distinct_accesses, r.active_lanes);
        }
        prop_assert_eq!(r.l2_bytes, u64::from(r.l2_requests) * 64);
    }

    #[test]
    fn permuting_lanes_inside_an_aligned_group_of_4_changes_nothing(
        access in access(),
        addresses in addresses(),
        exec in exec(),
        permutations in prop::collection::vec(Just([0usize, 1, 2, 3]).prop_shuffle(), 16),
    ) {
        let mut permuted_addresses = [0u64; WAVE64];
        let mut permuted_exec = 0u64;
        for (quad, permutation) in permutations.iter().enumerate() {
            for (slot, &from) in permutation.iter().enumerate() {
                let (to, from) = (quad * 4 + slot, quad * 4 + from);
                permuted_addresses[to] = addresses[from];
                permuted_exec |= ((exec >> from) & 1) << to;
            }
        }
        let original = coalesce(&access, &addresses, exec, &VmemRates::GCN);
        let permuted = coalesce(&access, &permuted_addresses, permuted_exec, &VmemRates::GCN);
        prop_assert_eq!(original, permuted);
    }

    #[test]
    fn all_zero_exec_costs_nothing(access in access(), addresses in addresses()) {
        let r = coalesce(&access, &addresses, 0, &VmemRates::GCN);
        prop_assert_eq!(r.rule, CoalesceRule::NoActiveLanes);
        prop_assert_eq!((r.l2_requests, r.l1_groups, r.clocks, r.distinct_accesses), (0, 0, 0, 0));
        prop_assert!(r.lines.is_empty());
    }

    #[test]
    fn inactive_lanes_addresses_do_not_matter(
        access in access(), addresses in addresses(), others in addresses(), exec in exec()
    ) {
        let mixed: [u64; WAVE64] = std::array::from_fn(|lane| {
            if (exec >> lane) & 1 == 1 { addresses[lane] } else { others[lane] }
        });
        prop_assert_eq!(
            coalesce(&access, &addresses, exec, &VmemRates::GCN),
            coalesce(&access, &mixed, exec, &VmemRates::GCN)
        );
    }

    #[test]
    fn clocks_scale_with_active_groups_up_to_the_table_figure(
        access in access(), addresses in addresses(), exec in exec()
    ) {
        let r = coalesce(&access, &addresses, exec, &VmemRates::GCN);
        prop_assert!(r.clocks <= r.wave_clocks);
        prop_assert!(r.group_size == 4 || r.group_size == 16);
        prop_assert!(r.l1_groups <= 64 / r.group_size);
        prop_assert!(r.l1_groups <= r.active_lanes);
        if exec == u64::MAX {
            prop_assert_eq!(r.clocks, r.wave_clocks);
            prop_assert_eq!(r.l1_groups, 64 / r.group_size);
        }
        if r.group_size == 16 && exec != 0 {
            prop_assert!(r.rule.is_16_lane_case());
            prop_assert!(access.may_group_16_lanes());
            prop_assert_eq!(r.wave_clocks, 4);
        }
    }

    #[test]
    fn loads_and_stores_of_one_width_request_the_same_lines(
        addresses in addresses(), exec in exec(), width in prop::sample::select(vec!["byte", "short", "dword", "dwordx2", "dwordx4"])
    ) {
        let load = if width == "byte" { "ubyte".to_string() } else if width == "short" { "ushort".into() } else { width.to_string() };
        let load = MemAccess::from_mnemonic(&format!("buffer_load_{load}")).unwrap();
        let store = MemAccess::from_mnemonic(&format!("buffer_store_{width}")).unwrap();
        let l = coalesce(&load, &addresses, exec, &VmemRates::GCN);
        let s = coalesce(&store, &addresses, exec, &VmemRates::GCN);
        prop_assert_eq!(l.lines, s.lines);
        prop_assert_eq!(l.l2_requests, s.l2_requests);
        prop_assert_eq!(l.distinct_accesses, s.distinct_accesses);
    }

    #[test]
    fn image_ops_always_group_by_4(
        addresses in addresses(), exec in exec(),
        op in prop::sample::select(vec![
            ImageOp::Sample { gradients: false }, ImageOp::Sample { gradients: true },
            ImageOp::Gather4, ImageOp::Load, ImageOp::Store, ImageOp::Atomic,
        ]),
    ) {
        let access = MemAccess::Image(ImageAccess::new(op));
        let r = coalesce(&access, &addresses, exec, &VmemRates::GCN);
        prop_assert_eq!(r.group_size, 4);
    }

    #[test]
    fn pattern_display_round_trips(pattern in lane_pattern()) {
        let text = pattern.to_string();
        prop_assert_eq!(text.parse::<LanePattern>(), Ok(pattern));
    }

    #[test]
    fn pattern_parser_and_address_generation_never_panic(
        text in "\\PC{0,40}", element in 0u32..64, base in any::<u64>(),
        pixel in any::<bool>()
    ) {
        if let Ok(pattern) = text.parse::<LanePattern>() {
            let order = if pixel { LaneOrder::PixelQuads } else { LaneOrder::Compute };
            let _ = pattern.addresses(base, element, order);
        }
    }

    #[test]
    fn pattern_parser_survives_near_valid_input(
        name in prop::sample::select(vec!["stride", "tile2d", "random", "list", "linear"]),
        args in "[0-9xX:,a-f ]{0,30}",
    ) {
        let text = format!("{name}:{args}");
        if let Err(e) = text.parse::<LanePattern>() {
            let column = e.column.unwrap_or(1);
            prop_assert!(column >= 1 && column <= text.chars().count() + 1, "{}", e);
        }
    }

    #[test]
    fn mnemonic_parser_never_panics(text in "\\PC{0,40}") {
        let _ = MemAccess::from_mnemonic(&text);
    }

    #[test]
    fn mnemonic_parser_survives_word_soup(
        words in prop::collection::vec(prop::sample::select(vec![
            "buffer", "global", "image", "load", "store", "atomic", "dword", "format", "x",
            "xyzw", "d16", "sample", "d", "x2", "add", "b32", "", "hi", "lds",
        ]), 0..6)
    ) {
        let text = words.join("_");
        if let Ok(access) = MemAccess::from_mnemonic(&text) {
            prop_assert!(access.bytes_per_lane() >= 1);
        }
    }
}

fn lane_pattern() -> impl Strategy<Value = LanePattern> {
    prop_oneof![
        Just(LanePattern::Uniform),
        Just(LanePattern::Linear),
        Just(LanePattern::QuadUniform),
        Just(LanePattern::QuadPermuted),
        any::<u64>().prop_map(|bytes| LanePattern::Stride { bytes }),
        (1u32..1000, 1u32..1000, prop::option::of(any::<u64>())).prop_map(
            |(width, height, pitch)| LanePattern::Tile2d {
                width,
                height,
                pitch
            }
        ),
        (any::<u64>(), 1u64..u64::MAX)
            .prop_map(|(seed, range)| LanePattern::Random { seed, range }),
        prop::collection::vec(any::<u64>(), WAVE64).prop_map(|v| {
            LanePattern::List(Box::new(<[u64; WAVE64]>::try_from(v).expect("64 lanes")))
        }),
    ]
}

/// The lines of a wave's image footprint by the plain definition: every active lane's
/// position, every texel of its filter footprint, that texel's line, sorted and deduplicated.
fn footprint_reference(f: &ImageFootprint, wave: u64, iteration: u64, total: u64) -> Vec<u64> {
    let per_group = u64::from(f.walk.waves_per_group.max(1));
    let groups = total.max(1).div_ceil(per_group);
    let group = (wave / per_group).wrapping_add(iteration.wrapping_mul(groups));
    let line = u64::from(f.line_bytes.max(1));
    let mut lines = Vec::new();
    for lane in 0..f.walk.wave_size.min(WAVE64 as u32) {
        if (f.exec >> lane) & 1 == 0 {
            continue;
        }
        let Some((x, y)) = f.walk.lane_position(group, (wave % per_group) as u32, lane) else {
            continue;
        };
        for (mip, u, v) in f.texels(x, y) {
            lines.push(f.texel_address(mip, u, v) / line * line);
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

fn tile_walk() -> impl Strategy<Value = TileWalk> {
    prop_oneof![
        prop::sample::select(vec![16u32, 32, 64]).prop_map(TileWalk::pixel),
        (
            prop::sample::select(vec![32u32, 64]),
            prop::option::of((1u32..300, 1u32..40, 1u32..4))
        )
            .prop_map(|(wave, size)| TileWalk::compute(wave, size.map(|(x, y, z)| [x, y, z]))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `ImageFootprint::lines` (the bitmap of line blocks) gives exactly the lines, in the
    /// same order, of the lane-by-lane definition, for any walk, filter, format, line size,
    /// lane mask, wave and pass.
    #[test]
    fn footprint_lines_equal_the_lane_by_lane_definition(
        walk in tile_walk(),
        filter in prop::sample::select(TextureFilter::ALL.to_vec()),
        format in prop::sample::select(TexelFormat::all().collect::<Vec<_>>()),
        line_bytes in prop_oneof![prop::sample::select(vec![32u32, 64, 128, 256]), 0u32..1000],
        exec in exec(),
        wave in prop_oneof![0u64..2000, any::<u64>()],
        iteration in 0u64..20,
        total in 1u64..5000,
    ) {
        let f = ImageFootprint { walk, filter, format, line_bytes, exec };
        prop_assert_eq!(
            f.lines(wave, iteration, total),
            footprint_reference(&f, wave, iteration, total)
        );
    }

    /// `ImageFootprint::lines_into_cached` (a wave's lanes relative to its group's origin,
    /// kept per wave of a group and moved to each group) gives the lines `lines` does, for
    /// waves in any order sharing one cache, across a change of footprint; the walks include
    /// groups whose width and height are no multiple of any line block (origins not
    /// line-aligned) and partial lane masks.
    #[test]
    fn cached_wave_lanes_give_the_direct_lines(
        walk in tile_walk(),
        other_walk in tile_walk(),
        filter in prop::sample::select(TextureFilter::ALL.to_vec()),
        format in prop::sample::select(TexelFormat::all().collect::<Vec<_>>()),
        line_bytes in prop_oneof![prop::sample::select(vec![32u32, 64, 128, 256]), 0u32..1000],
        exec in exec(),
        waves in prop::collection::vec((prop_oneof![0u64..2000, any::<u64>()], 0u64..20), 1..12),
        total in 1u64..5000,
    ) {
        let first = ImageFootprint { walk, filter, format, line_bytes, exec };
        let second = ImageFootprint { walk: other_walk, ..first };
        let mut lanes = WaveLanes::default();
        let mut lines = Vec::new();
        for (i, &(wave, iteration)) in waves.iter().enumerate() {
            let f = if i % 3 == 2 { &second } else { &first };
            f.lines_into_cached(&mut lanes, wave, iteration, total, &mut lines);
            prop_assert_eq!(&lines, &f.lines(wave, iteration, total));
        }
    }
}

/// Walks of every shape the simulation makes, and a few it does not (odd or huge
/// workgroups, which leave the bitmap for the lane-by-lane path).
fn walks() -> Vec<TileWalk> {
    let mut walks = vec![
        TileWalk::pixel(64),
        TileWalk::pixel(32),
        TileWalk::pixel(16),
    ];
    for wave_size in [32, 64] {
        walks.push(TileWalk::compute(wave_size, None));
        for declared in [
            [16, 16, 1],
            [8, 8, 1],
            [1, 64, 1],
            [3, 5, 2],
            [100, 3, 1],
            [127, 3, 1],
            [65, 2, 1],
            [64, 1, 1],
            [1000, 2, 1],
            [7, 1, 1],
            [256, 1, 1],
        ] {
            walks.push(TileWalk::compute(wave_size, Some(declared)));
        }
    }
    // A pixel walk with an odd tile reads nothing (`tile_xy` refuses it).
    walks.push(TileWalk {
        group_width: 3,
        ..TileWalk::pixel(64)
    });
    // Lanes that end inside a quad, and quads stacked past a 4x2 tile.
    walks.push(TileWalk {
        wave_size: 30,
        ..TileWalk::pixel(32)
    });
    walks.push(TileWalk {
        group_width: 4,
        group_height: 2,
        ..TileWalk::pixel(64)
    });
    walks
}

/// The fast walk equals the plain definition, lines and order, over every filter and
/// format, walks of every shape, lane masks, waves, passes (far ones wrap at the
/// texture's edge) and line sizes: a line that is not a power of two and 12-byte texels
/// (blocks of one element), lines smaller than an element, and lines larger than a tile.
#[test]
fn lines_equal_the_reference_definition() {
    let masks = [
        u64::MAX,
        0,
        1,
        0x8000_0000_0000_0000,
        0x0f0f_f0f0_1234_8001,
        0xffff_0000,
    ];
    let mut checked = 0;
    for walk in walks() {
        for filter in TextureFilter::ALL {
            for format in TexelFormat::all() {
                for (i, line_bytes) in [64, 128, 32, 96, 8, 256, 16384, 0].into_iter().enumerate() {
                    let exec = masks[(checked + i) % masks.len()];
                    let f = ImageFootprint {
                        walk,
                        filter,
                        format,
                        line_bytes,
                        exec,
                    };
                    for (wave, iteration, total) in [
                        (0, 0, 1),
                        (5, 0, 500),
                        (499, 3, 500),
                        (37, 1, 64),
                        (u64::MAX / 3, 7, 9),
                    ] {
                        assert_eq!(
                            f.lines(wave, iteration, total),
                            footprint_reference(&f, wave, iteration, total),
                            "{f:?} wave {wave} iteration {iteration} of {total}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}

/// Lane positions by running counters equal [`TileWalk::lane_position`] lane by lane.
#[test]
fn lane_positions_equal_lane_position() {
    for walk in walks() {
        for exec in [u64::MAX, 0x5555_aaaa_0f0f_3c3c, 0] {
            for (group, wave_in_group) in [(0, 0), (1, 0), (77, 1), (12345, 3), (u64::MAX, 2)] {
                let wave_in_group = wave_in_group % walk.waves_per_group.max(1);
                let mut out = [(0, 0); WAVE64];
                let count = walk.lane_positions(group, wave_in_group, exec, &mut out);
                let expected: Vec<(u64, u64)> = (0..walk.wave_size.min(64))
                    .filter(|lane| (exec >> lane) & 1 != 0)
                    .filter_map(|lane| walk.lane_position(group, wave_in_group, lane))
                    .collect();
                assert_eq!(&out[..count], expected.as_slice(), "{walk:?} group {group}");
            }
        }
    }
}
