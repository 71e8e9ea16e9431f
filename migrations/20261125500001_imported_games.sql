-- Imported games (issue 15 §7): a record uploaded by a player or a director is stored as
-- a finished game whose players are the names the record gives, as text, not accounts.

alter table game_seat
    alter column account_id drop not null,
    -- The player's name as the imported record writes it (null for an account's seat).
    add column player_name text,
    add constraint game_seat_player_check check (account_id is not null or player_name is not null);

alter table game
    -- Who uploaded the record, for an imported game; null for a game played here.
    add column imported_by bigint references account (account_id),
    -- The record's format as detected (`pgn`, `kif`, `ki2`, `csa`, `usi`, `lines`).
    add column imported_format text;
