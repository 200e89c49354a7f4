//! What a SPIR-V module needs from the pipeline around it.
//!
//! A Vulkan pipeline can only be built with a layout that declares every
//! descriptor the shaders use, a vertex input state for every vertex shader
//! input and a colour attachment for every fragment output. Users hand
//! shadersim a shader, not a pipeline, so these are derived from the
//! module's own declarations: `DescriptorSet`/`Binding` decorations on
//! variables and their types, `Location` decorations on inputs and outputs.

use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{Decoration, Dim, ExecutionMode, ExecutionModel, Op, StorageClass};
use std::collections::BTreeMap;

/// The kind of descriptor a variable needs in the pipeline layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DescriptorKind {
    /// `uniform` block.
    UniformBuffer,
    /// `buffer` block (storage buffer).
    StorageBuffer,
    /// `sampler2D` and friends.
    CombinedImageSampler,
    /// `texture2D` (sampled image without sampler).
    SampledImage,
    /// `image2D` (storage image).
    StorageImage,
    /// `samplerBuffer`/`textureBuffer`.
    UniformTexelBuffer,
    /// `imageBuffer`.
    StorageTexelBuffer,
    /// `sampler`.
    Sampler,
}

/// One descriptor binding a shader uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DescriptorBinding {
    /// `set = N`.
    pub set: u32,
    /// `binding = N`.
    pub binding: u32,
    /// Its kind.
    pub kind: DescriptorKind,
    /// Array length (1 for a single descriptor; runtime arrays count 1).
    pub count: u32,
}

/// The base type of an interface variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    /// 32-bit float.
    Float,
    /// 32-bit signed integer.
    Int,
    /// 32-bit unsigned integer.
    Uint,
}

/// A shader input or output with a `Location`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterfaceVariable {
    /// `location = N`.
    pub location: u32,
    /// Component type.
    pub scalar: ScalarKind,
    /// Components (1-4).
    pub components: u32,
}

/// The stage a module's entry point runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShaderStage {
    /// Vertex shader.
    Vertex,
    /// Fragment shader.
    Fragment,
    /// Compute shader.
    Compute,
}

impl ShaderStage {
    /// The name the driver's executables use (`vertex`, `fragment`, `compute`).
    pub fn name(self) -> &'static str {
        match self {
            ShaderStage::Vertex => "vertex",
            ShaderStage::Fragment => "fragment",
            ShaderStage::Compute => "compute",
        }
    }
}

/// What the pipeline must declare for one module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reflection {
    /// The entry point's stage.
    pub stage: ShaderStage,
    /// The entry point's name.
    pub entry: String,
    /// Descriptor bindings, by set then binding.
    pub bindings: Vec<DescriptorBinding>,
    /// Inputs with a location (vertex attributes, fragment varyings), in
    /// declaration order.
    pub inputs: Vec<InterfaceVariable>,
    /// Outputs with a location (varyings, colour targets).
    pub outputs: Vec<InterfaceVariable>,
    /// A compute shader's workgroup size (`local_size_x/y/z`).
    pub workgroup_size: Option<[u32; 3]>,
}

/// Decorations of one id that matter here.
#[derive(Debug, Default, Clone, Copy)]
struct Decorations {
    set: Option<u32>,
    binding: Option<u32>,
    location: Option<u32>,
    builtin: bool,
    buffer_block: bool,
}

/// Parse SPIR-V words and reflect the first entry point.
pub fn reflect(words: &[u32]) -> Result<Reflection, String> {
    check_instruction_stream(words)?;
    let words = without_non_semantic(words);
    let words = words.as_slice();
    // rspirv 0.13 still panics on some malformed operands instead of
    // returning an error (an `OpSpecConstantOp` naming an opcode it has no
    // operand table for, found by this crate's property tests): a panic in
    // the parser is reported as invalid SPIR-V, never passed on.
    let parsed = without_panic_message(|| rspirv::dr::load_words(words)).map_err(|_| {
        "not valid SPIR-V: the SPIR-V parser (rspirv) rejected an instruction's operands"
            .to_string()
    })?;
    let module = parsed.map_err(|e| format!("not valid SPIR-V: {e}"))?;
    reflect_module(&module)
}

