-- Exact row counts the admin list reads without scanning a table (DESIGN.md: the admin lists
-- tables of a million rows as fast as small ones). Each table's rows are counted per block of
-- 4,096 ids, so the admin can also find where a page starts without skipping rows one by one.
-- Each block is split into 16 shards by id, so concurrent inserts (consecutive ids) update
-- different counter rows and do not wait on each other's commit.
CREATE TABLE table_row_counts (
  table_name text NOT NULL,
  block bigint NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (table_name, block, shard)
);

CREATE FUNCTION count_table_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF tg_op = 'INSERT' THEN
    INSERT INTO table_row_counts (table_name, block, shard, n)
      SELECT tg_table_name, id >> 12, (id & 15)::smallint, count(*)
      FROM new_rows GROUP BY 2, 3 ORDER BY 2, 3
      ON CONFLICT (table_name, block, shard) DO UPDATE SET n = table_row_counts.n + excluded.n;
  ELSIF tg_op = 'DELETE' THEN
    UPDATE table_row_counts AS c SET n = c.n - d.n
      FROM (SELECT id >> 12 AS block, (id & 15)::smallint AS shard, count(*) AS n
            FROM old_rows GROUP BY 1, 2) AS d
      WHERE c.table_name = tg_table_name AND c.block = d.block AND c.shard = d.shard;
  ELSIF tg_op = 'TRUNCATE' THEN
    DELETE FROM table_row_counts WHERE table_name = tg_table_name;
  END IF;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['form_submissions', 'contact_us_submissions', 'soul_reset_submissions',
    'free_product_gift_submissions', 'refund_inquiries', 'terms_of_service_feedback']
  LOOP
    EXECUTE format('INSERT INTO table_row_counts (table_name, block, shard, n)
      SELECT %L, id >> 12, (id & 15)::smallint, count(*) FROM %I GROUP BY 2, 3', t, t);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION count_table_rows()', t || '_count_inserts', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION count_table_rows()', t || '_count_deletes', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION count_table_rows()', t || '_count_truncates', t);
  END LOOP;
END
$$;
