//! The cost rules the compile of one instruction calls: the Ray Accelerator
//! clocks of a BVH node, VMEM coalescing and image footprints, the memory
//! streams of vector and scalar loads, and LDS bank conflicts.

use super::*;

impl OpContext<'_> {
    /// Ray Accelerator clocks of one BVH intersection per wave: each lane
    /// tests one node (rdna-model.md 7): a 4-wide node is 4 box tests or 1
    /// triangle test, a BVH8 node (and a dual-BVH pair of 4-wide nodes) 8
    /// box tests or 2 triangle tests; the rates come from the model's
    /// `[ray_accelerator]`.
    pub(super) fn ray_node_cost(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        op: &mut StaticOp,
    ) -> Result<u32, SimError> {
        let rates = self.arch.ray_accelerator.as_ref().ok_or_else(|| {
            SimError::Model(format!(
                "`{}` has no ray accelerator for `{}`",
                self.arch.name,
                inst.base_mnemonic()
            ))
        })?;
        // The nodes the op tests are the ISA table's fact (memory_facts.tsv):
        // a node of width w is w box tests or w / 4 triangle tests.
        let shape = match inst.info.memory.map(|m| m.kind) {
            Some(VmemKind::Bvh(shape)) => shape,
            _ => {
                return Err(SimError::Model(format!(
                    "`{}` is charged as a ray intersection but the ISA table gives it no BVH node",
                    inst.base_mnemonic()
                )))
            }
        };
        let nodes = u32::from(shape.count);
        let box_tests = f64::from(shape.count) * f64::from(shape.width);
        let tri_tests = box_tests / 4.0;
        let what = match shape.count {
            1 => format!("BVH{} node", shape.width),
            2 => format!("two BVH{} nodes", shape.width),
            n => format!("{n} BVH{} nodes", shape.width),
        };
        let f = match facts.and_then(|f| f.box_fraction) {
            Some(f) => f,
            None => self.arch.get_f64("bvh_box_fraction").map_err(model)?,
        };
        let per_lane = f * box_tests / rates.box_tests_per_clock.max(f64::MIN_POSITIVE)
            + (1.0 - f) * tri_tests / rates.triangle_tests_per_clock.max(f64::MIN_POSITIVE);
        // Lanes whose rays are done are masked off and cost nothing.
        let active = facts.and_then(|f| f.active_lanes).unwrap_or(1.0);
        let lanes = f64::from(self.wave_size) * active;
        let clocks = (per_lane * lanes).ceil().max(1.0) as u32;
        let node_bytes = self.arch.get_u32("bvh_node_bytes").map_err(model)?;
        let line = self.rates.get(shadersim_mem::Rate::L2LineBytes).max(1);
        op.l2_requests = (self.wave_size * nodes * node_bytes).div_ceil(line);
        op.cost_basis = format!(
            "{what} per lane, {:.0}% box nodes: {per_lane:.2} ray accelerator clocks per lane ({} box / {} triangle tests per clock) x {lanes:.1} active lanes",
            100.0 * f,
            rates.box_tests_per_clock,
            rates.triangle_tests_per_clock,
        );
        Ok(clocks)
    }

    pub(super) fn vmem_cost(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        op: &mut StaticOp,
        exec: u64,
    ) -> Result<u32, SimError> {
        let base = inst.base_mnemonic();
        // The table's memory facts, never the spelling (a mnemonic the
        // table does not list has none).
        let access = MemAccess::from_info(&inst.info);
        let mut access = match access {
            Ok(a) => a,
            Err(_) => {
                // Ops the coalescing model does not describe (BVH
                // intersections, resource queries, block moves, mnemonics
                // the table does not list): an unfiltered image op.
                let c = (self.rates.get(shadersim_mem::Rate::ImageLoadStoreClocks)
                    * self.wave_size)
                    .div_ceil(64)
                    .max(1);
                op.cost_basis = format!("`{base}`: not in the coalescing model; charged as an unfiltered image op ({c} clocks)");
                return Ok(c);
            }
        };
        // Image ops: the format from the hint (default rgba8), the filter from the hint or by
        // stage and instruction (`default_filter`).
        let mut chosen_filter = None;
        if let MemAccess::Image(img) = &mut access {
            let default = ImageAccess::new(img.op);
            img.format = facts.and_then(|f| f.format).unwrap_or(default.format);
            let (filter, reason) = self.default_filter(inst, img.op);
            img.filter = match facts.and_then(|f| f.filter) {
                Some(f) if matches!(img.op, ImageOp::Sample { .. }) => f,
                _ => {
                    chosen_filter = Some(reason);
                    filter
                }
            };
        }
        let pattern = facts.and_then(|f| f.pattern.clone()).unwrap_or_default();
        let order = if self.stage == Stage::Pixel {
            LaneOrder::PixelQuads
        } else {
            LaneOrder::Compute
        };
        // `exec`: every lane of the wave unless lanes diverge (seed
        // assumption 2 lifted); a wave32 op is the first 32 lanes of the
        // wave64 rules.
        let result = coalesce_pattern(&access, &pattern, 0, order, exec, self.rates)
            .map_err(|e| SimError::Model(format!("lane pattern: {e}")))?;
        op.l2_requests = result.l2_requests;
        let mut stream = self.vector_stream(
            &result,
            facts,
            matches!(
                inst.class(),
                shadersim_isa::InstrClass::VmemScratchLoad
                    | shadersim_isa::InstrClass::VmemScratchStore
            ),
        );
        stream.path = crate::cache_paths::CachePath::of(inst);
        op.stream = Some(stream);
        if !matches!(access, MemAccess::Image(_)) {
            op.pattern = Some(pattern.to_string());
        }
        let what = match &access {
            MemAccess::Image(img) => match img.op {
                ImageOp::Sample { .. } | ImageOp::Gather4 => {
                    format!("{} {}", img.format, img.filter)
                }
                _ => img.format.to_string(),
            },
            MemAccess::Buffer(_) => format!("pattern {pattern}"),
        };
        op.cost_basis = format!("{what}: {}", result.rule);
        if let MemAccess::Image(img) = &access {
            let lod = explicit_lod(inst);
            self.image_footprint(img, lod, facts, chosen_filter, exec, &result, op);
        }
        Ok(result.clocks.max(1))
    }
}

