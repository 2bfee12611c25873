-- DESIGN.md "The mailing list": an address erased with the People tool leaves only its
-- SHA-256 (lower-cased) here, so an import never adds it back by accident. No address is kept.
CREATE TABLE list_suppressions (
  email_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
