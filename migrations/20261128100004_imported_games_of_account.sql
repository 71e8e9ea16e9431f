-- no-transaction
-- Issue 36 §4: games imported per account in 24 hours are limited
-- (server/storage/imports.rs `imported_since`); an imported game's finished_at is the time
-- of its import. Built concurrently as the ones before.
create index concurrently if not exists game_imported_by_idx
    on game (imported_by, finished_at) where imported_by is not null;
