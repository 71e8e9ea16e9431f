-- Tournaments for players on the site (issue 38): a player may follow an event (told when
-- its registration opens and when a round's results are final), a section may limit its
-- entries by rating, and each round whose results are all final is noted once, so that its
-- notice is written once however many instances see its last game end.
-- New tables and nullable columns only: the previous binary reads none of them (it lets
-- anyone register whatever their rating, as before, and never writes a notice).

create table tournament_follower (
    tournament_id bigint not null references tournament (tournament_id) on delete cascade,
    account_id bigint not null references account (account_id) on delete cascade,
    followed_at timestamptz not null,
    constraint tournament_follower_pkey primary key (tournament_id, account_id)
);
-- A player's followed events (their tournament page, the dashboard).
create index tournament_follower_account_idx on tournament_follower (account_id);

-- The rating limits of a section's self-registration: the player's current rating in the
-- section's variant and pool, rounded, from rating_min to rating_max (either may be null:
-- no limit on that side). A player without a rating there has none to compare: refused
-- where a minimum is set, admitted where only a maximum is.
alter table section add column rating_min integer;
alter table section add column rating_max integer;
alter table section add constraint section_rating_limits_check
    check (rating_min is null or rating_max is null or rating_min <= rating_max);

-- A round whose every game has its result (finished, or decided by a director): its
-- notice to the section's players and the tournament's followers was written when the row
-- was inserted (server/storage/tournaments.rs `note_final_rounds`).
create table round_final (
    section_id bigint not null references section (section_id) on delete cascade,
    round integer not null,
    noted_at timestamptz not null,
    constraint round_final_pkey primary key (section_id, round)
);

-- The rounds already final before this release are noted without a notice: only the
-- rounds that end from now on are told.
insert into round_final (section_id, round, noted_at)
select g.section_id, g.round, now()
from game g
where g.section_id is not null and g.round is not null
group by g.section_id, g.round
having bool_and(g.status = 'finished' or g.tournament_result is not null);
