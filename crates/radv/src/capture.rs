//! Build one pipeline with the Vulkan driver in this process and capture
//! its executables' listings and statistics.
//!
//! This is the only module of shadersim that calls into C: every call is
//! an `unsafe` ash call into the loader. The driver is trusted no further
//! than the process boundary: shadersim runs this in a child process with a
//! time limit (see the crate documentation), so a driver crash or hang is
//! an error message, not a crash of the tool.
#![allow(unsafe_code)]

use crate::reflect::{DescriptorKind, Reflection, ScalarKind, ShaderStage};
use crate::{Capture, CaptureError, CapturedExecutable, Statistic};
use ash::vk;
use std::ffi::{CStr, CString};

/// AMD's PCI vendor id: the device RADV exposes.
const AMD_VENDOR_ID: u32 = 0x1002;

/// One shader of the pipeline: its SPIR-V and what it needs.
#[derive(Debug, Clone)]
pub struct ShaderModule {
    /// The SPIR-V words.
    pub words: Vec<u32>,
    /// Its reflection.
    pub reflection: Reflection,
}

fn vk_err(call: &'static str) -> impl Fn(vk::Result) -> CaptureError {
    move |r| CaptureError::Vulkan {
        call,
        result: format!("{r:?}"),
    }
}

fn c_text(bytes: Result<&CStr, std::ffi::FromBytesUntilNulError>) -> String {
    bytes
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Compile a pipeline of `shaders` (one compute shader, or a vertex shader
/// then a fragment shader, or a vertex shader alone) with the Vulkan driver
/// the environment selects, and capture every executable.
///
/// Meant for a process of its own: the driver reads `RADV_FORCE_FAMILY`
/// when it loads, and may crash.
pub fn capture_pipeline(shaders: &[ShaderModule]) -> Result<Capture, CaptureError> {
    let stages: Vec<ShaderStage> = shaders.iter().map(|s| s.reflection.stage).collect();
    match stages.as_slice() {
        [ShaderStage::Compute] | [ShaderStage::Vertex] | [ShaderStage::Vertex, ShaderStage::Fragment] => {}
        _ => {
            return Err(CaptureError::Spirv(format!(
                "a pipeline is one compute shader, a vertex shader, or a vertex then a fragment shader (got {})",
                stages.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
            )))
        }
    }
    let entry = unsafe { ash::Entry::load() }.map_err(|e| CaptureError::Loader(e.to_string()))?;
    let app = vk::ApplicationInfo::default()
        .application_name(c"shadersim")
        .api_version(vk::API_VERSION_1_2);
    let instance = unsafe {
        entry.create_instance(
            &vk::InstanceCreateInfo::default().application_info(&app),
            None,
        )
    }
    .map_err(vk_err("vkCreateInstance"))?;
    let result = capture_on_instance(&instance, shaders);
    unsafe { instance.destroy_instance(None) };
    result
}

fn capture_on_instance(
    instance: &ash::Instance,
    shaders: &[ShaderModule],
) -> Result<Capture, CaptureError> {
    let devices = unsafe { instance.enumerate_physical_devices() }
        .map_err(vk_err("vkEnumeratePhysicalDevices"))?;
    let (physical, props) = devices
        .into_iter()
        .map(|d| (d, unsafe { instance.get_physical_device_properties(d) }))
        .find(|(_, p)| p.vendor_id == AMD_VENDOR_ID)
        .ok_or(CaptureError::NoDevice)?;
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut driver);
    unsafe { instance.get_physical_device_properties2(physical, &mut props2) };
    let driver_info = c_text(driver.driver_info_as_c_str());

    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(0)
        .queue_priorities(&priorities)];
    let mut executable_info = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let supported = unsafe { instance.get_physical_device_features(physical) };
    // Ask for what real shaders use when the device has it (64-bit types,
    // stores from vertex and fragment shaders).
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_float64(supported.shader_float64 == vk::TRUE)
        .shader_int64(supported.shader_int64 == vk::TRUE)
        .fragment_stores_and_atomics(supported.fragment_stores_and_atomics == vk::TRUE)
        .vertex_pipeline_stores_and_atomics(
            supported.vertex_pipeline_stores_and_atomics == vk::TRUE,
        );
    let extensions = [ash::khr::pipeline_executable_properties::NAME.as_ptr()];
    let device_info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&extensions)
        .enabled_features(&features)
        .push_next(&mut executable_info);
    let device = unsafe { instance.create_device(physical, &device_info, None) }
        .map_err(vk_err("vkCreateDevice"))?;
    let result = capture_on_device(instance, &device, shaders).map(|executables| Capture {
        device: c_text(props.device_name_as_c_str()),
        driver_info,
        executables,
    });
    unsafe { device.destroy_device(None) };
    result
}

