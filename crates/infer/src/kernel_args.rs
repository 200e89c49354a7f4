//! Kernel arguments by name: the by-value arguments that hold given bytes of the
//! kernel-argument segment, as the program's metadata names them (what `--arg NAME=VALUE`
//! takes).

use shadersim_asm::Program;

/// The source names of the by-value kernel arguments that hold the segment bytes at
/// `offsets`, in argument order, without repeats (an argument the program's metadata does not
/// name is left out: `--arg` takes names).
pub fn argument_names(program: &Program, offsets: &[u32]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for a in &program.declared.args {
        let holds = |o: u32| o >= a.offset && o - a.offset < a.size;
        if a.value_kind != "by_value" || !offsets.iter().copied().any(holds) {
            continue;
        }
        if let Some(n) = &a.name {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}
