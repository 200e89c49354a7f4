//! The report's L2 traffic counts the requests that reached L2, not those
//! the first level took. Expected numbers are derived in comments from the
//! model's rules and parameters (crates/arch/data/gcn.toml).

use shadersim_arch::ArchSpec;
use shadersim_engine::{LatencySearch, Simulation};
use shadersim_report::analyze_view::AnalyzeReport;
use shadersim_trace::Hints;

#[test]
fn l2_traffic_counts_the_first_levels_misses() {
    // GCN, one workgroup of four wave64s, one linear buffer_load_dword each
    // (offset 4 x work-item id x): 64 lanes x 4
    // bytes = 256 bytes = 4 requests of the coalescer's 64-byte lines
    // (l2_line_bytes). The hint makes 3 of every 4 requests hit the first
    // level (l1), spread evenly (error diffusion: the 1st of each 4 misses,
    // owed 0.75 < 1), so 1 request per wave goes on to l2: 1 request and
    // 64 bytes per wave at L2, where the coalescer's count would say 4.
    let text = "v_lshlrev_b32 v1, 2, v0\nbuffer_load_dword v0, v1, s[0:3], 0 offen\ns_waitcnt vmcnt(0)\ns_endpgm\n";
    let hints = "[dispatch]\nstage = \"compute\"\nworkgroup_size = 256\nwaves = 1\n[[memory]]\nline = 2\nhit_rate = 0.75\n";
    let arch = ArchSpec::builtin("gcn").unwrap();
    let program = shadersim_testkit::program(text);
    let sim = Simulation::prepare(&program, arch, &Hints::parse(hints).unwrap()).unwrap();
    let stats = sim.run().unwrap();
    let l1 = stats.cache.iter().find(|l| l.name == "l1").unwrap();
    let l2 = stats.cache.iter().find(|l| l.name == "l2").unwrap();
    assert_eq!((l1.requests, l1.hits, l2.requests), (16, 12, 4));
    let analysis = sim.analyse_run(stats, LatencySearch::Off).unwrap();
    let report = AnalyzeReport::new("test.s", &sim, &analysis);
    assert_eq!(report.l2_requests_per_wave, 1);
    assert_eq!(report.l2_bytes_per_wave, 64);
    assert!(report
        .to_text()
        .contains("L2 traffic         1 request per wave = 64 bytes per wave"));
}
