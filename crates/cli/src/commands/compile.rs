//! `shadersim compile FILE --arch NAME [-o OUT.s]`: compile shader source
//! for a model's GPU and print (or save) the listing shadersim reads, so
//! hints can be written against its lines. `analyze`, `cfg` and `hints`
//! compile source files the same way before reading them (`input.rs`).
//!
//! OpenCL C (`.cl`) is compiled through clang, GLSL and SPIR-V through
//! Mesa's RADV driver on its null device (`compile_vulkan.rs`); every
//! compiler runs in a child process with a time limit, so a compiler crash
//! or hang is an error, not a crash of shadersim.

pub use super::compiler::Compiled;
use super::compiler::{run_with_timeout, RunError, COMPILE_TIMEOUT};
use crate::error::{CliError, CliResult};
use shadersim_isa::Target;
use std::io::Read;
use std::path::Path;

/// Arguments of `shadersim compile`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Shader source: OpenCL C (`.cl`), GLSL (`.vert`, `.frag`, `.comp`, or
    /// any name with --stage) or SPIR-V (`.spv`).
    pub file: String,
    /// Stage of a GLSL file whose extension does not say (vert, frag, comp).
    #[arg(long)]
    pub stage: Option<String>,
    /// GPU to compile for (gfx900, rdna3, a model name, ...).
    #[arg(long)]
    pub arch: String,
    /// Write the listing here instead of standard output (and, for GLSL
    /// and SPIR-V, the driver's statistics beside it as OUT.stats.toml,
    /// where `analyze OUT` finds them).
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Port OpenGL ES GLSL older than 3.10 (`#version 100`, `300 es`, or
    /// no `#version`) to `#version 310 es` before compiling: Vulkan SPIR-V
    /// takes no older ES. Without it such a file is an error saying how.
    #[arg(long)]
    pub port_es: bool,
    /// A preprocessor definition for OpenCL C, `-D BLOCK_SIZE=16` (repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
}

/// Source languages shadersim can be handed instead of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// OpenCL C, compiled by clang.
    OpenCl,
    /// GLSL (`.vert`, `.frag`, `.comp`, ...) or SPIR-V (`.spv`).
    Vulkan,
}

/// The source language of `path` by its extension (or, for a file with
/// another name, the SPIR-V magic number), or `None` for a listing.
pub fn source_kind(path: &str) -> Option<SourceKind> {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("cl") => Some(SourceKind::OpenCl),
        Some("vert" | "frag" | "comp" | "geom" | "tesc" | "tese" | "glsl" | "spv") => {
            Some(SourceKind::Vulkan)
        }
        _ => is_spirv_file(path).then_some(SourceKind::Vulkan),
    }
}

/// Whether the file starts with SPIR-V's magic number (either byte order).
fn is_spirv_file(path: &str) -> bool {
    let mut magic = [0u8; 4];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    if f.read_exact(&mut magic).is_err() {
        return false;
    }
    let w = u32::from_le_bytes(magic);
    w == shadersim_radv::reflect::SPIRV_MAGIC
        || w.swap_bytes() == shadersim_radv::reflect::SPIRV_MAGIC
}

/// Clang binaries tried in order: clang-22 knows gfx12's newest names,
/// clang-19 is Debian 12's.
const CLANGS: &[&str] = &["clang-22", "clang-19", "clang"];

/// The kind of source standard input holds, from its bytes (it has no
/// name to go by): SPIR-V's magic number; GLSL with `--stage` or a
/// `#pragma shader_stage(...)` line; OpenCL C when it declares a
/// `__kernel`/`kernel void` and is not a listing (no `s_endpgm`). `None`:
/// an assembly listing. Returns the extension the compilers go by.
pub fn stdin_source_kind(bytes: &[u8], stage: Option<&str>) -> Option<&'static str> {
    if bytes.len() >= 4 {
        let w = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        if w == shadersim_radv::reflect::SPIRV_MAGIC
            || w.swap_bytes() == shadersim_radv::reflect::SPIRV_MAGIC
        {
            return Some("spv");
        }
    }
    let text = String::from_utf8_lossy(bytes);
    if stage.is_some()
        || text
            .lines()
            .any(|l| l.trim().starts_with("#pragma shader_stage("))
    {
        return Some("glsl");
    }
    let kernel = text.contains("__kernel") || text.contains("kernel void");
    (kernel && !text.contains("s_endpgm")).then_some("cl")
}

