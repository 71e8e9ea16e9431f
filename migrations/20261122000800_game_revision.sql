-- Every change of a game row bumps its revision. A move may then be played on a copy of
-- the game the server keeps in memory (server/domain/games.rs, "the fast path") and be
-- written by one statement that succeeds only while the row is still at the revision
-- the copy was made from; otherwise the server locks the row and reads it again.
alter table game add column revision bigint not null default 0;

create function game_bump_revision() returns trigger language plpgsql as $$
begin
    new.revision := old.revision + 1;
    return new;
end
$$;

create trigger game_revision before update on game
    for each row execute function game_bump_revision();
