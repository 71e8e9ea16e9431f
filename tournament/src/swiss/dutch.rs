//! The brackets of the FIDE (Dutch) System paired by weighted matchings, in the 2025 and
//! the 2017 editions of C.04.3, with bbpPairings' weights and order of decisions (6.0.0
//! for 2025, 5.0.1 for 2017) so that the same round gets the same pairing.
//!
//! An edge weight packs, most significant first: completion (every player but the bye
//! paired, the bye to a player who may have it: C.4 / C.2), the pairs of the current
//! bracket and its scores (C.5, C.6; PSD), the pairs and scores of the next bracket (C.7),
//! the unplayed games of the bye's receiver (2025), the colour criteria (top scorers'
//! colour differences and repeats, preferences, strong preferences), the repeated floats
//! and their scores, and finally room for the order of section D (which moved-down
//! players, which opponents, which exchanges). Most fields are counted per pair and take
//! as many bits as a bracket has players, so no sum can spill into the field above.

// The loops walk bracket positions that index several parallel tables at once (the
// matching's vertices, the base weights, the scores), as section D numbers the players.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;

use super::blossom::Matcher;
use super::input::{Colour, Prepared};
use super::wide::Wide;
use super::{DutchEdition, SwissError, SwissPairing, SwissRound};

/// How a player floated in an earlier round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Float {
    Down,
    Up,
    None,
}

fn bits(value: u64) -> u32 {
    64 - value.leading_zeros()
}

/// What a pair was in its bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A moved-down player and a resident (heterogeneous bracket, MDP-pairing).
    MovedDown,
    /// S1 and S2 of the (remainder of the) bracket.
    Remainder,
}

/// One bracket as it was paired (for the explanations).
#[derive(Debug, Clone, Default)]
pub(crate) struct BracketRecord {
    pub(crate) score: i64,
    pub(crate) residents: Vec<usize>,
    pub(crate) moved_down: Vec<usize>,
    pub(crate) moved_down_paired: Vec<usize>,
    pub(crate) s1: Vec<usize>,
    pub(crate) s2: Vec<usize>,
    /// The S1 after the exchanges (the players who took an opponent from below).
    pub(crate) s1_final: Vec<usize>,
    /// `(chooser, opponent, role, the opponents preferred to it that were not taken)`.
    pub(crate) pairs: Vec<(usize, usize, Role, Vec<usize>)>,
    pub(crate) floaters: Vec<usize>,
    /// 2017: the bracket whose downfloaters left the rest unpairable, paired again with
    /// every player below as its next bracket (the penultimate pairing bracket).
    pub(crate) collapsed: bool,
}

/// A round as the engine paired it.
pub(crate) struct Outcome {
    /// `(white, black)` by player index.
    pub(crate) pairs: Vec<(usize, usize)>,
    pub(crate) bye: Option<usize>,
    pub(crate) brackets: Vec<BracketRecord>,
}

impl Outcome {
    /// The round with boards in C.04.2 order (higher score of the pair, lower score, then
    /// the higher player's pairing number; scores without acceleration).
    pub(crate) fn round(&self, p: &Prepared) -> SwissRound {
        let key = |&(white, black): &(usize, usize)| {
            let points = |i: usize| p.players[i].points;
            let rank = |i: usize| p.players[i].rank;
            let white_higher = (points(white), std::cmp::Reverse(rank(white)))
                > (points(black), std::cmp::Reverse(rank(black)));
            let (higher, lower) = if white_higher { (white, black) } else { (black, white) };
            (std::cmp::Reverse(points(higher)), std::cmp::Reverse(points(lower)), rank(higher))
        };
        let mut pairs = self.pairs.clone();
        pairs.sort_by_key(key);
        SwissRound {
            round: p.played + 1,
            pairings: pairs
                .iter()
                .enumerate()
                .map(|(board, &(white, black))| SwissPairing {
                    board: board as u32 + 1,
                    first: p.players[white].id,
                    second: p.players[black].id,
                })
                .collect(),
            bye: self.bye.map(|b| p.players[b].id),
        }
    }
}

/// Pairs the round (and records each bracket when `record`).
pub(crate) fn pair(p: &Prepared, record: bool) -> Result<Outcome, SwissError> {
    let n = p.sorted.len();
    if n == 1 {
        let only = p.sorted[0];
        if !p.eligible_for_bye(only) {
            return Err(SwissError::NoPairing);
        }
        return Ok(Outcome { pairs: Vec::new(), bye: Some(only), brackets: Vec::new() });
    }
    let scores: Vec<i64> = p.sorted.iter().map(|&i| p.score(i)).collect();
    let mut groups: Vec<u64> = Vec::new();
    for (i, score) in scores.iter().enumerate() {
        if i == 0 || *score != scores[i - 1] {
            groups.push(0);
        }
        *groups.last_mut().expect("a group") += 1;
    }
    let player_bits = bits(n as u64);
    let group_bits = bits(groups.iter().copied().max().unwrap_or(1));
    let groups_shift: u32 = groups.iter().map(|&g| bits(g)).sum();
    let played = u32::from(p.played >= 1) + u32::from(p.played >= 2);
    let needed = match p.edition {
        DutchEdition::Fide2025 => {
            2 + 11 * group_bits + 2 * groups_shift + played * (2 * group_bits + 2 * groups_shift) + 2
        }
        DutchEdition::Fide2017 => {
            // Every score, and every difference of two, may get a field of its own.
            let distinct = groups.len() as u32;
            let shift = (3 * distinct + 2) * player_bits;
            2 + 12 * player_bits + 2 * shift + played * (2 * player_bits + 2 * shift) + 8
        }
    };
    // Room for the matching's doubled duals.
    let limbs = (needed + 8).div_ceil(64);
    macro_rules! run {
        ($($width:literal)*) => {
            $(if limbs <= $width {
                return Engine::<$width>::new(p, scores, record).run();
            })*
        };
    }
    run!(1 2 4 8 16 32 64);
    Err(SwissError::TooLarge)
}

