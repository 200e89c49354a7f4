//! AMDGPU ELF code objects: the target, the kernels (code symbol, descriptor, metadata) and the
//! `.text` bytes to decode.

use crate::bundle::{bundle_entries, BUNDLE_MAGIC};
use crate::descriptor::{KernelDescriptor, DESCRIPTOR_SIZE};
use crate::error::CodeObjError;
use crate::metadata::{parse_metadata, KernelMetadata, Metadata, NT_AMDGPU_METADATA};
use object::elf::{FileHeader64, EM_AMDGPU, SHT_NOTE};
use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::{LittleEndian, Object, ObjectSection, ObjectSymbol, SymbolKind};

/// What a file's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// An ELF file (an AMDGPU code object, or a host file that may embed bundles).
    Elf,
    /// A clang offload bundle.
    Bundle,
}

/// Recognise a code-object container by its magic (never by the file name).
pub fn detect(bytes: &[u8]) -> Option<Container> {
    if bytes.starts_with(b"\x7fELF") {
        Some(Container::Elf)
    } else if bytes.starts_with(BUNDLE_MAGIC) {
        Some(Container::Bundle)
    } else {
        None
    }
}

/// A function of the code object's `.text` (a kernel or a device function).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Symbol name.
    pub name: String,
    /// Address of its first byte (the symbol's value; section-relative in a relocatable file).
    pub address: u64,
    /// Its bytes of `.text`.
    pub code: Vec<u8>,
    /// Its descriptor, when a `NAME.kd` symbol exists (it is a kernel).
    pub descriptor: Option<KernelDescriptor>,
    /// Its metadata-note entry, when the note lists it.
    pub metadata: Option<KernelMetadata>,
    /// `NAME.numbered_sgpr` (clang 20+ writes it in the symbol table): the SGPRs the code numbers,
    /// what `.amdhsa_next_free_sgpr` states.
    pub numbered_sgprs: Option<u32>,
}

/// One AMDGPU code object read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeObject {
    /// The file it came from (with `[bundle entry]` appended for a bundle's entry).
    pub file: String,
    /// Processor, e.g. `gfx90a` (from the metadata's `amdhsa.target`, else `e_flags`).
    pub processor: String,
    /// The full target id, e.g. `amdgcn-amd-amdhsa--gfx90a:xnack-`.
    pub target_id: String,
    /// Code-object version (from `e_ident[EI_ABIVERSION]`: 2 = v4, 3 = v5, 4 = v6).
    pub version: u32,
    /// Whether the file is relocatable (`ET_REL`).
    pub relocatable: bool,
    /// XNACK is on or "any" (e_flags), which reserves XNACK_MASK on gfx8/gfx9.
    pub xnack: bool,
    /// Functions of `.text` in address order.
    pub functions: Vec<Function>,
    /// Metadata note, if present.
    pub metadata: Option<Metadata>,
}

/// Read every code object in `bytes`: one for an AMDGPU ELF file, one per AMDGPU entry of a
/// bundle, or those of the bundles in a host ELF's `.hip_fatbin` section. `processor` keeps
/// only entries for that processor (bundles with several targets).
pub fn read_code_objects(
    file: &str,
    bytes: &[u8],
    processor: Option<&str>,
) -> Result<Vec<CodeObject>, CodeObjError> {
    match detect(bytes) {
        Some(Container::Bundle) => read_bundle(file, bytes, 0, processor),
        Some(Container::Elf) => {
            let elf = ElfFile64::<LittleEndian>::parse(bytes).map_err(|e| {
                CodeObjError::at(
                    file,
                    0,
                    format!("not a readable 64-bit little-endian ELF file: {e}"),
                )
            })?;
            let machine = elf.elf_header().e_machine(LittleEndian);
            if machine == EM_AMDGPU {
                return read_elf(file, bytes, &elf).map(|c| vec![c]);
            }
            // A host file: the device code is in `.hip_fatbin` (or any section holding a bundle).
            let mut found = Vec::new();
            for section in elf.sections() {
                let Ok(data) = section.data() else { continue };
                if !data.starts_with(BUNDLE_MAGIC) {
                    continue;
                }
                let base = section.file_range().map_or(0, |r| r.0);
                found.extend(read_bundle(file, data, base, processor)?);
            }
            if found.is_empty() {
                return Err(CodeObjError::at(
                    file,
                    18,
                    format!("ELF e_machine is {machine}, not AMDGPU ({EM_AMDGPU}), and no section holds a clang offload bundle"),
                ));
            }
            Ok(found)
        }
        None => Err(CodeObjError::at(
            file,
            0,
            "neither an ELF file nor a clang offload bundle",
        )),
    }
}

