-- The unsubscribe page's choice: 'list' stops list emails; 'everything' also stops requests to
-- join (the confirmation emails anyone could trigger by entering the address in the form).
-- Emails the person asks for themselves (receipts, download links, codes) still go either way.
ALTER TABLE list_subscribers ADD COLUMN unsubscribed_scope text
  CHECK (unsubscribed_scope IN ('list', 'everything'));
