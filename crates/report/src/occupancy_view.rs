//! `occupancy`'s table, JSON array and SVG plot: one row per unit of each
//! model at one register count. The CLI computes the rows (the engine's rule
//! for AMD, `shadersim-occupancy` for the other vendors) and calls
//! [`to_text`], [`to_json`] or [`to_svg`].

use crate::markup::esc;
use serde_json::json;
use shadersim_occupancy::Cliff;

/// How many cliffs the text table shows per row.
const CLIFFS_SHOWN: usize = 3;

/// One unit of one model at one register count.
#[derive(Debug, Clone)]
pub struct OccupancyRow {
    /// Model name.
    pub arch: String,
    /// Vendor.
    pub vendor: String,
    /// Unit ("SIMD", "XVE", "SM sub-partition").
    pub unit: String,
    /// What groups units ("CU", "Xe core", "SM").
    pub core: String,
    /// Waves (threads, warps) per unit.
    pub waves: u32,
    /// Waves per core.
    pub waves_per_core: u32,
    /// Thread slots per unit.
    pub slots: u32,
    /// What limits it.
    pub limiter: String,
    /// Allocation granule in registers per thread (for fixed modes: the
    /// mode the thread got).
    pub granule: u32,
    /// Whether registers come in fixed modes (Intel Xe2) instead of granules.
    pub fixed_modes: bool,
    /// Registers allocated per thread.
    pub allocated: u32,
    /// Registers lost to rounding.
    pub wasted: u32,
    /// The next register counts where occupancy changes.
    pub cliffs: Vec<Cliff>,
    /// Whether shadersim simulates this model.
    pub simulated: bool,
    /// The curve from 1 register to the model's maximum, for the plot.
    pub curve: Vec<(u32, u32)>,
}

/// The first cliffs as `registers->waves`, `...` when more follow.
fn cliff_text(c: &[Cliff]) -> String {
    if c.is_empty() {
        return "-".into();
    }
    let mut parts: Vec<String> = c
        .iter()
        .take(CLIFFS_SHOWN)
        .map(|c| format!("{}->{}", c.registers, c.waves))
        .collect();
    if c.len() > CLIFFS_SHOWN {
        parts.push("...".into());
    }
    parts.join(" ")
}

/// The table of `rows` at `regs` registers.
pub fn to_text(regs: u32, rows: &[OccupancyRow], notes: &[String]) -> String {
    let mut out = format!("occupancy at {regs} registers per thread\n\n");
    out += &format!(
        "{:<10} {:<7} {:<24} {:>5} {:>5} {:>15}  {:<13} {:>9} {:>6} {:>6}  {}\n",
        "arch",
        "vendor",
        "unit",
        "waves",
        "slots",
        "per core",
        "limiter",
        "granule",
        "alloc",
        "wasted",
        "next cliffs (registers->waves)"
    );
    for r in rows {
        out += &format!(
            "{:<10} {:<7} {:<24} {:>5} {:>5} {:>15}  {:<13} {:>9} {:>6} {:>6}  {}\n",
            r.arch,
            r.vendor,
            r.unit,
            r.waves,
            r.slots,
            format!("{} per {}", r.waves_per_core, r.core),
            r.limiter,
            if r.fixed_modes {
                format!("mode {}", r.granule)
            } else {
                r.granule.to_string()
            },
            r.allocated,
            r.wasted,
            cliff_text(&r.cliffs)
        );
    }
    if !notes.is_empty() {
        out += "\n";
        for n in notes {
            out += &format!("note: {n}\n");
        }
    }
    out
}

/// The JSON array of `rows`.
pub fn to_json(rows: &[OccupancyRow]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                json!({
                    "arch": r.arch,
                    "vendor": r.vendor,
                    "unit": r.unit,
                    "core": r.core,
                    "waves": r.waves,
                    "waves_per_core": r.waves_per_core,
                    "slots": r.slots,
                    "limiter": r.limiter,
                    "granule": r.granule,
                    "allocation": if r.fixed_modes { "fixed modes" } else { "granules" },
                    "allocated": r.allocated,
                    "wasted": r.wasted,
                    "cliffs": r.cliffs.iter().map(|c| json!({"registers": c.registers, "waves": c.waves})).collect::<Vec<_>>(),
                    "simulated": r.simulated,
                })
            })
            .collect(),
    )
}

/// Colors of the plot's lines, cycled.
const PALETTE: &[&str] = &[
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#843c39", "#5254a3", "#e7ba52",
];

