-- The six submission tables of DESIGN.md, with the columns of SPEC.md §3 and the owner's notes.
-- Runs on PostgreSQL 15 and later (and PGlite).

CREATE TABLE form_submissions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  message text NOT NULL DEFAULT '',
  purchase_intent boolean NOT NULL DEFAULT false,
  email_sent boolean NOT NULL DEFAULT false,
  email_sent_at timestamptz,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Older records the owner keeps; nothing public writes here. Same shape as form_submissions.
CREATE TABLE contact_us_submissions (LIKE form_submissions INCLUDING DEFAULTS INCLUDING IDENTITY);
ALTER TABLE contact_us_submissions ADD PRIMARY KEY (id);
CREATE TABLE soul_reset_submissions (LIKE form_submissions INCLUDING DEFAULTS INCLUDING IDENTITY);
ALTER TABLE soul_reset_submissions ADD PRIMARY KEY (id);

CREATE TABLE free_product_gift_submissions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  email_sent boolean NOT NULL DEFAULT false,
  email_sent_at timestamptz,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE refund_inquiries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  message text NOT NULL DEFAULT '',
  email_sent boolean NOT NULL DEFAULT false,
  email_sent_at timestamptz,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE terms_of_service_feedback (LIKE refund_inquiries INCLUDING DEFAULTS INCLUDING IDENTITY);
ALTER TABLE terms_of_service_feedback ADD PRIMARY KEY (id);

-- The duplicate rule (SPEC.md §5) looks up earlier rows by email among those already emailed.
CREATE INDEX form_submissions_sent_email_idx ON form_submissions (lower(email)) WHERE email_sent;
CREATE INDEX contact_us_submissions_sent_email_idx ON contact_us_submissions (lower(email)) WHERE email_sent;
CREATE INDEX soul_reset_submissions_sent_email_idx ON soul_reset_submissions (lower(email)) WHERE email_sent;
CREATE INDEX free_product_gift_submissions_sent_email_idx ON free_product_gift_submissions (lower(email)) WHERE email_sent;
CREATE INDEX refund_inquiries_sent_email_idx ON refund_inquiries (lower(email)) WHERE email_sent;
CREATE INDEX terms_of_service_feedback_sent_email_idx ON terms_of_service_feedback (lower(email)) WHERE email_sent;
