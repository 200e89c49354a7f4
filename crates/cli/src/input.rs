//! Reading the assembly file named on the command line.

use crate::error::CliError;
use shadersim_asm::{read_program_bytes, Program, ProgramFile, ReadOptions};
use shadersim_isa::Target;
use std::io::Read;

/// The arguments naming a program: the file, which program of it, and
/// the GPU to read it as when it does not say.
#[derive(Debug, clap::Args)]
pub struct ProgramArgs {
    /// Assembly file (`-` for standard input).
    pub file: String,
    /// Program to use when the file holds several (kernel, function or shader name).
    #[arg(long)]
    pub function: Option<String>,
    /// GPU to read the file as when it does not say (gfx900, rdna3, a model name, ...).
    #[arg(long)]
    pub arch: Option<String>,
}

/// The arguments of every command that simulates a program (`analyze`,
/// `compare`, `sweep`): the model, the hints, the overrides and which
/// program, declared once.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Architecture model (see `shadersim archs`), a model file (.toml), or a
    /// GPU (gfx1031, navi21, vega10). Default: the model of the file's GPU,
    /// else `gcn`. `compare` with one file takes a comma-separated list of at
    /// least two models to compare the file on.
    #[arg(long)]
    pub arch: Option<String>,
    /// Hints file (TOML): loop counts, branches, formats, dispatch (`-` for
    /// standard input).
    #[arg(long)]
    pub hints: Option<String>,
    /// Override one model parameter or dispatch key, e.g. `--set vmem_latency=300` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Program to simulate when the file holds several (kernel, function or shader name).
    #[arg(long)]
    pub function: Option<String>,
    /// Compute launch: workgroups per dimension (HIP's gridDim), `4096` or `64x64`; the
    /// report then gives the kernel's time on the whole GPU (`[launch] grid`).
    #[arg(long, value_name = "GX[xGY[xGZ]]")]
    pub grid: Option<String>,
    /// Compute launch: work-items per dimension (OpenCL's global size), instead of `--grid`.
    #[arg(long, value_name = "X[xY[xZ]]")]
    pub global: Option<String>,
    /// Compute launch: work-items per workgroup, `256` or `16x16` (`[launch] block`).
    #[arg(long, value_name = "BX[xBY[xBZ]]")]
    pub block: Option<String>,
    /// A kernel argument's value by its source name, `--arg n=1048576` (a `__local` pointer:
    /// its bytes); loop bounds, addresses and branches built from it use it (repeatable).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// A preprocessor definition for OpenCL C compiled in place, `-D BLOCK_SIZE=16` (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// GLSL compiled in place: port OpenGL ES GLSL older than 3.10 to `#version 310 es` first,
    /// as `compile --port-es` does (Vulkan SPIR-V takes no older ES).
    #[arg(long)]
    pub port_es: bool,
}

/// How source handed to a command instead of a listing is compiled: what
/// `compile` takes as options, passed through by every command that
/// compiles in place.
#[derive(Debug, Clone, Copy, Default)]
pub struct SourceOptions<'a> {
    /// OpenCL C preprocessor definitions (`-D NAME[=VALUE]`).
    pub defines: &'a [String],
    /// Port old OpenGL ES GLSL to ES 3.10 first (`--port-es`).
    pub port_es: bool,
}

impl RunArgs {
    /// The options for source compiled in place (`-D`, `--port-es`).
    pub fn source(&self) -> SourceOptions<'_> {
        SourceOptions {
            defines: &self.define,
            port_es: self.port_es,
        }
    }

    /// The `--set` pairs with the launch options (`--grid`, `--global`, `--block`) among them,
    /// as the keys of `[launch]`.
    pub fn sets(&self) -> Result<Vec<(String, String)>, CliError> {
        let mut sets = parse_sets(&self.set)?;
        for (key, value) in [
            ("grid", &self.grid),
            ("global", &self.global),
            ("block", &self.block),
        ] {
            if let Some(v) = value {
                sets.push((key.to_string(), v.clone()));
            }
        }
        for a in &self.args {
            let (name, value) = a
                .split_once('=')
                .ok_or_else(|| CliError::Usage(format!("--arg expects NAME=VALUE, got `{a}`")))?;
            sets.push((format!("arg.{}", name.trim()), value.trim().to_string()));
        }
        Ok(sets)
    }
}