fn read_bundle(
    file: &str,
    bytes: &[u8],
    base: u64,
    processor: Option<&str>,
) -> Result<Vec<CodeObject>, CodeObjError> {
    let entries = bundle_entries(file, bytes, base)?;
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for e in &entries {
        let Some(p) = e.processor() else { continue };
        seen.push(e.triple.clone());
        if processor.is_some_and(|want| want != p) {
            continue;
        }
        let data = &bytes[e.offset as usize..(e.offset + e.size) as usize];
        let name = format!("{file}[{}]", e.triple);
        let elf = ElfFile64::<LittleEndian>::parse(data).map_err(|err| {
            CodeObjError::at(
                file,
                base.wrapping_add(e.offset),
                format!(
                    "bundle entry `{}` is not a readable ELF file: {err}",
                    e.triple
                ),
            )
        })?;
        if elf.elf_header().e_machine(LittleEndian) != EM_AMDGPU {
            return Err(CodeObjError::at(
                file,
                base.wrapping_add(e.offset),
                format!("bundle entry `{}` is not an AMDGPU code object", e.triple),
            ));
        }
        out.push(read_elf(&name, data, &elf)?);
    }
    if out.is_empty() {
        let what = processor.map_or(String::new(), |p| format!(" for {p}"));
        return Err(CodeObjError::at(
            file,
            base,
            format!(
                "the offload bundle holds no AMDGPU code object{what} (entries: {})",
                if seen.is_empty() {
                    "none".to_string()
                } else {
                    seen.join(", ")
                }
            ),
        ));
    }
    Ok(out)
}

fn read_elf(
    file: &str,
    bytes: &[u8],
    elf: &ElfFile64<LittleEndian>,
) -> Result<CodeObject, CodeObjError> {
    let endian = LittleEndian;
    let header: &FileHeader64<LittleEndian> = elf.elf_header();
    let abi_version = header.e_ident().abi_version;
    let version = match abi_version {
        2 => 4,
        3 => 5,
        4 => 6,
        v => {
            return Err(CodeObjError::at(
                file,
                8,
                format!(
                "code-object ABI version {v} (code object v{}) is not supported; v4, v5 and v6 are",
                u32::from(v) + 2
            ),
            ))
        }
    };
    let flags = header.e_flags(endian);
    // EF_AMDGPU_FEATURE_XNACK_V4 (bits 9:8): 0x100 any, 0x200 off, 0x300 on.
    let xnack = matches!(flags & 0x300, 0x100 | 0x300);
    let metadata = read_note(file, bytes, elf)?;
    let processor_from_md = metadata
        .as_ref()
        .and_then(|m| m.target.as_deref())
        .and_then(processor_of_target);
    let processor = match processor_from_md.or_else(|| processor_of_mach(flags & 0xff).map(str::to_string)) {
        Some(p) => p,
        None => {
            return Err(CodeObjError::at(file, 48, format!(
                "unknown AMDGPU processor (e_flags mach 0x{:x}) and no `amdhsa.target` in the metadata", flags & 0xff
            )))
        }
    };
    let target_id = metadata
        .as_ref()
        .and_then(|m| m.target.clone())
        .unwrap_or_else(|| format!("amdgcn-amd-amdhsa--{processor}"));

    let text = elf.section_by_name(".text");
    let mut functions = Vec::new();
    let symbols: Vec<_> = if elf.symbols().next().is_some() {
        elf.symbols().collect()
    } else {
        elf.dynamic_symbols().collect()
    };
    let abs_value = |name: &str| {
        symbols
            .iter()
            .find(|s| s.name() == Ok(name) && s.section_index().is_none())
            .and_then(|s| u32::try_from(s.address()).ok())
    };
    if let Some(text) = &text {
        let text_index = text.index();
        let data = text.data().map_err(|e| {
            CodeObjError::at(
                file,
                text.file_range().map_or(0, |r| r.0),
                format!(".text lies outside the file: {e}"),
            )
        })?;
        let text_addr = text.address();
        for sym in &symbols {
            if sym.kind() != SymbolKind::Text || sym.section_index() != Some(text_index) {
                continue;
            }
            let Ok(name) = sym.name() else { continue };
            if name.is_empty() {
                continue;
            }
            let start = sym.address().wrapping_sub(text_addr);
            let size = if sym.size() == 0 {
                data.len() as u64 - start.min(data.len() as u64)
            } else {
                sym.size()
            };
            let code = start
                .checked_add(size)
                .filter(|&e| e <= data.len() as u64)
                .map(|e| data[start as usize..e as usize].to_vec())
                .ok_or_else(|| {
                    CodeObjError::at(
                        file,
                        text.file_range().map_or(0, |r| r.0).wrapping_add(start),
                        format!(
                            "function `{name}` (0x{:x}, {size} bytes) runs past the end of .text",
                            sym.address()
                        ),
                    )
                })?;
            let descriptor = kernel_descriptor(file, elf, &symbols, &format!("{name}.kd"))?;
            let md = metadata.as_ref().and_then(|m| {
                m.kernels
                    .iter()
                    .find(|k| k.name == name || k.symbol.as_deref() == Some(&format!("{name}.kd")))
                    .cloned()
            });
            functions.push(Function {
                name: name.to_string(),
                address: sym.address(),
                code,
                descriptor,
                metadata: md,
                numbered_sgprs: abs_value(&format!("{name}.numbered_sgpr")),
            });
        }
    }
    functions.sort_by_key(|f| f.address);
    functions.dedup_by(|a, b| a.address == b.address && a.name == b.name);
    if functions.is_empty() {
        return Err(CodeObjError::whole(
            file,
            "the code object has no functions in .text",
        ));
    }
    Ok(CodeObject {
        file: file.to_string(),
        processor,
        target_id,
        version,
        relocatable: header.e_type(endian) == object::elf::ET_REL,
        xnack,
        functions,
        metadata,
    })
}

