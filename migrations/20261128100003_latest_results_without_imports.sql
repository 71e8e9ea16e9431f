-- no-transaction
-- Issue 36 §4: imported games are history, not play here: the home page's latest results
-- leave them out (server/storage/home.rs `recent_results`). Without this index a flood of
-- imports, all finished "now", would be read and skipped on every view of the home page.
-- The game table is large: built concurrently, in a migration of its own. A move changes
-- none of its columns or predicates (only the ending sets status and finished_at).
create index concurrently if not exists game_finished_played_idx
    on game (finished_at desc, game_id desc) where status = 'finished' and imported_by is null;