/// Parse `--set KEY=VALUE` pairs.
pub fn parse_sets(sets: &[String]) -> Result<Vec<(String, String)>, CliError> {
    sets.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| CliError::Usage(format!("--set expects KEY=VALUE, got `{s}`")))
        })
        .collect()
}

/// The ISA target an `--arch` value stands for: a model's ISA, a gfx
/// name, or a family name (the arch crate's name table).
pub fn target_for_arch(arch: &str) -> Option<Target> {
    shadersim_arch::ArchSpec::target_for_name(arch)
}

/// A listing read: its programs, and for a TeraScale file the file as its
/// own reader gave it (the `vliw` report needs the instruction groups).
#[derive(Debug, Clone)]
pub struct Listing {
    /// The programs every command works on.
    pub file: ProgramFile,
    /// The TeraScale file the programs were lowered from, if it is one.
    pub r600: Option<shadersim_r600::R600File>,
    /// The launch a Triton cache entry's json gives, for a code object read with one.
    pub triton: Option<crate::triton::TritonLaunch>,
}

/// Read FILE (`-` = standard input) and parse it; `arch` gives the target
/// for files that do not name theirs.
pub fn read_input(path: &str, arch: Option<&str>) -> Result<ProgramFile, CliError> {
    read_listing(path, arch).map(|l| l.file)
}

/// [`read_input`], keeping a TeraScale file's own reading.
pub fn read_listing(path: &str, arch: Option<&str>) -> Result<Listing, CliError> {
    read_listing_with(path, arch, SourceOptions::default())
}

/// [`read_listing`] compiling source with `source`'s options (`-D`, `--port-es`).
pub fn read_listing_with(
    path: &str,
    arch: Option<&str>,
    source: SourceOptions<'_>,
) -> Result<Listing, CliError> {
    let SourceOptions { defines, port_es } = source;
    // Shader source is compiled for the chosen GPU first; hints then refer
    // to the lines of the compiled listing (`shadersim compile` prints it).
    if path != "-" && crate::commands::compile::source_kind(path).is_some() {
        let target = source_target(path, arch)?;
        let compiled =
            crate::commands::compile::compile_source(path, &target, None, port_es, defines)?;
        return compiled_listing(path, compiled, &target, arch, port_es);
    }
    let (name, bytes) = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| CliError::input(format!("<stdin>: error: {e}")))?;
        // Source on standard input is compiled as a source file would be.
        if let Some(ext) = crate::commands::compile::stdin_source_kind(&buf, None) {
            let target = source_target("<stdin>", arch)?;
            let compiled = crate::commands::compile::compile_stdin(
                &buf, ext, &target, None, port_es, defines,
            )?;
            return compiled_listing("-", compiled, &target, arch, port_es);
        }
        ("<stdin>".to_string(), buf)
    } else {
        // A Triton cache entry (a directory) is read as its code object.
        let entry = crate::triton::entry(path)?;
        let path = entry.as_ref().map_or(path, |(hsaco, _)| hsaco.as_str());
        let bytes = std::fs::read(path).map_err(|e| crate::error::cannot_read(path, &e))?;
        (path.to_string(), bytes)
    };
    let beside = (path != "-").then_some(name.as_str());
    let (listing, notes) = parse_listing(&name, beside, &bytes, arch)?;
    for w in listing.file.formatted_warnings() {
        crate::notes::emit(w);
    }
    for n in notes {
        crate::notes::emit(n);
    }
    Ok(listing)
}

