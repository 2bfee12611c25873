-- Scheduled publishing (DESIGN.md "Prices and promotions"): the draft's content as it was
-- when the owner chose a time, published as the next version at `publish_at` by whichever
-- instance claims the row first. One schedule at a time (id 1); a cancel deletes it, and so
-- does its publish, in the publish's own transaction.
CREATE TABLE store_schedule (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  content jsonb NOT NULL,
  publish_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