impl OpContext<'_> {
    /// The filter an image op reads with when no hint names one, and why, chosen by stage and
    /// instruction from the table's memory facts (never the spelling): loads, stores and
    /// atomics read one texel per lane; gather4 the 2x2 texels of a bilinear footprint; a
    /// sample naming its LOD (`_l`, `_lz`) one mip level (bilinear); a sample with gradients
    /// blends two mips (trilinear), as does a pixel shader's sample with implicit derivatives;
    /// a sample without LOD or gradients outside pixel shaders has no quad derivatives to
    /// choose a blend by (APIs define implicit LOD in fragment shaders only): bilinear.
    fn default_filter(&self, inst: &Instruction, op: ImageOp) -> (TextureFilter, String) {
        let explicit_lod = explicit_lod(inst);
        let (filter, reason) = match op {
            ImageOp::Load | ImageOp::Store | ImageOp::Atomic => (
                TextureFilter::Point,
                "image loads, stores and atomics have no sampler: one texel per lane",
            ),
            ImageOp::Gather4 => (
                TextureFilter::Bilinear,
                "gather4 reads the 2x2 texels of a bilinear footprint from one mip",
            ),
            ImageOp::Sample { gradients: true } => (
                TextureFilter::Trilinear,
                "a sample with user gradients: they pick a blend of two mips",
            ),
            ImageOp::Sample { .. } if explicit_lod => (
                TextureFilter::Bilinear,
                "a sample at an explicit LOD (_l/_lz) reads one mip level",
            ),
            ImageOp::Sample { .. } if self.stage == Stage::Pixel => (
                TextureFilter::Trilinear,
                "a pixel-shader sample with implicit derivatives blends two mips",
            ),
            ImageOp::Sample { .. } => (
                TextureFilter::Bilinear,
                "a sample outside pixel shaders has no quad derivatives to blend mips by",
            ),
        };
        (filter, reason.to_string())
    }

    /// Image ops (whose lanes' addresses no hint can give): the stream reads the texels of a
    /// tile per wave ([`ImageFootprint`]), walked over the screen unless a stride hint moves
    /// the first wave's tile instead; the op's L2 requests are those lines. Records what was
    /// taken by default.
    #[allow(clippy::too_many_arguments)]
    fn image_footprint(
        &self,
        img: &ImageAccess,
        explicit_lod: bool,
        facts: Option<&MemoryFacts>,
        filter_reason: Option<String>,
        exec: u64,
        result: &shadersim_mem::CoalesceResult,
        op: &mut StaticOp,
    ) {
        // A stride hint moves the first wave's tile by the strides instead of walking.
        let walked =
            !facts.is_some_and(|f| f.wave_stride.is_some() || f.iteration_stride.is_some());
        let footprint = ImageFootprint {
            walk: self.walk,
            filter: match img.op {
                ImageOp::Sample { .. } => img.filter,
                ImageOp::Gather4 => TextureFilter::Bilinear,
                _ => TextureFilter::Point,
            },
            format: img.format,
            line_bytes: result.l2_line_bytes,
            exec,
        };
        let (w, h) = self.walk.wave_tile();
        // Tiles differ in how they fall on lines (a BC1 line is 16x8 texels, two tiles wide):
        // the mean over the first 64 waves' tiles, an 8x8 square of the walk.
        const SAMPLE_WAVES: u64 = 64;
        let mean_lines = |f: &ImageFootprint| {
            let sum: usize = (0..SAMPLE_WAVES)
                .map(|w| f.lines(w, 0, SAMPLE_WAVES).len())
                .sum();
            (sum as f64 / SAMPLE_WAVES as f64).round() as u32
        };
        let full = mean_lines(&ImageFootprint {
            exec: u64::MAX,
            ..footprint
        });
        let op_words = match img.op {
            ImageOp::Sample { gradients: false } if explicit_lod => {
                "sample at an explicit LOD".to_string()
            }
            other => other.to_string(),
        };
        op.image_default = Some(shadersim_trace::ImageDefault {
            line: 0,
            op: op_words,
            layout: Some(if self.stage == Stage::Pixel {
                "screen-space".to_string()
            } else {
                "2d".to_string()
            }),
            walked,
            tile: Some([w, h]),
            tile_basis: match (self.walk.order, self.walk.declared) {
                (LaneOrder::PixelQuads, _) => format!("2x2 quads in an {w}x{h} tile"),
                (_, true) => format!(
                    "rows of the declared {}x{} workgroup",
                    self.walk.group_width, self.walk.group_height
                ),
                (_, false) => format!("no declared workgroup size: an {w}x{h} tile"),
            },
            texels_per_pixel: footprint.probes() as u32,
            requests: full,
            format: img.format.to_string(),
            filter: footprint.filter.to_string(),
            filter_reason,
        });
        let lines = footprint.lines(0, 0, 1);
        let line = u64::from(result.l2_line_bytes.max(1));
        op.l2_requests = mean_lines(&footprint);
        if let Some(stream) = op.stream.as_mut() {
            // With a stride hint the first wave's lines move by the strides; the volume of
            // data, not the span of its addresses, is the footprint then.
            stream.footprint = lines.len() as u64 * line;
            stream.requests = lines;
            stream.walk = Some(footprint);
        }
        op.cost_basis = format!(
            "{}; reads {} lines of its {} tile (mean over 64 tiles)",
            op.cost_basis,
            op.l2_requests,
            if self.stage == Stage::Pixel {
                "screen-space"
            } else {
                "2D"
            }
        );
    }

    /// How a `[[memory]]` hint's cache keys serve an op.
    fn stream_serve(facts: Option<&MemoryFacts>) -> crate::memstream::StreamServe {
        use crate::memstream::StreamServe;
        match facts {
            Some(f) if f.hit_rate.is_some() => StreamServe::HitRate(f.hit_rate.unwrap_or(0.0)),
            Some(f) if f.level.is_some() => {
                StreamServe::Level(f.level.as_ref().map(|l| l.0.clone()).unwrap_or_default())
            }
            _ => StreamServe::Simulate,
        }
    }

    /// The stream of a vector memory op: the coalescer's lines of one execution. Its footprint
    /// (the default wave and iteration strides) is the bytes the lanes address (docs/cli.md:
    /// 64 x 4 = 256 for a linear wave64 dword load), not the lines rounded out to the L2 line:
    /// on a 256-byte line (RDNA 4) a wave32's 128 bytes would otherwise give every wave a line
    /// of its own, fetched for half its bytes.
    fn vector_stream(
        &self,
        result: &shadersim_mem::CoalesceResult,
        facts: Option<&MemoryFacts>,
        private: bool,
    ) -> crate::memstream::StreamSpec {
        crate::memstream::StreamSpec {
            path: crate::memstream::CachePath::Vector,
            base: 0,
            requests: result.lines.clone(),
            request_bytes: result.l2_line_bytes,
            footprint: result.lane_span,
            wave_stride: facts.and_then(|f| f.wave_stride),
            group_stride: facts.and_then(|f| f.group_stride),
            offset: facts.and_then(|f| f.offset).unwrap_or(0),
            iteration_stride: facts.and_then(|f| f.iteration_stride),
            outer: facts.and_then(|f| f.outer),
            region: facts.and_then(|f| f.region),
            random_order_seed: facts.and_then(|f| f.random_order_seed),
            serve: Self::stream_serve(facts),
            walk: None,
            private,
            no_allocate: 0,
        }
    }

    /// The stream of a scalar load of `dwords` DWORDs: its lines from the base (default: every
    /// wave and iteration reads the same constants).
    pub(super) fn scalar_stream(
        &self,
        dwords: u32,
        facts: Option<&MemoryFacts>,
    ) -> Result<crate::memstream::StreamSpec, SimError> {
        let line = self
            .arch
            .cache
            .as_ref()
            .and_then(|c| {
                let first = c.scalar.first()?;
                let level = c.level.iter().find(|l| &l.name == first)?;
                self.arch.param(&level.line)
            })
            .map_or(64, |v| (v.round() as u64).max(1));
        let bytes = u64::from(dwords.max(1)) * 4;
        let requests: Vec<u64> = (0..bytes.div_ceil(line)).map(|i| i * line).collect();
        Ok(crate::memstream::StreamSpec {
            path: crate::memstream::CachePath::Scalar,
            base: 0,
            footprint: bytes,
            requests,
            request_bytes: line as u32,
            wave_stride: facts.and_then(|f| f.wave_stride),
            group_stride: facts.and_then(|f| f.group_stride),
            offset: facts.and_then(|f| f.offset).unwrap_or(0),
            iteration_stride: facts.and_then(|f| f.iteration_stride),
            outer: facts.and_then(|f| f.outer),
            region: facts.and_then(|f| f.region),
            random_order_seed: facts.and_then(|f| f.random_order_seed),
            serve: Self::stream_serve(facts),
            walk: None,
            private: false,
            no_allocate: 0,
        })
    }

    /// Multiply an LDS op's conflict-free cost by the bank-conflict degree of its lane
    /// addresses (`[[memory]] pattern`, default linear), on models with an LDS bank layout.
    pub(super) fn lds_conflicts(
        &self,
        inst: &Instruction,
        facts: Option<&MemoryFacts>,
        op: &mut StaticOp,
    ) -> Result<(), SimError> {
        let (Some(banks), Some(bank_bytes), Some(group)) = (
            self.arch.param("lds_banks"),
            self.arch.param("lds_bank_bytes"),
            self.arch.param("lds_conflict_lanes"),
        ) else {
            return Ok(());
        };
        let layout = shadersim_mem::BankLayout {
            banks: banks.round() as u32,
            bank_bytes: bank_bytes.round() as u32,
            group_lanes: group.round() as u32,
        };
        let bytes = 4 * inst.data_dwords().unwrap_or(1).max(1);
        let pattern = facts.and_then(|f| f.pattern.clone()).unwrap_or_default();
        let order = if self.stage == Stage::Pixel {
            LaneOrder::PixelQuads
        } else {
            LaneOrder::Compute
        };
        let addresses = pattern
            .addresses(0, bytes, order)
            .map_err(|e| SimError::Model(format!("lane pattern: {e}")))?;
        let lanes = &addresses[..self.wave_size as usize];
        let c = layout.conflicts(lanes, bytes);
        let base = op.cost;
        op.cost = ((f64::from(base) * c.mean_degree).ceil() as u32).max(1);
        op.lds_conflict = Some(c.mean_degree);
        if facts.and_then(|f| f.pattern.as_ref()).is_some() || c.max_degree > 1 {
            op.pattern = Some(pattern.to_string());
        }
        op.cost_basis = format!(
            "{}; pattern {pattern}: {}-way bank conflicts ({} banks of {} bytes, {} lanes checked together) = {} clocks",
            op.cost_basis,
            fmt_degree(c.mean_degree),
            layout.banks,
            layout.bank_bytes,
            c.group_lanes,
            op.cost
        );
        Ok(())
    }
}

/// Whether an image sample names its level of detail (`_l`, `_lz`), from the table's memory
/// facts.
fn explicit_lod(inst: &Instruction) -> bool {
    matches!(
        inst.info.memory.map(|m| m.kind),
        Some(shadersim_isa::VmemKind::Sample {
            explicit_lod: true,
            ..
        })
    )
}

fn fmt_degree(d: f64) -> String {
    if (d - d.round()).abs() < 1e-9 {
        format!("{}", d.round() as u64)
    } else {
        format!("{d:.2}")
    }
}
