//! Buffers as the hints and the program give them: every memory op's buffer is its
//! `[[memory]] buffer` name, else its `base`, else the root `shadersim_infer` found in the
//! program, else the default buffer (see `shadersim_infer::buffers` for the roots).

use crate::hints::HintsError;
use crate::tracer::MemoryFacts;
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_infer::{roots_and_words, Buffer, BufferFound, BufferMap, BufferUse, Root};
use std::collections::HashMap;

/// What a memory op's buffer is keyed by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Default,
    Named(String),
    Base(u64),
    Found(Root),
}

/// Give every memory instruction of `program` a buffer: its `[[memory]] buffer` name, else
/// its `base`, else the root found in the program (a named op's root brings the unhinted ops
/// of that root into its buffer), else the default buffer 0. Buffers are numbered in program
/// order of their first op. Bases are 0 until [`BufferMap::set_default_bases`] (except
/// `base` hints). Errors: one buffer name given two different bases.
pub fn find_buffers(
    program: &Program,
    cfg: &Cfg,
    memory: &HashMap<usize, MemoryFacts>,
) -> Result<BufferMap, HintsError> {
    let (roots, words) = roots_and_words(program, cfg);
    let mut indices: Vec<usize> = roots.keys().copied().collect();
    indices.sort_unstable();
    // The explicit base of each name, and the name a found root belongs to.
    let mut named_base: HashMap<String, (u64, u32)> = HashMap::new();
    let mut root_name: HashMap<Root, String> = HashMap::new();
    for &i in &indices {
        let Some(f) = memory.get(&i) else { continue };
        let line = program.instructions[i].pos.line;
        if let Some((name, _)) = &f.buffer {
            if let Some((base, span)) = &f.base {
                match named_base.get(name) {
                    Some((b, l)) if b != base => {
                        return Err(HintsError::at(
                            span.clone(),
                            format!("buffer `{name}` has base {b:#x} (line {l}); line {line} gives {base:#x}"),
                        ));
                    }
                    _ => {
                        named_base.insert(name.clone(), (*base, line));
                    }
                }
            }
            if let Some(r) = &roots[&i].0 {
                root_name.entry(r.clone()).or_insert_with(|| name.clone());
            }
        }
    }
    let mut map = BufferMap {
        buffers: vec![Buffer {
            id: 0,
            name: None,
            base: 0,
            explicit_base: false,
            found: BufferFound::Default,
            origin: "the default buffer: no root found in the program".into(),
            lines: Vec::new(),
        }],
        ..BufferMap::default()
    };
    let mut ids: HashMap<Key, u32> = HashMap::from([(Key::Default, 0)]);
    for &i in &indices {
        let (root, offset) = &roots[&i];
        let facts = memory.get(&i);
        let key = match (
            facts.and_then(|f| f.buffer.as_ref()),
            facts.and_then(|f| f.base.as_ref()),
            root,
        ) {
            (Some((name, _)), _, _) => Key::Named(name.clone()),
            (None, Some((base, _)), _) => Key::Base(*base),
            (None, None, Some(r)) => match root_name.get(r) {
                Some(name) => Key::Named(name.clone()),
                None => Key::Found(r.clone()),
            },
            (None, None, None) => Key::Default,
        };
        let id = match ids.get(&key) {
            Some(&id) => id,
            None => {
                let id = map.buffers.len() as u32;
                let (name, base, found, origin) = match &key {
                    Key::Named(n) => {
                        let base = named_base.get(n).map(|b| b.0);
                        let origin = match root {
                            Some(r) => format!("buffer `{n}` of the hints ({})", words[r]),
                            None => format!("buffer `{n}` of the hints"),
                        };
                        (Some(n.clone()), base, BufferFound::Hint, origin)
                    }
                    Key::Base(b) => (
                        None,
                        Some(*b),
                        BufferFound::Hint,
                        format!("base {b:#x} of the hints"),
                    ),
                    Key::Found(r) => (None, None, BufferFound::Program, words[r].clone()),
                    Key::Default => unreachable!("the default buffer is buffer 0"),
                };
                map.buffers.push(Buffer {
                    id,
                    name,
                    base: base.unwrap_or(0),
                    explicit_base: base.is_some(),
                    found,
                    origin,
                    lines: Vec::new(),
                });
                ids.insert(key, id);
                id
            }
        };
        let line = program.instructions[i].pos.line;
        let lines = &mut map.buffers[id as usize].lines;
        if !lines.contains(&line) {
            lines.push(line);
        }
        map.of_instr.insert(
            i,
            BufferUse {
                buffer: id,
                offset: offset.and_then(|o| u64::try_from(o).ok()).unwrap_or(0),
            },
        );
    }
    Ok(map)
}
