-- Availability of a serving (issue 29): what the kitchen says is left. Every serving starts available and never
-- changed. A constant default: PostgreSQL adds both columns without rewriting the table. The instant of the last
-- change goes with the status, so that a repeated status keeps it (idempotent) and the ratings report can tell when a
-- meal sold out.
ALTER TABLE meals ADD COLUMN availability text NOT NULL DEFAULT 'available'
  CHECK (availability IN ('available', 'few_left', 'sold_out'));
ALTER TABLE meals ADD COLUMN availability_changed_at timestamptz;

-- The outbox and the deliveries take the new event type `meal.availability_changed` (the CHECKs of migration 009 carry
-- PostgreSQL's default names).
ALTER TABLE webhook_outbox DROP CONSTRAINT webhook_outbox_event_type_check,
  ADD CONSTRAINT webhook_outbox_event_type_check
    CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn', 'meal.availability_changed'));
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check,
  ADD CONSTRAINT webhook_deliveries_event_type_check
    CHECK (event_type IN ('menu.published', 'favourites.upcoming', 'meal.withdrawn', 'meal.availability_changed'));
