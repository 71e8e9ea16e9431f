-- A director's announcement to an event's players and followers (issue 38 §5): shown on
-- the tournament's page and sent as an `announcement` notice (in the site and by mail,
-- by the account's settings) to the tournament's active entrants and followers.
-- A new table only: the previous binary reads none of it.
create table tournament_announcement (
    announcement_id bigint generated always as identity primary key,
    tournament_id bigint not null references tournament (tournament_id) on delete cascade,
    author_id bigint not null references account (account_id),
    body text not null,
    created_at timestamptz not null,
    -- The domain trims and limits it (server/domain/tournaments/notices.rs); the database
    -- refuses what would slip past.
    constraint tournament_announcement_body_check check (char_length(body) between 1 and 2000)
);
-- A tournament's announcements, newest first (its page), and the count of a day's (the
-- limit on how many a tournament sends).
create index tournament_announcement_tournament_idx on tournament_announcement (tournament_id, created_at desc);
