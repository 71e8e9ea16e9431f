-- Live watcher counts over every server instance (issue 6, docs/live-protocol.md "Several
-- instances"): each instance keeps one row per game it has sockets on, with its number of
-- sockets, and refreshes seen_at by heartbeat; a game's watcher count is the sum of the
-- rows seen recently, so the rows of an instance that died without cleaning up stop
-- counting (and are pruned) after a few missed heartbeats.
--
-- Presence is ephemeral: the table is unlogged (no WAL; emptied after a database crash,
-- and every instance rewrites its rows at the next heartbeat). No foreign key to game:
-- checking it would take a key-share lock on the game row, which a move holds for update.
create unlogged table live_presence (
    instance_id text not null,
    game_id bigint not null,
    sockets integer not null,
    seen_at timestamptz not null default now(),
    constraint live_presence_pkey primary key (instance_id, game_id),
    constraint live_presence_sockets_positive check (sockets > 0)
);

create index live_presence_game_idx on live_presence (game_id);
