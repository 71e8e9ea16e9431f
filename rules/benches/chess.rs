//! Chess benchmarks: orthodox perft and the Flickering chess mate search on the hardest
//! positions a random hunt found (mates: every series must be refuted).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tavoliere_rules::chess::{perft, search_saving_series, Position, SearchLimits, SearchResult};
use tavoliere_rules::notation::chess::fen;

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess-perft");
    group.sample_size(10);
    let start = Position::new();
    group.bench_function("startpos-5", |b| b.iter(|| assert_eq!(perft(black_box(&start), 5), 4_865_609)));
    let kiwipete =
        fen::parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    group.bench_function("kiwipete-4", |b| b.iter(|| assert_eq!(perft(black_box(&kiwipete), 4), 4_085_603)));
    group.finish();
}

/// Mates found hardest by a random hunt (node counts of the search in the names' comments).
const HARD_MATES: [(&str, &str); 4] = [
    ("mate-a", "3n4/3q1r2/2Kq2N1/5p1B/1RQ1P3/1P2B3/1b5P/7k w - - 0 1"),
    ("mate-b", "2n4n/P1qBP3/8/5p2/P1q2Kq1/1RP5/2pk1P1Q/8 w - - 0 1"),
    ("mate-c", "8/bP4p1/PB1Bb3/Bk3PR1/1b4P1/5q1q/7K/7r w - - 0 1"),
    ("mate-d", "5rQ1/8/3P1P2/1k6/1P6/3b1p1P/1BqP1Q2/1rK5 w - - 0 1"),
];

fn bench_mate_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("flickering-mate-search");
    group.sample_size(10);
    for (name, fen_text) in HARD_MATES {
        let pos = fen::parse(fen_text).unwrap();
        let (result, stats) = search_saving_series(&pos, SearchLimits::default());
        eprintln!("{name}: {result:?} {stats:?}");
        group.bench_function(name, |b| {
            b.iter(|| {
                let (result, _) = search_saving_series(black_box(&pos), SearchLimits::default());
                assert!(matches!(result, SearchResult::NoSaving { .. }));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_mate_search);
criterion_main!(benches);
