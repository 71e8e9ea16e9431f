-- The edition of the FIDE (Dutch) System a Swiss section is paired by, and its
-- acceleration (issue 42): the 2025 edition by default; sections already started keep the
-- 2017 rules they were begun under. The previous binary reads and writes neither column;
-- their defaults serve its inserts.
alter table section
    add column dutch_edition text not null default 'fide-2025'
        constraint section_dutch_edition_check check (dutch_edition in ('fide-2025', 'fide-2017')),
    add column acceleration text not null default 'none'
        constraint section_acceleration_check check (acceleration in ('none', 'baku'));

update section set dutch_edition = 'fide-2017' where pairing = 'swiss' and status <> 'registration';
