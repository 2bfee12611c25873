-- DESIGN.md "Sources and campaigns": where visitors and buyers come from, without a cookie.

-- Each event carries its visit's source (normalised by the collector, checked by the server,
-- the channel given by the server) and the class of browser and device read from the user
-- agent, which itself is still never stored.
ALTER TABLE insight_events
  ADD COLUMN source text NOT NULL DEFAULT 'direct',
  ADD COLUMN medium text NOT NULL DEFAULT '',
  ADD COLUMN campaign text NOT NULL DEFAULT '',
  ADD COLUMN channel text NOT NULL DEFAULT 'direct'
    CHECK (channel IN ('direct', 'search', 'social', 'email', 'paid', 'referral')),
  ADD COLUMN browser text NOT NULL DEFAULT 'other',
  ADD COLUMN device text NOT NULL DEFAULT 'desktop';

-- What remains per day, source and event name once the raw events are deleted; insight_daily
-- keeps the day's totals as before (a visitor who came twice from two sources is one there).
CREATE TABLE insight_source_daily (
  day date NOT NULL,
  source text NOT NULL,
  medium text NOT NULL,
  campaign text NOT NULL,
  channel text NOT NULL,
  name text NOT NULL,
  visitors integer NOT NULL,
  events integer NOT NULL,
  PRIMARY KEY (day, source, medium, campaign, channel, name)
);

-- The same per day and source key without the event name, the counters the Sources answer
-- reads side by side: a third of the rows of insight_source_daily, kept by the same roll-up.
-- visitors are the day's distinct visitors of page views for that key, as in
-- insight_source_daily's page_view row.
CREATE TABLE insight_campaign_daily (
  day date NOT NULL,
  source text NOT NULL,
  medium text NOT NULL,
  campaign text NOT NULL,
  channel text NOT NULL,
  visitors integer NOT NULL,
  pageviews integer NOT NULL,
  guide_requests integer NOT NULL,
  checkout_clicks integer NOT NULL,
  PRIMARY KEY (day, source, medium, campaign, channel)
);

-- The route each visitor of a day entered by (their first page view), per day.
CREATE TABLE insight_entry_daily (
  day date NOT NULL,
  path text NOT NULL,
  visitors integer NOT NULL,
  PRIMARY KEY (day, path)
);

-- Visitors per day by browser family and device class.
CREATE TABLE insight_client_daily (
  day date NOT NULL,
  browser text NOT NULL,
  device text NOT NULL,
  visitors integer NOT NULL,
  PRIMARY KEY (day, browser, device)
);

-- The source a verified order came from: the Checkout Session's metadata, or the Payment
-- Link's client_reference_id. Null when the payment named none.
ALTER TABLE orders
  ADD COLUMN utm_source text,
  ADD COLUMN utm_medium text,
  ADD COLUMN utm_campaign text,
  ADD COLUMN channel text;

-- Paid orders by the day they were paid: Insights and its sources read them by range.
CREATE INDEX orders_paid_at_idx ON orders (paid_at) WHERE status = 'paid';
