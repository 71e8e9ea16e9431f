-- Issue 37 §5: a rematch is a challenge to the other player of a finished game, with the
-- game's settings and the colours swapped. The game's page finds it by the game it
-- follows. A nullable column: the previous release neither reads nor writes it.
alter table challenge add column rematch_of bigint references game (game_id);
