//! Decode speed: every committed code-object fixture's kernels decoded, reported as
//! instructions per second (`cargo bench -p shadersim-codeobj`).

// criterion_group! generates a public function without documentation.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shadersim_codeobj::{decode::decode, read_code_objects, CodeObject};
use std::path::Path;

/// The code objects of tests/fixtures/codeobj (linked and relocatable; not the host objects).
fn fixtures() -> Vec<CodeObject> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/codeobj");
    let mut paths = Vec::new();
    for gfx in std::fs::read_dir(&root).expect("fixtures").flatten() {
        for f in std::fs::read_dir(gfx.path()).expect("dir").flatten() {
            let name = f.path().to_string_lossy().to_string();
            if name.ends_with(".co") || name.ends_with(".o") && !name.ends_with(".host.o") {
                paths.push(f.path());
            }
        }
    }
    paths.sort();
    paths
        .iter()
        .flat_map(|p| {
            let bytes = std::fs::read(p).expect("read");
            read_code_objects(&p.to_string_lossy(), &bytes, None).expect("reads")
        })
        .collect()
}

fn decode_all(objs: &[CodeObject]) -> usize {
    objs.iter()
        .flat_map(|o| o.functions.iter().map(move |f| (o, f)))
        .map(|(o, f)| {
            decode(&o.processor, &f.code, f.address)
                .expect("decodes")
                .len()
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let objs = fixtures();
    let n = decode_all(&objs) as u64;
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Elements(n));
    g.bench_function("codeobj_fixtures", |b| b.iter(|| decode_all(&objs)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
