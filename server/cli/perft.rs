//! `tavoliere perft <xiangqi|shogi|minishogi> <depth> [--fen <FEN-or-SFEN>] [--divide]`:
//! counts the leaves of the legal move tree (also `flickering`, counting the orthodox
//! chess moves of its move generator, and `seven-kingdoms`). Its last line is exactly
//! `nodes <N> time <seconds> nps <nodes-per-second>` (other tools read it).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use tavoliere_rules::notation::{
    chess as chess_notation, seven_kingdoms as kingdoms_notation, shogi as shogi_notation,
    xiangqi as xiangqi_notation,
};
use tavoliere_rules::variant::Variant;
use tavoliere_rules::{chess, seven_kingdoms, shogi, xiangqi};

/// Arguments of `tavoliere perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: xiangqi, shogi, minishogi, flickering or seven-kingdoms.
    pub variant: Variant,
    /// The depth of the tree, in plies.
    pub depth: u32,
    /// The root position in the variant's own text (FEN for xiangqi and flickering, SFEN
    /// for shogi and minishogi, the position text for seven-kingdoms); the start position
    /// when absent.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the leaf count below each root move first.
    #[arg(long)]
    pub divide: bool,
}

/// Runs the command.
pub fn run(args: Args) -> ExitCode {
    let started = Instant::now();
    let counted = match args.variant {
        Variant::Xiangqi => count_xiangqi(&args),
        Variant::Shogi => count_shogi(&args, shogi::Variant::Standard),
        Variant::MiniShogi => count_shogi(&args, shogi::Variant::Mini),
        Variant::Flickering => count_chess(&args),
        Variant::SevenKingdoms => count_kingdoms(&args),
    };
    let nodes = match counted {
        Ok(nodes) => nodes,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 { (nodes as f64 / seconds) as u64 } else { 0 };
    println!("nodes {nodes} time {seconds:.3} nps {nps}");
    ExitCode::SUCCESS
}

/// What `perft` needs of a game's positions.
trait PerftPosition: Clone {
    /// The legal moves, each with its canonical text.
    fn moves_with_names(&self) -> Vec<(String, Self)>;
    /// The leaf count below this position.
    fn count(&self, depth: u32) -> u64;
}

/// Counts `depth` plies below `root`, printing each root move's count first with
/// `--divide`.
fn count<P: PerftPosition>(root: &P, args: &Args) -> u64 {
    if !args.divide || args.depth == 0 {
        return root.count(args.depth);
    }
    let mut total = 0;
    let mut out = std::io::stdout().lock();
    for (name, child) in root.moves_with_names() {
        let nodes = child.count(args.depth - 1);
        // A closed pipe (`| head`) is not worth a panic: keep counting, print nothing.
        let _ = writeln!(out, "{name}: {nodes}");
        total += nodes;
    }
    total
}

macro_rules! perft_position {
    ($position:ty, $perft:path, |$pos:ident, $m:ident| $name:expr) => {
        impl PerftPosition for $position {
            fn moves_with_names(&self) -> Vec<(String, Self)> {
                self.legal_moves()
                    .into_iter()
                    .map(|$m| {
                        let $pos = self;
                        let name = $name;
                        let mut child = self.clone();
                        child.play_unchecked($m);
                        (name, child)
                    })
                    .collect()
            }

            fn count(&self, depth: u32) -> u64 {
                $perft(self, depth)
            }
        }
    };
}

perft_position!(xiangqi::Position, xiangqi::perft, |_pos, m| m.to_string());
perft_position!(shogi::Position, shogi::perft, |_pos, m| m.to_string());
perft_position!(chess::Position, chess::perft, |_pos, m| chess_notation::uci::write(m));
perft_position!(seven_kingdoms::Position, seven_kingdoms::perft, |pos, m| kingdoms_notation::moves::write(
    pos, m
));

fn count_xiangqi(args: &Args) -> Result<u64, String> {
    let root = match &args.fen {
        Some(fen) => xiangqi_notation::fen::parse(fen).map_err(|e| format!("{fen}: {e}"))?,
        None => xiangqi::Position::new(),
    };
    Ok(count(&root, args))
}

fn count_shogi(args: &Args, variant: shogi::Variant) -> Result<u64, String> {
    let root = match &args.fen {
        Some(sfen) => shogi_notation::sfen::parse(sfen, Some(variant)).map_err(|e| format!("{sfen}: {e}"))?,
        None => shogi::Position::startpos(variant),
    };
    Ok(count(&root, args))
}

fn count_chess(args: &Args) -> Result<u64, String> {
    let root = match &args.fen {
        Some(fen) => chess_notation::fen::parse(fen).map_err(|e| format!("{fen}: {e}"))?,
        None => chess::Position::new(),
    };
    Ok(count(&root, args))
}

fn count_kingdoms(args: &Args) -> Result<u64, String> {
    let root = match &args.fen {
        Some(text) => kingdoms_notation::position_text::parse(text).map_err(|e| format!("{text}: {e}"))?,
        None => seven_kingdoms::Position::new(),
    };
    Ok(count(&root, args))
}
