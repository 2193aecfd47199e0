-- Archived canteens (issue 28): an admin archives a canteen instead of deleting it, so its meals and ratings stay.
-- `archived_at` is when it was archived; NULL while it is active. Saving the canteen sets it back to NULL. A nullable
-- column without default: PostgreSQL adds it without rewriting the table.
ALTER TABLE canteens ADD COLUMN archived_at timestamptz;
