//! The AMDGPU metadata note (`NT_AMDGPU_METADATA`, type 32, owner `AMDGPU`): a msgpack map
//! whose `amdhsa.kernels` array describes each kernel (LLVM AMDGPUUsage, "Code Object V3+
//! Metadata"). Only the keys simulation needs are kept.

use rmpv::Value;

/// Note type of the AMDGPU metadata note.
pub const NT_AMDGPU_METADATA: u32 = 32;

/// One kernel of the metadata note.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelMetadata {
    /// `.name`: the kernel's source name.
    pub name: String,
    /// `.symbol`: its descriptor symbol (`NAME.kd`).
    pub symbol: Option<String>,
    /// `.vgpr_count` (on gfx90a/gfx94x the unified count, AGPRs included).
    pub vgpr_count: Option<u32>,
    /// `.agpr_count`.
    pub agpr_count: Option<u32>,
    /// `.sgpr_count` (VCC, FLAT_SCRATCH and XNACK_MASK included).
    pub sgpr_count: Option<u32>,
    /// `.group_segment_fixed_size`: LDS bytes.
    pub group_segment_fixed_size: Option<u32>,
    /// `.private_segment_fixed_size`: scratch bytes per work-item.
    pub private_segment_fixed_size: Option<u32>,
    /// `.wavefront_size`.
    pub wavefront_size: Option<u32>,
    /// `.max_flat_workgroup_size`.
    pub max_flat_workgroup_size: Option<u32>,
    /// `.reqd_workgroup_size`.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// `.args`: the kernel's arguments in the note's order (hidden ones included).
    pub args: Vec<KernelArgMetadata>,
}

/// One entry of a kernel's `.args` (AMDGPUUsage, "Code Object V3 Kernel Argument Metadata Map").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelArgMetadata {
    /// `.name`: the source name (clang writes it with `-cl-kernel-arg-info`; HIP and Triton
    /// code objects leave it out).
    pub name: Option<String>,
    /// `.offset`: byte offset in the kernel-argument segment.
    pub offset: u32,
    /// `.size`: bytes.
    pub size: u32,
    /// `.value_kind`: `by_value`, `global_buffer`, `dynamic_shared_pointer`, `hidden_*`, ...
    pub value_kind: String,
    /// `.type_name` (`int`, `'float*'`), when given.
    pub type_name: Option<String>,
}

/// The note's target (`amdhsa.target`) and kernels.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// `amdhsa.target`, e.g. `amdgcn-amd-amdhsa--gfx90a:xnack-`.
    pub target: Option<String>,
    /// `amdhsa.kernels`.
    pub kernels: Vec<KernelMetadata>,
}

/// Why a metadata note could not be read.
pub type MetadataError = String;

/// Parse the note's msgpack description.
pub fn parse_metadata(desc: &[u8]) -> Result<Metadata, MetadataError> {
    let mut cursor = desc;
    let value = rmpv::decode::read_value_with_max_depth(&mut cursor, 64)
        .map_err(|e| format!("metadata note is not valid msgpack: {e}"))?;
    let Value::Map(top) = value else {
        return Err("metadata note is not a msgpack map".into());
    };
    let mut md = Metadata::default();
    for (k, v) in &top {
        match k.as_str() {
            Some("amdhsa.target") => md.target = v.as_str().map(str::to_string),
            Some("amdhsa.kernels") => {
                let Value::Array(kernels) = v else {
                    return Err("`amdhsa.kernels` is not an array".into());
                };
                for k in kernels {
                    md.kernels.push(kernel(k)?);
                }
            }
            _ => {}
        }
    }
    Ok(md)
}