/// Objects to destroy when the capture ends, whatever happened.
#[derive(Default)]
struct Owned {
    set_layouts: Vec<vk::DescriptorSetLayout>,
    layout: Option<vk::PipelineLayout>,
    modules: Vec<vk::ShaderModule>,
    render_pass: Option<vk::RenderPass>,
    pipeline: Option<vk::Pipeline>,
}

impl Owned {
    fn destroy(self, device: &ash::Device) {
        unsafe {
            if let Some(p) = self.pipeline {
                device.destroy_pipeline(p, None);
            }
            if let Some(r) = self.render_pass {
                device.destroy_render_pass(r, None);
            }
            for m in self.modules {
                device.destroy_shader_module(m, None);
            }
            if let Some(l) = self.layout {
                device.destroy_pipeline_layout(l, None);
            }
            for l in self.set_layouts {
                device.destroy_descriptor_set_layout(l, None);
            }
        }
    }
}

fn capture_on_device(
    instance: &ash::Instance,
    device: &ash::Device,
    shaders: &[ShaderModule],
) -> Result<Vec<CapturedExecutable>, CaptureError> {
    let mut owned = Owned::default();
    let result = build_and_read(instance, device, shaders, &mut owned);
    owned.destroy(device);
    result
}

fn stage_flag(stage: ShaderStage) -> vk::ShaderStageFlags {
    match stage {
        ShaderStage::Vertex => vk::ShaderStageFlags::VERTEX,
        ShaderStage::Fragment => vk::ShaderStageFlags::FRAGMENT,
        ShaderStage::Compute => vk::ShaderStageFlags::COMPUTE,
    }
}

fn descriptor_type(kind: DescriptorKind) -> vk::DescriptorType {
    match kind {
        DescriptorKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorKind::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorKind::CombinedImageSampler => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        DescriptorKind::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorKind::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorKind::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        DescriptorKind::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
        DescriptorKind::Sampler => vk::DescriptorType::SAMPLER,
    }
}

/// 32-bit formats for a vertex attribute or an integer colour target.
fn format_32(scalar: ScalarKind, components: u32) -> vk::Format {
    use vk::Format as F;
    let table = match scalar {
        ScalarKind::Float => [
            F::R32_SFLOAT,
            F::R32G32_SFLOAT,
            F::R32G32B32_SFLOAT,
            F::R32G32B32A32_SFLOAT,
        ],
        ScalarKind::Int => [
            F::R32_SINT,
            F::R32G32_SINT,
            F::R32G32B32_SINT,
            F::R32G32B32A32_SINT,
        ],
        ScalarKind::Uint => [
            F::R32_UINT,
            F::R32G32_UINT,
            F::R32G32B32_UINT,
            F::R32G32B32A32_UINT,
        ],
    };
    table[(components.clamp(1, 4) - 1) as usize]
}