/// Compile source read from standard input: written to a temporary file
/// with the extension `ext` (from [`stdin_source_kind`]) for the
/// compilers, with the working directory searched for OpenCL `#include`s
/// (a file's own directory is what clang searches; standard input's is the
/// directory it was run from). Messages name `<stdin>`, not the temporary file.
pub fn compile_stdin(
    bytes: &[u8],
    ext: &str,
    target: &Target,
    stage: Option<&str>,
    port_es: bool,
    defines: &[String],
) -> Result<Compiled, CliError> {
    let dir = tempfile::Builder::new()
        .prefix("shadersim-stdin")
        .tempdir()
        .map_err(|e| CliError::input(format!("error: cannot make a temporary directory: {e}")))?;
    let path = dir.path().join(format!("stdin.{ext}"));
    std::fs::write(&path, bytes)
        .map_err(|e| CliError::input(format!("error: cannot write {}: {e}", path.display())))?;
    let shown = path.display().to_string();
    let cwd = std::env::current_dir().ok();
    let result = match ext {
        "cl" => compile_opencl(&shown, target, cwd.as_deref(), defines).map(|listing| Compiled {
            listing,
            statistics: None,
            workgroup_size: None,
        }),
        _ => super::compile_vulkan::compile(&shown, target, stage, port_es),
    };
    let rename = |m: String| m.replace(&shown, "<stdin>");
    result.map_err(|e| match e {
        CliError::Input(m) => CliError::Input(rename(m)),
        CliError::Usage(m) => CliError::Usage(rename(m)),
        other => other,
    })
}

/// Compile `path` for `target`; `stage` names a GLSL file's stage when its
/// extension does not; `port_es` ports old ES GLSL first (`--port-es`); `defines` are OpenCL
/// C preprocessor definitions (`-D NAME[=VALUE]`, as the host passes them to its compiler).
pub fn compile_source(
    path: &str,
    target: &Target,
    stage: Option<&str>,
    port_es: bool,
    defines: &[String],
) -> Result<Compiled, CliError> {
    match source_kind(path) {
        Some(SourceKind::OpenCl) => Ok(Compiled {
            listing: compile_opencl(path, target, None, defines)?,
            statistics: None,
            workgroup_size: None,
        }),
        Some(SourceKind::Vulkan) => {
            super::compile_vulkan::compile(path, target, stage, port_es)
        }
        None => Err(CliError::Usage(format!(
            "{path}: not a source file shadersim compiles (.cl, .vert, .frag, .comp, .glsl with --stage, .spv)"
        ))),
    }
}

/// shadersim's OpenCL C built-in library: definitions of the OpenCL
/// library functions (work-item functions, barriers, atomics, math, ...)
/// for amdgcn, in the shape ROCm's device libraries give them. Its header
/// comment lists what it provides and its approximations.
pub const OPENCL_BUILTINS: &str = include_str!("../opencl/builtins.cl");