fn kernel(v: &Value) -> Result<KernelMetadata, MetadataError> {
    let Value::Map(map) = v else {
        return Err("an `amdhsa.kernels` entry is not a map".into());
    };
    let mut k = KernelMetadata::default();
    let num = |v: &Value| v.as_u64().and_then(|n| u32::try_from(n).ok());
    // A `.reqd_workgroup_size` that is not three 32-bit counts, refused once the kernel's
    // name is known: dropped, the kernel ran at a size the note does not give.
    let mut malformed_size = None;
    for (key, v) in map {
        match key.as_str().unwrap_or("") {
            ".name" => k.name = v.as_str().unwrap_or("").to_string(),
            ".symbol" => k.symbol = v.as_str().map(str::to_string),
            ".vgpr_count" => k.vgpr_count = num(v),
            ".agpr_count" => k.agpr_count = num(v),
            ".sgpr_count" => k.sgpr_count = num(v),
            ".group_segment_fixed_size" => k.group_segment_fixed_size = num(v),
            ".private_segment_fixed_size" => k.private_segment_fixed_size = num(v),
            ".wavefront_size" => k.wavefront_size = num(v),
            ".max_flat_workgroup_size" => k.max_flat_workgroup_size = num(v),
            ".args" => {
                let Value::Array(a) = v else {
                    return Err(format!("kernel `{}`: `.args` is not an array", k.name));
                };
                k.args = a.iter().map(arg).collect::<Result<_, _>>()?;
            }
            ".reqd_workgroup_size" => {
                let d: Option<Vec<u32>> = match v {
                    Value::Array(a) => a.iter().map(num).collect(),
                    _ => None,
                };
                match d.as_deref() {
                    Some(&[x, y, z]) => k.reqd_workgroup_size = Some([x, y, z]),
                    _ => malformed_size = Some(v.to_string()),
                }
            }
            _ => {}
        }
    }
    if k.name.is_empty() {
        return Err("an `amdhsa.kernels` entry has no `.name`".into());
    }
    // `.args` may come before `.name` in the map: name the kernel in its errors now.
    for (i, a) in k.args.iter().enumerate() {
        if a.value_kind.is_empty() {
            return Err(format!(
                "kernel `{}`: argument {i} has no `.value_kind`",
                k.name
            ));
        }
    }
    if let Some(text) = malformed_size {
        return Err(format!(
            "kernel `{}`: `.reqd_workgroup_size` {text} is not three counts of 0 to {}",
            k.name,
            u32::MAX
        ));
    }
    if let Some(size) = k.reqd_workgroup_size {
        check_workgroup_size(&k.name, size)?;
    }
    Ok(k)
}

/// One `.args` entry. `.offset` and `.size` are required by AMDGPUUsage; an entry without
/// them (or with a value past 32 bits) is an error, since a launch would put its value at a
/// wrong place. A missing `.value_kind` is reported by the caller, which knows the kernel.
fn arg(v: &Value) -> Result<KernelArgMetadata, MetadataError> {
    let Value::Map(map) = v else {
        return Err("a kernel's `.args` entry is not a map".into());
    };
    let mut a = KernelArgMetadata::default();
    let (mut offset, mut size) = (None, None);
    let num = |v: &Value| v.as_u64().and_then(|n| u32::try_from(n).ok());
    for (key, v) in map {
        match key.as_str().unwrap_or("") {
            ".name" => a.name = v.as_str().map(str::to_string),
            ".offset" => offset = num(v),
            ".size" => size = num(v),
            ".value_kind" => a.value_kind = v.as_str().unwrap_or("").to_string(),
            ".type_name" => a.type_name = v.as_str().map(str::to_string),
            _ => {}
        }
    }
    let what = || {
        a.name
            .as_deref()
            .map_or_else(String::new, |n| format!(" `{n}`"))
    };
    a.offset =
        offset.ok_or_else(|| format!("kernel argument{} has no 32-bit `.offset`", what()))?;
    a.size = size.ok_or_else(|| format!("kernel argument{} has no 32-bit `.size`", what()))?;
    Ok(a)
}

/// The most work-items a workgroup holds on every AMDGPU target (HSA's
/// limit, and the listing reader's bound for `.reqd_workgroup_size`).
pub const MAX_WORKGROUP_SIZE: u64 = 1024;

/// A required workgroup size must hold 1 to [`MAX_WORKGROUP_SIZE`]
/// work-items: a 0 (or a product that wraps to 0 in 32 bits) would launch
/// workgroups of no waves, which a dispatch never finishes. The product is
/// taken in 64 bits and checked (three `u32`s can exceed 64 bits), so the
/// message states the real size.
fn check_workgroup_size(kernel: &str, [x, y, z]: [u32; 3]) -> Result<(), MetadataError> {
    let items = u64::from(x)
        .checked_mul(u64::from(y))
        .and_then(|xy| xy.checked_mul(u64::from(z)));
    match items {
        Some(n) if (1..=MAX_WORKGROUP_SIZE).contains(&n) => Ok(()),
        _ => Err(format!(
            "kernel `{kernel}`: `.reqd_workgroup_size` [{x}, {y}, {z}] is {} work-items; a workgroup holds 1 to {MAX_WORKGROUP_SIZE}",
            items.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
        )),
    }
}
