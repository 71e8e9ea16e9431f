-- Accounts, API tokens, vacation, challenges, games with N seats, moves (one row per ply).
-- Append-only: never edit a migration that has shipped; add a new one.

create table account (
    account_id bigint generated always as identity primary key,
    username text not null,
    password_hash text not null,
    role text not null default 'player',
    vacation_days_per_year integer not null default 45,
    created_at timestamptz not null default now(),
    constraint account_role_check check (role in ('player', 'director', 'admin')),
    constraint account_vacation_days_check check (vacation_days_per_year between 0 and 366)
);
create unique index account_username_key on account (lower(username));

-- Bearer tokens for programs; only the SHA-256 of the token is stored.
create table api_token (
    api_token_id bigint generated always as identity primary key,
    account_id bigint not null references account (account_id) on delete cascade,
    token_hash bytea not null,
    created_at timestamptz not null default now(),
    constraint api_token_hash_key unique (token_hash)
);

-- Leave periods: the account's clocks stop in every game that allows vacation.
create table vacation (
    vacation_id bigint generated always as identity primary key,
    account_id bigint not null references account (account_id) on delete cascade,
    starts_at timestamptz not null,
    ends_at timestamptz not null,
    constraint vacation_period_check check (ends_at > starts_at)
);
create index vacation_account_idx on vacation (account_id, starts_at);

create table game (
    game_id bigint generated always as identity primary key,
    variant text not null,
    ruleset text not null,
    -- Handicap name (rules crate catalogue) and the start position it gives; null = standard.
    handicap text,
    start_position text,
    seat_count integer not null,
    status text not null default 'active',
    result text,
    reason text,
    current_ply integer not null default 0,
    turn_seat integer not null default 0,
    time_control jsonb not null,
    vacation_allowed boolean not null default true,
    turn_started_at timestamptz not null,
    deadline timestamptz,
    draw_offer_seat integer,
    created_at timestamptz not null default now(),
    finished_at timestamptz,
    constraint game_seat_count_check check (seat_count between 2 and 7),
    constraint game_status_check check (status in ('active', 'finished', 'aborted'))
);
create index game_deadline_idx on game (deadline) where status = 'active';

create table game_seat (
    game_id bigint not null references game (game_id) on delete cascade,
    seat integer not null,
    account_id bigint not null references account (account_id),
    -- Remaining thinking time, charged when the seat moves.
    remaining_ms bigint not null,
    moves_made integer not null default 0,
    -- 'win' | 'loss' | 'draw' once the game is over, with the points scored.
    outcome text,
    points numeric(4, 1),
    constraint game_seat_pkey primary key (game_id, seat),
    constraint game_seat_outcome_check check (outcome in ('win', 'loss', 'draw'))
);
create index game_seat_account_idx on game_seat (account_id);

create table move (
    game_id bigint not null references game (game_id) on delete cascade,
    ply integer not null,
    turn_number integer not null,
    seat integer not null,
    -- The canonical notation: ICCS for Xiangqi, USI for Shogi and MiniShogi.
    notation text not null,
    position_key bigint not null,
    played_at timestamptz not null,
    constraint move_pkey primary key (game_id, ply),
    constraint move_ply_check check (ply >= 1)
);

create table challenge (
    challenge_id bigint generated always as identity primary key,
    challenger_id bigint not null references account (account_id),
    opponent_id bigint references account (account_id),
    variant text not null,
    ruleset text not null,
    handicap text,
    seat_count integer not null default 2,
    challenger_seat text not null,
    time_control jsonb not null,
    vacation_allowed boolean not null default true,
    status text not null default 'open',
    game_id bigint references game (game_id),
    created_at timestamptz not null default now(),
    constraint challenge_seat_count_check check (seat_count between 2 and 7),
    constraint challenge_seat_check check (challenger_seat in ('first', 'second', 'random')),
    constraint challenge_status_check check (status in ('open', 'accepted', 'declined', 'cancelled'))
);