/// The GPU to compile source `path` for: `--arch`'s.
fn source_target(path: &str, arch: Option<&str>) -> Result<Target, CliError> {
    let arch = arch.ok_or_else(|| {
        CliError::Usage(format!(
            "{path} is shader source: say which GPU to compile it for with --arch"
        ))
    })?;
    target_for_arch(arch).ok_or_else(|| {
        CliError::Usage(format!("`{arch}` is not a GPU target (use a gfx name such as gfx900 or a family such as rdna3)"))
    })
}

/// The listing a compiler made from source `path` (`-`: standard input),
/// read as the program file. It exists only in memory, so messages and
/// reports name it `<listing compiled from PATH>`, never a file name that
/// does not exist.
fn compiled_listing(
    path: &str,
    compiled: crate::commands::compile::Compiled,
    target: &Target,
    arch: Option<&str>,
    port_es: bool,
) -> Result<Listing, CliError> {
    let source = if path == "-" { "<stdin>" } else { path };
    // The command that prints the same listing, so hints' lines can be read.
    let port = if port_es { " --port-es" } else { "" };
    let name = format!("<listing compiled from {source}>");
    let arch = arch.unwrap_or(&target.name);
    crate::notes::emit(format!("{source}: note: compiled for {}; lines refer to the listing `shadersim compile{port} {path} --arch {arch}` prints", target.name));
    let mut file = read_program_bytes(
        &name,
        compiled.listing.as_bytes(),
        &ReadOptions {
            target: Some(target.clone()),
            default_target: None,
        },
    )
    .map_err(|e| CliError::Input(e.to_string()))?;
    for w in file.formatted_warnings() {
        crate::notes::emit(w);
    }
    // A bare listing does not carry the workgroup size: the source does.
    if let Some(size) = compiled.workgroup_size {
        for p in &mut file.programs {
            p.declared.workgroup_size = p.declared.workgroup_size.or(Some(size));
        }
    }
    if let Some(text) = &compiled.statistics {
        let stats = shadersim_asm::parse_driver_statistics(text);
        if shadersim_asm::apply_driver_statistics(&mut file, &stats) > 0 {
            crate::notes::emit(format!(
                "{source}: note: registers, LDS and occupancy from the driver's statistics"
            ));
        }
    }
    Ok(Listing {
        file,
        r600: None,
        triton: None,
    })
}

/// Parse a listing's bytes (`name` for messages): a TeraScale file with its
/// own reader, else the assembly reader with `arch`'s GPU for a file that
/// does not name its own; then the driver's statistics saved beside `path`
/// (none for standard input). The one reading path of every command
/// (`batch` included): returns the file (its warnings not yet printed)
/// and the notes about what was applied, for the caller to print or keep.
pub fn parse_listing(
    name: &str,
    path: Option<&str>,
    bytes: &[u8],
    arch: Option<&str>,
) -> Result<(Listing, Vec<String>), CliError> {
    // Code objects (ELF, clang offload bundles), recognised by their magic:
    // decoded by shadersim itself, then read as the listing they print.
    // A `.hsaco` with Triton's json beside it also gives its launch.
    if shadersim_codeobj::detect(bytes).is_some() {
        let json = path.and_then(|p| crate::triton::json_beside(std::path::Path::new(p)));
        let triton = match (&json, path) {
            (Some(j), Some(p)) => Some(crate::triton::read_launch(j, std::path::Path::new(p))?),
            _ => None,
        };
        // The json's target reads a code object that does not name its own.
        let arch = arch.or(triton.as_ref().and_then(|t| t.arch.as_deref()));
        let mut listing = code_object_listing(name, bytes, arch)?;
        let mut notes = Vec::new();
        if let Some(t) = &triton {
            for p in &listing.file.programs {
                let gpu = p.target.as_ref().map(|t| t.name.as_str());
                if let (Some(gpu), Some(said)) = (gpu, t.arch.as_deref()) {
                    if !said.starts_with(gpu) {
                        notes.push(format!("{}: warning: the json says {said}, the code object {gpu}; the code object's is used", t.json));
                    }
                }
            }
        }
        listing.triton = triton;
        return Ok((listing, notes));
    }
    // TeraScale files (LLVM's R600 backend) have their own reader.
    if let Ok(text) = std::str::from_utf8(bytes) {
        if shadersim_r600::looks_like_r600(text) {
            let (r600, file) = crate::commands::vliw::read_program_file(name, text, arch)?;
            let r600 = Some(r600);
            return Ok((
                Listing {
                    file,
                    r600,
                    triton: None,
                },
                Vec::new(),
            ));
        }
    }
    let target = match arch {
        Some(a) => Some(target_for_arch(a).ok_or_else(|| {
            CliError::Usage(format!("`{a}` is not a GPU target (use a gfx name such as gfx900 or a family such as rdna3)"))
        })?),
        None => None,
    };
    let mut file = read_program_bytes(
        name,
        bytes,
        &ReadOptions {
            target: None,
            default_target: target,
        },
    )
    .map_err(|e| CliError::Input(e.to_string()))?;
    let mut notes = Vec::new();
    if let Some((stats_path, text)) = path.and_then(statistics_beside) {
        let stats = shadersim_asm::parse_driver_statistics(&text);
        if shadersim_asm::apply_driver_statistics(&mut file, &stats) > 0 {
            notes.push(format!("{name}: note: registers, LDS and occupancy from the driver's statistics in {stats_path}"));
        }
    }
    Ok((
        Listing {
            file,
            r600: None,
            triton: None,
        },
        notes,
    ))
}

