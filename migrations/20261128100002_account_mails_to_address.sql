-- no-transaction
-- Issue 36 §2: verification and reset mails are limited per address mailed, whoever asks
-- (server/storage/email.rs `nth_mail_to_address`); built concurrently as the one before.
create index concurrently if not exists notification_account_mail_to_address
    on notification (lower(to_address), created_at) where to_address is not null;
