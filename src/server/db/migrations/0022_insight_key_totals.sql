-- DESIGN.md "Sources and campaigns": each source key keeps its running totals through its last
-- day (the insight_campaign_running row of that day), so that a range ending on or after it
-- (the default one, ending today) reads them from the key instead of probing the running rows.
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
