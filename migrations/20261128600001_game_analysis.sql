-- Computer analysis of finished games (issue 41): one row per game, queued by a request
-- and claimed by the analysis workers of any instance with `for update skip locked`; a
-- claim holds until `claimed_until`, after which another worker takes the game over (its
-- worker died). The result is stored once, in `plies`.
create table game_analysis (
    game_id bigint primary key references game (game_id) on delete cascade,
    requested_by bigint references account (account_id) on delete set null,
    requested_at timestamptz not null default now(),
    status text not null default 'queued'
        constraint game_analysis_status_check check (status in ('queued', 'running', 'done', 'failed')),
    claimed_until timestamptz,
    attempts integer not null default 0,
    engine text,
    depth integer,
    -- [{"ply": 1, "move": "h2e2", "score": {"cp": 35}, "best": "h2e2", "judgement": null}, ...]
    plies jsonb,
    last_error text,
    finished_at timestamptz,
    constraint game_analysis_claim_check check ((status = 'running') = (claimed_until is not null)),
    constraint game_analysis_done_check check (status <> 'done' or plies is not null)
);

-- The workers' queue: the rows still to do, oldest first.
create index game_analysis_queue on game_analysis (requested_at) where status in ('queued', 'running');
-- An account's requests of the last day (the daily limit).
create index game_analysis_requests on game_analysis (requested_by, requested_at);
