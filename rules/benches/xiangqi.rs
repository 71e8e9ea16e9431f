//! Xiangqi perft benchmarks: the start position at depth 4 (3,290,240 leaves) under
//! criterion, and one timed depth-5 run (133,312,995 leaves) reporting leaves per second.

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tavoliere_rules::notation::xiangqi::fen;
use tavoliere_rules::xiangqi::{perft, Position};

fn perft_benches(c: &mut Criterion) {
    let start = Position::new();
    let mut group = c.benchmark_group("xiangqi-perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("startpos-depth-4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 4), 3_290_240))
    });
    let middlegame =
        fen::parse("1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1")
            .expect("FEN");
    group.throughput(Throughput::Elements(100_326));
    group.bench_function("middlegame-depth-3", |b| {
        b.iter(|| assert_eq!(perft(black_box(&middlegame), 3), 100_326))
    });
    group.finish();

    // One depth-5 run, timed once: the figure to compare with Fairy-Stockfish.
    let t = Instant::now();
    let leaves = perft(&start, 5);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(leaves, 133_312_995);
    println!(
        "xiangqi perft 5 from the start: {leaves} leaves in {secs:.2} s = {:.1} M leaves/s",
        leaves as f64 / secs / 1e6
    );
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
