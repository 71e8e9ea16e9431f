-- Rated tournaments and seeding by rating (issue 18 §1): a section may be rated (its
-- games are marked rated when created and rated by the one ending path, as rated
-- challenges are), and its draw order may follow the players' ratings in the section's
-- variant and pool ('rating') instead of the directors' seeds and registration order
-- ('registration', as before). Added with defaults: the previous binary ignores both and
-- its sections stay unrated and seeded as before.
alter table section add column rated boolean not null default false;
alter table section add column seeding text not null default 'registration';
alter table section add constraint section_seeding_check check (seeding in ('registration', 'rating'));
