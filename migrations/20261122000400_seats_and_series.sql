-- Games of N seats (issue 9, the Seven Kingdoms) and turns of several moves (issue 8,
-- Flickering chess: a series is stored one row per move, all with the turn's number).

-- Who has taken a seat of a challenge so far (the challenger included): a challenge of
-- 3 to 7 seats becomes a game when the last open seat is taken.
create table challenge_entrant (
    challenge_id bigint not null references challenge (challenge_id) on delete cascade,
    account_id bigint not null references account (account_id),
    joined_at timestamptz not null default now(),
    constraint challenge_entrant_pkey primary key (challenge_id, account_id)
);

-- A seat that left a game of more than two seats while the game went on (resignation or
-- timeout: its kingdoms are defeated and leave the board). The replay applies the exit
-- once the game's first `exit_after_ply` moves are played.
alter table game_seat
    add column exit text,
    add column exit_after_ply integer,
    add column exited_at timestamptz,
    -- The place and the scores once the game is over (Seven Kingdoms: pieces captured and
    -- their historical value).
    add column place integer,
    add column score integer,
    add column secondary_score integer,
    add constraint game_seat_exit_check check (exit in ('resign', 'timeout')),
    add constraint game_seat_exit_ply_check check ((exit is null) = (exit_after_ply is null));
