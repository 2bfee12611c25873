-- DESIGN.md "Insights": cookieless first-party counts of visits and a few actions.

-- One random salt per UTC day. A visitor is the HMAC of its address and user agent under the
-- day's salt; neither is stored, and the salt is deleted once its day is over, so no hash can
-- be recomputed or linked to another day's. Never included in backups.
CREATE TABLE insight_salts (
  day date PRIMARY KEY,
  salt bytea NOT NULL
);

-- The events as received, kept two days so that every day can be rolled up whole.
CREATE TABLE insight_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  day date NOT NULL,
  name text NOT NULL CHECK (name IN ('page_view', 'popup_shown', 'popup_closed',
    'guide_requested', 'form_submitted', 'checkout_click')),
  path text NOT NULL,
  visitor text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX insight_events_day_idx ON insight_events (day, name);

-- What remains of the events: per day and name, how many there were and from how many visitors.
CREATE TABLE insight_daily (
  day date NOT NULL,
  name text NOT NULL,
  visitors integer NOT NULL,
  events integer NOT NULL,
  PRIMARY KEY (day, name)
);
