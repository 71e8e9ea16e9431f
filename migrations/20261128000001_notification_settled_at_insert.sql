-- Whether and how a notification is mailed, decided by the account's settings alone:
-- `pending` (a sender mails it), `skipped` (no verified address, or the kind's delivery
-- is off) with the reason, or `digest` (left for the daily digest). The senders' claim
-- (server/storage/outbox.rs) settles rows with it, and the move's statement (storage/games.rs
-- `write_move`) inserts its "your move" row already settled, so a correspondence move to
-- an account without an address costs one write and one commit, not three writes and two
-- commits (issue 21: the claim's update of each such row and its second durable commit
-- were a third of the database's work per move). `account_mail`: the kind's mail goes to
-- the address it names whatever the settings (verification, reset); `default_off`: the
-- kind's delivery when the account chose none is off. A set-returning SQL function, so the
-- planner inlines it into the statements that use it.
create function notification_mail_decision(
    account bigint, kind text, account_mail boolean, default_off boolean
) returns table (state text, reason text)
    language sql stable
as $$
    select
        case
            when account_mail then 'pending'
            when a.email_verified_at is null then 'skipped'
            when coalesce(s.delivery, case when default_off then 'off' else 'immediately' end) = 'off'
                then 'skipped'
            when s.delivery = 'digest' and notification_mail_decision.kind <> 'digest' then 'digest'
            else 'pending'
        end,
        case
            when account_mail then null
            when a.email_verified_at is null then 'no verified address'
            when coalesce(s.delivery, case when default_off then 'off' else 'immediately' end) = 'off'
                then 'off in the account''s settings'
        end
    from account a
    left join notification_setting s
        on s.account_id = a.account_id and s.kind = notification_mail_decision.kind
    where a.account_id = notification_mail_decision.account
$$;