struct Engine<'a, const N: usize> {
    p: &'a Prepared,
    /// Accelerated scores by vertex (position in `p.sorted`).
    scores: Vec<i64>,
    floats: Vec<[Float; 2]>,
    eligible: Vec<bool>,
    record: bool,
    brackets: Vec<BracketRecord>,
    pairs: Vec<(usize, usize)>,
}

/// The fixed part of a bracket for [`Engine::pair_bracket`].
struct Bracket<const N: usize> {
    /// Matching vertex of each player of the bracket and the next score group.
    vertex: Vec<usize>,
    /// Their accelerated scores.
    scores: Vec<i64>,
    moved_down: usize,
    next_group: usize,
    group_vertex: usize,
    next_group_vertex: usize,
    /// `base[larger][smaller]` (local indices), for `larger >= moved_down`.
    base: Vec<Vec<Wide<N>>>,
    count_bits: u32,
    top: Wide<N>,
}

impl<'a, const N: usize> Engine<'a, N> {
    fn new(p: &'a Prepared, scores: Vec<i64>, record: bool) -> Engine<'a, N> {
        let floats = p.sorted.iter().map(|&i| [Self::float(p, i, 1), Self::float(p, i, 2)]).collect();
        let eligible = p.sorted.iter().map(|&i| p.eligible_for_bye(i)).collect();
        Engine { p, scores, floats, eligible, record, brackets: Vec::new(), pairs: Vec::new() }
    }

    fn float(p: &Prepared, player: usize, back: u32) -> Float {
        if p.played < back {
            return Float::None;
        }
        let round = &p.players[player].rounds[(p.played - back) as usize];
        match (round.played, round.opponent) {
            (true, Some(opponent)) => {
                let (mine, theirs) = (p.score_back(player, back), p.score_back(opponent, back));
                if mine > theirs {
                    Float::Down
                } else if mine < theirs {
                    Float::Up
                } else {
                    Float::None
                }
            }
            // 2025: only a round not played that scored more than a loss is a downfloat;
            // 2017: any round not played.
            _ => match p.edition {
                DutchEdition::Fide2025 if round.points <= p.loss => Float::None,
                _ => Float::Down,
            },
        }
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        self.p.compatible(self.p.sorted[a], self.p.sorted[b])
    }

    fn run(mut self) -> Result<Outcome, SwissError> {
        let bye = match self.p.edition {
            DutchEdition::Fide2025 => self.run_2025()?,
            DutchEdition::Fide2017 => self.run_2017()?,
        };
        let p = self.p;
        let pairs = self
            .pairs
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (p.sorted[a], p.sorted[b]);
                // bbpPairings gives the colour of the lower pairing number's player.
                let (x, y) = if p.players[a].number < p.players[b].number { (a, b) } else { (b, a) };
                if choose_colour(p, x, y).0 == Colour::White {
                    (x, y)
                } else {
                    (y, x)
                }
            })
            .collect();
        Ok(Outcome { pairs, bye: bye.map(|v| p.sorted[v]), brackets: self.brackets })
    }

    /// The four colour fields (top scorers' colour difference and repeated colour,
    /// preferences, strong preferences), set only within the current bracket.
    fn colour_bits(&self, mut r: Wide<N>, lower: usize, higher: usize, mask: bool, width: u32) -> Wide<N> {
        let (pl, ph) = (&self.p.players[self.p.sorted[lower]], &self.p.players[self.p.sorted[higher]]);
        let same = pl.preference == ph.preference;
        r = r
            .shl(width)
            .or_u64(u64::from(mask && (!pl.absolute_imbalance() || !ph.absolute_imbalance() || !same)));
        let repeat_ok = if pl.imbalance == ph.imbalance {
            pl.repeated.is_none() || pl.repeated != ph.repeated
        } else {
            let wider_is_lower = pl.imbalance > ph.imbalance;
            let other = if wider_is_lower { ph } else { pl };
            other.repeated != pl.preference.map(Colour::invert)
        };
        r = r.shl(width).or_u64(u64::from(mask && (!pl.absolute() || !ph.absolute() || !same || repeat_ok)));
        let compatible = !same || pl.preference.is_none() || ph.preference.is_none();
        r = r.shl(width).or_u64(u64::from(mask && compatible));
        r.shl(width).or_u64(u64::from(
            mask && ((!pl.strong && !pl.absolute())
                || (!ph.strong && !ph.absolute())
                || (pl.absolute() && ph.absolute())
                || !same),
        ))
    }

    fn finalize(m: &mut Matcher<N>, a: usize, b: usize, top: Wide<N>) {
        for u in 0..m.size() {
            if u != a {
                m.set_weight(a, u, if u == b { top } else { Wide::ZERO });
            }
            if u != b {
                m.set_weight(b, u, if u == a { top } else { Wide::ZERO });
            }
        }
    }

    /// The exchange weights of the remainder (D.2: fewest exchanges, then the smallest
    /// difference of the exchanged BSNs).
    fn exchange_weight(
        b: &Bracket<N>,
        smaller: usize,
        larger: usize,
        smaller_at: usize,
        pairs: usize,
    ) -> Wide<N> {
        let r = b.base[larger][smaller];
        if r.is_zero() {
            return r;
        }
        let addend = Wide::<N>::from_u64(u64::from(smaller_at < pairs))
            .shl(b.count_bits)
            .shl(b.count_bits)
            .sub_u64(smaller_at as u64)
            .shl(1);
        r.wrapping_add(&addend)
    }

    /// Pairs one bracket: which moved-down players are paired and with whom, then the
    /// remainder's S1, exchanges and opponents. Returns the vertices paired and the last
    /// matching; `paired` hears of each pair fixed.
    fn pair_bracket(
        &self,
        m: &mut Matcher<N>,
        b: &mut Bracket<N>,
        rec: &mut BracketRecord,
        mut paired: impl FnMut(usize, usize),
    ) -> (Vec<bool>, Vec<usize>) {
        let vx = b.vertex.clone();
        let (gb, ngb, gv, ngv) = (b.moved_down, b.next_group, b.group_vertex, b.next_group_vertex);
        let size = vx.len();
        let mut matched = vec![false; m.size()];
        m.compute();
        let mut stable = m.matching();
        let in_group = |s: &Vec<usize>, v: usize| s[v] >= gv && s[v] < ngv;
        let forward = |s: &Vec<usize>, v: usize| s[v] > v && s[v] < ngv;
        // Which moved-down players are paired (C.6: the most, then the highest scores).
        let (mut group_score, mut remaining, mut remaining_matched) = (0i64, 0usize, 0usize);
        for pi in 0..gb {
            if pi == 0 || b.scores[pi] < group_score {
                group_score = b.scores[pi];
                remaining = 0;
                remaining_matched = 0;
                let mut k = pi;
                while k < size && b.scores[k] >= group_score {
                    remaining += 1;
                    if in_group(&stable, vx[k]) {
                        remaining_matched += 1;
                    }
                    k += 1;
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            let v = vx[pi];
            if remaining <= remaining_matched {
                matched[v] = true;
                continue;
            }
            remaining -= 1;
            if !in_group(&stable, v) {
                for oi in gb..ngb {
                    let e = b.base[oi][pi];
                    if !e.is_zero() {
                        m.set_weight(v, vx[oi], e.or_u64(1));
                    }
                }
                m.compute();
                stable = m.matching();
            }
            if in_group(&stable, v) {
                matched[v] = true;
                remaining_matched -= 1;
                for oi in gb..ngb {
                    let e = b.base[oi][pi];
                    if !e.is_zero() {
                        m.set_weight(v, vx[oi], e.or_u64((ngb - gb) as u64).add_u64(1));
                    }
                }
            }
        }
        // Their opponents: the highest resident the rest allows.
        for pi in 0..gb {
            let v = vx[pi];
            if !matched[v] {
                continue;
            }
            let mut addend = size as u64;
            let mut preferred = Vec::new();
            for oi in (gb..ngb).rev() {
                let ov = vx[oi];
                if matched[ov] {
                    continue;
                }
                let e = b.base[oi][pi];
                if !e.is_zero() {
                    m.set_weight(v, ov, e.add_u64(addend));
                    addend += 1;
                }
                preferred.push(oi);
            }
            m.compute();
            stable = m.matching();
            let mv = stable[v];
            matched[mv] = true;
            Self::finalize(m, v, mv, b.top);
            paired(v, mv);
            if self.record {
                let chosen = vx.iter().position(|&x| x == mv).expect("in the bracket");
                preferred.reverse();
                let before: Vec<usize> = preferred.into_iter().take_while(|&o| o != chosen).collect();
                rec.moved_down_paired.push(pi);
                rec.pairs.push((pi, chosen, Role::MovedDown, before));
            }
        }
        // The remainder: S1 the players it pairs, S2 the rest.
        let mut remainder = Vec::new();
        let mut pairs = 0;
        for pi in gb..ngb {
            let v = vx[pi];
            if stable[v] < gv {
                continue;
            }
            remainder.push(pi);
            if stable[v] < v {
                pairs += 1;
            }
        }
        for (at, &oi) in remainder.iter().enumerate() {
            let ov = vx[oi];
            for (pr, &pi) in remainder[..at].iter().enumerate() {
                m.set_weight(vx[pi], ov, Self::exchange_weight(b, pi, oi, pr, pairs));
            }
        }
        m.compute();
        stable = m.matching();
        if self.record {
            rec.s1 = remainder[..pairs].to_vec();
            rec.s2 = remainder[pairs..].to_vec();
        }
        let exchanges = remainder.iter().take(pairs).filter(|&&pi| !forward(&stable, vx[pi])).count();
        // D.2: the lowest players of S1 go down first...
        let mut left = exchanges;
        let mut at = pairs;
        let mut smaller_at = pairs;
        while at != 0 && left > 0 {
            let opponents_from = at;
            smaller_at -= 1;
            at -= 1;
            let pi = remainder[at];
            let v = vx[pi];
            if forward(&stable, v) {
                for &oi in &remainder[opponents_from..] {
                    let e = Self::exchange_weight(b, pi, oi, smaller_at, pairs);
                    if !e.is_zero() {
                        m.set_weight(v, vx[oi], e.sub_u64(1));
                    }
                }
                m.compute();
                stable = m.matching();
            }
            let exchange = !forward(&stable, v);
            left -= usize::from(exchange);
            for &oi in &remainder[at + 1..] {
                if exchange {
                    b.base[oi][pi] = Wide::ZERO;
                }
                m.set_weight(v, vx[oi], Self::exchange_weight(b, pi, oi, smaller_at, pairs));
            }
        }
        // ...and the highest of S2 come up first.
        let mut left = exchanges;
        for at in pairs..remainder.len() {
            // The position in the remainder is the exchange weights' index.
            let larger_at = at;
            if left <= 1 {
                break;
            }
            let pi = remainder[at];
            let v = vx[pi];
            let already = forward(&stable, v);
            if !already {
                for &oi in &remainder[at + 1..] {
                    let e = Self::exchange_weight(b, pi, oi, larger_at, pairs);
                    if !e.is_zero() {
                        m.set_weight(v, vx[oi], e.add_u64(1));
                    }
                }
                m.compute();
                stable = m.matching();
            }
            if forward(&stable, v) {
                left -= 1;
                for &oi in &remainder[..at] {
                    b.base[pi][oi] = Wide::ZERO;
                    m.set_weight(v, vx[oi], Wide::ZERO);
                }
                for oi in ngb..size {
                    b.base[oi][pi] = Wide::ZERO;
                    m.set_weight(v, vx[oi], Wide::ZERO);
                }
            }
            if !already {
                for &oi in &remainder[at + 1..] {
                    m.set_weight(v, vx[oi], Self::exchange_weight(b, pi, oi, larger_at, pairs));
                }
            }
        }
        // Only S1-S2 edges stay.
        for (at, &pi) in remainder.iter().enumerate() {
            let v = vx[pi];
            for &oi in &remainder[at + 1..] {
                let ov = vx[oi];
                if !forward(&stable, v) || forward(&stable, ov) {
                    b.base[oi][pi] = Wide::ZERO;
                }
                m.set_weight(v, ov, b.base[oi][pi]);
            }
        }
        // Each player of S1, top down, takes the highest opponent the rest allows.
        for &pi in &remainder {
            let v = vx[pi];
            if !forward(&stable, v) {
                continue;
            }
            if self.record {
                rec.s1_final.push(pi);
            }
            let mut addend = 0u64;
            let mut preferred = Vec::new();
            for &oi in remainder.iter().rev() {
                let ov = vx[oi];
                if oi <= pi || matched[ov] {
                    continue;
                }
                let e = b.base[oi][pi];
                if !e.is_zero() {
                    m.set_weight(v, ov, e.add_u64(addend));
                }
                addend += 1;
                preferred.push(oi);
            }
            m.compute();
            stable = m.matching();
            let mv = stable[v];
            matched[v] = true;
            matched[mv] = true;
            Self::finalize(m, v, mv, b.top);
            paired(v, mv);
            if self.record {
                let chosen = vx.iter().position(|&x| x == mv).expect("in the bracket");
                preferred.reverse();
                let before: Vec<usize> = preferred.into_iter().take_while(|&o| o != chosen).collect();
                rec.pairs.push((pi, chosen, Role::Remainder, before));
            }
        }
        (matched, stable)
    }

    fn weight_2025(&self, h: usize, l: usize, ctx: &Ctx2025, in_current: bool, in_next: bool) -> Wide<N> {
        let mut r = Wide::<N>::ZERO;
        if !self.compatible(h, l) {
            return r;
        }
        let (sg, gs) = (ctx.group_bits, ctx.groups_shift);
        let (sh, sl) = (self.scores[h], self.scores[l]);
        let candidate = |v: usize| self.eligible[v] && self.scores[v] <= ctx.bye_score;
        r = r.or_u64(1 + u64::from(!candidate(h)) + u64::from(!candidate(l)));
        r = r.shl(sg).or_u64(u64::from(in_current));
        r = r.shl(gs);
        if in_current {
            r = r.wrapping_add(&Wide::bit(ctx.shift[&sh]));
        }
        r = r.shl(sg).or_u64(u64::from(in_next));
        r = r.shl(gs);
        if in_next {
            r = r.wrapping_add(&Wide::bit(ctx.shift[&sh]));
        }
        r = r.shl(sg).shl(sg);
        if ctx.single_downfloater_bye {
            let played = |v: usize| self.p.players[self.p.sorted[v]].played_games;
            if sh == ctx.bye_score {
                r = r.or_u64(ctx.ranks[&played(h)]);
            }
            if sl == ctx.bye_score {
                r = r.add_u64(ctx.ranks[&played(l)]);
            }
        }
        r = self.colour_bits(r, l, h, in_current, sg);
        let (fl, fh) = (self.floats[l], self.floats[h]);
        for back in 0..2 {
            if self.p.played > back as u32 {
                r = r.shl(sg);
                if in_current {
                    r = r.or_u64(u64::from(fl[back] == Float::Down));
                    r = r.add_u64(u64::from(sh <= sl && fh[back] == Float::Down));
                }
                r = r.shl(sg);
                if in_current {
                    r = r.or_u64(u64::from(!(sh > sl && fl[back] == Float::Up)));
                }
            }
        }
        for back in 0..2 {
            if self.p.played > back as u32 {
                r = r.shl(gs);
                if in_current {
                    if fl[back] == Float::Down {
                        r = r.wrapping_add(&Wide::bit(ctx.shift[&sl]));
                    }
                    if fh[back] == Float::Down {
                        r = r.wrapping_add(&Wide::bit(ctx.shift[&sh]));
                    }
                }
                r = r.shl(gs);
                if in_current && !(fl[back] == Float::Up && sh > sl) {
                    r = r.wrapping_add(&Wide::bit(ctx.shift[&sh]));
                }
            }
        }
        r.shl(sg).shl(sg).shl(sg).shl(1)
    }

    fn run_2025(&mut self) -> Result<Option<usize>, SwissError> {
        let n = self.scores.len();
        let mut ctx = Ctx2025::new(&self.scores);
        let top = Wide::<N>::from_u64(1).shl(ctx.total_bits(self.p.played)).sub_u64(1);
        let mut m = Matcher::<N>::new(n);
        let top_score = self.scores[0];
        for pi in 0..n {
            for oi in 0..pi {
                let w = if n % 2 == 1 {
                    if self.compatible(pi, oi) {
                        Wide::<N>::from_u64(1 + u64::from(!self.eligible[pi]) + u64::from(!self.eligible[oi]))
                            .shl(ctx.groups_shift)
                            .or_u64(u64::from(ctx.shift[&self.scores[pi]] + ctx.shift[&self.scores[oi]]))
                            .shl(ctx.group_bits)
                            .or_u64(u64::from(self.scores[pi] >= top_score))
                    } else {
                        Wide::ZERO
                    }
                } else {
                    self.weight_2025(oi, pi, &ctx, false, false)
                };
                m.set_weight(pi, oi, w);
            }
        }
        m.compute();
        let mates = m.matching();
        if !self.complete(&mates) {
            return Err(SwissError::NoPairing);
        }
        if n % 2 == 1 {
            let bye = (0..n).find(|&v| mates[v] == v).expect("one player left");
            ctx.bye_score = self.scores[bye];
            ctx.single_downfloater_bye = ctx.bye_score >= top_score
                && (0..n)
                    .take_while(|&v| self.scores[v] >= top_score)
                    .all(|v| self.scores[mates[v]] >= top_score);
            let mut counts: Vec<u32> = (0..n)
                .filter(|&v| self.scores[v] == ctx.bye_score)
                .map(|v| self.p.players[self.p.sorted[v]].played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, count) in counts.into_iter().enumerate() {
                ctx.ranks.insert(count, rank as u64);
            }
            for pi in 0..n {
                for oi in 0..pi {
                    let w = self.weight_2025(oi, pi, &ctx, false, false);
                    m.set_weight(pi, oi, w);
                }
            }
        }
        let mut players: Vec<usize> = (0..n).take_while(|&v| self.scores[v] >= top_score).collect();
        let mut next = players.len();
        let mut moved_down = 0;
        let mut group_vertex = 0;
        while players.len() > 1 || next < n {
            let next_group = players.len();
            let next_group_vertex = group_vertex + (next_group - moved_down);
            let group_start = next;
            while next < n && self.scores[next] >= self.scores[group_start] {
                players.push(next);
                next += 1;
            }
            let size = players.len();
            let mut base = vec![Vec::new(); size];
            for larger in moved_down..size {
                base[larger] = (0..larger)
                    .map(|smaller| {
                        self.weight_2025(
                            players[smaller],
                            players[larger],
                            &ctx,
                            larger < next_group,
                            larger >= next_group,
                        )
                    })
                    .collect();
            }
            for larger in moved_down..size {
                for smaller in 0..larger {
                    m.set_weight(players[larger], players[smaller], base[larger][smaller]);
                }
            }
            let mut bracket = Bracket {
                vertex: players.clone(),
                scores: players.iter().map(|&v| self.scores[v]).collect(),
                moved_down,
                next_group,
                group_vertex,
                next_group_vertex,
                base,
                count_bits: ctx.group_bits,
                top,
            };
            let mut rec = self.new_record(&bracket);
            let (matched, stable) = self.pair_bracket(&mut m, &mut bracket, &mut rec, |_, _| {});
            ctx.single_downfloater_bye =
                n % 2 == 1 && group_start < n && ctx.bye_score >= self.scores[group_start];
            let mut following = Vec::new();
            moved_down = 0;
            for (local, &v) in players.iter().enumerate() {
                if local < next_group && matched[v] {
                    if v < stable[v] {
                        self.pairs.push((v, stable[v]));
                    }
                } else {
                    following.push(v);
                    if local < next_group {
                        moved_down += 1;
                        rec.floaters.push(local);
                    }
                    if ctx.single_downfloater_bye
                        && group_start < n
                        && self.scores[stable[v]] < self.scores[group_start]
                    {
                        ctx.single_downfloater_bye = false;
                    }
                }
            }
            if following.len() == players.len() && next_group == players.len() {
                return Err(SwissError::NoPairing);
            }
            self.keep_record(rec, &bracket.vertex);
            players = following;
            group_vertex = next_group_vertex;
        }
        Ok(players.first().copied())
    }

    /// Every player paired but at most one, who may get the bye.
    fn complete(&self, mates: &[usize]) -> bool {
        let unmatched: Vec<usize> = (0..mates.len()).filter(|&v| mates[v] == v).collect();
        match unmatched.as_slice() {
            [] => true,
            [one] => self.eligible[*one],
            _ => false,
        }
    }

    fn new_record(&self, b: &Bracket<N>) -> BracketRecord {
        if !self.record {
            return BracketRecord::default();
        }
        BracketRecord {
            score: b.scores.get(b.moved_down).copied().unwrap_or(0),
            residents: (b.moved_down..b.next_group).collect(),
            moved_down: (0..b.moved_down).collect(),
            ..BracketRecord::default()
        }
    }

    /// Keeps a bracket's record, its local indices turned into player indices.
    fn keep_record(&mut self, mut rec: BracketRecord, vertex: &[usize]) {
        if !self.record {
            return;
        }
        let to_player = |local: usize| self.p.sorted[vertex[local]];
        let map = |list: &mut Vec<usize>| list.iter_mut().for_each(|x| *x = to_player(*x));
        map(&mut rec.residents);
        map(&mut rec.moved_down);
        map(&mut rec.moved_down_paired);
        map(&mut rec.s1);
        map(&mut rec.s2);
        map(&mut rec.s1_final);
        map(&mut rec.floaters);
        for (a, b, _, before) in &mut rec.pairs {
            *a = to_player(*a);
            *b = to_player(*b);
            map(before);
        }
        self.brackets.push(rec);
    }

    #[allow(clippy::too_many_arguments)]
    fn weight_2017(
        &self,
        h: usize,
        l: usize,
        ctx: &Ctx2017,
        special: bool,
        last_pair: bool,
        h_in_current: bool,
        l_in_current: bool,
    ) -> Wide<N> {
        let mut r = Wide::<N>::ZERO;
        if !self.compatible(h, l) {
            return r;
        }
        let (pc, sd) = (ctx.count_bits, ctx.shift_bits);
        let (sh, sl) = (self.scores[h], self.scores[l]);
        let offset = |s: i64| Wide::<N>::bit(ctx.shift[&(s - ctx.min + 1000)]);
        let difference = |d: i64| Wide::<N>::bit(ctx.shift[&d]);
        let not_eligible = |v: usize| u64::from(!self.eligible[v]);
        if special {
            r = r.or_u64(1 + not_eligible(h) + not_eligible(l));
        }
        r = r.shl(pc).or_u64(u64::from(l_in_current));
        r = r.shl(sd);
        if l_in_current {
            r = r.wrapping_add(&offset(sh)).wrapping_add(&offset(sl)).wrapping_sub(&difference(sh - sl));
        }
        if !special {
            if last_pair {
                r = r.shl(pc.max(ctx.next_count_bits)).shl(3);
                r = r.or_u64(1 + not_eligible(h) + not_eligible(l));
            } else {
                r = r.shl(ctx.next_count_bits).or_u64(u64::from(!l_in_current));
            }
            r = r.shl(sd);
            if h_in_current {
                r = r.wrapping_add(&offset(sh));
            }
            if l_in_current {
                r = r.wrapping_add(&offset(sl));
            }
        }
        r = self.colour_bits(r, l, h, l_in_current, pc);
        let (fl, fh) = (self.floats[l], self.floats[h]);
        for back in 0..2 {
            if self.p.played > back as u32 {
                r = r.shl(pc);
                if l_in_current {
                    r = r.or_u64(u64::from(fl[back] == Float::Down));
                    r = r.add_u64(u64::from(sh <= sl && fh[back] == Float::Down));
                }
                r = r.shl(pc);
                if l_in_current && sh > sl && fl[back] == Float::Up {
                    r = r.sub_u64(1);
                }
            }
        }
        for back in 0..2 {
            if self.p.played > back as u32 {
                r = r.shl(sd);
                if l_in_current {
                    if fl[back] == Float::Down {
                        r = r.wrapping_add(&offset(sl));
                    }
                    if fh[back] == Float::Down {
                        r = r.wrapping_add(&offset(sh));
                        if sh > sl {
                            r = r.wrapping_sub(&difference(sh - sl));
                        }
                    }
                }
                r = r.shl(sd);
                if l_in_current && fl[back] == Float::Up && sh > sl {
                    r = r.wrapping_sub(&difference(sh - sl));
                }
            }
        }
        r.shl(pc).shl(pc).shl(pc).shl(1)
    }

    fn run_2017(&mut self) -> Result<Option<usize>, SwissError> {
        let n = self.scores.len();
        let odd = n % 2 == 1;
        let bye_vertex = n;
        let mut validity = Matcher::<1>::new(n + usize::from(odd));
        let one = Wide::<1>::from_u64(1);
        for pi in 0..n {
            for oi in 0..pi {
                if self.compatible(pi, oi) {
                    validity.set_weight(pi, oi, one);
                }
            }
            if odd && self.eligible[pi] {
                validity.set_weight(pi, bye_vertex, one);
            }
        }
        validity.compute();
        let all_matched = |m: &Matcher<1>| m.matching().iter().enumerate().all(|(v, &w)| v != w);
        if !all_matched(&validity) {
            return Err(SwissError::NoPairing);
        }
        let top_score = self.scores[0];
        let mut players: Vec<usize> = (0..n).take_while(|&v| self.scores[v] >= top_score).collect();
        let mut next = players.len();
        let mut special = next == n;
        let mut collapsed = false;
        let mut moved_down = 0;
        while players.len() > 1 || next < n {
            let next_group = players.len();
            let group_start = next;
            while next < n && (special || self.scores[next] >= self.scores[group_start]) {
                players.push(next);
                next += 1;
            }
            let last_pair = next == n;
            let size = players.len();
            let scores: Vec<i64> = players.iter().map(|&v| self.scores[v]).collect();
            let ctx = Ctx2017::new(&scores, moved_down, next_group);
            let mut base = vec![Vec::new(); size];
            for larger in moved_down..size {
                base[larger] = (0..larger)
                    .map(|smaller| {
                        self.weight_2017(
                            players[smaller],
                            players[larger],
                            &ctx,
                            special,
                            last_pair,
                            smaller < next_group,
                            larger < next_group,
                        )
                    })
                    .collect();
            }
            let mut m = Matcher::<N>::new(size);
            for larger in moved_down..size {
                for smaller in 0..larger {
                    m.set_weight(larger, smaller, base[larger][smaller]);
                }
            }
            let top = Wide::<N>::from_u64(1).shl(ctx.total_bits::<N>(self.p.played)).sub_u64(1);
            let mut bracket = Bracket {
                vertex: (0..size).collect(),
                scores,
                moved_down,
                next_group,
                group_vertex: moved_down,
                next_group_vertex: next_group,
                base,
                count_bits: ctx.count_bits,
                top,
            };
            let mut rec = self.new_record(&bracket);
            rec.collapsed = collapsed;
            let (matched, stable) = self.pair_bracket(&mut m, &mut bracket, &mut rec, |a, b| {
                let (a, b) = (players[a], players[b]);
                Self::finalize_1(&mut validity, a, b);
            });
            if !special {
                validity.compute();
                if !all_matched(&validity) {
                    // The penultimate pairing bracket: pair it again with everyone below.
                    players.truncate(next_group);
                    next = group_start;
                    special = true;
                    collapsed = true;
                    continue;
                }
            }
            special = next == n;
            collapsed = false;
            let mut following = Vec::new();
            moved_down = 0;
            for local in 0..size {
                if local < next_group && matched[local] {
                    if local < stable[local] {
                        self.pairs.push((players[local], players[stable[local]]));
                    }
                } else {
                    following.push(players[local]);
                    if local < next_group {
                        moved_down += 1;
                        rec.floaters.push(local);
                    }
                }
            }
            if following.len() == players.len() && next_group == players.len() {
                return Err(SwissError::NoPairing);
            }
            let vertex: Vec<usize> = players.clone();
            self.keep_record(rec, &vertex);
            players = following;
        }
        Ok(players.first().copied())
    }

    fn finalize_1(m: &mut Matcher<1>, a: usize, b: usize) {
        let one = Wide::<1>::from_u64(1);
        for u in 0..m.size() {
            if u != a {
                m.set_weight(a, u, if u == b { one } else { Wide::ZERO });
            }
            if u != b {
                m.set_weight(b, u, if u == a { one } else { Wide::ZERO });
            }
        }
    }
}

/// The score groups of a 2025 round: each group's field for counting its scores.
struct Ctx2025 {
    shift: HashMap<i64, u32>,
    groups_shift: u32,
    group_bits: u32,
    bye_score: i64,
    single_downfloater_bye: bool,
    ranks: HashMap<u32, u64>,
}

impl Ctx2025 {
    fn new(scores: &[i64]) -> Ctx2025 {
        let mut shift = HashMap::new();
        let mut total = 0;
        let mut largest = 0;
        let mut run = 0u64;
        for i in (0..scores.len()).rev() {
            run += 1;
            if i == 0 || scores[i] < scores[i - 1] {
                shift.insert(scores[i], total);
                total += bits(run);
                largest = largest.max(run);
                run = 0;
            }
        }
        Ctx2025 {
            shift,
            groups_shift: total,
            group_bits: bits(largest),
            bye_score: 0,
            single_downfloater_bye: false,
            ranks: HashMap::new(),
        }
    }

    fn total_bits(&self, played: u32) -> u32 {
        let (sg, gs) = (self.group_bits, self.groups_shift);
        let rounds = u32::from(played >= 1) + u32::from(played >= 2);
        2 + sg + gs + sg + gs + 2 * sg + 4 * sg + rounds * (2 * sg + 2 * gs) + 3 * sg + 1
    }
}

/// The score differences of a 2017 bracket, each with a field of its own.
struct Ctx2017 {
    shift: HashMap<i64, u32>,
    shift_bits: u32,
    count_bits: u32,
    next_count_bits: u32,
    min: i64,
}

impl Ctx2017 {
    fn new(scores: &[i64], moved_down: usize, next_group: usize) -> Ctx2017 {
        let min = *scores.last().expect("a bracket has players");
        let mut keys = Vec::new();
        for pi in 0..next_group {
            keys.push(scores[pi] - min + 1000);
            let first = moved_down.max(pi + 1);
            for oi in first..next_group {
                if oi <= first || scores[oi] < scores[oi - 1] {
                    keys.push(scores[pi] - scores[oi]);
                }
            }
        }
        keys.sort_unstable();
        let mut shift = HashMap::new();
        let mut total = 0;
        let mut run = 0u64;
        for i in 0..keys.len() {
            run += 1;
            if i + 1 == keys.len() || keys[i] != keys[i + 1] {
                shift.insert(keys[i], total);
                total += bits(run);
                run = 0;
            }
        }
        Ctx2017 {
            shift,
            shift_bits: total,
            count_bits: bits((next_group - moved_down) as u64),
            next_count_bits: bits((scores.len() - next_group) as u64),
            min,
        }
    }

    fn total_bits<const N: usize>(&self, played: u32) -> u32 {
        let (pc, sd) = (self.count_bits, self.shift_bits);
        let rounds = u32::from(played >= 1) + u32::from(played >= 2);
        let bits = 2
            + pc
            + sd
            + pc.max(self.next_count_bits)
            + 3
            + sd
            + 4 * pc
            + rounds * (2 * pc + 2 * sd)
            + 3 * pc
            + 1;
        bits.min(64 * N as u32 - 4)
    }
}

/// The colour of `player` against `opponent` (E.1-E.5), and the rule that gave it.
pub(crate) fn choose_colour(p: &Prepared, player: usize, opponent: usize) -> (Colour, super::ColourRule) {
    use super::ColourRule;
    let (a, b) = (&p.players[player], &p.players[opponent]);
    let a_higher =
        (p.score(player), std::cmp::Reverse(a.rank)) > (p.score(opponent), std::cmp::Reverse(b.rank));
    let compatible = a.preference != b.preference || a.preference.is_none() || b.preference.is_none();
    if compatible {
        if let Some(c) = a.preference {
            return (c, ColourRule::BothPreferences);
        }
        if let Some(c) = b.preference {
            return (c.invert(), ColourRule::BothPreferences);
        }
    } else if a.absolute() && (a.imbalance > b.imbalance || !b.absolute()) {
        return (a.preference.expect("absolute"), ColourRule::StrongerPreference);
    } else if b.absolute() && (b.imbalance > a.imbalance || !a.absolute()) {
        return (b.preference.expect("absolute").invert(), ColourRule::StrongerPreference);
    } else if a.strong && !b.strong {
        return (a.preference.expect("strong"), ColourRule::StrongerPreference);
    } else if b.strong && !a.strong {
        return (b.preference.expect("strong").invert(), ColourRule::StrongerPreference);
    } else {
        // E.3: alternate from the last round, among games played by both, where they differ.
        let mine: Vec<Colour> = a.rounds.iter().filter(|r| r.played).filter_map(|r| r.colour).collect();
        let theirs: Vec<Colour> = b.rounds.iter().filter(|r| r.played).filter_map(|r| r.colour).collect();
        let difference = mine.iter().rev().zip(theirs.iter().rev()).find(|(x, y)| x != y);
        if let Some((_, &their)) = difference {
            return (their, ColourRule::Alternation);
        }
    }
    if a.preference.is_none() {
        // E.5: the initial colour to the higher-ranked player with an odd number.
        let (rank, mine) = if a_higher { (a.rank, true) } else { (b.rank, false) };
        let higher_gets = if rank % 2 == 1 { p.initial.invert() } else { p.initial };
        let colour = if mine { higher_gets } else { higher_gets.invert() };
        return (colour, ColourRule::InitialColour);
    }
    // E.4: the higher-ranked player's preference.
    let colour = if a_higher {
        a.preference.expect("has one")
    } else {
        b.preference.expect("same preference").invert()
    };
    (colour, ColourRule::HigherRanked)
}
