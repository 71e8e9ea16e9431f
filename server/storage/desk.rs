//! What a tournament's directors watch (issue 20 §2): its games running out of time or
//! with a draw offer pending, its result decisions and its withdrawals (the decisions are
//! in `crate::domain::tournaments::desk`).

use sqlx::PgPool;
use time::OffsetDateTime;

use crate::domain::tournaments::{DeskDecision, DeskGame, DeskWithdrawal};

/// The tournament's active games whose deadline is before `until` or that have a draw
/// offer pending, earliest deadline first.
pub(crate) async fn watched_games(
    pool: &PgPool,
    tournament_id: i64,
    until: OffsetDateTime,
) -> sqlx::Result<Vec<DeskGame>> {
    sqlx::query_as::<_, DeskGame>(
        r#"select g.game_id, g.section_id, coalesce(g.round, 0) as round,
                  coalesce(fa.username, '') as first, coalesce(sa.username, '') as second,
                  coalesce(ta.username, '') as to_move, g.deadline, g.current_ply as ply,
                  oa.username as draw_offered_by
           from game g
           join game_seat f on f.game_id = g.game_id and f.seat = 0
           left join account fa on fa.account_id = f.account_id
           join game_seat s on s.game_id = g.game_id and s.seat = 1
           left join account sa on sa.account_id = s.account_id
           join game_seat t on t.game_id = g.game_id and t.seat = g.turn_seat
           left join account ta on ta.account_id = t.account_id
           left join game_seat o on o.game_id = g.game_id and o.seat = g.draw_offer_seat
           left join account oa on oa.account_id = o.account_id
           where g.tournament_id = $1 and g.status = 'active'
             and (g.deadline < $2 or g.draw_offer_seat is not null)
           order by g.deadline nulls last, g.game_id"#,
    )
    .bind(tournament_id)
    .bind(until)
    .fetch_all(pool)
    .await
}

/// Every decision on the tournament's results (adjudications, forfeits, corrections,
/// withdrawals), newest first.
pub(crate) async fn decisions(pool: &PgPool, tournament_id: i64) -> sqlx::Result<Vec<DeskDecision>> {
    sqlx::query_as::<_, DeskDecision>(
        r#"select c.game_id, g.section_id, a.username as changed_by, c.changed_at, c.kind,
                  c.old_result, c.new_result, c.reason
           from result_correction c join game g using (game_id)
           join account a on a.account_id = c.changed_by
           where g.tournament_id = $1
           order by c.changed_at desc, c.result_correction_id desc"#,
    )
    .bind(tournament_id)
    .fetch_all(pool)
    .await
}

/// The tournament's withdrawn entries, latest first.
pub(crate) async fn withdrawals(pool: &PgPool, tournament_id: i64) -> sqlx::Result<Vec<DeskWithdrawal>> {
    sqlx::query_as::<_, DeskWithdrawal>(
        r#"select e.section_id, s.name as section, a.username, e.withdrawn_at
           from entry e join section s using (section_id) join account a using (account_id)
           where s.tournament_id = $1 and e.status = 'withdrawn'
           order by e.withdrawn_at desc nulls last"#,
    )
    .bind(tournament_id)
    .fetch_all(pool)
    .await
}

/// Whether game `game_id` belongs to the tournament.
pub(crate) async fn game_in(pool: &PgPool, tournament_id: i64, game_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar("select exists (select 1 from game where game_id = $1 and tournament_id = $2)")
        .bind(game_id)
        .bind(tournament_id)
        .fetch_one(pool)
        .await
}
