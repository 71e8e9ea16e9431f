//! Notation: reading and writing positions, moves and whole game records.
//! Each notation is its own module, depending on the game cores, never the reverse.

pub mod chess;
pub mod record;
pub mod seven_kingdoms;
pub mod shogi;
pub mod xiangqi;

/// The one move the readers of a game's notations make of `text` (issue 15 §4: a text is
/// read one way only): two readers reading two different moves is `two_readings`; none
/// reading it, the error of the first reader that recognised the text as its notation but
/// refused the move, else `unreadable`. Readers that agree on the move are one reading.
pub(crate) fn one_reading<P, N: Copy, M: Copy + PartialEq, E: PartialEq, F: Fn(&P, &str) -> Result<M, E>>(
    pos: &P,
    text: &str,
    parsers: impl IntoIterator<Item = (N, F)>,
    unreadable: E,
    two_readings: fn([(N, M); 2]) -> E,
) -> Result<M, E> {
    let mut found: Option<(N, M)> = None;
    let mut best: Option<E> = None;
    for (notation, parse) in parsers {
        match parse(pos, text) {
            Ok(m) => match found {
                None => found = Some((notation, m)),
                Some((first, other)) if other != m => {
                    return Err(two_readings([(first, other), (notation, m)]))
                }
                Some(_) => {}
            },
            Err(e) if e == unreadable => {}
            Err(e) => {
                best.get_or_insert(e);
            }
        }
    }
    found.map(|(_, m)| m).ok_or_else(|| best.unwrap_or(unreadable))
}
