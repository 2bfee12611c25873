-- Admin tools (DESIGN.md "Admin tools"): search, filters and counts that stay fast at a
-- million rows, and the audit log of every admin change. Runs on PostgreSQL 15 and later
-- (and PGlite, which loads pg_trgm as a contrib extension).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Search is a case-insensitive substring of name, email or message (ILIKE '%term%'): trigram
-- GIN indexes answer it, and its exact count, without reading every row. A row that was never
-- emailed is rare (a failed send) and a filter the owner asks for: a partial index lists and
-- counts those rows alone.
DO $$
DECLARE
  t text;
  c text;
BEGIN
  FOREACH t IN ARRAY ARRAY['form_submissions', 'contact_us_submissions', 'soul_reset_submissions',
    'free_product_gift_submissions', 'refund_inquiries', 'terms_of_service_feedback']
  LOOP
    FOREACH c IN ARRAY ARRAY['name', 'email', 'message']
    LOOP
      IF EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = t AND column_name = c) THEN
        EXECUTE format('CREATE INDEX %I ON %I USING gin (%I gin_trgm_ops)',
          t || '_' || c || '_trgm_idx', t, c);
      END IF;
    END LOOP;
    EXECUTE format('CREATE INDEX %I ON %I (id) WHERE NOT email_sent', t || '_unsent_idx', t);
    EXECUTE format('CREATE INDEX %I ON %I (created_at)', t || '_created_at_idx', t);
  END LOOP;
END
$$;

-- Every admin create, update, delete, bulk delete, erase and restore: who, when, which rows,
-- and the rows before and after (JSON arrays of whole rows), so a delete can be undone with
-- the same ids. An erase scrubs the person's address from these entries too.
CREATE TABLE admin_audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_email text NOT NULL,
  action text NOT NULL,
  table_name text,
  row_ids bigint[] NOT NULL DEFAULT '{}',
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  restored_at timestamptz,
  restored_by text
);