thread_local! {
    /// Set while this thread runs a call whose panic is caught and
    /// reported as an error (its message would only confuse).
    static PANIC_IS_AN_ERROR: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `f`, with a panic caught (`Err`) and its message not printed. The
/// process's panic hook is wrapped once: it stays silent while this
/// thread is inside such a call and passes every other panic on to the
/// hook that was installed before, so real bugs still print.
fn without_panic_message<R>(
    f: impl FnOnce() -> R + std::panic::UnwindSafe,
) -> std::thread::Result<R> {
    static WRAP_HOOK: std::sync::Once = std::sync::Once::new();
    WRAP_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !PANIC_IS_AN_ERROR.with(|flag| flag.get()) {
                previous(info);
            }
        }));
    });
    PANIC_IS_AN_ERROR.with(|flag| flag.set(true));
    let result = std::panic::catch_unwind(f);
    PANIC_IS_AN_ERROR.with(|flag| flag.set(false));
    result
}

/// SPIR-V words from a file's bytes (little-endian, as glslang writes
/// them; a big-endian module is byte-swapped).
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if bytes.len() < 20 || bytes.len() % 4 != 0 {
        return Err(format!(
            "not a SPIR-V module: {} bytes (a module is a whole number of 4-byte words, at least 5)",
            bytes.len()
        ));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    match words[0] {
        SPIRV_MAGIC => Ok(words),
        w if w.swap_bytes() == SPIRV_MAGIC => Ok(words.iter().map(|w| w.swap_bytes()).collect()),
        w => Err(format!(
            "not a SPIR-V module: first word {w:#010x}, SPIR-V starts with {SPIRV_MAGIC:#010x}"
        )),
    }
}

/// Check that the instructions after the 5-word header tile the module
/// exactly (each word count at least 1 and within the module), so the
/// parser never reads past the end: rspirv 0.13 indexes out of bounds on
/// such modules instead of returning an error (found by this crate's
/// property tests).
fn check_instruction_stream(words: &[u32]) -> Result<(), String> {
    let mut at = 5usize;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 {
            return Err(format!(
                "not valid SPIR-V: instruction at word {at} has a word count of 0"
            ));
        }
        if at + count > words.len() {
            return Err(format!(
                "not valid SPIR-V: instruction at word {at} claims {count} words, the module ends after {}",
                words.len() - at
            ));
        }
        at += count;
    }
    Ok(())
}

/// `words` without the instructions of non-semantic extended instruction sets
/// (`NonSemantic.*`, SPV_KHR_non_semantic_info: `glslangValidator -gVS` writes its
/// `NonSemantic.Shader.DebugInfo.100` source and line records with them) and their imports.
/// Those may stand between functions, where rspirv 0.13's loader refuses any `OpExtInst`
/// ("not inside block"); by the extension's rule nothing else may use their results, so
/// reflection loses nothing. `words` has passed [`check_instruction_stream`].
fn without_non_semantic(words: &[u32]) -> Vec<u32> {
    const OP_EXT_INST_IMPORT: u32 = 11;
    const OP_EXT_INST: u32 = 12;
    let instructions = || {
        let mut at = 5usize.min(words.len());
        std::iter::from_fn(move || {
            let count = (*words.get(at)? >> 16) as usize;
            let inst = &words[at..at + count];
            at += count;
            Some(inst)
        })
    };
    // OpExtInstImport: result id, then the set's name as a nul-terminated string.
    let non_semantic: Vec<u32> = instructions()
        .filter(|i| i[0] & 0xFFFF == OP_EXT_INST_IMPORT && i.len() > 2)
        .filter(|i| {
            let name: Vec<u8> = i[2..].iter().flat_map(|w| w.to_le_bytes()).collect();
            name.starts_with(b"NonSemantic.")
        })
        .map(|i| i[1])
        .collect();
    if non_semantic.is_empty() {
        return words.to_vec();
    }
    let mut out = words[..5.min(words.len())].to_vec();
    for i in instructions() {
        let op = i[0] & 0xFFFF;
        // OpExtInst: result type, result id, set id, ...
        let drop = (op == OP_EXT_INST_IMPORT && i.len() > 1 && non_semantic.contains(&i[1]))
            || (op == OP_EXT_INST && i.len() > 3 && non_semantic.contains(&i[3]));
        if !drop {
            out.extend_from_slice(i);
        }
    }
    out
}

