//! Clang offload bundles (`__CLANG_OFFLOAD_BUNDLE__`) and host ELF files that carry them.
//!
//! The binary bundle layout (clang/lib/Driver/OffloadBundler.cpp): the 24-byte magic, a
//! little-endian u64 entry count, then per entry u64 offset, u64 size, u64 triple length and the
//! triple's bytes; each entry's data lies at its offset from the bundle's start. hipcc's host
//! binaries keep the bundle in the `.hip_fatbin` section.

use crate::error::CodeObjError;

/// The magic a clang offload bundle starts with.
pub const BUNDLE_MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";

/// One entry of a bundle: its target triple-id and where its bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleEntry {
    /// The bundle entry id, e.g. `hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-`.
    pub triple: String,
    /// Offset of the entry's data from the bundle's start.
    pub offset: u64,
    /// Size of the entry's data in bytes.
    pub size: u64,
}

impl BundleEntry {
    /// The processor the entry is for (`gfx90a` of `hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-`),
    /// `None` for host entries.
    pub fn processor(&self) -> Option<&str> {
        let gfx = self.triple.rsplit('-').next()?;
        let gfx = gfx.split(':').next()?;
        gfx.starts_with("gfx").then_some(gfx)
    }
}

/// The entries of the bundle in `bytes` (which start with [`BUNDLE_MAGIC`]); `base` is the
/// bundle's offset in the file, for messages.
pub fn bundle_entries(
    file: &str,
    bytes: &[u8],
    base: u64,
) -> Result<Vec<BundleEntry>, CodeObjError> {
    let mut pos = BUNDLE_MAGIC.len();
    let u64_at = |pos: usize| -> Result<u64, CodeObjError> {
        bytes
            .get(pos..pos + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .ok_or_else(|| {
                CodeObjError::at(
                    file,
                    base + pos as u64,
                    "offload bundle truncated in its entry table",
                )
            })
    };
    let count = u64_at(pos)?;
    pos += 8;
    // Each entry takes at least 24 bytes of the table: a count larger than
    // the file could hold is corrupt, not a reason to allocate.
    if count > (bytes.len() as u64) / 24 {
        return Err(CodeObjError::at(
            file,
            base + BUNDLE_MAGIC.len() as u64,
            format!(
                "offload bundle claims {count} entries, more than its {} bytes can hold",
                bytes.len()
            ),
        ));
    }
    let mut entries = Vec::new();
    for _ in 0..count {
        let entry_at = base + pos as u64;
        let offset = u64_at(pos)?;
        let size = u64_at(pos + 8)?;
        let len = u64_at(pos + 16)?;
        pos += 24;
        let end = usize::try_from(len)
            .ok()
            .and_then(|l| pos.checked_add(l))
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| {
                CodeObjError::at(
                    file,
                    entry_at,
                    "offload bundle entry's triple runs past the end",
                )
            })?;
        let triple = String::from_utf8_lossy(&bytes[pos..end]).into_owned();
        pos = end;
        if offset
            .checked_add(size)
            .is_none_or(|e| e > bytes.len() as u64)
        {
            return Err(CodeObjError::at(
                file,
                entry_at,
                format!("offload bundle entry `{triple}` (offset 0x{offset:x}, {size} bytes) lies past the bundle's end"),
            ));
        }
        entries.push(BundleEntry {
            triple,
            offset,
            size,
        });
    }
    Ok(entries)
}
