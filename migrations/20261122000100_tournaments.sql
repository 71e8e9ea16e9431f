-- Tournaments: directors, sections (one variant, one pairing system each), entries, the
-- audit trail of result changes, and the link from a game to its tournament round.
-- Append-only: never edit a migration that has shipped; add a new one.

create table tournament (
    tournament_id bigint generated always as identity primary key,
    name text not null,
    description text not null default '',
    season text,
    status text not null default 'draft',
    -- The Grand Prix settings (tavoliere_tournament::grand_prix::GrandPrixConfig); null = none.
    grand_prix jsonb,
    created_by bigint not null references account (account_id),
    created_at timestamptz not null default now(),
    constraint tournament_status_check check (status in ('draft', 'registration', 'running', 'finished')),
    constraint tournament_name_check check (length(name) between 1 and 200)
);

create table tournament_director (
    tournament_id bigint not null references tournament (tournament_id) on delete cascade,
    account_id bigint not null references account (account_id),
    constraint tournament_director_pkey primary key (tournament_id, account_id)
);

create table section (
    section_id bigint generated always as identity primary key,
    tournament_id bigint not null references tournament (tournament_id) on delete cascade,
    name text not null,
    variant text not null,
    ruleset text not null,
    time_control jsonb not null,
    vacation_allowed boolean not null default true,
    -- 'round-robin' | 'double-round-robin' | 'swiss'
    pairing text not null,
    -- Round-robin: 'all-together' (every game starts with the section) | 'round-by-round'.
    start_policy text not null default 'all-together',
    -- Swiss: the planned number of rounds.
    swiss_rounds integer,
    -- tavoliere_tournament::Scoring, TieBreak list, WithdrawalRule.
    scoring jsonb not null,
    tie_breaks jsonb not null,
    withdrawal_rule text not null default 'forfeit-unplayed',
    status text not null default 'registration',
    -- The last round whose games were created (0 before the start).
    current_round integer not null default 0,
    created_at timestamptz not null default now(),
    constraint section_pairing_check check (pairing in ('round-robin', 'double-round-robin', 'swiss')),
    constraint section_start_policy_check check (start_policy in ('all-together', 'round-by-round')),
    constraint section_status_check check (status in ('registration', 'running', 'finished')),
    constraint section_withdrawal_rule_check
        check (withdrawal_rule in ('forfeit-unplayed', 'annul-if-fewer-than-half-played'))
);
create index section_tournament_idx on section (tournament_id);

create table entry (
    section_id bigint not null references section (section_id) on delete cascade,
    account_id bigint not null references account (account_id),
    -- Draw order (pairing number); null = after the seeded ones, in registration order.
    seed integer,
    status text not null default 'active',
    registered_at timestamptz not null default now(),
    withdrawn_at timestamptz,
    constraint entry_pkey primary key (section_id, account_id),
    constraint entry_status_check check (status in ('active', 'withdrawn'))
);
create index entry_account_idx on entry (account_id);

-- Swiss byes (pairing-allocated), for the standings and the TRF export.
create table section_bye (
    section_id bigint not null references section (section_id) on delete cascade,
    round integer not null,
    account_id bigint not null references account (account_id),
    constraint section_bye_pkey primary key (section_id, round)
);

alter table game add column tournament_id bigint references tournament (tournament_id);
alter table game add column section_id bigint references section (section_id);
alter table game add column round integer;
alter table game add column board integer;
-- A director's decision that overrides the over-the-board result in the standings
-- (tavoliere_tournament::GameResult, kebab-case: 'forfeit-first-wins', 'annulled'...).
alter table game add column tournament_result text;
create index game_section_idx on game (section_id) where section_id is not null;

-- Every change a director makes to a tournament game's result: who, when, why.
create table result_correction (
    result_correction_id bigint generated always as identity primary key,
    game_id bigint not null references game (game_id) on delete cascade,
    changed_by bigint not null references account (account_id),
    changed_at timestamptz not null,
    -- 'adjudication' | 'forfeit' | 'correction' | 'withdrawal'
    kind text not null,
    old_result text not null,
    new_result text not null,
    reason text not null,
    constraint result_correction_kind_check
        check (kind in ('adjudication', 'forfeit', 'correction', 'withdrawal'))
);
create index result_correction_game_idx on result_correction (game_id, changed_at);
