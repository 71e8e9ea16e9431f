-- What a pairing-allocated bye scores in a Swiss section: "win" (FIDE C.04.1 (d), the
-- default), "draw", "loss" (the section's scoring for that result) or a fixed number of
-- points, as JSON.
alter table section add column bye_points jsonb not null default '"win"';