/// The clang flags every OpenCL C compile shares (the library's and the
/// kernel's): amdgcn without a device library, OpenCL C 2.0.
fn opencl_flags(target: &Target) -> Vec<String> {
    [
        "-O2",
        "-nogpulib",
        "-target",
        "amdgcn-amd-amdhsa",
        &format!("-mcpu={}", target.name),
        "-x",
        "cl",
        "-cl-std=CL2.0",
        // The arguments' names in the metadata (`.name`), so a launch's `--arg NAME=VALUE`
        // finds its argument; only the metadata changes.
        "-cl-kernel-arg-info",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// OpenCL C through clang: `clang -S -gline-tables-only -fdebug-compilation-dir=. -O2 -nogpulib -target
/// amdgcn-amd-amdhsa -mcpu=GFX -x cl -cl-std=CL2.0 -Xclang
/// -mlink-builtin-bitcode -Xclang BUILTINS.bc FILE -o -`. The built-in
/// library ([`OPENCL_BUILTINS`]) is compiled to bitcode once per clang and
/// GPU and linked the way clang links ROCm's device libraries: only the
/// functions the kernel calls and does not define itself are taken,
/// internalized and inlined, so a kernel may define a built-in's name
/// itself. A call left to a function nobody defines is an error
/// ([`unresolved_calls_error`]).
fn compile_opencl(
    path: &str,
    target: &Target,
    include_dir: Option<&Path>,
    defines: &[String],
) -> Result<String, CliError> {
    // clang's own message for a missing file is not ours: check first.
    crate::error::require_file(path)?;
    for clang in CLANGS {
        let version = match run_with_timeout(clang, &["--version"]) {
            Ok(v) => v,
            Err(RunError::NotFound) => continue,
            Err(e) => return Err(clang_error(path, clang, target, e)),
        };
        let library = builtins_bitcode(clang, &version, target)
            .map_err(|e| clang_error(path, clang, target, e))?;
        let library = library.to_string_lossy();
        // Line tables only: `.loc`/`.file` lines for `source =` hints and the
        // by-source-line report, without changing the code (checked on the
        // OpenCL fixtures for gfx900, gfx1030, gfx1100 and gfx1200: the same
        // instructions and resources with and without).
        // The compilation directory is recorded as `.`, so a listing does not depend on where
        // the checkout lives (validation/regen.sh reproduces the committed listings exactly).
        let mut args = vec![
            "-S".to_string(),
            "-gline-tables-only".to_string(),
            "-fdebug-compilation-dir=.".to_string(),
        ];
        args.extend(opencl_flags(target));
        if let Some(dir) = include_dir {
            args.push(format!("-I{}", dir.display()));
        }
        args.extend(defines.iter().map(|d| format!("-D{d}")));
        args.extend(
            [
                "-Xclang",
                "-mlink-builtin-bitcode",
                "-Xclang",
                &library,
                path,
                "-o",
                "-",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let listing =
            run_with_timeout(clang, &args).map_err(|e| clang_error(path, clang, target, e))?;
        unresolved_calls_error(path, &listing, target)?;
        return Ok(listing);
    }
    Err(CliError::Input(format!(
        "{path}: error: compiling OpenCL C needs clang ({} not found); install the Debian package clang-19 (or clang-22 for gfx12's newest names)",
        CLANGS.join(", ")
    )))
}

/// The error for a clang run that failed.
fn clang_error(path: &str, clang: &str, target: &Target, e: RunError) -> CliError {
    match e {
        RunError::NotFound => CliError::Input(format!("{path}: error: {clang} not found")),
        RunError::Failed(stderr) => CliError::Input(format!(
            "{path}: error: {clang} could not compile it for {}:\n{}",
            target.name,
            stderr.trim_end()
        )),
        RunError::TimedOut => CliError::Input(format!(
            "{path}: error: {clang} did not finish within {} s; stopped",
            COMPILE_TIMEOUT.as_secs()
        )),
    }
}

/// The built-in library compiled to bitcode by `clang` for `target`,
/// cached in the system's temporary directory under a name made from the
/// library's text, clang's version and the GPU (compiling it takes a few
/// seconds; linking it, a fraction of one).
fn builtins_bitcode(
    clang: &str,
    version: &str,
    target: &Target,
) -> Result<std::path::PathBuf, RunError> {
    let key = fnv1a(&[OPENCL_BUILTINS, clang, version, &target.name]);
    let dir = std::env::temp_dir().join("shadersim-opencl-builtins");
    let cached = dir.join(format!("builtins-{key:016x}.bc"));
    if cached.is_file() {
        return Ok(cached);
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| RunError::Failed(format!("{}: {e}", dir.display())))?;
    // Build beside the cache under names no other process uses, then
    // rename into place, so concurrent runs never read a partial file.
    let work = tempfile::tempdir_in(&dir).map_err(|e| RunError::Failed(e.to_string()))?;
    let source = work.path().join("builtins.cl");
    let bitcode = work.path().join("builtins.bc");
    std::fs::write(&source, OPENCL_BUILTINS).map_err(|e| RunError::Failed(e.to_string()))?;
    let mut args = vec!["-c".to_string(), "-emit-llvm".to_string()];
    args.extend(opencl_flags(target));
    // The kernel's compile optimizes the library after linking it.
    args.extend(
        ["-Xclang", "-disable-llvm-passes"]
            .iter()
            .map(|s| s.to_string()),
    );
    args.push(source.to_string_lossy().into_owned());
    args.push("-o".to_string());
    args.push(bitcode.to_string_lossy().into_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_with_timeout(clang, &args).map_err(|e| match e {
        RunError::Failed(msg) => {
            RunError::Failed(format!("shadersim's OpenCL built-in library:\n{msg}"))
        }
        other => other,
    })?;
    std::fs::rename(&bitcode, &cached).map_err(|e| RunError::Failed(e.to_string()))?;
    Ok(cached)
}

/// FNV-1a over the parts (each followed by a 0 byte): a hash that is the
/// same in every build of shadersim, unlike the standard library's.
fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// An error naming every function the compiled kernel still calls that
/// neither it nor the built-in library defines: the simulation would let
/// such a call return at once, leaving its work out. Each is placed at
/// its first call in the source when the name is found there.
fn unresolved_calls_error(path: &str, listing: &str, target: &Target) -> Result<(), CliError> {
    let Ok(file) = shadersim_asm::read_program_text(
        &format!("{path}.s"),
        listing,
        &shadersim_asm::ReadOptions {
            target: Some(target.clone()),
            default_target: None,
        },
    ) else {
        // The reader reports a listing it cannot read when it reads it.
        return Ok(());
    };
    let calls = shadersim_asm::external_calls(&file);
    if calls.is_empty() {
        return Ok(());
    }
    let source = std::fs::read_to_string(path).unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    let mut lines = Vec::new();
    for call in &calls {
        if !seen.insert(call.symbol.clone()) {
            continue;
        }
        let listing_line = call.pos.line;
        let line = match &call.symbol {
            Some(sym) => {
                let name = demangled_name(sym);
                let mangled = if name == sym { String::new() } else { format!(" (`{sym}`)") };
                let what = format!(
                    "`{}` calls `{name}`{mangled}, which neither the kernel nor shadersim's OpenCL built-in library defines; the simulation would skip its instructions (listing line {listing_line})",
                    call.program
                );
                match first_use(&source, name) {
                    Some((l, c)) => format!("{path}:{l}:{c}: error: {what}"),
                    None => format!("{path}: error: {what}"),
                }
            }
            None => format!(
                "{path}: error: `{}` makes a call whose target the listing does not name (listing line {listing_line}); the simulation would skip its instructions",
                call.program
            ),
        };
        lines.push(line);
    }
    lines.push(format!(
        "{path}: note: define the function in the kernel's source, or see `shadersim compile` in docs/cli.md for the built-ins shadersim provides"
    ));
    Err(CliError::Input(lines.join("\n")))
}

/// The source name of an Itanium-mangled function name (`_Z7barrierj`
/// -> `barrier`); other names are returned as they are.
fn demangled_name(symbol: &str) -> &str {
    let Some(rest) = symbol.strip_prefix("_Z") else {
        return symbol;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match rest[..digits].parse::<usize>() {
        Ok(len) if rest.len() >= digits + len => &rest[digits..digits + len],
        _ => symbol,
    }
}

/// The 1-based line and column of the first call of `name` in `source`:
/// `name` as a whole word followed by `(`, outside `//` comments, and not
/// a declaration (a name after a type: a word other than `return`, or a
/// `*`).
fn first_use(source: &str, name: &str) -> Option<(usize, usize)> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (n, text) in source.lines().enumerate() {
        let code = text.split("//").next().unwrap_or("");
        let mut from = 0;
        while let Some(at) = code[from..].find(name).map(|i| i + from) {
            from = at + name.len();
            let glued = code[..at].chars().next_back().is_some_and(is_ident);
            let is_call = code[at + name.len()..].trim_start().starts_with('(');
            let before = code[..at].trim_end();
            let previous_word: String = before
                .chars()
                .rev()
                .take_while(|&c| is_ident(c))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let declaration =
                before.ends_with('*') || !previous_word.is_empty() && previous_word != "return";
            if !glued && is_call && !declaration {
                return Some((n + 1, code[..at].chars().count() + 1));
            }
        }
    }
    None
}

/// Run the command.
pub fn run(args: Args) -> CliResult {
    let target = shadersim_arch::ArchSpec::target_for_name(&args.arch).ok_or_else(|| {
        CliError::Usage(format!(
            "`{}` is not a GPU target (use a gfx name such as gfx900 or a family such as rdna3)",
            args.arch
        ))
    })?;
    let compiled = if args.file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| crate::error::cannot_read("<stdin>", &e))?;
        let ext = stdin_source_kind(&bytes, args.stage.as_deref()).ok_or_else(|| {
            CliError::Usage(
                "standard input is not source shadersim recognises: give --stage for GLSL (or a `#pragma shader_stage(...)` line); OpenCL C needs a `__kernel`; SPIR-V its magic number".into(),
            )
        })?;
        compile_stdin(
            &bytes,
            ext,
            &target,
            args.stage.as_deref(),
            args.port_es,
            &args.defines,
        )?
    } else {
        compile_source(
            &args.file,
            &target,
            args.stage.as_deref(),
            args.port_es,
            &args.defines,
        )?
    };
    match args.output.as_deref().filter(|o| *o != "-") {
        Some(out) => {
            std::fs::write(out, &compiled.listing)
                .map_err(|e| CliError::Input(format!("{out}: error: cannot write: {e}")))?;
            if let Some(stats) = &compiled.statistics {
                let stats_path = statistics_path(out);
                std::fs::write(&stats_path, stats).map_err(|e| {
                    CliError::Input(format!("{stats_path}: error: cannot write: {e}"))
                })?;
                eprintln!("{out}: note: the driver's statistics are in {stats_path}");
            }
            Ok(())
        }
        // No `-o`, or `-o -`: standard output (the statistics are not
        // written: they would need a file beside the listing).
        None => crate::output::write(None, &compiled.listing),
    }
}

/// Where `compile -o OUT` saves the statistics: `OUT` without its last
/// extension, plus `.stats.toml` (the first name `analyze OUT` looks for).
fn statistics_path(out: &str) -> String {
    let p = Path::new(out);
    match (p.file_stem(), p.extension()) {
        (Some(stem), Some(_)) => p
            .with_file_name(format!("{}.stats.toml", stem.to_string_lossy()))
            .display()
            .to_string(),
        _ => format!("{out}.stats.toml"),
    }
}
