//! The launch's numbers in the kernel-argument segment: the values of the arguments the
//! launch names (`[launch] args`, `--arg NAME=VALUE`), and the hidden arguments the runtime
//! writes from the grid and block (workgroup counts, workgroup sizes, remainders, the global
//! offset). A load from the segment at such an offset is then a known number to the address
//! and trip-count readers, so `for (k = 0; k < K; k++)` runs K times and `in[i * cols]` moves
//! by `cols` elements. A `__local` pointer argument (`dynamic_shared_pointer`) takes its bytes
//! of LDS, added to the workgroup's, as does the launch's dynamic shared memory (`shared`).

use crate::hints::{ArgValue, HintsError, LaunchHints};
use shadersim_asm::{KernelArg, Program};
use std::collections::BTreeMap;

/// The most LDS bytes a launch may add to a workgroup (a `__local` pointer's size, `shared`):
/// 160 KiB, the largest LDS of any AMD GPU (gfx950), so no launch is refused that some GPU runs.
const MAX_DYNAMIC_LDS: u64 = 163_840;

/// The program with the launch's argument values (and dynamic LDS) applied, or `None` when
/// the launch gives nothing the segment holds; a grid without a block has workgroups of the
/// kernel's required size, else `default_threads` wide (the run's workgroup size).
pub fn apply_kernel_args(
    program: &Program,
    launch: &LaunchHints,
    default_threads: u32,
) -> Result<Option<Program>, HintsError> {
    let shape = launch.shape(program.declared.workgroup_size, default_threads)?;
    let block = shape.map(|s| s.block);
    let grid = shape.and_then(|s| s.grid);
    let global = shape.and_then(|s| s.global);
    if launch.args.is_empty() && grid.is_none() && block.is_none() && launch.shared.is_none() {
        return Ok(None);
    }
    let args = &program.declared.args;
    let mut bytes: BTreeMap<u32, u8> = BTreeMap::new();
    hidden_args(args, grid, block, global, &mut bytes);
    let mut lds_extra: u64 = 0;
    if let Some(shared) = &launch.shared {
        // The same bound as a `__local` pointer's bytes: the most LDS a workgroup has anywhere.
        match u64::try_from(*shared.get_ref()) {
            Ok(n) if n <= MAX_DYNAMIC_LDS => lds_extra += n,
            _ => {
                return Err(HintsError::at(
                    shared.span(),
                    format!(
                        "[launch] shared: {} bytes of dynamic LDS; give 0 to {MAX_DYNAMIC_LDS}",
                        shared.get_ref()
                    ),
                ))
            }
        }
    }
    lds_extra += named_args(launch, args, &mut bytes)?;
    let mut p = program.clone();
    // Whole DWORDs only: a load reads four bytes.
    let starts: Vec<u32> = bytes.keys().map(|o| o & !3).collect();
    for start in starts {
        let word: Option<u32> = (0..4).try_fold(0u32, |acc, i| {
            bytes
                .get(&(start + i))
                .map(|b| acc | (u32::from(*b) << (8 * i)))
        });
        if let Some(w) = word {
            p.declared.kernarg_values.insert(start, w);
        }
    }
    // The dispatch packet (hsa_kernel_dispatch_packet_t): the workgroup size in three 16-bit
    // fields at bytes 4, 6 and 8, the grid's work-items in three 32-bit ones at 12, 16, 20.
    if let (Some(b), Some(g)) = (block, grid) {
        let lo = |x: u64| (x as u32) & 0xffff;
        p.declared
            .dispatch_values
            .insert(4, lo(b[0]) | (lo(b[1]) << 16));
        // Bytes 8-11: the z size and the packet's reserved half.
        p.declared.dispatch_values.insert(8, lo(b[2]));
        for d in 0..3 {
            let items = global.map_or(g[d].saturating_mul(b[d]), |gl| gl[d]);
            p.declared
                .dispatch_values
                .insert(12 + 4 * d as u32, u32::try_from(items).unwrap_or(u32::MAX));
        }
    }
    if lds_extra > 0 {
        let total = u64::from(p.declared.lds_bytes.unwrap_or(0)) + lds_extra;
        p.declared.lds_bytes = Some(u32::try_from(total).unwrap_or(u32::MAX));
    }
    Ok(Some(p))
}

