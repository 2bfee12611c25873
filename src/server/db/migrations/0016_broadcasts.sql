-- DESIGN.md "The mailing list": the owner's messages to the list. A broadcast goes once to the
-- confirmed subscribers of the moment it starts; a sequence step (kind 'sequence') is the same
-- row, enqueued per subscriber by the periodic work. Either way every message to one person is
-- one row of broadcast_recipients: the queue the senders claim from and the record of results.
CREATE TABLE broadcasts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL DEFAULT 'broadcast' CHECK (kind IN ('broadcast', 'sequence')),
  -- Its utm_campaign in the links it carries.
  slug text NOT NULL,
  subject text NOT NULL,
  preheader text NOT NULL DEFAULT '',
  -- Sanitised rich text.
  html text NOT NULL,
  exclude_buyers boolean NOT NULL DEFAULT false,
  -- A sequence step that can send is always 'sending'.
  status text NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'scheduled', 'sending', 'paused', 'cancelled', 'sent')),
  scheduled_at timestamptz,
  -- When it started sending: its audience is who was confirmed then.
  started_at timestamptz,
  -- The audience snapshot's progress: recipient rows exist for every confirmed subscriber up
  -- to this id; audience_done_at once all are in. Batches, so a crash resumes where it stopped.
  audience_after bigint NOT NULL DEFAULT 0,
  audience_done_at timestamptz,
  finished_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX broadcasts_slug_key ON broadcasts (slug);
-- The admin's list, newest first.
CREATE INDEX broadcasts_kind_idx ON broadcasts (kind, id);
-- The senders' scan for broadcasts to start or snapshot.
CREATE INDEX broadcasts_active_idx ON broadcasts (status) WHERE status IN ('scheduled', 'sending');

CREATE TABLE broadcast_recipients (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  broadcast_id bigint NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
  subscriber_id bigint NOT NULL REFERENCES list_subscribers (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'sent', 'failed', 'bounced', 'skipped')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Whoever is sending the row holds it until then; a killed process's claim simply expires.
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (broadcast_id, subscriber_id)
);

-- The senders' due scan reads only pending rows, oldest due first.
CREATE INDEX broadcast_recipients_due_idx ON broadcast_recipients (next_attempt_at, broadcast_id)
  WHERE status = 'pending';
-- A subscriber's messages (results: unsubscribed after, bought after; erasure).
CREATE INDEX broadcast_recipients_subscriber_idx ON broadcast_recipients (subscriber_id);

-- List mail's rate across every instance: one row per window ('second', 'hour'), counting the
-- messages granted in the window that began at window_start. A sender takes permits with one
-- UPDATE of these rows (row locks order the instances); transactional mail is not counted.
CREATE TABLE mail_rate_windows (
  scope text PRIMARY KEY CHECK (scope IN ('second', 'hour')),
  window_start timestamptz NOT NULL DEFAULT '-infinity',
  used integer NOT NULL DEFAULT 0
);

INSERT INTO mail_rate_windows (scope) VALUES ('second'), ('hour');
