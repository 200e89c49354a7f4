//! The scene-size limits checked before anything is built (named in
//! their errors and in docs/cli.md).

/// Most triangles a scene's meshes may hold together (each mesh counts
/// once, however many instances place it: it is built into one BLAS).
/// Building and encoding grow faster than the triangle count: the five
/// default layouts of `sphere:600` (1.44 M triangles) took 3 minutes on a
/// busy 2-core machine, where the 70 K-triangle bunny takes seconds; so the
/// limit is 2^20, about a million. Checked before a procedural mesh is made
/// and as soon as a mesh file is read.
pub const MAX_SCENE_TRIANGLES: usize = 1 << 20;

/// Most instances a scene may place (the TLAS's leaves). Checked when the
/// scene file is read, before any mesh is built. Time grows faster than
/// the instance count (20,000 instances run in about 1.5 s, 100,000 took
/// 84 s), so the limit keeps a run within seconds.
pub const MAX_INSTANCES: usize = 1 << 15;
