-- Every move changes game.deadline. While an index covers that column, PostgreSQL cannot
-- update the game row in place (a HOT update): each move then adds an entry to every
-- index of the game table and lookups by game_id wade through the dead ones. The load
-- benchmark (benches/load.rs) measured 13% more moves per second without these indexes.
-- The timeout tasks instead find the active games (and the active live games) by partial
-- indexes on game_id, whose columns and predicates a move leaves alone, and compare
-- their deadlines: a few milliseconds for ten thousand active games.
drop index game_deadline_idx;
drop index game_live_deadline_idx;
create index game_active_idx on game (game_id) where status = 'active';
create index game_live_active_idx on game (game_id)
    where status = 'active' and time_control->>'kind' in ('live-fischer', 'byoyomi');
