//! Perft benchmarks for shogi and minishogi (`cargo bench -p tavoliere-rules --bench shogi`).
//! Leaves per second = the node count printed by the group's throughput line.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tavoliere_rules::shogi::{perft, Position, Variant};

fn bench_perft(c: &mut Criterion) {
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
