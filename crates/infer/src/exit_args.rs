//! The kernel arguments a loop's exit test reads (`for (c = 0; c < cols; c++)`
//! compares with `cols`; `for (k = -r; k <= r; k++)` counts `(r << 1) | 1` down). A loop whose
//! count the launch did not fix runs once by default; naming the argument its test reads tells
//! the user which `--arg NAME=VALUE` gives the loop its real count.

use crate::address_affine::Eval;
use crate::buffers::Finder;
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_isa::{InstrClass, RegFile, ScalarOp};
use std::collections::{BTreeSet, HashSet};

/// Most definitions one loop's walk visits (a bound on time, whatever the program).
const MAX_DEFINITIONS: usize = 512;

/// The byte offsets in the kernel-argument segment of the DWORDs that loop `loop_id`'s exit
/// tests read, in order: the scalar loads of the segment whose values reach a compare in a
/// block the loop leaves from, through any scalar or vector arithmetic (a counter started from
/// them included; not through memory other than the segment). Empty when they read none.
pub fn exit_test_arguments(program: &Program, cfg: &Cfg, loop_id: usize) -> Vec<u32> {
    let Some(lp) = cfg.loops.get(loop_id) else {
        return Vec::new();
    };
    let instrs = &program.instructions;
    let finder = Finder::new(program, cfg);
    let mut walk = DefinitionWalk {
        program,
        finder: &finder,
        seen: HashSet::new(),
        loads: BTreeSet::new(),
    };
    let exiting: BTreeSet<usize> = lp.exits.iter().map(|&(inside, _)| inside).collect();
    for b in exiting {
        let block = &cfg.blocks[b];
        let Some(branch) = cfg.branch_of_block(b) else {
            continue;
        };
        let scc_branch = instrs[branch.instr]
            .inst
            .info
            .scalar
            .is_some_and(|f| matches!(f.op, ScalarOp::BranchScc(_)));
        let is_compare = |i: usize| {
            let inst = &instrs[i].inst;
            if scc_branch {
                inst.info
                    .scalar
                    .is_some_and(|f| matches!(f.op, ScalarOp::Cmp(_)))
            } else {
                // A vector exit (EXEC or VCC): its lanes' compares, named as the ISA crate
                // names `v_cmpx`'s EXEC write.
                inst.class().is_valu() && inst.base_mnemonic().starts_with("v_cmp")
            }
        };
        let tests: Vec<usize> = (block.start..branch.instr)
            .filter(|&i| is_compare(i))
            .collect();
        // A branch on SCC reads the last scalar compare before it; a vector exit, every
        // compare of its block (the mask may combine several).
        let tests = if scc_branch {
            tests.last().copied().into_iter().collect()
        } else {
            tests
        };
        for i in tests {
            walk.sources(i);
        }
    }
    let mut eval = Eval::new(program, cfg);
    let offsets: BTreeSet<u32> = walk
        .loads
        .into_iter()
        .filter_map(|(instr, dword)| eval.kernarg_offset(instr, dword))
        .collect();
    offsets.into_iter().collect()
}

/// A walk back through reaching definitions from a compare's operands to the scalar loads
/// whose values feed them.
struct DefinitionWalk<'a> {
    program: &'a Program,
    finder: &'a Finder<'a>,
    /// Definitions already visited.
    seen: HashSet<usize>,
    /// Scalar loads reached: (instruction, DWORD of its result).
    loads: BTreeSet<(usize, u16)>,
}

impl DefinitionWalk<'_> {
    /// Follow every register instruction `at` reads.
    fn sources(&mut self, at: usize) {
        let inst = &self.program.instructions[at].inst;
        let parts = std::iter::once(inst).chain(inst.dual.as_deref());
        let ranges: Vec<_> = parts
            .flat_map(|p| p.operands[p.defs..].iter().flat_map(|o| o.regs()))
            .filter(|r| matches!(r.file, RegFile::Sgpr | RegFile::Vgpr))
            .collect();
        for range in ranges {
            for r in range.first..range.first.saturating_add(range.count) {
                let (defs, _) = self.finder.reaching(range.file, r, at);
                for d in defs {
                    self.definition(d, range.file, r);
                }
            }
        }
    }

    /// Follow definition `d` of register `r`: a scalar load is a leaf, arithmetic is walked
    /// through, any other memory read ends the walk (its value is data).
    fn definition(&mut self, d: usize, file: RegFile, r: u16) {
        let inst = &self.program.instructions[d].inst;
        let class = inst.class();
        // A load is a leaf for each DWORD it gives (`s_load_b128` may hold `cols` and `steps`),
        // so it is not marked seen; arithmetic is walked once, all its sources at a time.
        if class != InstrClass::Smem && (self.seen.len() >= MAX_DEFINITIONS || !self.seen.insert(d))
        {
            return;
        }
        if class == InstrClass::Smem {
            let dword = inst.operands[..inst.defs]
                .iter()
                .flat_map(|o| o.regs())
                .find(|w| w.file == file && w.first <= r && r < w.first + w.count)
                .map(|w| r - w.first);
            if let Some(k) = dword {
                self.loads.insert((d, k));
            }
            return;
        }
        if class.is_valu() || class == InstrClass::Salu {
            self.sources(d);
        }
    }
}
