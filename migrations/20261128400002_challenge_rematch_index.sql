-- no-transaction
-- The game page looks up a finished game's rematch; few challenges are rematches, so a
-- partial index, built without blocking the challenges' writes.
create index concurrently if not exists challenge_rematch_of on challenge (rematch_of)
    where rematch_of is not null;
