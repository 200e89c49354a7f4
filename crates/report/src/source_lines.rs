//! The listing summed by source line: for programs compiled with debug
//! lines (`.loc`, clang `-g`), what each line of the shader's source costs,
//! the view a shader author reads first.

use crate::analyze_view::views::InstructionView;
use serde::Serialize;
use shadersim_asm::Program;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One source line's share of the run.
#[derive(Debug, Clone, Serialize)]
pub struct SourceLineView {
    /// The `.file` number of its file.
    pub file_number: u32,
    /// The file's path, when the listing names it (`.file`).
    pub file: Option<String>,
    /// 1-based source line.
    pub line: u32,
    /// Static instructions compiled from it.
    pub instructions: usize,
    /// Instructions it issues per wave (executions summed).
    pub executions: u64,
    /// Its share of the unit clocks a wave's instructions hold (execution
    /// count x cost, over the program's total).
    pub cost_share: f64,
    /// Its instructions' stall rates summed: the fraction of clocks waves
    /// sat on one of them (can add up to more than the overall rate, as
    /// the per-instruction rates do).
    pub stall_rate: f64,
}

/// Sum `instructions` (the report's listing of `program`) by source line;
/// empty when the program has no debug lines. Ordered by file and line.
pub fn by_source_line(
    program: &Program,
    instructions: &[InstructionView],
    source_files: &[(u32, String)],
) -> Vec<SourceLineView> {
    let total_cost: f64 = instructions
        .iter()
        .map(|i| i.executions as f64 * f64::from(i.cost_clocks))
        .sum();
    let mut lines: BTreeMap<(u32, u32), SourceLineView> = BTreeMap::new();
    for i in instructions {
        let Some(loc) = program.instructions.get(i.index).and_then(|s| s.source) else {
            continue;
        };
        if loc.line == 0 {
            // Line 0: code the compiler attributes to no line.
            continue;
        }
        let e = lines
            .entry((loc.file, loc.line))
            .or_insert_with(|| SourceLineView {
                file_number: loc.file,
                file: source_files
                    .iter()
                    .find(|(n, _)| *n == loc.file)
                    .map(|(_, p)| p.clone()),
                line: loc.line,
                instructions: 0,
                executions: 0,
                cost_share: 0.0,
                stall_rate: 0.0,
            });
        e.instructions += 1;
        e.executions += i.executions;
        if total_cost > 0.0 {
            e.cost_share += i.executions as f64 * f64::from(i.cost_clocks) / total_cost;
        }
        e.stall_rate += i.stall_rate;
    }
    lines
        .into_values()
        .map(|mut v| {
            v.cost_share = (v.cost_share * 1e4).round() / 1e4;
            v.stall_rate = (v.stall_rate * 1e4).round() / 1e4;
            v
        })
        .collect()
}

/// The text table: the `top` lines by cost share (then stall rate).
pub fn text_table(lines: &[SourceLineView], top: usize) -> String {
    let mut o = String::new();
    if lines.is_empty() {
        return o;
    }
    let mut order: Vec<&SourceLineView> = lines.iter().collect();
    order.sort_by(|a, b| {
        b.cost_share
            .total_cmp(&a.cost_share)
            .then(b.stall_rate.total_cmp(&a.stall_rate))
            .then(a.line.cmp(&b.line))
    });
    let _ = writeln!(
        o,
        "\nby source line ({} lines with code; the {} costliest):\n  {:<40}  {:>6}  {:>9}  {:>6}  {:>6}",
        lines.len(),
        top.min(lines.len()),
        "source",
        "instrs",
        "per wave",
        "cost",
        "stall"
    );
    for l in order.into_iter().take(top) {
        let name = l
            .file
            .clone()
            .unwrap_or_else(|| format!("file {}", l.file_number));
        let short = name.rsplit('/').next().unwrap_or(&name).to_string();
        let _ = writeln!(
            o,
            "  {:<40}  {:>6}  {:>9}  {:>5.1}%  {:>5.1}%",
            format!("{short}:{}", l.line),
            l.instructions,
            l.executions,
            l.cost_share * 100.0,
            l.stall_rate * 100.0
        );
    }
    o
}
