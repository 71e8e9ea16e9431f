-- no-transaction
-- Issue 36 §2: verification mails are limited per account in a window, counted from the
-- outbox (server/storage/email.rs `nth_mail_of_account`). Account mails (verification,
-- password reset) are the rows with a `to_address`; the notification table grows with every
-- move, so the index is built concurrently (a migration of its own, outside a transaction)
-- and covers only those rows. A move's rows have no `to_address`: their inserts and updates
-- do not touch it.
create index concurrently if not exists notification_account_mail_of_account
    on notification (account_id, created_at) where to_address is not null;