/// A code object (AMDGPU ELF, clang offload bundle, or a host ELF embedding
/// bundles): its machine code decoded into the `llvm-objdump -d` listing the
/// assembly reader reads, and every kernel's resources taken from its
/// descriptor and metadata note, as the `.amdhsa_*` directives of a listing
/// give them. A bundle with several targets gives the programs of each (named
/// `KERNEL@gfxNNN`, each with its own target) unless `--arch` picks one.
fn code_object_listing(name: &str, bytes: &[u8], arch: Option<&str>) -> Result<Listing, CliError> {
    let wanted = match arch {
        Some(a) => Some(target_for_arch(a).ok_or_else(|| {
            CliError::Usage(format!("`{a}` is not a GPU target (use a gfx name such as gfx900 or a family such as rdna3)"))
        })?),
        None => None,
    };
    let objects =
        shadersim_codeobj::read_code_objects(name, bytes, wanted.as_ref().map(|t| t.name.as_str()))
            .map_err(|e| CliError::Input(e.to_string()))?;
    let several = objects.len() > 1;
    let mut merged: Option<ProgramFile> = None;
    for obj in &objects {
        let mut file = code_object_programs(name, obj)?;
        if several {
            for p in &mut file.programs {
                p.name = format!("{}@{}", p.name, obj.processor);
            }
        }
        match merged.as_mut() {
            None => merged = Some(file),
            Some(m) => {
                m.programs.extend(file.programs);
                m.warnings.extend(file.warnings);
            }
        }
    }
    let file = merged
        .ok_or_else(|| CliError::Input(format!("{name}: error: no code object in the file")))?;
    Ok(Listing {
        file,
        r600: None,
        triton: None,
    })
}

