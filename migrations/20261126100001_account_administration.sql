-- The directors' desk (issue 20 §1): a global director role, disabled accounts, token
-- expiry, and the audit log of administrative changes to accounts. Everything is added:
-- the previous binary reads none of it (it reads the new role as a player's).

alter table account drop constraint account_role_check;
alter table account add constraint account_role_check
    check (role in ('player', 'director', 'global-director', 'admin'));

-- A disabled account can no longer sign in, use its tokens or move; its games go on to
-- their deadlines (or the directors' decisions).
alter table account add column disabled_at timestamptz;

-- Tokens issued from now on expire; older ones (null) do not.
alter table api_token add column expires_at timestamptz;

-- Who changed which account, when, and what (role, disabled).
create table account_audit (
    account_audit_id bigint generated always as identity primary key,
    account_id bigint not null references account (account_id) on delete cascade,
    -- null: the command line (`tavoliere admin set-role`).
    changed_by bigint references account (account_id) on delete set null,
    changed_at timestamptz not null,
    change text not null,
    old_value text not null,
    new_value text not null,
    constraint account_audit_change_check check (change in ('role', 'disabled'))
);
create index account_audit_account_idx on account_audit (account_id);
create index account_audit_changed_at_idx on account_audit (changed_at);
