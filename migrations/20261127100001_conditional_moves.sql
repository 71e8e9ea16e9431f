-- Conditional moves (#17 §3): lines a player waiting for the opponent enters for the
-- current position, "if the opponent plays X, I reply Y (and if then X2, Y2 ...)". A line
-- holds the canonical moves, the opponent's first, alternating, and the same moves in the
-- variant's display notation; it applies at the game's ply `ply` (the ply at which the
-- opponent's move is expected) and is private to its owner. The move that matches its
-- first move plays the reply in its own transaction and advances the line; any other
-- move deletes the owner's lines of the game. Only a new table: the previous binary
-- never reads it.
create table conditional_line (
    conditional_line_id bigint generated always as identity primary key,
    game_id bigint not null references game (game_id) on delete cascade,
    account_id bigint not null references account (account_id) on delete cascade,
    seat integer not null,
    ply integer not null,
    moves text[] not null,
    display text[] not null,
    created_at timestamptz not null,
    constraint conditional_line_pairs_check
        check (cardinality(moves) >= 2 and cardinality(moves) % 2 = 0
               and cardinality(display) = cardinality(moves))
);
-- The move's check for a waiting seat's lines (`has_conditional` of every seat read).
create index conditional_line_of_seat on conditional_line (game_id, seat);