/// One code object's programs: decoded, read as a listing for its own GPU,
/// kernels given their declared resources.
fn code_object_programs(
    name: &str,
    obj: &shadersim_codeobj::CodeObject,
) -> Result<ProgramFile, CliError> {
    let target = target_for_arch(&obj.processor).ok_or_else(|| {
        CliError::Input(format!(
            "{name}: error: code object for {}, a GPU shadersim does not know",
            obj.processor
        ))
    })?;
    let decoded = shadersim_codeobj::listing::decode_object(obj)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let mut file = shadersim_asm::read_program_text(
        name,
        &decoded.text,
        &ReadOptions {
            target: Some(target.clone()),
            default_target: None,
        },
    )
    .map_err(|e| {
        CliError::Input(format!(
            "{e} (in the listing decoded from the {} code object)",
            obj.processor
        ))
    })?;
    for p in &mut file.programs {
        let Some(f) = obj.functions.iter().find(|f| f.name == p.name) else {
            continue;
        };
        if f.descriptor.is_none() && f.metadata.is_none() {
            continue;
        }
        let uses_vcc = decoded
            .functions
            .iter()
            .find(|(n, _)| *n == f.name)
            .is_some_and(|(_, insts)| insts.iter().any(|d| d.text.contains("vcc")));
        p.declared = code_object_resources(obj, f, u32::from(target.gen.number()), uses_vcc);
        p.stage = Some(shadersim_asm::Stage::Compute);
    }
    orphan_kernel_copies(obj, &mut file);
    Ok(file)
}

/// A warning for each of clang's callable copies of a kernel
/// (`__clang_ocl_kern_imp_NAME`) whose kernel is no function of the code
/// object (its symbol missing or damaged): a run of the file would simulate
/// the copy, a device function that takes its arguments in registers and
/// returns, and not the kernel the GPU launches (issue 47 saw 3.6 times the
/// kernel's clocks), so it says which function that is.
fn orphan_kernel_copies(obj: &shadersim_codeobj::CodeObject, file: &mut ProgramFile) {
    let names: Vec<String> = file.programs.iter().map(|p| p.name.clone()).collect();
    for copy in &names {
        let Some(kernel) = copy.strip_prefix(CLANG_KERNEL_COPY) else {
            continue;
        };
        if names.iter().any(|n| n == kernel) {
            continue;
        }
        let described = obj
            .metadata
            .as_ref()
            .is_some_and(|m| m.kernels.iter().any(|k| k.name == kernel));
        file.warnings.push(shadersim_asm::Warning {
            pos: None,
            message: format!(
                "`{copy}` is clang's callable copy of kernel `{kernel}`, which is no function of the code object (its symbol is missing or damaged{}): the program `{copy}` is that copy, a device function taking its arguments in registers, not the kernel the GPU launches; its figures are not the kernel's",
                match described {
                    true => "; the metadata note still lists the kernel",
                    false => "",
                }
            ),
        });
    }
}

