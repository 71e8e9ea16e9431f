-- Ratings (issue 18 §1): Glicko-2 per variant and pool (correspondence, live), rated
-- challenges and games, each rated seat's rating before and after the game, and the
-- history of every change. Everything is added with defaults or nullable: the previous
-- binary keeps working (its challenges and games are unrated).

alter table challenge add column rated boolean not null default false;
alter table game add column rated boolean not null default false;

alter table game_seat
    -- The seat's rating when the game ended and after the change it made (null until a
    -- rated game ends), and its deviation before (provisional when high).
    add column rating_before double precision,
    add column rating_after double precision,
    add column deviation_before double precision,
    add column deviation_after double precision;

-- A player's current rating in one variant and pool.
create table rating (
    account_id bigint not null references account (account_id) on delete cascade,
    variant text not null,
    pool text not null,
    rating double precision not null,
    deviation double precision not null,
    volatility double precision not null,
    games integer not null default 0,
    -- When the deviation was last brought up to date (the last rated game's end): it
    -- grows with the rating periods passed since then.
    rated_at timestamptz not null,
    constraint rating_pkey primary key (account_id, variant, pool),
    constraint rating_pool_check check (pool in ('correspondence', 'live'))
);
-- The leaderboards: the best of a variant and pool.
create index rating_board_idx on rating (variant, pool, rating desc);

-- Every rating change, one row per rated game and player.
create table rating_history (
    account_id bigint not null references account (account_id) on delete cascade,
    game_id bigint not null references game (game_id) on delete cascade,
    variant text not null,
    pool text not null,
    rating double precision not null,
    deviation double precision not null,
    volatility double precision not null,
    recorded_at timestamptz not null,
    constraint rating_history_pkey primary key (account_id, game_id),
    constraint rating_history_pool_check check (pool in ('correspondence', 'live'))
);
create index rating_history_player_idx on rating_history (account_id, variant, pool, recorded_at);
