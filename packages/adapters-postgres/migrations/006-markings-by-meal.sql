-- The markings of a meal: markings is keyed by (user_id, meal_id), which finds one user's markings but not a meal's.
-- Rankings by marks count each meal's markings (`SELECT meal_id, count(*) FROM markings WHERE meal_id = ANY (…) GROUP
-- BY meal_id`) and each dish's (joined through meals_by_dish); without this index either reads every marking. With
-- user_id in it, both counts are index-only scans. It also serves the foreign key markings.meal_id -> meals.
-- Built in the migration's transaction (not CONCURRENTLY): writes of markings wait while it is built, a short while for
-- the tables this service keeps.
CREATE INDEX markings_by_meal ON markings (meal_id, user_id);
