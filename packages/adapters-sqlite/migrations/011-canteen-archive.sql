-- Archived canteens (issue 28): an admin archives a canteen instead of deleting it, so its meals and ratings stay.
-- `archived_at` is when it was archived, in milliseconds since the epoch; NULL while it is active. Saving the canteen
-- sets it back to NULL. A nullable column without default: ADD COLUMN rewrites no row.
ALTER TABLE canteens ADD COLUMN archived_at INTEGER CHECK (archived_at IS NULL OR archived_at >= 0);