/// A kernel's resources from its metadata note (preferred: exact counts) and
/// descriptor (granulated), in the units `.amdhsa_*` directives state them:
/// SGPRs without VCC, FLAT_SCRATCH and XNACK_MASK (`.amdhsa_next_free_sgpr`;
/// the model adds those), from the `NAME.numbered_sgpr` symbol clang 20+
/// writes, else the note's count minus the extra SGPRs by LLVM's rule
/// (`getNumExtraSGPRs`: VCC 2; gfx8/gfx9 6 with flat scratch or XNACK, which
/// takes 4 alone; none beyond VCC on gfx10+).
fn code_object_resources(
    obj: &shadersim_codeobj::CodeObject,
    f: &shadersim_codeobj::Function,
    gen: u32,
    uses_vcc: bool,
) -> shadersim_asm::DeclaredResources {
    let md = f.metadata.as_ref();
    let kd = f.descriptor.as_ref();
    let unified = obj
        .processor
        .parse::<shadersim_isa::Target>()
        .is_ok_and(|t| t.has_unified_agprs());
    let wave_size = md
        .and_then(|m| m.wavefront_size)
        .or_else(|| kd.map(|k| if k.wave32() { 32 } else { 64 }));
    let extra = {
        let vcc = if uses_vcc { 2 } else { 0 };
        let flat = kd.is_some_and(|k| k.flat_scratch_init());
        if gen >= 10 {
            vcc
        } else if flat {
            6
        } else if obj.xnack {
            4
        } else {
            vcc
        }
    };
    let sgprs = f
        .numbered_sgprs
        .or_else(|| {
            md.and_then(|m| m.sgpr_count)
                .map(|c| c.saturating_sub(extra))
        })
        .or_else(|| kd.and_then(|k| k.sgprs(gen)));
    shadersim_asm::DeclaredResources {
        vgprs: md
            .and_then(|m| m.vgpr_count)
            .or_else(|| kd.map(|k| k.vgprs(unified))),
        sgprs,
        sgprs_allocated: false,
        lds_bytes: md
            .and_then(|m| m.group_segment_fixed_size)
            .or_else(|| kd.map(|k| k.group_segment_fixed_size)),
        scratch_bytes: md
            .and_then(|m| m.private_segment_fixed_size)
            .or_else(|| kd.map(|k| k.private_segment_fixed_size)),
        occupancy: None,
        occupancy_from_radv: false,
        wave_size,
        workgroup_size: md.and_then(|m| m.reqd_workgroup_size),
        instruction_count: None,
        // Where the workgroup ids land (after the user SGPRs), as the `.amdhsa_*` directives
        // give them in a listing: the address patterns read from the code name them.
        user_sgprs: kd.map(|k| k.user_sgprs()),
        workgroup_ids: kd.map(|k| k.workgroup_ids()),
        // kernel_code_properties bits 0-3: private segment buffer, dispatch pointer, queue
        // pointer, kernel-argument pointer (the AMDGPU kernel descriptor's layout).
        user_sgpr_enables: kd.map_or([None; 4], |k| {
            [0, 1, 2, 3].map(|bit| Some(k.kernel_code_properties & (1 << bit) != 0))
        }),
        // The note's argument list, as a listing's `.amdgpu_metadata` gives it: `--arg` values
        // and the launch's hidden counts land at these offsets.
        args: md.map_or_else(Vec::new, |m| {
            m.args
                .iter()
                .map(|a| shadersim_asm::KernelArg {
                    name: a.name.clone(),
                    offset: a.offset,
                    size: a.size,
                    value_kind: a.value_kind.clone(),
                    type_name: a.type_name.clone(),
                })
                .collect()
        }),
        kernarg_values: Default::default(),
        dispatch_values: Default::default(),
    }
}

/// The driver's statistics saved beside a listing: for `dir/a.cs.s`,
/// `dir/a.cs.stats.toml` or `dir/a.stats.toml` (the names
/// `scripts/regen-aco-listings.sh` and `scripts/regen-fixtures.sh` write).
fn statistics_beside(path: &str) -> Option<(String, String)> {
    let p = std::path::Path::new(path);
    let dir = p.parent().unwrap_or(std::path::Path::new(""));
    let mut stem = p.file_name()?.to_str()?;
    while let Some((shorter, _)) = stem.rsplit_once('.') {
        let candidate = dir.join(format!("{shorter}.stats.toml"));
        if let Ok(text) = std::fs::read_to_string(&candidate) {
            return Some((candidate.display().to_string(), text));
        }
        stem = shorter;
    }
    None
}