/// The first word of every SPIR-V module.
pub const SPIRV_MAGIC: u32 = 0x0723_0203;

fn id(op: &Operand) -> Option<u32> {
    match op {
        Operand::IdRef(w) => Some(*w),
        _ => None,
    }
}

fn literal(op: &Operand) -> Option<u32> {
    match op {
        Operand::LiteralBit32(w) => Some(*w),
        _ => None,
    }
}

fn reflect_module(module: &Module) -> Result<Reflection, String> {
    let (stage, entry) = entry_of(module)?;
    // Variables the entry point lists as its interface (SPIR-V 1.4+ lists
    // every global it uses; older modules list inputs and outputs only).
    let decorations = decorations_of(module);
    let types: BTreeMap<u32, &Instruction> = module
        .types_global_values
        .iter()
        .filter_map(|i| i.result_id.map(|r| (r, i)))
        .collect();
    let constant = |id: u32| -> Option<u32> {
        let i = types.get(&id)?;
        (i.class.opcode == Op::Constant)
            .then(|| i.operands.first().and_then(literal))
            .flatten()
    };
    let mut reflection = Reflection {
        stage,
        entry,
        bindings: Vec::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        workgroup_size: None,
    };
    reflection.workgroup_size = workgroup_size_of(module, &constant);
    for var in &module.types_global_values {
        if var.class.opcode != Op::Variable {
            continue;
        }
        let (Some(result), Some(ptr_type)) = (var.result_id, var.result_type) else {
            continue;
        };
        let Some(Operand::StorageClass(class)) = var.operands.first() else {
            continue;
        };
        let deco = decorations.get(&result).copied().unwrap_or_default();
        let pointee = types
            .get(&ptr_type)
            .filter(|p| p.class.opcode == Op::TypePointer)
            .and_then(|p| p.operands.get(1).and_then(id))
            .ok_or_else(|| format!("variable %{result} does not have a pointer type"))?;
        match class {
            StorageClass::Input | StorageClass::Output => {
                if deco.builtin {
                    continue;
                }
                let Some(location) = deco.location else {
                    continue;
                };
                let (scalar, components) = interface_type(&types, pointee)
                    .ok_or_else(|| format!("the {class:?} at location {location} has a type shadersim cannot give the pipeline (use 32-bit scalars or vectors)"))?;
                let v = InterfaceVariable {
                    location,
                    scalar,
                    components,
                };
                if *class == StorageClass::Input {
                    reflection.inputs.push(v);
                } else {
                    reflection.outputs.push(v);
                }
            }
            StorageClass::Uniform | StorageClass::UniformConstant | StorageClass::StorageBuffer => {
                let Some(binding) = deco.binding else {
                    continue;
                };
                // Unwrap arrays to the element type, counting descriptors.
                let mut t = pointee;
                let mut count = 1u32;
                while let Some(ti) = types.get(&t) {
                    match ti.class.opcode {
                        Op::TypeArray => {
                            let n = ti
                                .operands
                                .get(1)
                                .and_then(id)
                                .and_then(constant)
                                .unwrap_or(1);
                            count = count.saturating_mul(n.max(1));
                            t = ti.operands.first().and_then(id).unwrap_or(t);
                        }
                        Op::TypeRuntimeArray => {
                            t = ti.operands.first().and_then(id).unwrap_or(t);
                        }
                        _ => break,
                    }
                }
                let element = types
                    .get(&t)
                    .ok_or_else(|| format!("descriptor variable %{result} has an unknown type"))?;
                let buffer_block = decorations.get(&t).is_some_and(|d| d.buffer_block);
                let kind = descriptor_kind(*class, element, buffer_block, &types).ok_or_else(
                    || format!("the descriptor at set {} binding {binding} has a type shadersim cannot give the pipeline", deco.set.unwrap_or(0)),
                )?;
                reflection.bindings.push(DescriptorBinding {
                    set: deco.set.unwrap_or(0),
                    binding,
                    kind,
                    count,
                });
            }
            _ => {}
        }
    }
    reflection.bindings.sort_by_key(|b| (b.set, b.binding));
    // Inputs stay in declaration order: vertex buffer bindings are
    // numbered in that order, as the fixtures' pipelines were built.
    reflection.outputs.sort_by_key(|v| v.location);
    Ok(reflection)
}

