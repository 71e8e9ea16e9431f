//! Perft benchmarks for shogi and minishogi (`cargo bench -p tavoliere-rules --bench shogi`).
//! Leaves per second = the node count printed by the group's throughput line.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Instant;
use tavoliere_rules::notation::shogi::sfen;
use tavoliere_rules::shogi::{perft, Position, Variant};

/// The deep reference values that `cargo test` skips (over its node limit), checked once.
fn check_deep_values() {
    let deep = [
        ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 5, 19_861_490),
        ("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 3, 53_393_368),
        ("rbsgk/4p/5/P4/KGSBR b - 1", 7, 132_680_617),
    ];
    for (text, depth, nodes) in deep {
        let pos = sfen::parse(text, None).expect("valid SFEN");
        let started = Instant::now();
        assert_eq!(perft(&pos, depth), nodes, "{text} depth {depth}");
        let seconds = started.elapsed().as_secs_f64();
        println!("{text} depth {depth}: {nodes} leaves, {:.1} M leaves/s", nodes as f64 / seconds / 1e6);
    }
}

fn bench_perft(c: &mut Criterion) {
    check_deep_values();
    let cases = [
        ("shogi startpos depth 4", Variant::Standard, 4, 719_731),
        ("minishogi startpos depth 5", Variant::Mini, 5, 533_203),
        ("minishogi startpos depth 6", Variant::Mini, 6, 8_276_188),
    ];
    let mut group = c.benchmark_group("shogi-perft");
    group.sample_size(10);
    for (name, variant, depth, nodes) in cases {
        let pos = Position::startpos(variant);
        assert_eq!(perft(&pos, depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&pos), depth)));
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
