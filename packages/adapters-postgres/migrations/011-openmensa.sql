-- OpenMensa (issue 25): each canteen's number in the OpenMensa API v2, and the days a canteen is closed.

-- Existing canteens are numbered 1, 2, ... in the order of their ids' bytes, as the adapters list them.
ALTER TABLE canteens ADD COLUMN openmensa_id integer CONSTRAINT canteens_openmensa_id_check CHECK (openmensa_id > 0);
UPDATE canteens SET openmensa_id = numbered.n
  FROM (SELECT canteen_id, row_number() OVER (ORDER BY canteen_id COLLATE "C") AS n FROM canteens) AS numbered
  WHERE canteens.canteen_id = numbered.canteen_id;
-- One above the highest number in use, or at the top of the range the lowest free one. Two concurrent inserts may get
-- the same number: the unique constraint refuses the second, and the repository runs its insert again.
CREATE FUNCTION canteens_unused_openmensa_id() RETURNS integer LANGUAGE sql VOLATILE AS $$
  SELECT CASE
    WHEN coalesce(max(openmensa_id), 0) < 2147483647 THEN coalesce(max(openmensa_id), 0) + 1
    WHEN NOT EXISTS (SELECT 1 FROM canteens WHERE openmensa_id = 1) THEN 1
    ELSE (SELECT min(taken.openmensa_id) + 1 FROM canteens AS taken
          WHERE NOT EXISTS (SELECT 1 FROM canteens AS next WHERE next.openmensa_id = taken.openmensa_id + 1))
  END FROM canteens
$$;

ALTER TABLE canteens
  ALTER COLUMN openmensa_id SET NOT NULL,
  ALTER COLUMN openmensa_id SET DEFAULT canteens_unused_openmensa_id(),
  ADD CONSTRAINT canteens_openmensa_id_key UNIQUE (openmensa_id);

-- A day on a canteen's calendar that its menu says is closed (a feed's <closed/>, or an admin's PUT). A day that is
-- not listed is open, or unknown when it has no meals.
CREATE TABLE closed_days (
  canteen_id text NOT NULL REFERENCES canteens (canteen_id),
  day        date NOT NULL,
  PRIMARY KEY (canteen_id, day)
);
