-- DESIGN.md "Sources and campaigns": each source key keeps the running totals of its last day,
-- so that a range ending on or after that day (the default one, ending today) reads them from
-- the key instead of probing the running rows; and the paid orders' keys their first and last
-- days, as the events' keys do, for the same and to skip the probe before a range's first day.

-- The events' keys: the insight_campaign_running row of their last day, kept by the roll-up.
ALTER TABLE insight_campaign_keys
  ADD COLUMN days integer NOT NULL DEFAULT 0,
  ADD COLUMN visitors bigint NOT NULL DEFAULT 0,
  ADD COLUMN guide_requests bigint NOT NULL DEFAULT 0,
  ADD COLUMN checkout_clicks bigint NOT NULL DEFAULT 0;

UPDATE insight_campaign_keys k
SET days = r.days, visitors = r.visitors, guide_requests = r.guide_requests,
  checkout_clicks = r.checkout_clicks
FROM insight_campaign_running r
WHERE r.key_id = k.id AND r.day = (
  SELECT max(l.day) FROM insight_campaign_running l WHERE l.key_id = k.id
);

-- The paid orders' keys: the first and last days they have running rows for, and the totals
-- of the last, kept by order_sources_add (a key is made with the row of its first day, so the
-- defaults only ever stand for a key without one: in no range, with nothing in it).
ALTER TABLE order_source_keys
  ADD COLUMN first_day date NOT NULL DEFAULT 'infinity',
  ADD COLUMN last_day date NOT NULL DEFAULT '-infinity',
  ADD COLUMN purchases integer NOT NULL DEFAULT 0,
  ADD COLUMN revenue bigint NOT NULL DEFAULT 0;

UPDATE order_source_keys k
SET first_day = s.first_day, last_day = s.last_day, purchases = r.purchases,
  revenue = r.revenue
FROM (
  SELECT key_id, min(day) AS first_day, max(day) AS last_day FROM order_source_running
  GROUP BY key_id
) s
JOIN order_source_running r ON r.key_id = s.key_id AND r.day = s.last_day
WHERE s.key_id = k.id;

CREATE OR REPLACE FUNCTION order_sources_add(
  paid timestamptz, source text, medium text, campaign text, channel text, n integer,
  amount bigint
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date := (paid AT TIME ZONE 'UTC')::date;
  k integer;
BEGIN
  source := coalesce(source, 'direct');
  medium := coalesce(medium, '');
  campaign := coalesce(campaign, '');
  channel := coalesce(channel, 'direct');
  SELECT id INTO k FROM order_source_keys o
  WHERE o.source = order_sources_add.source AND o.medium = order_sources_add.medium
    AND o.campaign = order_sources_add.campaign AND o.channel = order_sources_add.channel;
  IF k IS NULL THEN
    INSERT INTO order_source_keys AS o (source, medium, campaign, channel)
    VALUES (source, medium, campaign, channel)
    ON CONFLICT ON CONSTRAINT order_source_keys_source_medium_campaign_channel_key
      DO UPDATE SET source = o.source
    RETURNING id INTO k;
  END IF;
  -- The key's totals move as its last running row will (it is on or after d). The key's row
  -- first: every payment of a key locks it before its day's rows, so two transactions that
  -- each add to a key twice (an order paid, then another) wait in turn instead of deadlocking.
  UPDATE order_source_keys o
  SET first_day = least(o.first_day, d), last_day = greatest(o.last_day, d),
    purchases = o.purchases + n, revenue = o.revenue + amount
  WHERE o.id = k;
  INSERT INTO order_source_daily AS o (key_id, day, purchases, revenue)
  VALUES (k, d, n, amount)
  ON CONFLICT (key_id, day) DO UPDATE
    SET purchases = o.purchases + n, revenue = o.revenue + amount;
  -- A row for the day with the totals before it, then that day and every later one moved.
  INSERT INTO order_source_running (key_id, day, purchases, revenue)
  SELECT k, d, coalesce(before.purchases, 0), coalesce(before.revenue, 0)
  FROM (SELECT 1) one
  LEFT JOIN LATERAL (
    SELECT r.purchases, r.revenue FROM order_source_running r
    WHERE r.key_id = k AND r.day < d ORDER BY r.day DESC LIMIT 1
  ) before ON true
  ON CONFLICT (key_id, day) DO NOTHING;
  UPDATE order_source_running r
  SET purchases = r.purchases + n, revenue = r.revenue + amount
  WHERE r.key_id = k AND r.day >= d;
  INSERT INTO order_day_totals AS o (day, purchases, revenue) VALUES (d, n, amount)
  ON CONFLICT (day) DO UPDATE SET purchases = o.purchases + n, revenue = o.revenue + amount;
END $$;
