-- A challenge may name the position the game starts from (FEN/SFEN); null = the standard
-- or the handicap's start. Checked by the rules when the challenge is made.
alter table challenge add column start_position text;
