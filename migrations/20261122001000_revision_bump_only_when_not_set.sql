-- The move statement (server/domain/games.rs, `write_move`) bumps the revision itself:
-- calling the PL/pgSQL trigger for it cost about 3% of PostgreSQL's time per move
-- (perf, load benchmark). The trigger now runs only for updates that leave the
-- revision as it was, so every other change of a game row is still counted.
drop trigger game_revision on game;

create trigger game_revision before update on game
    for each row when (old.revision = new.revision)
    execute function game_bump_revision();