fn build_and_read(
    instance: &ash::Instance,
    device: &ash::Device,
    shaders: &[ShaderModule],
    owned: &mut Owned,
) -> Result<Vec<CapturedExecutable>, CaptureError> {
    // Descriptor set layouts: the union of every stage's bindings.
    let mut sets: std::collections::BTreeMap<u32, Vec<vk::DescriptorSetLayoutBinding>> =
        Default::default();
    for s in shaders {
        let flag = stage_flag(s.reflection.stage);
        for b in &s.reflection.bindings {
            let list = sets.entry(b.set).or_default();
            match list.iter_mut().find(|l| l.binding == b.binding) {
                Some(l) if l.descriptor_type == descriptor_type(b.kind) => l.stage_flags |= flag,
                Some(_) => {
                    return Err(CaptureError::Spirv(format!(
                        "set {} binding {} has different descriptor types in different stages",
                        b.set, b.binding
                    )))
                }
                None => list.push(
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(descriptor_type(b.kind))
                        .descriptor_count(b.count)
                        .stage_flags(flag),
                ),
            }
        }
    }
    let set_count = sets.keys().next_back().map_or(0, |s| s + 1);
    if set_count > 8 {
        return Err(CaptureError::Spirv(format!(
            "descriptor set {} is beyond the 8 sets a pipeline layout may use",
            set_count - 1
        )));
    }
    for s in 0..set_count {
        let bindings = sets.get(&s).cloned().unwrap_or_default();
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        let l = unsafe { device.create_descriptor_set_layout(&info, None) }
            .map_err(vk_err("vkCreateDescriptorSetLayout"))?;
        owned.set_layouts.push(l);
    }
    // Push constants: the largest range every stage may read (Vulkan's
    // guaranteed minimum is 128 bytes).
    let all_stages = shaders.iter().fold(vk::ShaderStageFlags::empty(), |f, s| {
        f | stage_flag(s.reflection.stage)
    });
    let push = [vk::PushConstantRange::default()
        .stage_flags(all_stages)
        .offset(0)
        .size(128)];
    let layout_info = vk::PipelineLayoutCreateInfo::default()
        .set_layouts(&owned.set_layouts)
        .push_constant_ranges(&push);
    let layout = unsafe { device.create_pipeline_layout(&layout_info, None) }
        .map_err(vk_err("vkCreatePipelineLayout"))?;
    owned.layout = Some(layout);

    let mut names = Vec::new();
    for s in shaders {
        let info = vk::ShaderModuleCreateInfo::default().code(&s.words);
        let m = unsafe { device.create_shader_module(&info, None) }
            .map_err(vk_err("vkCreateShaderModule"))?;
        owned.modules.push(m);
        names.push(
            CString::new(s.reflection.entry.clone())
                .map_err(|_| CaptureError::Spirv("entry point name holds a NUL".into()))?,
        );
    }
    let stage_infos: Vec<vk::PipelineShaderStageCreateInfo> = shaders
        .iter()
        .zip(&owned.modules)
        .zip(&names)
        .map(|((s, m), n)| {
            vk::PipelineShaderStageCreateInfo::default()
                .stage(stage_flag(s.reflection.stage))
                .module(*m)
                .name(n)
        })
        .collect();
    let flags = vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
        | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;

    let pipeline = if shaders[0].reflection.stage == ShaderStage::Compute {
        let info = vk::ComputePipelineCreateInfo::default()
            .flags(flags)
            .stage(stage_infos[0])
            .layout(layout);
        unsafe { device.create_compute_pipelines(vk::PipelineCache::null(), &[info], None) }
            .map_err(|(_, r)| vk_err("vkCreateComputePipelines")(r))?[0]
    } else {
        graphics_pipeline(device, shaders, &stage_infos, flags, layout, owned)?
    };
    owned.pipeline = Some(pipeline);
    read_executables(instance, device, pipeline)
}

