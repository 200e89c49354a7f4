//! The first wave slots' timeline: each slot's row drawn per pixel column
//! (the state that covers most of a column's clocks, neighbouring columns
//! of one state merged into one rectangle), with a strip of the share of
//! clocks issuing, so the page's size follows the chart's width, not the
//! run's length.

use super::charts::Frame;
use crate::activity::Activity;
use crate::markup::esc;
use crate::numbers;
use crate::timeline::SliceKind;
use std::fmt::Write;

pub(super) fn lanes_svg(a: &Activity) -> String {
    let end = a
        .lanes
        .iter()
        .flat_map(|(_, v)| v.iter().map(|x| x.1))
        .max()
        .unwrap_or(1)
        .max(1);
    let row = 14.0;
    let mut f = Frame::new(a.lanes.len() as f64 * row + 40.0);
    f.left = 110.0;
    f.right = 20.0;
    let mut s = f.open("wave slot timeline");
    let columns = f.pw().round().max(1.0) as usize;
    for (li, (label, slices)) in a.lanes.iter().enumerate() {
        let y = f.top + li as f64 * row;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            f.left - 4.0,
            y + 10.0,
            esc(label)
        );
        let (runs, density) = pixel_runs(slices, end, columns);
        for run in runs {
            let color = match run.kind {
                SliceKind::Issue => "#1f77b4",
                SliceKind::Stall => "#d62728",
                SliceKind::Pass => "#999999",
            };
            let x0 = f.x(run.start as f64 / end as f64);
            let x1 = f.x(run.end as f64 / end as f64).max(x0 + 0.6);
            let what = match run.line {
                Some(line) => format!("{} line {line}", run.kind.name()),
                None => format!(
                    "mostly {}: {} slices, {} of the clocks",
                    run.kind.name(),
                    run.slices,
                    numbers::pct(run.share)
                ),
            };
            let _ = write!(
                s,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{color}\"><title>{what}, clocks {}..{}</title></rect>",
                y + 1.0,
                x1 - x0,
                row - 2.0,
                run.start,
                run.end
            );
        }
        // Over it, a strip of issue density: issues a stall- or
        // idle-dominated pixel would hide stay visible.
        for (a0, a1, level) in density {
            let x0 = f.x(a0 as f64 / end as f64);
            let x1 = f.x(a1 as f64 / end as f64).max(x0 + 0.6);
            let _ = write!(
                s,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"3\" fill=\"#08306b\" fill-opacity=\"{}\"><title>issues in up to {}% of clocks {a0}..{a1}</title></rect>",
                y + 1.0,
                x1 - x0,
                f64::from(level) / 4.0,
                25 * level
            );
        }
    }
    s.push_str(&f.clock_axis(end));
    s.push_str("</svg>");
    s
}

/// One rectangle of a wave slot's row: clocks `start..end` shown as `kind`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PixelRun {
    start: u64,
    end: u64,
    kind: SliceKind,
    /// The source line, when the rectangle is one slice.
    line: Option<u32>,
    /// Slices it stands for.
    slices: usize,
    /// The part of its clocks spent in `kind`.
    share: f64,
}

