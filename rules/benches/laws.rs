//! The cost of judging moves by the game laws (issue: under 2 µs per move on a 300-ply
//! Xiangqi game). Replays whole games through the law-judging game records; divide the
//! reported time by the number of plies printed at start-up.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tavoliere_rules::game::shogi::ShogiGame;
use tavoliere_rules::game::xiangqi::XiangqiGame;
use tavoliere_rules::game::{CxqLimits, ImpasseRule, Ruleset};
use tavoliere_rules::notation::record::split_games;
use tavoliere_rules::notation::shogi::usi;
use tavoliere_rules::notation::xiangqi::iccs;
use tavoliere_rules::shogi::{self, Variant};
use tavoliere_rules::xiangqi;

/// The longest master game of the Liu Dahua collection, as moves.
fn longest_xiangqi_game() -> Vec<xiangqi::Move> {
    let text = include_str!("../tests/data/records/liu-dahua-1125-iccs.pgn");
    let tokens = split_games(text).into_iter().map(|g| g.tokens).max_by_key(Vec::len).expect("games");
    let mut pos = xiangqi::Position::new();
    tokens
        .iter()
        .map(|t| {
            let m = iccs::parse(&pos, t).expect("legal record move");
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// A 300-ply game of pseudo-random legal moves (fixed seed), so that the judge sees
/// checks, chases and captures of every kind.
fn synthetic_xiangqi_game(plies: usize) -> Vec<xiangqi::Move> {
    let limits = CxqLimits { moves_without_progress: 10_000, effective_moves: 10_000, ..CxqLimits::STANDARD };
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    'retry: loop {
        let mut game = XiangqiGame::new(xiangqi::Position::new(), Ruleset::Cxq(limits), None);
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                continue 'retry;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = legal[(seed % legal.len() as u64) as usize];
            if game.play(m).expect("legal").is_some() {
                continue 'retry;
            }
            moves.push(m);
        }
        return moves;
    }
}

fn replay_xiangqi(moves: &[xiangqi::Move], ruleset: Ruleset) -> usize {
    let mut game = XiangqiGame::new(xiangqi::Position::new(), ruleset, None);
    for &m in moves {
        let _ = game.play(m);
    }
    game.moves().len()
}

fn laws(c: &mut Criterion) {
    let record = longest_xiangqi_game();
    let synthetic = synthetic_xiangqi_game(300);
    eprintln!("longest record game: {} plies; synthetic game: {} plies", record.len(), synthetic.len());
    let loose = Ruleset::Cxq(CxqLimits {
        moves_without_progress: 10_000,
        effective_moves: 10_000,
        ..CxqLimits::STANDARD
    });

    let mut group = c.benchmark_group("xiangqi-cxq");
    group.throughput(Throughput::Elements(synthetic.len() as u64));
    group.bench_function("judge 300-ply game (CXQ)", |b| b.iter(|| replay_xiangqi(&synthetic, loose)));
    group.bench_function("play 300-ply game (basic rules only)", |b| {
        b.iter(|| replay_xiangqi(&synthetic, Ruleset::XiangqiBasic))
    });
    group.throughput(Throughput::Elements(record.len() as u64));
    group.bench_function("judge longest record game (CXQ)", |b| {
        b.iter(|| replay_xiangqi(&record, Ruleset::Cxq(CxqLimits::STANDARD)))
    });
    group.finish();

    let shogi_line = include_str!("../tests/data/records/lishogi-usi-games.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .max_by_key(|l| l.split_whitespace().count())
        .expect("games");
    let mut pos = shogi::Position::startpos(Variant::Standard);
    let shogi_moves: Vec<shogi::Move> = shogi_line
        .split_whitespace()
        .map(|t| {
            let m = usi::parse(&pos, t).expect("legal");
            pos.play_unchecked(m);
            m
        })
        .collect();
    let mut group = c.benchmark_group("shogi-sennichite");
    group.throughput(Throughput::Elements(shogi_moves.len() as u64));
    group.bench_function("judge longest lishogi game", |b| {
        b.iter(|| {
            let mut game = ShogiGame::new(
                shogi::Position::startpos(Variant::Standard),
                Ruleset::Shogi(ImpasseRule::TwentyFourPoints),
                None,
            );
            for &m in &shogi_moves {
                let _ = game.play(m);
            }
            game.moves().len()
        })
    });
    group.finish();
}

criterion_group!(benches, laws);
criterion_main!(benches);