fn graphics_pipeline(
    device: &ash::Device,
    shaders: &[ShaderModule],
    stage_infos: &[vk::PipelineShaderStageCreateInfo],
    flags: vk::PipelineCreateFlags,
    layout: vk::PipelineLayout,
    owned: &mut Owned,
) -> Result<vk::Pipeline, CaptureError> {
    // Vertex inputs: one tightly packed binding per attribute location.
    let vs = &shaders[0].reflection;
    let attributes: Vec<vk::VertexInputAttributeDescription> = vs
        .inputs
        .iter()
        .enumerate()
        .map(|(i, v)| vk::VertexInputAttributeDescription {
            location: v.location,
            binding: i as u32,
            format: format_32(v.scalar, v.components),
            offset: 0,
        })
        .collect();
    let bindings: Vec<vk::VertexInputBindingDescription> = vs
        .inputs
        .iter()
        .enumerate()
        .map(|(i, v)| vk::VertexInputBindingDescription {
            binding: i as u32,
            stride: 4 * v.components,
            input_rate: vk::VertexInputRate::VERTEX,
        })
        .collect();
    let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_attribute_descriptions(&attributes)
        .vertex_binding_descriptions(&bindings);
    // Colour attachments, one per fragment output location: float outputs
    // go to an 8-bit UNORM target (the common case), integers stay 32-bit.
    let fs_outputs = shaders
        .get(1)
        .map(|s| s.reflection.outputs.clone())
        .unwrap_or_default();
    let targets = fs_outputs.iter().map(|o| o.location + 1).max().unwrap_or(0);
    if targets > 8 {
        return Err(CaptureError::Spirv(
            "a fragment output location is beyond the 8 colour targets".into(),
        ));
    }
    let mut attachments = Vec::new();
    let mut references = Vec::new();
    let mut blends = Vec::new();
    for loc in 0..targets {
        let out = fs_outputs.iter().find(|o| o.location == loc);
        let format = match out {
            Some(o) if o.scalar != ScalarKind::Float => format_32(o.scalar, o.components),
            _ => vk::Format::R8G8B8A8_UNORM,
        };
        references.push(vk::AttachmentReference {
            attachment: if out.is_some() {
                attachments.len() as u32
            } else {
                vk::ATTACHMENT_UNUSED
            },
            layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        });
        if out.is_some() {
            attachments.push(
                vk::AttachmentDescription::default()
                    .format(format)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .initial_layout(vk::ImageLayout::UNDEFINED)
                    .final_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL),
            );
        }
        blends.push(
            vk::PipelineColorBlendAttachmentState::default()
                .color_write_mask(vk::ColorComponentFlags::RGBA),
        );
    }
    let subpasses = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&references)];
    let rp_info = vk::RenderPassCreateInfo::default()
        .attachments(&attachments)
        .subpasses(&subpasses);
    let render_pass = unsafe { device.create_render_pass(&rp_info, None) }
        .map_err(vk_err("vkCreateRenderPass"))?;
    owned.render_pass = Some(render_pass);

    let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewport_count(1)
        .scissor_count(1);
    // A vertex shader alone: rasterization is discarded, so no fragment
    // stage is needed.
    let raster = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
        .rasterizer_discard_enable(shaders.len() == 1)
        .line_width(1.0);
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&blends);
    let dynamic_states = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let info = vk::GraphicsPipelineCreateInfo::default()
        .flags(flags)
        .stages(stage_infos)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&input_assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .color_blend_state(&blend)
        .dynamic_state(&dynamic)
        .layout(layout)
        .render_pass(render_pass)
        .subpass(0);
    Ok(
        unsafe { device.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) }
            .map_err(|(_, r)| vk_err("vkCreateGraphicsPipelines")(r))?[0],
    )
}

fn stage_names(flags: vk::ShaderStageFlags) -> Vec<String> {
    [
        (vk::ShaderStageFlags::VERTEX, "vertex"),
        (vk::ShaderStageFlags::TESSELLATION_CONTROL, "tess_control"),
        (vk::ShaderStageFlags::TESSELLATION_EVALUATION, "tess_eval"),
        (vk::ShaderStageFlags::GEOMETRY, "geometry"),
        (vk::ShaderStageFlags::FRAGMENT, "fragment"),
        (vk::ShaderStageFlags::COMPUTE, "compute"),
    ]
    .iter()
    .filter(|(f, _)| flags.contains(*f))
    .map(|(_, n)| n.to_string())
    .collect()
}