/// Write `size` bytes (at most 8) of `value` at `offset`, little-endian.
fn put(bytes: &mut BTreeMap<u32, u8>, offset: u32, size: u32, value: u64) {
    for i in 0..size.min(8) {
        bytes.insert(offset + i, (value >> (8 * i)) as u8);
    }
}

/// The hidden arguments the runtime writes from the grid and block.
fn hidden_args(
    args: &[KernelArg],
    grid: Option<[u64; 3]>,
    block: Option<[u64; 3]>,
    global: Option<[u64; 3]>,
    bytes: &mut BTreeMap<u32, u8>,
) {
    for a in args {
        let dim = |prefix: &str| {
            a.value_kind
                .strip_prefix(prefix)
                .and_then(|d| ["x", "y", "z"].iter().position(|n| *n == d))
        };
        if let (Some(d), Some(g)) = (dim("hidden_block_count_"), grid) {
            put(bytes, a.offset, a.size, g[d]);
        } else if let (Some(d), Some(b)) = (dim("hidden_group_size_"), block) {
            put(bytes, a.offset, a.size, b[d]);
        } else if let (Some(d), Some(b)) = (dim("hidden_remainder_"), block) {
            put(
                bytes,
                a.offset,
                a.size,
                global.map_or(0, |g| g[d] % b[d].max(1)),
            );
        } else if dim("hidden_global_offset_").is_some() && (grid.is_some() || block.is_some()) {
            put(bytes, a.offset, a.size, 0);
        } else if a.value_kind == "hidden_grid_dims" {
            if let Some(g) = grid {
                put(
                    bytes,
                    a.offset,
                    a.size,
                    if g[2] > 1 {
                        3
                    } else if g[1] > 1 {
                        2
                    } else {
                        1
                    },
                );
            }
        }
    }
}

/// The arguments the launch names by value; the LDS bytes its `__local` pointers take.
fn named_args(
    launch: &LaunchHints,
    args: &[KernelArg],
    bytes: &mut BTreeMap<u32, u8>,
) -> Result<u64, HintsError> {
    let mut lds_extra: u64 = 0;
    for (name, value) in &launch.args {
        let Some(a) = args
            .iter()
            .find(|a| a.name.as_deref() == Some(name.as_str()))
        else {
            let named: Vec<&str> = args.iter().filter_map(|a| a.name.as_deref()).collect();
            return Err(HintsError::at(
                value.span(),
                if named.is_empty() {
                    format!("[launch] args: `{name}`: the program's metadata names no kernel arguments (OpenCL C compiled by shadersim names them; a listing or code object needs clang's -cl-kernel-arg-info; HIP and Triton code objects name none)")
                } else {
                    format!(
                        "[launch] args: the kernel has no argument `{name}`; its arguments: {}",
                        named.join(", ")
                    )
                },
            ));
        };
        let bad =
            |why: String| HintsError::at(value.span(), format!("[launch] args: `{name}`: {why}"));
        match (a.value_kind.as_str(), *value.get_ref()) {
            ("dynamic_shared_pointer", ArgValue::Int(n))
                if (0..=MAX_DYNAMIC_LDS as i64).contains(&n) =>
            {
                lds_extra += n as u64;
            }
            ("dynamic_shared_pointer", _) => {
                return Err(bad("a `__local` pointer takes its size in bytes, 0 to 163840".into()))
            }
            ("by_value", v) => {
                let word = match (a.size, v) {
                    (4, ArgValue::Int(n)) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&n) => n as u32 as u64,
                    (4, ArgValue::Float(f)) => u64::from((f as f32).to_bits()),
                    (8, ArgValue::Int(n)) => n as u64,
                    (8, ArgValue::Float(f)) => f.to_bits(),
                    (1 | 2, ArgValue::Int(n)) if n >= 0 && (n as u64) < (1u64 << (8 * a.size)) => n as u64,
                    (size, v) => {
                        return Err(bad(format!(
                            "a {size}-byte argument{} cannot hold {}",
                            a.type_name.as_deref().map(|t| format!(" of type `{t}`")).unwrap_or_default(),
                            match v {
                                ArgValue::Int(n) => n.to_string(),
                                ArgValue::Float(f) => f.to_string(),
                            }
                        )))
                    }
                };
                put(bytes, a.offset, a.size, word);
            }
            (kind, _) => {
                return Err(bad(format!(
                    "a `{kind}` argument (a buffer's address) has no value the simulation uses; give scalar arguments and `__local` sizes"
                )))
            }
        }
    }
    Ok(lds_extra)
}
