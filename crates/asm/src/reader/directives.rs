//! LLVM directives, kernel descriptors, HSA metadata and statistics
//! comments: the resources a compiler declares.

use super::*;

/// SPI register offsets (in `.AMDGPU.config` `.long` pairs, as llc prints
/// them for Mesa) whose presence says which hardware stage a function runs
/// as. Values are the PGM_RSRC1 registers of each stage (Mesa `sid.h`).
const CONFIG_STAGE_REGISTERS: &[(u32, Stage)] = &[
    (0xB028, Stage::Pixel),   // SPI_SHADER_PGM_RSRC1_PS
    (0xB128, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_VS
    (0xB228, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_GS (gfx10+: NGG vertex)
    (0xB328, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_ES
    (0xB428, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_HS
    (0xB528, Stage::Vertex),  // SPI_SHADER_PGM_RSRC1_LS
    (0xB848, Stage::Compute), // COMPUTE_PGM_RSRC1
];

/// A workgroup size a GPU can run (1 to 1024 threads), or `None` for
/// anything else a file might say (a graphics stage's `0, 0, 0`, garbage).
pub(super) fn valid_workgroup(x: u32, y: u32, z: u32) -> Option<[u32; 3]> {
    let threads = x.checked_mul(y)?.checked_mul(z)?;
    (1..=1024).contains(&threads).then_some([x, y, z])
}

/// Reads the kernel entries of LLVM's HSA metadata (YAML inside
/// `.amdgpu_metadata`): only the kernel-level keys the simulator needs.
#[derive(Default)]
pub(super) struct MetadataReader {
    /// Inside the top-level `amdhsa.kernels:` list.
    in_kernels: bool,
    /// Column of the `- ` that starts each kernel entry.
    kernel_indent: Option<usize>,
    /// Kernels read so far: name and what they declare.
    pub(super) kernels: Vec<(Option<String>, DeclaredResources)>,
    /// A block list being read (`.reqd_workgroup_size:` then `- 256` lines).
    list: Option<Vec<u32>>,
    /// Inside a kernel's `.args:` list: the column of its `- ` items, once seen.
    args: Option<Option<usize>>,
}

impl MetadataReader {
    pub(super) fn line(&mut self, raw: &str) {
        let indent = raw.len() - raw.trim_start().len();
        let t = raw.trim();
        if let Some(list) = self.list.as_mut() {
            if let Some(v) = t.strip_prefix("- ").and_then(|v| v.trim().parse().ok()) {
                list.push(v);
                return;
            }
            let list = self.list.take().unwrap_or_default();
            self.set_workgroup(&list);
        }
        if indent == 0 && !t.is_empty() {
            self.in_kernels = t == "amdhsa.kernels:";
            self.kernel_indent = None;
            return;
        }
        if !self.in_kernels {
            return;
        }
        if t.starts_with("- ") && self.kernel_indent.is_none_or(|k| k == indent) {
            self.kernel_indent = Some(indent);
            self.kernels.push((None, DeclaredResources::default()));
            return self.key(&t[2..]);
        }
        if let (Some(items), Some(k)) = (self.args, self.kernel_indent) {
            if indent > k + 2 {
                return self.arg_line(items, indent, t);
            }
            self.args = None;
        }
        if self.kernel_indent.is_some_and(|k| indent == k + 2) {
            self.key(t);
        }
    }

    /// A line of a kernel's `.args:` list: `- .key: value` starts an argument, `.key: value`
    /// at the item's key column continues it.
    fn arg_line(&mut self, items: Option<usize>, indent: usize, t: &str) {
        let Some((_, d)) = self.kernels.last_mut() else {
            return;
        };
        let entry = if let Some(rest) = t.strip_prefix("- ") {
            if items.is_some_and(|c| c != indent) {
                return;
            }
            self.args = Some(Some(indent));
            d.args.push(KernelArg::default());
            rest
        } else if items.is_some_and(|c| indent == c + 2) {
            t
        } else {
            return;
        };
        let Some((key, value)) = entry.split_once(':') else {
            return;
        };
        let value = value.trim().trim_matches(['\'', '"']);
        let Some(arg) = d.args.last_mut() else {
            return;
        };
        match key.trim() {
            ".name" => arg.name = Some(value.to_string()),
            ".offset" => arg.offset = value.parse().unwrap_or(0),
            ".size" => arg.size = value.parse().unwrap_or(0),
            ".value_kind" => arg.value_kind = value.to_string(),
            ".type_name" => arg.type_name = Some(value.to_string()),
            _ => {}
        }
    }

    fn key(&mut self, t: &str) {
        let Some((key, value)) = t.split_once(':') else {
            return;
        };
        let value = value.trim();
        let Some((name, d)) = self.kernels.last_mut() else {
            return;
        };
        let int = || value.parse::<u32>().ok();
        match key.trim() {
            ".name" => *name = Some(value.trim_matches(['\'', '"']).to_string()),
            ".group_segment_fixed_size" => d.lds_bytes = int(),
            ".private_segment_fixed_size" => d.scratch_bytes = int(),
            ".vgpr_count" => d.vgprs = int(),
            ".sgpr_count" => d.sgprs = int(),
            ".wavefront_size" => d.wave_size = int(),
            ".reqd_workgroup_size" if value.is_empty() => self.list = Some(Vec::new()),
            ".args" if value.is_empty() => self.args = Some(None),
            ".reqd_workgroup_size" => {
                let list: Vec<u32> = value
                    .trim_matches(['[', ']'])
                    .split(',')
                    .filter_map(|v| v.trim().parse().ok())
                    .collect();
                self.set_workgroup(&list);
            }
            _ => {}
        }
    }

    fn set_workgroup(&mut self, list: &[u32]) {
        if let (Some((_, d)), [x, y, z]) = (self.kernels.last_mut(), list) {
            d.workgroup_size = valid_workgroup(*x, *y, *z);
        }
    }

    pub(super) fn end(&mut self) {
        if let Some(list) = self.list.take() {
            self.set_workgroup(&list);
        }
        self.kernel_indent = None;
        self.in_kernels = false;
        self.args = None;
    }
}

impl LineReader<'_> {
    pub(super) fn directive(&mut self, n: u32, raw: &str, t: &str) -> Result<(), AsmError> {
        let mut words = t.split_whitespace();
        let name = words.next().unwrap_or("");
        let arg = t[name.len()..].trim();
        let col = raw.len() - raw.trim_start().len();
        match name {
            ".amdgpu_metadata" | ".amdgpu_pal_metadata" => self.in_metadata = true,
            ".set" | ".equ" => {
                if let Some((sym, value)) = arg.split_once(',') {
                    self.symbols
                        .insert(sym.trim().to_string(), value.trim().to_string());
                }
            }
            ".file" => self.file_directive(arg),
            ".loc" => {
                let mut nums = arg.split_whitespace().map(|w| w.parse::<u32>().ok());
                self.loc = match (nums.next().flatten(), nums.next().flatten()) {
                    // Line 0: code with no source line (compiler-made).
                    (Some(_), Some(0)) => None,
                    (Some(file), Some(line)) => Some(SourceLoc {
                        file,
                        line,
                        column: nums.next().flatten().unwrap_or(0),
                    }),
                    _ => self.loc,
                };
            }
            ".text" => self.in_data_section = false,
            ".data" | ".rodata" | ".bss" => self.in_data_section = true,
            ".section" => {
                let sec = arg.split(',').next().unwrap_or("").trim().trim_matches('"');
                self.in_data_section = !(sec.starts_with(".text") || sec == ".AMDGPU.config");
                if sec == ".AMDGPU.config" {
                    self.in_config = true;
                    self.in_data_section = true;
                } else {
                    self.in_config = false;
                }
            }
            ".long" if self.in_config => {
                if let Some(v) = shadersim_isa::operand::parse_int(arg) {
                    if let Some((_, stage)) = CONFIG_STAGE_REGISTERS
                        .iter()
                        .find(|(r, _)| i64::from(*r) == v)
                    {
                        self.pending_stage = Some(*stage);
                    }
                }
            }
            ".type" => {
                if let Some((sym, kind)) = arg.split_once(',') {
                    if kind.trim() == "@function" {
                        self.function_symbols.push(sym.trim().to_string());
                    }
                }
            }
            ".amdhsa_kernel" => {
                self.descriptor = Some((
                    arg.to_string(),
                    DeclaredResources {
                        wave_size: Some(64),
                        ..Default::default()
                    },
                ))
            }
            ".end_amdhsa_kernel" => self.end_descriptor(),
            _ if name.starts_with(".amdhsa_") => self.descriptor_field(n, col, name, arg),
            _ if KNOWN_DIRECTIVES.contains(&name) => {}
            _ => self.warn(n, col, format!("skipped unknown directive `{name}`")),
        }
        Ok(())
    }

    /// `.file 0 "/dir" "name.cl" md5 0x...` or `.file 1 "path"`: the source files `.loc` names.
    fn file_directive(&mut self, arg: &str) {
        // `.file 0 "/dir" "name.cl" md5 0x...` or `.file 1 "path"`;
        // a `.file "name"` without number names the assembler input.
        let (number, rest) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
        if let Ok(number) = number.parse::<u32>() {
            let strings: Vec<&str> = rest.split('"').skip(1).step_by(2).collect();
            if let (0, [dir, _, ..]) = (number, strings.as_slice()) {
                self.compile_dir = Some(dir.to_string()).filter(|d| !d.is_empty());
            }
            // A name without a directory is relative to the compilation directory:
            // clang given `/abs/fir.cl` writes `.file 0 "/abs" "/abs/fir.cl"` and
            // then `.file 2 "fir.cl"`, the same file (issue 47 item 4: a `fir.cl:28`
            // hint found two files and was refused as ambiguous).
            let path = match (strings.as_slice(), &self.compile_dir) {
                ([dir, name, ..], _) if !name.starts_with('/') && !dir.is_empty() => {
                    format!("{dir}/{name}")
                }
                ([name], Some(dir)) if !name.starts_with('/') => {
                    format!("{dir}/{name}")
                }
                ([_, name, ..] | [name], _) => name.to_string(),
                ([], _) => String::new(),
            };
            self.source_files.retain(|(n, _)| *n != number);
            self.source_files.push((number, path));
        }
    }

    /// `.end_amdhsa_kernel`: the descriptor read since `.amdhsa_kernel` goes to its kernel.
    fn end_descriptor(&mut self) {
        if let Some((kname, d)) = self.descriptor.take() {
            // The descriptor may come before or after the code.
            let target = self
                .current
                .as_mut()
                .filter(|p| p.name == kname)
                .or_else(|| self.programs.iter_mut().rev().find(|p| p.name == kname));
            match target {
                Some(p) => {
                    if p.stage.is_none() {
                        p.stage = Some(Stage::Compute);
                    }
                    merge_declared(&mut p.declared, d)
                }
                None => {
                    self.descriptors.insert(kname, d);
                }
            }
        }
    }

    /// One `.amdhsa_*` field of the descriptor being read.
    fn descriptor_field(&mut self, n: u32, col: usize, name: &str, arg: &str) {
        if let Some((kernel, d)) = self.descriptor.as_mut() {
            let literal = shadersim_isa::operand::parse_int(arg);
            // clang 20+ writes register counts of kernels with calls
            // as expressions over `.set` symbols defined later.
            if literal.is_none()
                && matches!(name, ".amdhsa_next_free_vgpr" | ".amdhsa_next_free_sgpr")
            {
                self.deferred.push(Deferred {
                    kernel: kernel.clone(),
                    directive: name.to_string(),
                    expr: arg.to_string(),
                    line: n,
                    column: col,
                });
            }
            let v = literal.and_then(|v| u32::try_from(v).ok());
            match name {
                ".amdhsa_next_free_vgpr" => d.vgprs = v,
                ".amdhsa_next_free_sgpr" => d.sgprs = v,
                ".amdhsa_group_segment_fixed_size" => d.lds_bytes = v,
                ".amdhsa_private_segment_fixed_size" => d.scratch_bytes = v,
                ".amdhsa_user_sgpr_count" => d.user_sgprs = v,
                ".amdhsa_user_sgpr_private_segment_buffer" => {
                    d.user_sgpr_enables[0] = v.map(|v| v != 0)
                }
                ".amdhsa_user_sgpr_dispatch_ptr" => d.user_sgpr_enables[1] = v.map(|v| v != 0),
                ".amdhsa_user_sgpr_queue_ptr" => d.user_sgpr_enables[2] = v.map(|v| v != 0),
                ".amdhsa_user_sgpr_kernarg_segment_ptr" => {
                    d.user_sgpr_enables[3] = v.map(|v| v != 0)
                }
                ".amdhsa_system_sgpr_workgroup_id_x"
                | ".amdhsa_system_sgpr_workgroup_id_y"
                | ".amdhsa_system_sgpr_workgroup_id_z" => {
                    let dim = usize::from(name.as_bytes()[name.len() - 1] - b'x');
                    let ids = d.workgroup_ids.get_or_insert([true, false, false]);
                    ids[dim] = v != Some(0);
                }
                ".amdhsa_wavefront_size32" => {
                    d.wave_size = Some(if v == Some(1) { 32 } else { 64 })
                }
                _ => {}
            }
        }
    }

    /// Statistics comments LLVM prints per function.
    pub(super) fn stats_comment(&mut self, comment: &str) {
        let c = comment.trim_start_matches([';', '/']).trim();
        let Some((key, value)) = c.split_once(':') else {
            return;
        };
        let value: Option<u32> = value.split_whitespace().next().and_then(|v| v.parse().ok());
        let key = key.trim();
        if !matches!(
            key,
            "NumVgprs" | "NumSgprs" | "ScratchSize" | "LDSByteSize" | "Occupancy"
        ) {
            return;
        }
        let Some(p) = self.stats_program() else {
            return;
        };
        let d = &mut p.declared;
        match key {
            // The descriptor's next_free counts win; comments fill gaps.
            // A count printed as an expression (clang 20+, kernels with
            // calls) says nothing here; the descriptor's is evaluated.
            "NumVgprs" => d.vgprs = d.vgprs.or(value),
            "NumSgprs" => d.sgprs = d.sgprs.or(value),
            "ScratchSize" => d.scratch_bytes = d.scratch_bytes.or(value),
            "LDSByteSize" => d.lds_bytes = d.lds_bytes.or(value),
            "Occupancy" => d.occupancy = value,
            _ => {}
        }
    }

    /// Evaluate the descriptor values written as expressions.
    pub(super) fn evaluate_deferred(&mut self) {
        let target = self.target.as_ref();
        let env = Env {
            symbols: &self.symbols,
            unified_agprs: target.is_some_and(|t| t.has_unified_agprs()),
            gen: self.gen.number(),
        };
        for d in std::mem::take(&mut self.deferred) {
            let value = eval(&d.expr, &env).and_then(|v| u32::try_from(v).ok());
            let Some(value) = value else {
                self.warnings.push(Warning {
                    pos: Some(SourcePos {
                        line: d.line,
                        column: d.column as u32 + 1,
                    }),
                    message: format!(
                        "cannot evaluate `{} {}`; the register count comes from the instructions",
                        d.directive, d.expr
                    ),
                });
                continue;
            };
            let Some(p) = self.programs.iter_mut().find(|p| p.name == d.kernel) else {
                continue;
            };
            if d.directive == ".amdhsa_next_free_vgpr" {
                p.declared.vgprs = Some(value);
            } else {
                p.declared.sgprs = Some(value);
            }
        }
    }
}

/// Directives read silently (they carry nothing the simulator needs).
const KNOWN_DIRECTIVES: &[&str] = &[
    ".amdgcn_target",
    ".p2alignl",
    ".amdhsa_code_object_version",
    ".globl",
    ".global",
    ".protected",
    ".hidden",
    ".weak",
    ".p2align",
    ".align",
    ".size",
    ".ident",
    ".addrsig",
    ".addrsig_sym",
    ".set",
    ".file",
    ".loc",
    ".cfi_startproc",
    ".cfi_endproc",
    ".cfi_sections",
    ".local",
    ".comm",
    ".end_amdgpu_metadata",
    ".byte",
    ".short",
    ".long",
    ".quad",
    ".zero",
    ".space",
    ".asciz",
    ".ascii",
    ".string",
    ".word",
    ".hsa_code_object_version",
    ".hsa_code_object_isa",
    ".amd_kernel_code_t",
    ".end_amd_kernel_code_t",
    ".amd_amdgpu_isa",
    ".amd_amdgpu_hsa_metadata",
    ".end_amd_amdgpu_hsa_metadata",
    ".amdgpu_hsa_kernel",
    ".end_amdgpu_pal_metadata",
    ".previous",
    ".popsection",
    ".pushsection",
    ".option",
    ".macro",
    ".endm",
    ".equ",
    ".reloc",
    ".uleb128",
    ".sleb128",
    ".balign",
    ".fill",
    ".type",
    ".loc_file",
];

pub(super) fn merge_declared(into: &mut DeclaredResources, from: DeclaredResources) {
    into.vgprs = from.vgprs.or(into.vgprs);
    into.sgprs = from.sgprs.or(into.sgprs);
    into.lds_bytes = from.lds_bytes.or(into.lds_bytes);
    into.scratch_bytes = from.scratch_bytes.or(into.scratch_bytes);
    into.wave_size = from.wave_size.or(into.wave_size);
    if into.occupancy.is_none() {
        into.occupancy_from_radv = from.occupancy_from_radv;
    }
    into.occupancy = into.occupancy.or(from.occupancy);
    into.workgroup_size = from.workgroup_size.or(into.workgroup_size);
    into.user_sgprs = from.user_sgprs.or(into.user_sgprs);
    into.workgroup_ids = from.workgroup_ids.or(into.workgroup_ids);
    for (i, e) in from.user_sgpr_enables.into_iter().enumerate() {
        into.user_sgpr_enables[i] = e.or(into.user_sgpr_enables[i]);
    }
    if !from.args.is_empty() {
        into.args = from.args;
    }
}
