-- The public home page and the archive (issue 18 §2, §3): the open challenges of the
-- lobby, and the finished games newest first, alone or by variant or by how they ended,
-- in the order of the archive's keyset pagination (finished_at, game_id). A move changes
-- none of these columns or predicates (only the ending sets status, reason and
-- finished_at), so moves stay HOT updates (migration 000900).
create index challenge_lobby_idx on challenge (challenge_id) where status = 'open' and opponent_id is null;
create index game_finished_idx on game (finished_at desc, game_id desc) where status = 'finished';
create index game_finished_variant_idx on game (variant, finished_at desc, game_id desc)
    where status = 'finished';
create index game_finished_reason_idx on game (reason, finished_at desc, game_id desc)
    where status = 'finished';
create index game_finished_tournament_idx on game (tournament_id, finished_at desc, game_id desc)
    where status = 'finished' and tournament_id is not null;
