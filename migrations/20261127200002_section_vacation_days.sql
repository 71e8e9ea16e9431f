-- Rules per event (issue 20 §3): a section may carry its own vacation allowance, the days
-- of a player's leave that stop the clocks of each of its games (counted from the game's
-- start; null: no limit besides the player's yearly allowance, as before). Every game of
-- the section keeps it, as it keeps vacation_allowed. Added nullable: the previous binary
-- ignores both columns and counts all leave, as it did.
alter table section add column vacation_days integer;
alter table section add constraint section_vacation_days_check check (vacation_days between 1 and 366);
alter table game add column vacation_days integer;
alter table game add constraint game_vacation_days_check check (vacation_days between 1 and 366);
