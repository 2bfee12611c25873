-- DESIGN.md "The mailing list": who agreed to list email, and the proof of it.

-- One row per address, whatever became of it. No IP address or user agent is kept.
CREATE TABLE list_subscribers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'bounced', 'complained')),
  source text NOT NULL CHECK (source IN ('free-guide', 'checkout', 'import')),
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One subscriber per address, whatever its case.
CREATE UNIQUE INDEX list_subscribers_email_key ON list_subscribers (lower(email));
-- The admin's list, newest first, filtered by status.
CREATE INDEX list_subscribers_status_idx ON list_subscribers (status, id);

-- Append-only: what was asked, confirmed or withdrawn, when, under which consent wording (the
-- published store version that showed it) and through which form, link or webhook. An
-- erased subscriber's events lose their subscriber and keep one anonymous erased-marker.
CREATE TABLE list_consent_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscriber_id bigint REFERENCES list_subscribers (id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN ('asked', 'confirmed', 'unsubscribed', 're-subscribed',
    'bounced', 'complained', 'imported', 'erased-marker')),
  wording_version integer,
  source text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX list_consent_events_subscriber_idx ON list_consent_events (subscriber_id, id);

-- The links a subscriber received: a random token in the email, only its SHA-256 here, so a
-- leaked database opens nothing and no secret's rotation breaks an old unsubscribe link.
CREATE TABLE list_tokens (
  token_hash text PRIMARY KEY,
  subscriber_id bigint NOT NULL REFERENCES list_subscribers (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX list_tokens_subscriber_idx ON list_tokens (subscriber_id, purpose);

-- Extra headers of a queued email (List-Unsubscribe and List-Unsubscribe-Post of list mail).
ALTER TABLE mail_deliveries ADD COLUMN headers jsonb;
