-- Every email about a stored record (DESIGN.md "Mail delivery"): the queue the workers claim
-- from and the owner's delivery log, one row per email. A row is written in the same
-- statement as the record it is about, so no record exists without its email.
CREATE TABLE mail_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_table text NOT NULL,
  source_id bigint NOT NULL,
  recipient text NOT NULL,
  reply_to text,
  subject text NOT NULL,
  html text NOT NULL,
  text text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  -- Attempts started, the request's own first attempt included.
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- Whoever is sending the row holds it until then; a killed process's claim simply expires.
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  -- When the last retry failed (the admin and /readyz flag recent failures).
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The workers' due scan reads only pending rows, oldest due first.
CREATE INDEX mail_deliveries_due_idx ON mail_deliveries (next_attempt_at) WHERE status = 'pending';
-- A record's deliveries (its state in the admin, resend).
CREATE INDEX mail_deliveries_source_idx ON mail_deliveries (source_table, source_id, id);
-- The admin's log, newest first, filtered by state.
CREATE INDEX mail_deliveries_status_idx ON mail_deliveries (status, id);
