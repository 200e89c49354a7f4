//! Every statement of seed 001 (AMD's note on GCN coalescing) as a test case, in the order of the
//! seed. Each test quotes the sentence it checks.

use shadersim_mem::{
    coalesce, coalesce_pattern, CoalesceResult, CoalesceRule, ImageAccess, ImageOp, LaneOrder,
    LanePattern, MemAccess, TexelFormat, TextureFilter, VmemRates, WAVE64,
};

const ALL: u64 = u64::MAX;

fn access(mnemonic: &str) -> MemAccess {
    MemAccess::from_mnemonic(mnemonic).unwrap_or_else(|e| panic!("{e}"))
}

fn image(op: ImageOp, format: TexelFormat, filter: TextureFilter) -> MemAccess {
    MemAccess::Image(ImageAccess { op, format, filter })
}

fn sample(format: TexelFormat, filter: TextureFilter) -> MemAccess {
    image(ImageOp::Sample { gradients: false }, format, filter)
}

/// The result of `mnemonic` for a pattern, every lane active, compute lane order, base 0.
fn pattern(mnemonic: &str, pattern: &str) -> CoalesceResult {
    pattern_on(&access(mnemonic), pattern, LaneOrder::Compute, ALL)
}

fn pattern_on(access: &MemAccess, pattern: &str, order: LaneOrder, exec: u64) -> CoalesceResult {
    let pattern: LanePattern = pattern.parse().unwrap_or_else(|e| panic!("{e}"));
    coalesce_pattern(access, &pattern, 0, order, exec, &VmemRates::GCN)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn explicit(mnemonic: &str, addresses: &[u64; WAVE64], exec: u64) -> CoalesceResult {
    coalesce(&access(mnemonic), addresses, exec, &VmemRates::GCN)
}

fn linear_dwords() -> [u64; WAVE64] {
    std::array::from_fn(|lane| lane as u64 * 4)
}

// ---------------------------------------------------------------------------------------------
// Throughput

/// "The TEX unit processes at filtered peak, one 2x2 fragment quad per clock (64-wide wave in 16
/// clocks)."
#[test]
fn tex_unit_filters_one_quad_per_clock() {
    let r = pattern_on(
        &sample(TexelFormat::Rgba8, TextureFilter::Bilinear),
        "linear",
        LaneOrder::PixelQuads,
        ALL,
    );
    assert_eq!((r.group_size, r.l1_groups, r.clocks), (4, 16, 16));
    assert_eq!(r.clocks / r.l1_groups, 1, "one quad per clock");
}

/// "Peak rate of one filtered 2x2 fragment quad per clock requires a return of 16 32-bit values
/// in a single cycle ... GCN leverages those two data paths to provide support for single
/// channel buffer loads, in the cases described later in this post, at a rate of up to 16
/// 32-bit values in a single cycle."
#[test]
fn coalesced_single_channel_loads_return_16_dwords_per_clock() {
    let r = pattern("buffer_load_dword", "linear");
    assert_eq!(r.group_size, 16);
    assert_eq!(r.clocks, 4);
    assert_eq!(r.active_lanes / r.clocks, 16, "16 32-bit values per clock");
}

/// "The peak rate of one 2x2 fragment quad per clock requires address generation for image VMEM
/// operations for 4 invocations in one clock. For point sampled (non-filtered) image operations
/// GCN can return results for up to four 128-bit texels per clock." (The paragraph appears twice
/// in the seed, word for word.)
#[test]
fn point_sampling_returns_four_128_bit_texels_per_clock() {
    for format in [TexelFormat::Rgba32f, TexelFormat::Rgba8, TexelFormat::R8] {
        let r = pattern_on(
            &sample(format, TextureFilter::Point),
            "linear",
            LaneOrder::PixelQuads,
            ALL,
        );
        assert_eq!((r.group_size, r.clocks), (4, 16), "{format}");
    }
    // Address generation: 4 invocations per clock, whatever the op.
    for mnemonic in ["image_load", "image_store", "image_gather4"] {
        let r = pattern(mnemonic, "linear");
        assert_eq!(
            (r.group_size, r.l1_groups, r.clocks),
            (4, 16, 16),
            "{mnemonic}"
        );
    }
}

/// "For filtered image operations, GCN processes 32-bits for each four fragments per clock. So
/// the same four 128-bit texels for filtered VMEM operations takes 4 clocks."
#[test]
fn filtered_128_bit_texels_take_4_clocks_per_quad() {
    let r = pattern_on(
        &sample(TexelFormat::Rgba32f, TextureFilter::Bilinear),
        "linear",
        LaneOrder::PixelQuads,
        ALL,
    );
    assert_eq!(r.clocks, 64);
    assert_eq!(r.clocks / r.l1_groups, 4);
    // One quad only: 4 clocks.
    let one_quad = pattern_on(
        &sample(TexelFormat::Rgba32f, TextureFilter::Bilinear),
        "linear",
        LaneOrder::PixelQuads,
        0xF,
    );
    assert_eq!((one_quad.l1_groups, one_quad.clocks), (1, 4));
}

/// "Summary of peak throughput per wave supported by data paths": the six figures.
#[test]
fn summary_table_six_figures() {
    // "32-bit (or smaller) single-channel buffer loads / wave = 4 clocks (under specific cases)"
    assert_eq!(pattern("buffer_load_dword", "uniform").clocks, 4);
    assert_eq!(pattern("buffer_load_ushort", "linear").clocks, 4);
    assert_eq!(pattern("buffer_load_ubyte", "quad-uniform").clocks, 4);
    // "multi-channel buffer loads / wave = 16 clocks"
    assert_eq!(pattern("buffer_load_format_xyzw", "linear").clocks, 16);
    assert_eq!(pattern("buffer_load_format_xy", "uniform").clocks, 16);
    let point = |format| {
        pattern_on(
            &sample(format, TextureFilter::Point),
            "linear",
            LaneOrder::Compute,
            ALL,
        )
        .clocks
    };
    let bilinear = |format| {
        pattern_on(
            &sample(format, TextureFilter::Bilinear),
            "linear",
            LaneOrder::Compute,
            ALL,
        )
        .clocks
    };
    // "128-bit (or smaller) point sampled texels / wave = 16 clocks"
    assert_eq!(point(TexelFormat::Rgba32f), 16);
    assert_eq!(point(TexelFormat::R8), 16);
    // "32-bit (or smaller) filtered texels / wave = 16 clocks"
    assert_eq!(bilinear(TexelFormat::Rgba8), 16);
    assert_eq!(bilinear(TexelFormat::R16f), 16);
    // "64-bit filtered texels / wave = 32 clocks"
    assert_eq!(bilinear(TexelFormat::Rgba16f), 32);
    // "128-bit filtered texels / wave = 64 clocks"
    assert_eq!(bilinear(TexelFormat::Rgba32f), 64);
}

/// gcn-model.md: trilinear and aniso 2x double it, aniso 4x x4, aniso 8x x8, gradients a further
/// x2; default rgba8 + trilinear = 32 clocks; compressed formats are 32-bit texels except BC6.
#[test]
fn filter_and_gradient_factors_of_gcn_model() {
    let clocks = |mnemonic: &str, format, filter| {
        let MemAccess::Image(mut image) = access(mnemonic) else {
            panic!("{mnemonic} is not an image op");
        };
        image.format = format;
        image.filter = filter;
        pattern_on(
            &MemAccess::Image(image),
            "linear",
            LaneOrder::PixelQuads,
            ALL,
        )
        .clocks
    };
    use TextureFilter::*;
    assert_eq!(pattern("image_sample", "linear").clocks, 32, "default");
    assert_eq!(clocks("image_sample", TexelFormat::Rgba8, Trilinear), 32);
    assert_eq!(clocks("image_sample", TexelFormat::Rgba8, Aniso2x), 32);
    assert_eq!(clocks("image_sample", TexelFormat::Rgba8, Aniso4x), 64);
    assert_eq!(clocks("image_sample", TexelFormat::Rgba8, Aniso8x), 128);
    assert_eq!(clocks("image_sample", TexelFormat::Rgba16f, Trilinear), 64);
    assert_eq!(clocks("image_sample_d", TexelFormat::Rgba8, Trilinear), 64);
    assert_eq!(
        clocks("image_sample_c_cd", TexelFormat::Rgba8, Bilinear),
        32
    );
    assert_eq!(clocks("image_sample_d", TexelFormat::Rgba8, Point), 32);
    assert_eq!(clocks("image_sample", TexelFormat::Bc1, Bilinear), 16);
    assert_eq!(clocks("image_sample", TexelFormat::Bc6, Bilinear), 32);
    // gather4 and image load/store: 16 clocks whatever the format.
    assert_eq!(clocks("image_gather4", TexelFormat::Rgba32f, Trilinear), 16);
    assert_eq!(clocks("image_load", TexelFormat::Rgba32f, Trilinear), 16);
    assert_eq!(clocks("image_store", TexelFormat::Rgba16f, Point), 16);
}

// ---------------------------------------------------------------------------------------------
// Coalescing for L2 access via image or buffer operations

/// "For L2 cache accesses, the hardware groups the accesses for all 64 invocations of a wave
/// into the fewest 64-byte aligned 64-byte memory requests."
#[test]
fn l2_requests_are_the_fewest_aligned_64_byte_lines() {
    let r = pattern("buffer_load_dword", "linear");
    assert_eq!(r.l2_requests, 4);
    assert_eq!(r.lines, [0, 64, 128, 192]);
    assert_eq!(r.l2_bytes, 256);
    // The same 256 bytes starting 32 bytes into a line: aligned lines, so 5 requests.
    let shifted: [u64; WAVE64] = std::array::from_fn(|lane| 32 + lane as u64 * 4);
    let r = explicit("buffer_load_dword", &shifted, ALL);
    assert_eq!(r.l2_requests, 5);
    assert_eq!(r.lines, [0, 64, 128, 192, 256]);
    // dwordx4: 1024 bytes = 16 lines.
    assert_eq!(pattern("buffer_load_dwordx4", "linear").l2_requests, 16);
    // A stride of a line or more: one request per lane.
    assert_eq!(pattern("buffer_load_dword", "stride:64").l2_requests, 64);
    assert_eq!(pattern("buffer_load_dword", "stride:32").l2_requests, 32);
}

/// "For loads and stores, all accesses to any given aligned 64-byte cacheline get coalesced into
/// a single memory request."
#[test]
fn loads_and_stores_to_one_line_are_one_request() {
    // 64 lanes on the 16 dwords of one line, in a scrambled order.
    let one_line: [u64; WAVE64] = std::array::from_fn(|lane| 0x1000 + (lane as u64 * 7 % 16) * 4);
    for mnemonic in [
        "buffer_load_dword",
        "buffer_store_dword",
        "global_store_dword",
    ] {
        let r = explicit(mnemonic, &one_line, ALL);
        assert_eq!(r.l2_requests, 1, "{mnemonic}");
        assert_eq!(r.lines, [0x1000]);
    }
    // Loads and stores of the same width and addresses cost the same L2 requests.
    for p in ["linear", "stride:12", "random:3:8192", "quad-permuted"] {
        assert_eq!(
            pattern("buffer_load_dword", p).l2_requests,
            pattern("buffer_store_dword", p).l2_requests,
            "{p}"
        );
    }
}

/// "Also note for stores, when multiple invocations of a wave write to the same address, they
/// are automatically collapsed into one write to the given address."
#[test]
fn stores_to_one_address_collapse_into_one_write() {
    let r = pattern("buffer_store_dword", "uniform");
    assert_eq!(r.l2_requests, 1);
    assert_eq!(r.distinct_accesses, 1);
    assert_eq!(r.rule, CoalesceRule::BufferStore);
    assert!(r.rule.to_string().contains("collapse"));
    // Pairs of lanes on one address: 32 writes, 8 lines.
    let pairs: [u64; WAVE64] = std::array::from_fn(|lane| (lane as u64 / 2) * 16);
    let r = explicit("buffer_store_dword", &pairs, ALL);
    assert_eq!((r.distinct_accesses, r.l2_requests), (32, 8));
    let r = pattern("image_store", "uniform");
    assert_eq!((r.distinct_accesses, r.l2_requests), (1, 1));
}

/// "This is not true for atomics, as each access to a given address must remain a unique
/// operation."
#[test]
fn atomics_are_never_collapsed() {
    let r = pattern("buffer_atomic_add", "uniform");
    assert_eq!(r.l2_requests, 64);
    assert_eq!(r.distinct_accesses, 64);
    assert_eq!(r.lines, [0], "one line, 64 operations on it");
    assert_eq!(r.rule, CoalesceRule::BufferAtomic);
    // Only active lanes count.
    let r = pattern_on(
        &access("global_atomic_add"),
        "uniform",
        LaneOrder::Compute,
        0x00FF_0000_0000_00F0,
    );
    assert_eq!(r.l2_requests, 12);
    // Linear atomics: still one request per lane, though 16 share a line.
    assert_eq!(pattern("buffer_atomic_add", "linear").l2_requests, 64);
    assert_eq!(pattern("image_atomic_add", "uniform").l2_requests, 64);
    // The collapse of stores is not the atomics' behaviour.
    assert_eq!(pattern("buffer_store_dword", "uniform").l2_requests, 1);
}

/// "64-byte aligned 64-byte memory requests": an access that crosses a line boundary needs both
/// lines.
#[test]
fn an_access_across_a_line_boundary_touches_two_lines() {
    let mut addresses = [0u64; WAVE64];
    addresses[0] = 56; // bytes 56..72 of a dwordx4: lines 0 and 64
    let r = explicit("buffer_load_dwordx4", &addresses, 1);
    assert_eq!((r.l2_requests, r.lines.clone()), (2, vec![0, 64]));
    // The same lane 8 bytes lower stays inside line 0.
    addresses[0] = 48;
    assert_eq!(
        explicit("buffer_load_dwordx4", &addresses, 1).l2_requests,
        1
    );
    // An unaligned dword at 62 covers bytes 62..66.
    addresses[0] = 62;
    assert_eq!(explicit("buffer_load_dword", &addresses, 1).l2_requests, 2);
    addresses[0] = 60;
    assert_eq!(explicit("buffer_load_dword", &addresses, 1).l2_requests, 1);
    // dwordx3 lanes 12 bytes apart: 768 bytes over 12 lines, several lanes straddle two.
    let r = pattern("buffer_load_dwordx3", "linear");
    assert_eq!(r.l2_requests, 12);
    // An atomic across a boundary is one operation per line it touches.
    addresses[0] = 60;
    assert_eq!(
        explicit("buffer_atomic_add_x2", &addresses, 1).l2_requests,
        2
    );
}

// ---------------------------------------------------------------------------------------------
// Coalescing for L1 access via image operations

/// "Image VMEM operations are serviced in aligned groups of 4 invocations in a wave. For example
/// in compute, invocations {0,1,2,3} would be a group"
#[test]
fn image_ops_are_serviced_in_aligned_groups_of_4() {
    for mnemonic in [
        "image_sample",
        "image_sample_lz",
        "image_gather4",
        "image_load",
        "image_store",
        "image_atomic_add",
    ] {
        // Even all lanes on one texel: still one group per 4 lanes.
        let r = pattern(mnemonic, "uniform");
        assert_eq!((r.group_size, r.l1_groups), (4, 16), "{mnemonic}");
        // Invocations {0,1,2,3} are one group.
        let r = pattern_on(&access(mnemonic), "linear", LaneOrder::Compute, 0b1111);
        assert_eq!(r.l1_groups, 1, "{mnemonic}");
        assert_eq!(r.clocks, r.wave_clocks / 16, "{mnemonic}");
        // Invocations 3 and 4 are in two groups.
        let r = pattern_on(&access(mnemonic), "linear", LaneOrder::Compute, 0b1_1000);
        assert_eq!(r.l1_groups, 2, "{mnemonic}");
    }
}

/// "... and in fragment or pixel shaders each 2x2 fragment quad is a group."
#[test]
fn pixel_shader_groups_are_2x2_quads() {
    // An 8x8 pixel tile of an rgba8 image 8 texels wide: the lanes 0-3 of the group are the
    // texels (0,0), (1,0), (0,1), (1,1).
    let tile: LanePattern = "tile2d:8x8".parse().unwrap();
    let addresses = tile.addresses(0, 4, LaneOrder::PixelQuads).unwrap();
    assert_eq!(addresses[..4], [0, 4, 32, 36]);
    for quad in 0..16 {
        let lanes = &addresses[quad * 4..quad * 4 + 4];
        let (x0, y0) = (lanes[0] % 32 / 4, lanes[0] / 32);
        assert_eq!(x0 % 2, 0);
        assert_eq!(y0 % 2, 0);
        assert_eq!(lanes[1], lanes[0] + 4);
        assert_eq!(lanes[2], lanes[0] + 32);
        assert_eq!(lanes[3], lanes[0] + 36);
    }
    let r = pattern_on(
        &access("image_sample"),
        "tile2d:8x8",
        LaneOrder::PixelQuads,
        ALL,
    );
    assert_eq!((r.group_size, r.l1_groups, r.l2_requests), (4, 16, 4));
    // A pixel wave with its last quad's 4 pixels only: one group.
    let r = pattern_on(
        &access("image_sample"),
        "tile2d:8x8",
        LaneOrder::PixelQuads,
        0xF << 60,
    );
    assert_eq!(r.l1_groups, 1);
    // A buffer read in pixel-quad order straddles two rows per group of 4, so no 16-lane case
    // holds; the same read in compute order is linear (case 3).
    let quads = pattern_on(
        &access("buffer_load_dword"),
        "tile2d:8x8",
        LaneOrder::PixelQuads,
        ALL,
    );
    assert_eq!((quads.group_size, quads.clocks), (4, 16));
    assert_eq!(quads.rule.id(), "buffer4-scattered");
    let rows = pattern_on(
        &access("buffer_load_dword"),
        "tile2d:8x8",
        LaneOrder::Compute,
        ALL,
    );
    assert_eq!((rows.group_size, rows.clocks), (16, 4));
    assert_eq!(rows.rule, CoalesceRule::QuadConsecutive);
}

/// "Note compute invocations are organized in linear order:
/// invocationIndex=x+(width*y)+(width*height*z)"
#[test]
fn compute_invocations_are_in_linear_order() {
    for (width, height) in [(4u32, 4u32), (8, 8), (16, 2), (2, 2), (3, 5)] {
        for lane in 0..64u32 {
            let (x, y) = LaneOrder::Compute.tile_xy(lane, width, height).unwrap();
            let (x, y, z) = (x, y % u64::from(height), y / u64::from(height));
            let index = x + u64::from(width) * y + u64::from(width * height) * z;
            assert_eq!(index, u64::from(lane), "{width}x{height} lane {lane}");
        }
    }
    // A 4x4x4 workgroup on a 4x4x4 array (pitch 16 bytes): lane i reads element i.
    let r: LanePattern = "tile2d:4x4:16".parse().unwrap();
    let a = r.addresses(0, 4, LaneOrder::Compute).unwrap();
    assert_eq!(a, std::array::from_fn(|lane| lane as u64 * 4));
}

// ---------------------------------------------------------------------------------------------
// Coalescing for L1 access via buffer operations

/// "Multi-channel buffer VMEM operations ... are handled like point sampled image operations."
#[test]
fn multi_channel_buffer_ops_are_handled_like_point_sampled_images() {
    let point = pattern_on(
        &sample(TexelFormat::Rgba32f, TextureFilter::Point),
        "linear",
        LaneOrder::Compute,
        ALL,
    );
    for mnemonic in [
        "buffer_load_format_xy",
        "buffer_load_format_xyz",
        "buffer_load_format_xyzw",
        "tbuffer_load_format_xyzw",
        "buffer_load_format_d16_xyzw",
    ] {
        // Uniform would be case 1 for a single channel: multi-channel never groups 16.
        for p in ["uniform", "linear", "quad-uniform"] {
            let r = pattern(mnemonic, p);
            assert_eq!((r.group_size, r.l1_groups), (4, 16), "{mnemonic} {p}");
            assert_eq!(r.clocks, point.clocks, "{mnemonic} {p}");
            assert!(matches!(r.rule, CoalesceRule::MultiChannelLoad { .. }));
        }
    }
}

/// "... and buffer VMEM operations with single-channel accesses greater than 32-bits, are
/// handled like point sampled image operations"
#[test]
fn wide_single_channel_buffer_ops_are_handled_like_point_sampled_images() {
    for (mnemonic, bits) in [
        ("buffer_load_dwordx2", 64),
        ("buffer_load_dwordx3", 96),
        ("buffer_load_dwordx4", 128),
        ("buffer_load_b64", 64),
        ("global_load_dwordx4", 128),
    ] {
        for p in ["uniform", "linear", "quad-uniform"] {
            let r = pattern(mnemonic, p);
            assert_eq!(
                (r.group_size, r.l1_groups, r.clocks),
                (4, 16, 16),
                "{mnemonic} {p}"
            );
            assert_eq!(r.rule, CoalesceRule::WideLoad { bits });
        }
    }
}

/// "Under specific cases, 32-bit (and smaller) single-channel buffer VMEM operations are first
/// coalesced in aligned groups of 16 invocations in a wave. Invocations {0-15}, {16-31},
/// {32-47}, and {48-63} are all separate groups."
#[test]
fn sixteen_lane_groups_are_0_15_16_31_32_47_48_63() {
    let groups = |exec| {
        pattern_on(
            &access("buffer_load_dword"),
            "uniform",
            LaneOrder::Compute,
            exec,
        )
    };
    let r = groups(ALL);
    assert_eq!((r.group_size, r.l1_groups, r.clocks), (16, 4, 4));
    let r = groups(0xFFFF);
    assert_eq!((r.l1_groups, r.clocks), (1, 1));
    let r = groups(1 << 15 | 1 << 16);
    assert_eq!((r.l1_groups, r.clocks), (2, 2));
    // Lanes 31 | 32 and 47 | 48 sit on group boundaries: groups 1, 2, 2, 3.
    let r = groups(1 << 31 | 1 << 32 | 1 << 47 | 1 << 48);
    assert_eq!(r.l1_groups, 3);
    let r = groups(1 << 63);
    assert_eq!(r.l1_groups, 1);
    for mnemonic in [
        "buffer_load_dword",
        "buffer_load_ubyte",
        "buffer_load_sshort",
        "buffer_load_format_x",
        "tbuffer_load_format_x",
        "buffer_load_b32",
        "global_load_dword",
        "flat_load_dword",
        "scratch_load_dword",
    ] {
        assert_eq!(pattern(mnemonic, "linear").group_size, 16, "{mnemonic}");
    }
}

/// Case 1: "When all invocations access the same address".
#[test]
fn case_1_all_invocations_on_one_address() {
    let r = pattern("buffer_load_dword", "uniform");
    assert_eq!(r.rule, CoalesceRule::WaveUniform);
    assert_eq!((r.group_size, r.clocks, r.l2_requests), (16, 4, 1));
    let mut addresses = [0x40u64; WAVE64];
    assert_eq!(
        explicit("buffer_load_ubyte", &addresses, ALL).rule,
        CoalesceRule::WaveUniform
    );
    // Near miss: one lane one element off. Its group of 4 is neither on one address nor on 4
    // consecutive elements, so the wave falls back to groups of 4.
    addresses[37] = 0x44;
    let r = explicit("buffer_load_dword", &addresses, ALL);
    assert_eq!((r.group_size, r.clocks), (4, 16));
    assert_eq!(
        r.rule,
        CoalesceRule::ScatteredLoad {
            first_quad_not_uniform: 9,
            first_quad_not_consecutive: 0
        }
    );
    assert!(r.rule.to_string().contains("lanes 36-39"), "{}", r.rule);
    // The odd lane switched off: case 1 again (inactive lanes access nothing).
    let r = explicit("buffer_load_dword", &addresses, ALL & !(1 << 37));
    assert_eq!(r.rule, CoalesceRule::WaveUniform);
}

/// Case 2: "When all invocations in each aligned group of 4 invocations access the same address".
#[test]
fn case_2_each_aligned_group_of_4_on_one_address() {
    let r = pattern("buffer_load_dword", "quad-uniform");
    assert_eq!(r.rule, CoalesceRule::QuadUniform);
    assert_eq!((r.group_size, r.clocks), (16, 4));
    // Groups far apart (one line each) still count: the case is about lanes, not lines.
    let far: [u64; WAVE64] = std::array::from_fn(|lane| (lane as u64 / 4) * 4096);
    let r = explicit("buffer_load_dword", &far, ALL);
    assert_eq!((r.rule, r.l2_requests), (CoalesceRule::QuadUniform, 16));
    // Near miss: one lane of group 5 elsewhere.
    let mut near = far;
    near[22] += 4096 * 100;
    let r = explicit("buffer_load_dword", &near, ALL);
    assert_eq!((r.group_size, r.clocks), (4, 16));
    assert!(matches!(
        r.rule,
        CoalesceRule::ScatteredLoad {
            first_quad_not_uniform: 5,
            ..
        }
    ));
    // Near miss of alignment: groups of 4 lanes on one address, shifted by 2 lanes, are not
    // aligned groups.
    let shifted: [u64; WAVE64] = std::array::from_fn(|lane| ((lane as u64 + 2) / 4) * 4096);
    assert_eq!(explicit("buffer_load_dword", &shifted, ALL).group_size, 4);
}

/// Case 3: "When all invocations in each aligned group of 4 invocations access in a block of 4
/// consecutive addresses (ordering in the 4 invocations does not matter)".
#[test]
fn case_3_each_aligned_group_of_4_on_4_consecutive_addresses() {
    for p in ["linear", "quad-permuted", "stride:4"] {
        let r = pattern("buffer_load_dword", p);
        assert_eq!(r.rule, CoalesceRule::QuadConsecutive, "{p}");
        assert_eq!((r.group_size, r.clocks), (16, 4), "{p}");
    }
    // Blocks anywhere, in any order, one block per group of 4.
    let blocks: [u64; WAVE64] =
        std::array::from_fn(|lane| (lane as u64 / 4) * 1000 * 4 + [3, 0, 2, 1][lane % 4] * 4);
    assert_eq!(
        explicit("buffer_load_dword", &blocks, ALL).rule,
        CoalesceRule::QuadConsecutive
    );
    // A block need not start on a multiple of 4 elements.
    let unaligned: [u64; WAVE64] = std::array::from_fn(|lane| 4 + lane as u64 * 4);
    assert_eq!(
        explicit("buffer_load_dword", &unaligned, ALL).rule,
        CoalesceRule::QuadConsecutive
    );
    // Near misses: a gap (stride 8), a repeated element, a block of 5, a half-element offset.
    assert_eq!(pattern("buffer_load_dword", "stride:8").group_size, 4);
    let mut near = linear_dwords();
    near[6] = near[5];
    assert_eq!(explicit("buffer_load_dword", &near, ALL).group_size, 4);
    let mut near = linear_dwords();
    near[7] = near[4] + 16;
    assert_eq!(explicit("buffer_load_dword", &near, ALL).group_size, 4);
    let mut near = linear_dwords();
    near[7] += 2;
    let r = explicit("buffer_load_dword", &near, ALL);
    assert_eq!((r.group_size, r.clocks), (4, 16));
    assert!(matches!(
        r.rule,
        CoalesceRule::ScatteredLoad {
            first_quad_not_consecutive: 1,
            ..
        }
    ));
}

/// "32-bit (and smaller)": for 8- and 16-bit data, consecutive addresses are consecutive
/// elements of that size (our reading).
#[test]
fn case_3_for_bytes_and_shorts_means_consecutive_elements() {
    assert_eq!(
        pattern("buffer_load_ubyte", "linear").rule,
        CoalesceRule::QuadConsecutive
    );
    assert_eq!(pattern("buffer_load_ubyte", "linear").l2_requests, 1);
    assert_eq!(
        pattern("buffer_load_ushort", "quad-permuted").rule,
        CoalesceRule::QuadConsecutive
    );
    // Bytes 4 apart are 4 consecutive dwords' worth, but not 4 consecutive bytes.
    assert_eq!(pattern("buffer_load_ubyte", "stride:4").group_size, 4);
    assert_eq!(pattern("buffer_load_ushort", "stride:4").group_size, 4);
    assert_eq!(pattern("buffer_load_ushort", "stride:2").group_size, 16);
}

/// Our reading: the cases are judged on active lanes; a partly active group of 4 satisfies a
/// case if its inactive lanes could complete it.
#[test]
fn cases_are_judged_on_active_lanes() {
    // Groups of 4 with only 3 consecutive active lanes each (the 4th lane anywhere).
    let mut addresses = linear_dwords();
    for quad in 0..16 {
        addresses[quad * 4 + 3] = 0xDEAD_0000 + quad as u64;
    }
    let exec = 0x7777_7777_7777_7777;
    let r = explicit("buffer_load_dword", &addresses, exec);
    assert_eq!(r.rule, CoalesceRule::QuadConsecutive);
    assert_eq!(r.active_lanes, 48);
    // With the 4th lanes active the groups break.
    assert_eq!(explicit("buffer_load_dword", &addresses, ALL).group_size, 4);
    // A group whose two active lanes are 5 elements apart cannot be completed.
    let mut addresses = linear_dwords();
    addresses[1] = 20;
    assert_eq!(
        explicit("buffer_load_dword", &addresses, 0b0011).group_size,
        4
    );
    assert_eq!(
        explicit("buffer_load_dword", &addresses, 0b0001).group_size,
        16
    );
}

/// Our reading: every group of 4 must satisfy the same case; a wave that mixes case-2 groups and
/// case-3 groups satisfies neither.
#[test]
fn mixed_cases_fall_back_to_groups_of_4() {
    let mixed: [u64; WAVE64] = std::array::from_fn(|lane| {
        let quad = lane as u64 / 4;
        if quad % 2 == 0 {
            quad * 64
        } else {
            quad * 64 + (lane as u64 % 4) * 4
        }
    });
    let r = explicit("buffer_load_dword", &mixed, ALL);
    assert_eq!(
        r.rule,
        CoalesceRule::ScatteredLoad {
            first_quad_not_uniform: 1,
            first_quad_not_consecutive: 0
        }
    );
    assert_eq!(r.clocks, 16);
}

/// Our reading: the 16-lane grouping is for loads. Seed 001's table row is "single-channel buffer
/// loads", its reason is the return data path, and gcn-model.md charges stores 16 clocks.
#[test]
fn stores_and_atomics_never_group_16_lanes() {
    for mnemonic in [
        "buffer_store_dword",
        "buffer_store_byte",
        "global_store_b32",
        "buffer_atomic_add",
    ] {
        for p in ["uniform", "linear", "quad-uniform"] {
            let r = pattern(mnemonic, p);
            assert_eq!((r.group_size, r.clocks), (4, 16), "{mnemonic} {p}");
        }
    }
}

/// A 32-bit single-channel load in no case: groups of 4, 16 clocks, the point-sampled path.
#[test]
fn scattered_small_loads_use_groups_of_4() {
    let r = pattern("buffer_load_dword", "random:1:1048576");
    assert_eq!((r.group_size, r.l1_groups, r.clocks), (4, 16, 16));
    assert_eq!(r.rule.id(), "buffer4-scattered");
    assert!(r.l2_requests > 60, "{}", r.l2_requests);
}

/// Our reading: with EXEC zero nothing is addressed: no request, no group, no data-path clock.
#[test]
fn exec_zero_costs_nothing() {
    for mnemonic in [
        "buffer_load_dword",
        "buffer_store_dword",
        "buffer_atomic_add",
        "buffer_load_format_xyzw",
        "image_sample",
    ] {
        let r = pattern_on(&access(mnemonic), "linear", LaneOrder::Compute, 0);
        assert_eq!(r.rule, CoalesceRule::NoActiveLanes, "{mnemonic}");
        assert_eq!(
            (r.l2_requests, r.l1_groups, r.clocks, r.active_lanes),
            (0, 0, 0, 0),
            "{mnemonic}"
        );
        assert!(r.lines.is_empty());
        assert!(r.wave_clocks > 0, "the full-wave figure is still reported");
    }
}

/// The rate table is data: overriding a rate changes the result, no literal hides in the code.
#[test]
fn overridden_rates_are_used() {
    let mut rates = VmemRates::GCN;
    rates.set_key("buffer_coalesced_load_clocks", 8).unwrap();
    rates.set_key("l2_line_bytes", 128).unwrap();
    let linear: LanePattern = "linear".parse().unwrap();
    let r = coalesce_pattern(
        &access("buffer_load_dword"),
        &linear,
        0,
        LaneOrder::Compute,
        ALL,
        &rates,
    )
    .unwrap();
    assert_eq!((r.clocks, r.l2_requests, r.l2_bytes), (8, 2, 256));
    assert!(r.clocks_basis.contains("buffer_coalesced_load_clocks 8"));
}
