-- The move's statement updates the game row, and PostgreSQL checks every CHECK constraint
-- of a row it writes by reading the constraint's stored expression anew for each
-- statement: game_reason_check's list of thirty reasons (6 kB of expression text) was read
-- and prepared for every move, about 5% of the database's time per move (pgbench, issue
-- 21). The same list in an immutable function, called only for a reason that is set
-- (games ending), leaves the move a few hundred bytes to read. A new reason now needs a
-- migration replacing game_reason_known (server/storage/endings.rs: GameReason).
create function game_reason_known(reason text) returns boolean
    language plpgsql immutable strict
as $$
begin
    return reason = any (array[
        'checkmate', 'stalemate', 'perpetual-check', 'perpetual-chase',
        'mutual-perpetual-check', 'mutual-perpetual-chase', 'sennichite',
        'repetition-initiator-loses', 'repetition-first-player-loses',
        'jishogi-count', 'jishogi', 'impasse-24', 'impasse-declaration',
        'move-limit-120', 'no-progress-30', 'move-limit-300', 'dead-position',
        'repetition', 'resignation', 'agreement', 'timeout',
        'timeout-insufficient-material', 'adjudication', 'forfeit', 'aborted',
        'hegemony-generals', 'hegemony-pieces', 'last-alliance', 'no-legal-moves',
        'annulled'
    ]);
end
$$;

-- upgrade: the new constraint accepts exactly the reasons the old one did, so the previous
-- release writes nothing it refuses; one statement, so no moment without the check.
alter table game
    drop constraint game_reason_check,
    add constraint game_reason_check check (reason is null or game_reason_known(reason));