fn statistic_value(s: &vk::PipelineExecutableStatisticKHR) -> String {
    unsafe {
        match s.format {
            vk::PipelineExecutableStatisticFormatKHR::BOOL32 => (if s.value.b32 == vk::TRUE {
                "true"
            } else {
                "false"
            })
            .to_string(),
            vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64.to_string(),
            // TOML integers are signed 64-bit: quote values beyond them.
            vk::PipelineExecutableStatisticFormatKHR::UINT64 if s.value.u64 > i64::MAX as u64 => {
                format!("\"{}\"", s.value.u64)
            }
            vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64.to_string(),
            vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => format!("{:?}", s.value.f64),
            _ => "\"?\"".to_string(),
        }
    }
}

fn read_executables(
    instance: &ash::Instance,
    device: &ash::Device,
    pipeline: vk::Pipeline,
) -> Result<Vec<CapturedExecutable>, CaptureError> {
    let ext = ash::khr::pipeline_executable_properties::Device::new(instance, device);
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    let props = unsafe { ext.get_pipeline_executable_properties(&info) }
        .map_err(vk_err("vkGetPipelineExecutablePropertiesKHR"))?;
    let mut out = Vec::new();
    for (index, p) in props.iter().enumerate() {
        let exec = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index as u32);
        let stats = unsafe { ext.get_pipeline_executable_statistics(&exec) }
            .map_err(vk_err("vkGetPipelineExecutableStatisticsKHR"))?;
        let statistics = stats
            .iter()
            .map(|s| Statistic {
                name: c_text(s.name_as_c_str()),
                description: c_text(s.description_as_c_str()),
                value: statistic_value(s),
            })
            .collect();
        out.push(CapturedExecutable {
            name: c_text(p.name_as_c_str()),
            description: c_text(p.description_as_c_str()),
            stages: stage_names(p.stages),
            subgroup_size: p.subgroup_size,
            statistics,
            assembly: assembly_text(&ext, &exec)?,
        });
    }
    Ok(out)
}

/// The "Assembly" text representation of one executable.
fn assembly_text(
    ext: &ash::khr::pipeline_executable_properties::Device,
    exec: &vk::PipelineExecutableInfoKHR,
) -> Result<Option<String>, CaptureError> {
    let get = ext
        .fp()
        .get_pipeline_executable_internal_representations_khr;
    let err = vk_err("vkGetPipelineExecutableInternalRepresentationsKHR");
    let mut count = 0u32;
    unsafe { get(ext.device(), exec, &mut count, std::ptr::null_mut()) }
        .result()
        .map_err(&err)?;
    let mut reps = vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
    unsafe { get(ext.device(), exec, &mut count, reps.as_mut_ptr()) }
        .result()
        .map_err(&err)?;
    // Second round: give the text representation named "Assembly" a
    // buffer of the size the first round reported; the others none.
    let mut buffer: Vec<u8> = Vec::new();
    let mut wanted = None;
    for (i, r) in reps.iter_mut().enumerate() {
        if r.is_text == vk::TRUE && c_text(r.name_as_c_str()) == "Assembly" {
            buffer = vec![0u8; r.data_size + 1];
            r.data_size = buffer.len();
            r.p_data = buffer.as_mut_ptr().cast();
            wanted = Some(i);
        } else {
            r.data_size = 0;
            r.p_data = std::ptr::null_mut();
        }
    }
    let Some(_) = wanted else { return Ok(None) };
    let r = unsafe { get(ext.device(), exec, &mut count, reps.as_mut_ptr()) };
    if r != vk::Result::SUCCESS && r != vk::Result::INCOMPLETE {
        return Err(err(r));
    }
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    Ok(Some(String::from_utf8_lossy(&buffer[..end]).into_owned()))
}