/// Pick the program named `function`, or the first one (warning when the
/// file holds several).
///
/// `function` selects, in this order: the program with exactly that name;
/// else the one whose name equals it ignoring case; else the only one whose
/// name starts with it ignoring case (`pixel` for "Pixel Shader"); else the
/// only one with a word equal to it ignoring case (`VS` for "Vertex Shader
/// as VS"). Anything else is an error listing the names.
pub fn select_program<'a>(
    file: &'a ProgramFile,
    function: Option<&str>,
) -> Result<&'a Program, CliError> {
    match function {
        Some(f) => match match_program_name(file.programs.iter().map(|p| p.name.as_str()), f) {
            Ok(i) => Ok(&file.programs[i]),
            Err(candidates) => {
                let quote = |names: Vec<&str>| {
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let names: Vec<&str> = file.programs.iter().map(|p| p.name.as_str()).collect();
                Err(CliError::Input(if candidates.is_empty() {
                    format!(
                        "{}: error: no program named `{f}`; the file holds: {} (give a name, or a unique prefix or word of one)",
                        file.file_name,
                        quote(names)
                    )
                } else {
                    format!(
                        "{}: error: `{f}` matches several programs: {}; give more of the name",
                        file.file_name,
                        quote(candidates.iter().map(|&i| names[i]).collect())
                    )
                }))
            }
        },
        None => {
            // Device functions are followed from the kernels that call
            // them; the first kernel or shader is the program.
            let p = file
                .program(None)
                .ok_or_else(|| CliError::Input(format!("{}: error: no program", file.file_name)))?;
            // clang-22's copies of OpenCL kernels are not programs a user
            // chose to write: the note leaves them out, as `batch` does.
            let others: Vec<&str> = file
                .programs
                .iter()
                .filter(|o| o.name != p.name && !is_kernel_copy(file, &o.name))
                .map(|o| o.name.as_str())
                .collect();
            if !others.is_empty() {
                crate::notes::emit(format!(
                    "{}: note: the file holds {} programs; using `{}` (others: {}; pick one with --function)",
                    file.file_name,
                    others.len() + 1,
                    p.name,
                    others.join(", ")
                ));
            }
            Ok(p)
        }
    }
}

/// The prefix clang-22 gives the copy of an OpenCL kernel's body it emits
/// as a device function beside the kernel (`__clang_ocl_kern_imp_NAME`).
pub const CLANG_KERNEL_COPY: &str = "__clang_ocl_kern_imp_";

/// Whether `name` is clang's copy of a kernel `file` also holds.
pub fn is_kernel_copy(file: &ProgramFile, name: &str) -> bool {
    name.strip_prefix(CLANG_KERNEL_COPY)
        .is_some_and(|kernel| file.programs.iter().any(|p| p.name == kernel))
}

/// The index of the program `query` names among `names` (the rule of
/// [`select_program`]), or the indices it matches ambiguously (empty when
/// it matches none).
pub fn match_program_name<'n>(
    names: impl Iterator<Item = &'n str> + Clone,
    query: &str,
) -> Result<usize, Vec<usize>> {
    // An exact name wins even when repeated (the first, as before).
    if let Some(i) = names.clone().position(|n| n == query) {
        return Ok(i);
    }
    let q = query.to_lowercase();
    let stages: [&dyn Fn(&str) -> bool; 3] = [
        &|n: &str| n.to_lowercase() == q,
        &|n: &str| !q.is_empty() && n.to_lowercase().starts_with(&q),
        &|n: &str| {
            n.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '.')
                .any(|w| !w.is_empty() && w.to_lowercase() == q)
        },
    ];
    let mut ambiguous = Vec::new();
    for matches in stages {
        let hits: Vec<usize> = names
            .clone()
            .enumerate()
            .filter(|(_, n)| matches(n))
            .map(|(i, _)| i)
            .collect();
        match hits.len() {
            1 => return Ok(hits[0]),
            0 => {}
            _ if ambiguous.is_empty() => ambiguous = hits,
            _ => {}
        }
    }
    Err(ambiguous)
}

#[cfg(test)]
mod tests {
    use super::match_program_name;

    const NAMES: [&str; 3] = ["Pixel Shader", "Vertex Shader as VS", "main"];

    fn pick(q: &str) -> Result<usize, Vec<usize>> {
        match_program_name(NAMES.iter().copied(), q)
    }

    #[test]
    fn exact_then_case_then_prefix_then_word() {
        assert_eq!(pick("main"), Ok(2));
        assert_eq!(pick("MAIN"), Ok(2));
        assert_eq!(pick("Pixel"), Ok(0));
        assert_eq!(pick("vert"), Ok(1));
        assert_eq!(pick("VS"), Ok(1));
        assert_eq!(pick("vs"), Ok(1));
    }

    #[test]
    fn ambiguous_and_unknown() {
        assert_eq!(pick("Shader"), Err(vec![0, 1]));
        assert_eq!(pick("PS"), Err(vec![]));
        assert_eq!(pick(""), Err(vec![]));
    }
}
