//! Reports people look at: the Chrome trace timeline, time per block and
//! loop, and the HTML page rendered in a real browser (headless chromium).

use crate::shadersim;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ok(args: &[&str]) -> Output {
    let o = shadersim(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-visual-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The example shader with 12 waves: small enough to record whole.
const LIGHTING: &[&str] = &[
    "analyze",
    "examples/lighting_ps.txt",
    "--arch",
    "gfx900",
    "--hints",
    "examples/lighting_ps.toml",
    "--set",
    "waves=12",
    "--no-latency-search",
];

fn run_with_timeline(extra: &[&str]) -> (Value, Value, String) {
    let path = tmp(&format!("timeline-{}.json", extra.len()));
    let p = path.to_str().unwrap();
    let mut args: Vec<&str> = LIGHTING.to_vec();
    args.extend(["--format", "json", "--timeline", p]);
    args.extend(extra);
    let o = ok(&args);
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let trace: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (
        report,
        trace,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn slices(trace: &Value) -> Vec<&Value> {
    trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .collect()
}

#[test]
fn timeline_has_every_issued_instruction_once_and_tracks_never_overlap() {
    let (report, trace, stderr) = run_with_timeline(&[]);
    assert!(
        !stderr.contains("timeline shows"),
        "12 < 64 waves: nothing capped"
    );
    let issued: u64 = report["issued"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    let free_ops = report["free_ops"].as_u64().unwrap();
    let all = slices(&trace);
    // Every issued op is one `issue` slice and every free op one `pass`
    // slice: each (wave, position in its trace) exactly once.
    let mut seen = HashSet::new();
    let (mut issues, mut passes) = (0u64, 0u64);
    for s in &all {
        let cat = s["cat"].as_str().unwrap();
        if cat == "stall" {
            continue;
        }
        let key = (
            s["args"]["wave"].as_u64().unwrap(),
            s["args"]["seq"].as_u64().unwrap(),
        );
        assert!(seen.insert(key), "{key:?} twice");
        match cat {
            "issue" => issues += 1,
            "pass" => passes += 1,
            other => panic!("unknown category {other}"),
        }
    }
    assert_eq!(issues, issued);
    assert_eq!(passes, free_ops);
    // Positions of each wave are 0..n with no gap: the wave's whole trace
    // but its final s_endpgm, which ends it.
    let mut per_wave: HashMap<u64, Vec<u64>> = HashMap::new();
    for (w, q) in &seen {
        per_wave.entry(*w).or_default().push(*q);
    }
    assert_eq!(per_wave.len(), 12);
    for v in per_wave.values_mut() {
        v.sort_unstable();
        assert!(v.iter().enumerate().all(|(i, &q)| i as u64 == q));
    }
    // Slices of one track (pid = SIMD, tid = slot) never overlap.
    let mut tracks: HashMap<(u64, u64), Vec<(u64, u64)>> = HashMap::new();
    for s in &all {
        let ts = s["ts"].as_u64().unwrap();
        let dur = s["dur"].as_u64().unwrap();
        assert!(dur > 0);
        tracks
            .entry((s["pid"].as_u64().unwrap(), s["tid"].as_u64().unwrap()))
            .or_default()
            .push((ts, ts + dur));
    }
    for (track, v) in &mut tracks {
        v.sort_unstable();
        for pair in v.windows(2) {
            assert!(pair[0].1 <= pair[1].0, "track {track:?}: {pair:?} overlap");
        }
    }
    // Slices name the instruction, its line and class.
    let first = all.iter().find(|s| s["cat"] == "issue").unwrap();
    assert!(first["args"]["line"].as_u64().unwrap() >= 694);
    assert!(first["args"]["class"].is_string());
    // Counter tracks for the units and the resident waves.
    let counters: HashSet<&str> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "C")
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    for name in ["valu busy", "vmem busy", "export busy", "waves resident"] {
        assert!(counters.contains(name), "{name} missing from {counters:?}");
    }
    // Every counter track, an idle unit's too, is drawn at the run's bins:
    // 0, w, 2w, ... below the clocks, w the smallest power of two with
    // 256 x w >= clocks.
    let clocks = trace["otherData"]["clocks"].as_u64().unwrap();
    let w = trace["otherData"]["counter_bin_clocks"].as_u64().unwrap();
    assert_eq!(w, clocks.div_ceil(256).max(1).next_power_of_two());
    let bins: Vec<u64> = (0..clocks.div_ceil(w)).map(|b| b * w).collect();
    for name in &counters {
        let ts: Vec<u64> = trace["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "C" && e["name"] == *name)
            .map(|e| e["ts"].as_u64().unwrap())
            .collect();
        assert_eq!(ts, bins, "{name}");
    }
}

#[test]
fn a_capped_timeline_says_so() {
    let (_, trace, stderr) = run_with_timeline(&["--timeline-waves", "3"]);
    assert!(stderr.contains("the first 3 of 12 waves"), "{stderr}");
    assert!(trace["otherData"]["capped"]
        .as_str()
        .unwrap()
        .contains("first 3 of 12"));
    let waves: HashSet<u64> = slices(&trace)
        .iter()
        .map(|s| s["args"]["wave"].as_u64().unwrap())
        .collect();
    assert_eq!(waves, HashSet::from([0, 1, 2]));
    let (_, trace, _) =
        run_with_timeline(&["--timeline-clocks", "100..200", "--timeline-waves", "12"]);
    assert!(slices(&trace).iter().all(|s| {
        let ts = s["ts"].as_u64().unwrap();
        (100..200).contains(&ts)
    }));
    let o = shadersim(&[LIGHTING, &["--timeline-clocks", "5..5"]].concat());
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn blocks_and_loops_add_up() {
    let o = ok(&[LIGHTING, &["--format", "json"]].concat());
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    let blocks = r["blocks"].as_array().unwrap();
    // The shader's four blocks: entry, the light loop's header and body
    // (lines 800-805 and 807-865), the export.
    assert_eq!(blocks.len(), 4);
    // Every clock of a wave is spent on some op of some block.
    let share: f64 = blocks.iter().map(|b| b["share"].as_f64().unwrap()).sum();
    assert!((share - 1.0).abs() < 0.01, "{share}");
    // The hints run the loop header 5 times and its body 4 times.
    assert_eq!(blocks[1]["executions"].as_f64(), Some(5.0));
    assert_eq!(blocks[2]["executions"].as_f64(), Some(4.0));
    let l = &r["loops"][0];
    assert_eq!(l["iterations"].as_f64(), Some(5.0));
    // Per iteration: the header's time each time plus 4/5 of the body's.
    let per = |b: &Value| b["clocks_per_execution"].as_f64().unwrap();
    let expect = per(&blocks[1]) + per(&blocks[2]) * 4.0 / 5.0;
    assert!((l["clocks_per_iteration"].as_f64().unwrap() - expect).abs() < 0.01);
    // The body is VALU work: 4-clock wave64 ops on gfx900.
    assert_eq!(blocks[2]["pressure"][0]["unit"], "valu");
    assert!(
        blocks[2]["dependency_chain"]["instructions"]
            .as_u64()
            .unwrap()
            >= 2
    );
    let text = String::from_utf8(ok(LIGHTING).stdout).unwrap();
    assert!(text.contains("loop 0 (depth 1, lines 800-865): 5 iterations per wave"));
}

/// Render `page` in headless chromium: a screenshot and the page's console.
fn render(page: &Path, png: &Path) -> Option<(Vec<u8>, String)> {
    let browser = shadersim_testkit::tools::chromium()?;
    let profile = tmp("chromium-profile");
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--screenshot={}", png.display()),
            "--window-size=1200,1600",
        ])
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let png_bytes = std::fs::read(png).expect("screenshot written");
    Some((png_bytes, String::from_utf8_lossy(&o.stderr).into_owned()))
}

#[test]
fn html_report_renders_in_a_browser() {
    let page = tmp("report.html");
    let mut args: Vec<&str> = LIGHTING[..LIGHTING.len() - 1].to_vec();
    args.extend(["--format", "html", "-o", page.to_str().unwrap()]);
    ok(&args);
    let html = std::fs::read_to_string(&page).unwrap();
    // Deterministic: the same run gives the same page, byte for byte.
    ok(&args);
    assert_eq!(html, std::fs::read_to_string(&page).unwrap());
    // Offline: nothing is fetched from anywhere.
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("@import")
    );
    for section in [
        "Utilization",
        "Activity over time",
        "Latency tolerance",
        "Control flow",
        "Blocks",
        "Loops",
        "Listing",
    ] {
        assert!(
            html.contains(&format!("<h2>{section}</h2>")),
            "{section} missing"
        );
    }
    // Block rows link to their lines in the listing.
    assert!(html.contains("href=\"#L800\"") && html.contains("id=\"L800\""));
    let png = tmp("report.png");
    let Some((bytes, console)) = render(&page, &png) else {
        return;
    };
    // The page's own script (it has none) logs no error: chromium prints
    // console messages as `CONSOLE(line)` / `Uncaught` lines.
    for l in console.lines() {
        assert!(
            !(l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("ERROR:CONSOLE")),
            "console: {l}"
        );
    }
    // Not blank: decode the screenshot and look at the pixels' spread.
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1200, 1600));
    let channels = info.color_type.samples();
    let luma: Vec<f64> = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| f64::from(p[0]) + f64::from(p[1]) + f64::from(p[2]))
        .collect();
    let mean = luma.iter().sum::<f64>() / luma.len() as f64;
    let var = luma.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / luma.len() as f64;
    assert!(var > 100.0, "screenshot looks blank: variance {var}");
    // Something red (the VALU bar, stalls) and something blue (issues).
    let has = |f: &dyn Fn(&[u8]) -> bool| buf[..info.buffer_size()].chunks(channels).any(f);
    assert!(has(&|p| p[0] > 180 && p[1] < 80 && p[2] < 80));
    assert!(has(&|p| p[2] > 150 && p[0] < 80));
}
