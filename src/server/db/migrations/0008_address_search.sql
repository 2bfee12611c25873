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

CREATE INDEX form_submissions_address_key_idx ON form_submissions (address_search_key(email) text_pattern_ops);
CREATE INDEX contact_us_submissions_address_key_idx ON contact_us_submissions (address_search_key(email) text_pattern_ops);
CREATE INDEX soul_reset_submissions_address_key_idx ON soul_reset_submissions (address_search_key(email) text_pattern_ops);
CREATE INDEX free_product_gift_submissions_address_key_idx ON free_product_gift_submissions (address_search_key(email) text_pattern_ops);
CREATE INDEX refund_inquiries_address_key_idx ON refund_inquiries (address_search_key(email) text_pattern_ops);
CREATE INDEX terms_of_service_feedback_address_key_idx ON terms_of_service_feedback (address_search_key(email) text_pattern_ops);