fn kernel_descriptor(
    file: &str,
    elf: &ElfFile64<LittleEndian>,
    symbols: &[object::read::elf::ElfSymbol64<'_, '_, LittleEndian>],
    kd_name: &str,
) -> Result<Option<KernelDescriptor>, CodeObjError> {
    let Some(sym) = symbols.iter().find(|s| s.name() == Ok(kd_name)) else {
        return Ok(None);
    };
    let Some(index) = sym.section_index() else {
        return Ok(None);
    };
    let section = elf.section_by_index(index).map_err(|e| {
        CodeObjError::whole(file, format!("`{kd_name}` names a missing section: {e}"))
    })?;
    let offset = sym.address().wrapping_sub(section.address());
    let file_at = section.file_range().map_or(0, |r| r.0).wrapping_add(offset);
    let data = section.data().map_err(|e| {
        CodeObjError::at(
            file,
            file_at,
            format!("the section of `{kd_name}` lies outside the file: {e}"),
        )
    })?;
    let bytes = offset
        .checked_add(DESCRIPTOR_SIZE as u64)
        .filter(|&e| e <= data.len() as u64)
        .map(|e| &data[offset as usize..e as usize])
        .ok_or_else(|| {
            CodeObjError::at(
                file,
                file_at,
                format!(
                    "kernel descriptor `{kd_name}` (64 bytes at 0x{:x}) lies outside its section",
                    sym.address()
                ),
            )
        })?;
    Ok(KernelDescriptor::parse(bytes))
}

fn read_note(
    file: &str,
    bytes: &[u8],
    elf: &ElfFile64<LittleEndian>,
) -> Result<Option<Metadata>, CodeObjError> {
    let endian = LittleEndian;
    let header = elf.elf_header();
    let sections = header
        .sections(endian, bytes)
        .map_err(|e| CodeObjError::at(file, 40, format!("section headers unreadable: {e}")))?;
    for section in sections.iter() {
        if section.sh_type(endian) != SHT_NOTE {
            continue;
        }
        let at = section.sh_offset(endian);
        let notes = section
            .notes(endian, bytes)
            .map_err(|e| CodeObjError::at(file, at, format!("note section unreadable: {e}")))?;
        let Some(mut notes) = notes else { continue };
        loop {
            let note = notes
                .next()
                .map_err(|e| CodeObjError::at(file, at, format!("corrupt note: {e}")))?;
            let Some(note) = note else { break };
            if note.name() == b"AMDGPU" && note.n_type(endian) == NT_AMDGPU_METADATA {
                return parse_metadata(note.desc()).map(Some).map_err(|m| {
                    CodeObjError::at(file, at, format!("corrupt AMDGPU metadata note: {m}"))
                });
            }
        }
    }
    Ok(None)
}

/// `gfx90a` of `amdgcn-amd-amdhsa--gfx90a:xnack-`.
fn processor_of_target(target: &str) -> Option<String> {
    let last = target.rsplit('-').next()?;
    let p = last.split(':').next()?;
    p.starts_with("gfx").then(|| p.to_string())
}

/// The processor an `EF_AMDGPU_MACH` value names (llvm/include/llvm/BinaryFormat/ELF.h, the
/// `EF_AMDGPU_MACH_AMDGCN_*` constants); a fallback for files without a metadata note.
fn processor_of_mach(mach: u32) -> Option<&'static str> {
    Some(match mach {
        0x20 => "gfx600",
        0x21 => "gfx601",
        0x22 => "gfx700",
        0x23 => "gfx701",
        0x24 => "gfx702",
        0x25 => "gfx703",
        0x26 => "gfx704",
        0x28 => "gfx801",
        0x29 => "gfx802",
        0x2a => "gfx803",
        0x2b => "gfx810",
        0x2c => "gfx900",
        0x2d => "gfx902",
        0x2e => "gfx904",
        0x2f => "gfx906",
        0x30 => "gfx908",
        0x31 => "gfx909",
        0x32 => "gfx90c",
        0x33 => "gfx1010",
        0x34 => "gfx1011",
        0x35 => "gfx1012",
        0x36 => "gfx1030",
        0x37 => "gfx1031",
        0x38 => "gfx1032",
        0x39 => "gfx1033",
        0x3f => "gfx90a",
        0x41 => "gfx1100",
        0x46 => "gfx1101",
        0x47 => "gfx1102",
        0x48 => "gfx1200",
        0x4c => "gfx942",
        0x4e => "gfx1201",
        0x4f => "gfx950",
        _ => return None,
    })
}