/// Occupancy (as a share of each unit's slots, so units of 3 and 256 slots
/// share an axis) against register count, every row one step line.
pub fn to_svg(rows: &[OccupancyRow], marker: u32) -> String {
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 700.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 470.0;
    let max_x = rows
        .iter()
        .filter_map(|r| r.curve.last().map(|p| p.0))
        .max()
        .unwrap_or(256)
        .max(1) as f64;
    let label = |row: &OccupancyRow| format!("{} {} ({} slots)", row.arch, row.unit, row.slots);
    // The legend beside the plot sets the size: one line of 17 px per row
    // below TOP + 10, and its longest label at about 7 px a character
    // (12 px sans-serif), so no entry is cut.
    let longest = rows
        .iter()
        .map(|r| label(r).chars().count())
        .max()
        .unwrap_or(0);
    let w = (RIGHT + 50.0 + 7.0 * longest as f64 + 10.0).max(980.0);
    let h = (TOP + 10.0 + 17.0 * rows.len() as f64 + 10.0).max(520.0);
    let x = |r: f64| LEFT + (r / max_x) * (RIGHT - LEFT);
    let y = |share: f64| BOTTOM - share * (BOTTOM - TOP);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    );
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += &format!(
        "<text x=\"{LEFT}\" y=\"24\" font-size=\"15\">Occupancy against registers per thread (share of each unit's thread slots)</text>\n"
    );
    for tick in 0..=10 {
        let share = tick as f64 / 10.0;
        s += &format!(
            "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{RIGHT}\" y2=\"{yy:.1}\" stroke=\"#e0e0e0\"/>\n<text x=\"{tx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\">{p}%</text>\n",
            yy = y(share),
            tx = LEFT - 6.0,
            ty = y(share) + 4.0,
            p = tick * 10
        );
    }
    let mut r = 0u32;
    while f64::from(r) <= max_x {
        s += &format!(
            "<line x1=\"{xx:.1}\" y1=\"{TOP}\" x2=\"{xx:.1}\" y2=\"{BOTTOM}\" stroke=\"#f0f0f0\"/>\n<text x=\"{xx:.1}\" y=\"{ty}\" text-anchor=\"middle\">{r}</text>\n",
            xx = x(f64::from(r)),
            ty = BOTTOM + 16.0
        );
        r += 32;
    }
    s += &format!(
        "<line x1=\"{m:.1}\" y1=\"{TOP}\" x2=\"{m:.1}\" y2=\"{BOTTOM}\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n<text x=\"{m:.1}\" y=\"{t}\" text-anchor=\"middle\">{marker}</text>\n",
        m = x(f64::from(marker)),
        t = TOP - 4.0
    );
    s += &format!(
        "<text x=\"{cx:.1}\" y=\"{ty}\" text-anchor=\"middle\">registers per thread (AMD: VGPRs per wave)</text>\n<line x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{RIGHT}\" y2=\"{BOTTOM}\" stroke=\"black\"/>\n<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{BOTTOM}\" stroke=\"black\"/>\n",
        cx = (LEFT + RIGHT) / 2.0,
        ty = BOTTOM + 36.0
    );
    for (i, row) in rows.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let slots = f64::from(row.slots.max(1));
        let mut points = Vec::new();
        let mut prev: Option<f64> = None;
        for &(regs, waves) in &row.curve {
            let share = f64::from(waves) / slots;
            let px = x(f64::from(regs) - 1.0);
            // Only the corners of the steps.
            match prev {
                Some(p) if p == share => continue,
                Some(p) => points.push(format!("{px:.1},{:.1}", y(p))),
                None => {}
            }
            points.push(format!("{px:.1},{:.1}", y(share)));
            prev = Some(share);
        }
        if let (Some(&(regs, _)), Some(p)) = (row.curve.last(), prev) {
            points.push(format!("{:.1},{:.1}", x(f64::from(regs)), y(p)));
        }
        // Lines of equal curves would hide each other: dash every other one.
        let dash = if i % 2 == 1 {
            " stroke-dasharray=\"6 3\""
        } else {
            ""
        };
        s += &format!(
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.8\"{dash} points=\"{}\"/>\n",
            points.join(" ")
        );
        let ly = TOP + 10.0 + i as f64 * 17.0;
        s += &format!(
            "<line x1=\"{lx}\" y1=\"{ly:.1}\" x2=\"{lx2}\" y2=\"{ly:.1}\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>\n<text x=\"{tx}\" y=\"{ty:.1}\">{label}</text>\n",
            lx = RIGHT + 20.0,
            lx2 = RIGHT + 44.0,
            tx = RIGHT + 50.0,
            ty = ly + 4.0,
            label = esc(&label(row))
        );
    }
    s += "</svg>\n";
    s
}