/// The entry point's stage and name.
fn entry_of(module: &Module) -> Result<(ShaderStage, String), String> {
    let entry_inst = module
        .entry_points
        .first()
        .ok_or("the SPIR-V module has no OpEntryPoint")?;
    let stage = match entry_inst.operands.first() {
        Some(Operand::ExecutionModel(ExecutionModel::Vertex)) => ShaderStage::Vertex,
        Some(Operand::ExecutionModel(ExecutionModel::Fragment)) => ShaderStage::Fragment,
        Some(Operand::ExecutionModel(ExecutionModel::GLCompute)) => ShaderStage::Compute,
        Some(Operand::ExecutionModel(m)) => {
            return Err(format!(
                "the entry point is a {m:?} shader; shadersim compiles vertex, fragment and compute shaders"
            ))
        }
        _ => return Err("malformed OpEntryPoint".into()),
    };
    let entry = match entry_inst.operands.get(2) {
        Some(Operand::LiteralString(s)) => s.clone(),
        _ => "main".to_string(),
    };
    Ok((stage, entry))
}

/// The decorations the reflection reads, by target id.
fn decorations_of(module: &Module) -> BTreeMap<u32, Decorations> {
    let mut decorations: BTreeMap<u32, Decorations> = BTreeMap::new();
    for a in &module.annotations {
        if a.class.opcode != Op::Decorate {
            continue;
        }
        let (Some(target), Some(Operand::Decoration(d))) =
            (a.operands.first().and_then(id), a.operands.get(1))
        else {
            continue;
        };
        let e = decorations.entry(target).or_default();
        let value = a.operands.get(2).and_then(literal);
        match d {
            Decoration::DescriptorSet => e.set = value,
            Decoration::Binding => e.binding = value,
            Decoration::Location => e.location = value,
            Decoration::BuiltIn => e.builtin = true,
            Decoration::BufferBlock => e.buffer_block = true,
            _ => {}
        }
    }
    decorations
}

/// The workgroup size a compute entry declares (`LocalSize`, or `LocalSizeId` through
/// `constant`), the last mode that gives one.
fn workgroup_size_of(module: &Module, constant: &dyn Fn(u32) -> Option<u32>) -> Option<[u32; 3]> {
    let mut workgroup_size = None;
    for m in &module.execution_modes {
        let size = |ops: &[Operand], by_id: bool| -> Option<[u32; 3]> {
            let v: Vec<u32> = ops
                .iter()
                .skip(2)
                .take(3)
                .map(|o| {
                    if by_id {
                        id(o).and_then(constant)
                    } else {
                        literal(o)
                    }
                })
                .collect::<Option<Vec<u32>>>()?;
            (v.len() == 3).then(|| [v[0], v[1], v[2]])
        };
        match m.operands.get(1) {
            Some(Operand::ExecutionMode(ExecutionMode::LocalSize)) => {
                workgroup_size = size(&m.operands, false)
            }
            Some(Operand::ExecutionMode(ExecutionMode::LocalSizeId)) => {
                workgroup_size = size(&m.operands, true)
            }
            _ => {}
        }
    }
    workgroup_size
}

fn image_dim_and_sampled(image: &Instruction) -> (Option<Dim>, Option<u32>) {
    let dim = match image.operands.get(1) {
        Some(Operand::Dim(d)) => Some(*d),
        _ => None,
    };
    let sampled = image.operands.get(5).and_then(literal);
    (dim, sampled)
}

