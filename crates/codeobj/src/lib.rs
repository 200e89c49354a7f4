//! shadersim-codeobj: AMDGPU code objects read without LLVM.
//!
//! Reads ELF code objects (v4, v5, v6; relocatable and linked), clang offload bundles and host
//! ELF files that embed them ([`read_code_objects`]); finds kernels by symbol and kernel
//! descriptor, with the metadata note's register counts, LDS, scratch and wave size; and decodes
//! machine code into LLVM-syntax instruction text with tables generated from LLVM's own
//! assembler ([`decode`]), which shadersim-asm then reads like an `llvm-objdump -d` listing
//! ([`listing`]).
//!
//! Invariants: no input makes it panic (a proptest mutates real code objects); every error
//! names the file and, when it is about a place, the byte offset; no file I/O.

mod bundle;
pub mod decode;
mod descriptor;
mod elf;
mod error;
pub mod listing;
mod metadata;
mod rejected;

pub use bundle::{bundle_entries, BundleEntry, BUNDLE_MAGIC};
pub use descriptor::{KernelDescriptor, DESCRIPTOR_SIZE};
pub use elf::{detect, read_code_objects, CodeObject, Container, Function};
pub use error::CodeObjError;
pub use metadata::{
    parse_metadata, KernelMetadata, Metadata, MAX_WORKGROUP_SIZE, NT_AMDGPU_METADATA,
};
