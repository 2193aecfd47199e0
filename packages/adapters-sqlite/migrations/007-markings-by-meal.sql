-- The markings of a meal: markings is keyed by (user_id, meal_id), which finds one user's markings but not a meal's.
-- Rankings by marks count each meal's markings (`SELECT meal_id, count(*) FROM markings WHERE meal_id IN (…) GROUP BY
-- meal_id`) and each dish's (joined through meals_by_dish_served); without this index either reads every marking.
-- A WITHOUT ROWID table's index holds the primary key's columns too, so (meal_id, user_id) answers both counts from
-- the index alone. Foreign keys stay on: nothing is rebuilt.
CREATE INDEX markings_by_meal ON markings (meal_id);
