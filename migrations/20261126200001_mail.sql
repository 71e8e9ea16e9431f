-- E-mail (#17 §1, §2): an optional address on the account, verified by a signed link
-- before anything is sent to it; password resets by mail; notifications (the in-app list
-- and the outbox of the mails, written in the transaction of the event that causes them).
-- Every column added to account is nullable or has a default: the previous binary keeps
-- working.

alter table account
    add column email text,
    add column email_verified_at timestamptz,
    -- The daily digest goes out at digest_hour in time_zone (an IANA name PostgreSQL knows).
    add column time_zone text not null default 'UTC',
    add column digest_hour smallint not null default 8,
    -- The local date of the last digest sent (one a day).
    add column digest_sent_on date,
    add constraint account_digest_hour_check check (digest_hour between 0 and 23),
    add constraint account_email_check check (email is null or position('@' in email) > 1);

-- Password resets look accounts up by their verified address.
create index account_email_lookup on account (lower(email)) where email_verified_at is not null;

-- The key that signs the links of the mails (verification, unsubscribe): made once by the
-- first instance that needs it, shared by all.
create table signing_key (
    signing_key_id smallint primary key default 1,
    key bytea not null,
    constraint signing_key_single check (signing_key_id = 1)
);

-- A password reset: only the SHA-256 of the token is stored; used once, before it expires.
create table password_reset (
    password_reset_id bigint generated always as identity primary key,
    account_id bigint not null references account (account_id) on delete cascade,
    token_hash bytea not null unique,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
);
create index password_reset_account on password_reset (account_id);

-- How an account wants each kind of notification mailed: immediately, in the daily
-- digest, or not at all (no row: the kind's default, see server/domain/notifications).
create table notification_setting (
    account_id bigint not null references account (account_id) on delete cascade,
    kind text not null,
    delivery text not null,
    primary key (account_id, kind),
    constraint notification_setting_delivery_check check (delivery in ('immediately', 'digest', 'off'))
);

-- A notification: a row of the in-app list (in_app) and the outbox of its mail. It is
-- inserted by the transaction of the event (a move, a challenge...), so a committed event
-- always has its row and a rolled-back one never does; the senders of every instance
-- claim pending rows with FOR UPDATE SKIP LOCKED (server/storage/outbox.rs).
create table notification (
    notification_id bigint generated always as identity primary key,
    account_id bigint not null references account (account_id) on delete cascade,
    kind text not null,
    game_id bigint references game (game_id) on delete cascade,
    challenge_id bigint,
    tournament_id bigint,
    -- What the mail and the list say beyond the ids (the result, the sender's name...).
    details jsonb not null default '{}',
    -- Account mails (verification, reset) go to this address, not the verified one.
    to_address text,
    in_app boolean not null default true,
    created_at timestamptz not null,
    read_at timestamptz,
    -- The outbox: pending, sending (claimed until claimed_until), then sent, logged (no SMTP
    -- configured), digest (left for the daily digest), skipped (off, no verified address)
    -- or failed (permanently refused or out of attempts).
    mail_state text not null default 'pending',
    attempts integer not null default 0,
    next_attempt_at timestamptz,
    claimed_until timestamptz,
    mailed_at timestamptz,
    last_error text,
    -- With no SMTP relay configured: what the mail would have said (the admin's outbox
    -- page shows it; a password reset's link is withheld).
    logged_subject text,
    logged_text text,
    constraint notification_mail_state_check
        check (mail_state in ('pending', 'sending', 'sent', 'logged', 'digest', 'skipped', 'failed'))
);
create index notification_outbox on notification (notification_id)
    where mail_state in ('pending', 'sending');
create index notification_of_account on notification (account_id, notification_id) where in_app;
create index notification_unread on notification (account_id) where in_app and read_at is null;
create index notification_digest on notification (account_id) where mail_state = 'digest';

-- Deadline alarms already sent for a turn (one per alarm and turn): the alarm task inserts
-- the notification and this row in one statement, so each alarm fires once.
create table deadline_alarm (
    game_id bigint not null references game (game_id) on delete cascade,
    ply integer not null,
    seat integer not null,
    alarm text not null,
    primary key (game_id, ply, seat, alarm)
);