fn descriptor_kind(
    class: StorageClass,
    element: &Instruction,
    buffer_block: bool,
    types: &BTreeMap<u32, &Instruction>,
) -> Option<DescriptorKind> {
    match (class, element.class.opcode) {
        (StorageClass::StorageBuffer, _) => Some(DescriptorKind::StorageBuffer),
        (StorageClass::Uniform, _) if buffer_block => Some(DescriptorKind::StorageBuffer),
        (StorageClass::Uniform, _) => Some(DescriptorKind::UniformBuffer),
        (StorageClass::UniformConstant, Op::TypeSampler) => Some(DescriptorKind::Sampler),
        (StorageClass::UniformConstant, Op::TypeSampledImage) => {
            let image = types.get(&element.operands.first().and_then(id)?)?;
            let (dim, _) = image_dim_and_sampled(image);
            Some(if dim == Some(Dim::DimBuffer) {
                DescriptorKind::UniformTexelBuffer
            } else {
                DescriptorKind::CombinedImageSampler
            })
        }
        (StorageClass::UniformConstant, Op::TypeImage) => {
            let (dim, sampled) = image_dim_and_sampled(element);
            let buffer = dim == Some(Dim::DimBuffer);
            Some(match (sampled == Some(2), buffer) {
                (true, true) => DescriptorKind::StorageTexelBuffer,
                (true, false) => DescriptorKind::StorageImage,
                (false, true) => DescriptorKind::UniformTexelBuffer,
                (false, false) => DescriptorKind::SampledImage,
            })
        }
        _ => None,
    }
}

/// Component type and count of a 32-bit scalar or vector type.
fn interface_type(types: &BTreeMap<u32, &Instruction>, t: u32) -> Option<(ScalarKind, u32)> {
    let ti = types.get(&t)?;
    let (scalar_id, n) = match ti.class.opcode {
        Op::TypeVector => (
            ti.operands.first().and_then(id)?,
            ti.operands.get(1).and_then(literal)?,
        ),
        _ => (t, 1),
    };
    let s = types.get(&scalar_id)?;
    let width = s.operands.first().and_then(literal)?;
    if width != 32 || !(1..=4).contains(&n) {
        return None;
    }
    let kind = match s.class.opcode {
        Op::TypeFloat => ScalarKind::Float,
        Op::TypeInt if s.operands.get(1).and_then(literal) == Some(1) => ScalarKind::Int,
        Op::TypeInt => ScalarKind::Uint,
        _ => return None,
    };
    Some((kind, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_spirv_are_refused() {
        assert!(words_from_bytes(b"#version 450\nvoid main(){}\n")
            .unwrap_err()
            .contains("not a SPIR-V module"));
        assert!(words_from_bytes(&[1, 2, 3]).is_err());
    }

    #[test]
    fn truncated_spirv_is_an_error_not_a_panic() {
        let mut bytes = SPIRV_MAGIC.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0u8; 16]);
        bytes.extend_from_slice(&0x0004_000fu32.to_le_bytes()); // OpEntryPoint, 4 words, cut short
        let words = words_from_bytes(&bytes).unwrap();
        assert!(reflect(&words).is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Any words after a valid header: reflected or an error, never a panic.
        #[test]
        fn any_module_body_is_reflected_or_refused(body in proptest::collection::vec(proptest::prelude::any::<u32>(), 0..64)) {
            let mut words = vec![SPIRV_MAGIC, 0x0001_0000, 0, 100, 0];
            words.extend(body);
            let _ = reflect(&words);
        }

        /// Real instructions with random operands.
        #[test]
        fn plausible_instructions_never_panic(ops in proptest::collection::vec((1u16..400, proptest::collection::vec(0u32..200, 0..6)), 0..24)) {
            let mut words = vec![SPIRV_MAGIC, 0x0001_0000, 0, 300, 0];
            for (op, operands) in ops {
                words.push(((operands.len() as u32 + 1) << 16) | u32::from(op));
                words.extend(operands);
            }
            let _ = reflect(&words);
        }
    }

    #[test]
    fn spec_constant_op_with_an_unparsable_opcode_is_an_error() {
        // OpSpecConstantOp (52) whose literal opcode (50) rspirv cannot
        // parse operands for: the case proptest found (rspirv panicked).
        let words = vec![
            SPIRV_MAGIC,
            0x0001_0000,
            0,
            300,
            0,
            (4 << 16) | 52,
            0,
            0,
            50,
        ];
        let err = reflect(&words).unwrap_err();
        assert!(err.starts_with("not valid SPIR-V"), "{err}");
    }
}
