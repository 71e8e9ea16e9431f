-- A password reset ends every cookie session of the account (#17 §1): a session holds the
-- account's epoch from when it signed in, and counts only while the account still has it;
-- the reset moves it on. Sessions stored before this migration hold none and read as 0.
-- A new column with a default: the previous binary keeps working (its sessions stay valid
-- until the next reset made by the new one).
alter table account add column session_epoch integer not null default 0;
