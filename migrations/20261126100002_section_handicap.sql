-- Rules per event (issue 20 §3): a section may play every game with a handicap from the
-- rules crate's catalogue (null: none). Added nullable: the previous binary ignores it.
alter table section add column handicap text;
