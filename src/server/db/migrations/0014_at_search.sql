-- Admin search for a term holding an "@" (issue 36). A name or message can only hold such a
-- term if it holds an "@" itself, which few do; the search asks for `col LIKE '%@%'` beside
-- its ILIKE, and these partial trigram indexes hold only those rows, so a search for
-- `bulk123@scale` no longer reads the name index's shared trigrams of every `Bulk N` row.
DO $$
DECLARE
  t text;
  c text;
BEGIN
  FOREACH t IN ARRAY ARRAY['form_submissions', 'contact_us_submissions', 'soul_reset_submissions',
    'free_product_gift_submissions', 'refund_inquiries', 'terms_of_service_feedback']
  LOOP
    FOREACH c IN ARRAY ARRAY['name', 'message']
    LOOP
      IF EXISTS (SELECT 1 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = t AND column_name = c) THEN
        EXECUTE format('CREATE INDEX %I ON %I USING gin (%I gin_trgm_ops) WHERE %I LIKE ''%%@%%''',
          t || '_' || c || '_at_trgm_idx', t, c, c);
      END IF;
    END LOOP;
  END LOOP;
END
$$;

-- The subscriber search (Admin → Subscribers) the same way: trigram indexes for a plain term,
-- the address key of migration 0008 for the address part of an "@" term, and a partial
-- trigram index for the few names that hold an "@".
CREATE INDEX list_subscribers_email_trgm_idx ON list_subscribers USING gin (email gin_trgm_ops);
CREATE INDEX list_subscribers_name_trgm_idx ON list_subscribers USING gin (name gin_trgm_ops);
CREATE INDEX list_subscribers_name_at_trgm_idx ON list_subscribers USING gin (name gin_trgm_ops)
  WHERE name LIKE '%@%';
CREATE INDEX list_subscribers_address_key_idx ON list_subscribers
  (address_search_key(email) text_pattern_ops);
