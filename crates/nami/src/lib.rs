//! Cycle model of the small FPGA GPU of seed 003 ("Shader Blocks (SDN, AKB,
//! NMB, SKE, ELT)"): twenty rasterizers racing the HDMI beam one 640x32 tile
//! row at a time, SDNs packing their pixels into 8-lane Nami, AKBs feeding
//! four NMBs of four Nami into an SKE round robin, and ELTs exporting to the
//! render cache. One module per hardware block; every number comes from
//! [`params::NamiParams`], loaded from the embedded `data/params.toml`.

pub mod akb;
pub mod elt;
pub mod frame;
mod group;
pub mod params;
pub mod raster;
pub mod report;
mod row_replay;
pub mod scene;
pub mod sdn;
pub mod seed_figures;
pub mod shader;
pub mod sim;
pub mod ske;

pub use shader::LANES;
