-- Admin search for an address (DESIGN.md "Admin tools"). One address among many alike (one
-- domain, local parts that differ by a number) shares nearly every trigram with every other
-- row, so the trigram index of migration 0005 reads nearly all of its entries to find it.
-- A search holding an "@" can only match where its text before its first "@" ends an
-- address's text before an "@": for an address with one "@", a prefix of this key (that
-- text lowered and reversed), which a btree finds in a few pages. An address with several
-- "@" has the key '' (such searches look there too); one without any has none.
-- STRICT keeps PostgreSQL from inlining the function, so query plans show its name.
CREATE FUNCTION address_search_key(email text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN strpos(email, '@') = 0 THEN NULL
    WHEN strpos(substr(email, strpos(email, '@') + 1), '@') > 0 THEN ''
    ELSE reverse(lower(split_part(email, '@', 1)))
  END
$$;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['form_submissions', 'contact_us_submissions', 'soul_reset_submissions',
    'free_product_gift_submissions', 'refund_inquiries', 'terms_of_service_feedback']
  LOOP
    EXECUTE format('CREATE INDEX %I ON %I (address_search_key(email) text_pattern_ops)',
      t || '_address_key_idx', t);
  END LOOP;
END
$$;
