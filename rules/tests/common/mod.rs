//! Shared helpers of the rules crate's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// One position of a `.perft` file with its expected leaf counts.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub id: String,
    pub epd: String,
    /// `(depth, nodes)` pairs, in file order.
    pub expected: Vec<(u32, u64)>,
}

/// The path of a file under `rules/tests/data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Reads a `.perft` file (`id`, `epd <FEN>`, `perft <depth> <nodes>`; `#` comments),
/// the format of shakmaty's test data.
pub fn read_perft_file(name: &str) -> Vec<PerftCase> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases: Vec<PerftCase> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (keyword, rest) = line.split_once(' ').unwrap_or((line, ""));
        match keyword {
            "id" => cases.push(PerftCase { id: rest.to_owned(), epd: String::new(), expected: Vec::new() }),
            "epd" => cases.last_mut().expect("epd before id").epd = rest.to_owned(),
            "perft" => {
                let (depth, nodes) = rest.split_once(' ').expect("perft <depth> <nodes>");
                cases
                    .last_mut()
                    .expect("perft before id")
                    .expected
                    .push((depth.parse().expect("depth"), nodes.trim().parse().expect("nodes")));
            }
            other => panic!("{}: unknown keyword {other:?}", path.display()),
        }
    }
    cases
}

/// Node limit for perft in `cargo test`: deeper values run in the benchmark.
pub const TEST_NODE_LIMIT: u64 = 20_000_000;
