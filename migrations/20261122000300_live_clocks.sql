-- Live clocks (issue 6): the live flag task looks for overdue live games several times a
-- second; this partial index keeps that query tiny whatever the number of
-- correspondence games.
create index game_live_deadline_idx on game (deadline)
    where status = 'active' and time_control->>'kind' in ('live-fischer', 'byoyomi');