/// A row's slices (sorted by start, not overlapping) as at most `columns`
/// rectangles over clocks `0..end`: each pixel column shows the kind that
/// covers most of its clocks (nothing, if idle time covers more), and
/// neighbouring columns of one kind are one rectangle. What a screen
/// cannot show (slices narrower than a pixel) is merged, so the page's
/// size follows the chart's width, not the run's length.
///
/// Also the issue density per column, merged where equal: `(start, end,
/// level)` with level 1 to 4 the issued quarter of the clocks, rounded up
/// (one issue in a column shows).
pub(super) fn pixel_runs(
    slices: &[crate::activity::LaneSlice],
    end: u64,
    columns: usize,
) -> (Vec<PixelRun>, Vec<(u64, u64, u8)>) {
    let kinds = [SliceKind::Issue, SliceKind::Stall, SliceKind::Pass];
    let col_of = |t: u64| ((t as f64 / end as f64 * columns as f64) as usize).min(columns - 1);
    let col_start = |c: usize| (c as f64 * end as f64 / columns as f64).ceil() as u64;
    // Per column: clocks covered by each kind, slices starting in it, and
    // the line of the last slice touching it.
    let mut cover = vec![[0u64; 3]; columns];
    let mut starts = vec![0usize; columns];
    let mut lines: Vec<Option<u32>> = vec![None; columns];
    for &(a0, a1, k, line) in slices {
        let (a0, a1) = (a0.min(end), a1.min(end));
        if a1 <= a0 {
            continue;
        }
        let ki = kinds.iter().position(|&x| x == k).unwrap_or(0);
        starts[col_of(a0)] += 1;
        for c in col_of(a0)..=col_of(a1 - 1) {
            let lo = a0.max(col_start(c));
            let hi = a1.min(col_start(c + 1).max(lo));
            cover[c][ki] += hi - lo;
            lines[c] = match lines[c] {
                None => Some(line),
                Some(l) if l == line => Some(l),
                // Two lines in one column: no single line to name.
                Some(_) => Some(u32::MAX),
            };
        }
    }
    let mut runs: Vec<PixelRun> = Vec::new();
    let mut density: Vec<(u64, u64, u8)> = Vec::new();
    let mut covered = [0u64; 3];
    for c in 0..columns {
        let (lo, hi) = (col_start(c), col_start(c + 1).min(end).max(col_start(c)));
        let span = hi - lo;
        if span > 0 && cover[c][0] > 0 {
            let level = (4 * cover[c][0]).div_ceil(span).clamp(1, 4) as u8;
            match density.last_mut() {
                Some(d) if d.2 == level && d.1 == lo => d.1 = hi,
                _ => density.push((lo, hi, level)),
            }
        }
        let busy: u64 = cover[c].iter().sum();
        let (ki, &most) = cover[c]
            .iter()
            .enumerate()
            .max_by_key(|&(i, v)| (*v, std::cmp::Reverse(i)))
            .unwrap_or((0, &0));
        if span == 0 {
            // A column narrower than a clock (a short run): nothing to draw.
            continue;
        }
        if most == 0 || span.saturating_sub(busy) > most {
            runs.push(PixelRun {
                start: lo,
                end: hi,
                kind: SliceKind::Pass,
                line: None,
                slices: 0,
                share: -1.0,
            });
            continue;
        }
        let kind = kinds[ki];
        match runs.last_mut() {
            Some(r) if r.kind == kind && r.share >= 0.0 && r.end == lo => {
                r.end = hi;
                r.slices += starts[c];
                if r.line != lines[c] {
                    r.line = Some(u32::MAX);
                }
            }
            _ => {
                covered = [0; 3];
                runs.push(PixelRun {
                    start: lo,
                    end: hi,
                    kind,
                    line: lines[c],
                    slices: starts[c].max(1),
                    share: 0.0,
                });
            }
        }
        for i in 0..3 {
            covered[i] += cover[c][i];
        }
        if let Some(r) = runs.last_mut() {
            r.share = covered[ki] as f64 / (r.end - r.start).max(1) as f64;
        }
    }
    runs.retain(|r| r.share >= 0.0);
    for r in &mut runs {
        // A line names the rectangle only when it is one slice of one line.
        if r.slices > 1 || r.line == Some(u32::MAX) {
            r.line = None;
        }
    }
    (runs, density)
}

#[cfg(test)]
mod tests {
    use super::{pixel_runs, SliceKind};

    #[test]
    fn a_long_row_is_drawn_per_pixel_column() {
        // 100,000 periods of 4 clocks: 1 clock issued (line 7), 3 stalled,
        // over clocks 0..400,000 on 800 columns of exactly 500 clocks. Each
        // column holds 125 periods: 125 issue clocks, 375 stall clocks, so
        // stall dominates every column and the row is one rectangle
        // (instead of 200,000), 75% of its clocks stalled.
        let slices: Vec<_> = (0..100_000u64)
            .flat_map(|p| {
                [
                    (4 * p, 4 * p + 1, SliceKind::Issue, 7),
                    (4 * p + 1, 4 * p + 4, SliceKind::Stall, 7),
                ]
            })
            .collect();
        let (runs, density) = pixel_runs(&slices, 400_000, 800);
        assert_eq!(runs.len(), 1);
        let r = runs[0];
        assert_eq!((r.start, r.end, r.kind), (0, 400_000, SliceKind::Stall));
        assert_eq!(r.share, 0.75);
        // Issues cover a quarter of each column: level ceil(4 x 125 / 500)
        // = 1 everywhere, one strip.
        assert_eq!(density, vec![(0, 400_000, 1)]);
    }

    #[test]
    fn wide_slices_keep_their_line_and_idle_time_stays_empty() {
        // A run of 1000 clocks on 100 columns of 10: an issue of line 3
        // over clocks 0..500, nothing until 800, a stall of line 4 to 1000.
        let slices = [
            (0, 500, SliceKind::Issue, 3),
            (800, 1000, SliceKind::Stall, 4),
        ];
        let (runs, _) = pixel_runs(&slices, 1000, 100);
        assert_eq!(runs.len(), 2);
        assert_eq!(
            (runs[0].start, runs[0].end, runs[0].line),
            (0, 500, Some(3))
        );
        assert_eq!(
            (runs[1].start, runs[1].end, runs[1].line),
            (800, 1000, Some(4))
        );
    }
}
