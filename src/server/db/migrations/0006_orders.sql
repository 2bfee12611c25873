-- DESIGN.md "Selling for real": verified purchases and their download links.

-- One row per Stripe Checkout session, whatever became of it. Kept for accounting when the
-- buyer's data is erased (email and name are then replaced).
CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider text NOT NULL DEFAULT 'stripe',
  session_id text NOT NULL UNIQUE,
  payment_intent text,
  email text NOT NULL DEFAULT '',
  name text,
  amount_total bigint,
  currency text,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'paid', 'failed', 'review', 'refunded', 'disputed')),
  paid_at timestamptz,
  -- The owner closed the order's downloads: no link works and no new one is sent, until the
  -- owner sends one again.
  links_revoked_at timestamptz,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Refunds and disputes name the payment, not the session.
CREATE INDEX orders_payment_intent_idx ON orders (payment_intent);
-- A buyer asking for a new link; the admin's search.
CREATE INDEX orders_email_idx ON orders (lower(email));
-- The admin's list, newest first, filtered by status.
CREATE INDEX orders_status_idx ON orders (status, id);

-- A link holds a random token; only its SHA-256 is stored, so a leaked database opens nothing.
CREATE TABLE download_links (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  downloads integer NOT NULL DEFAULT 0,
  max_downloads integer NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX download_links_order_idx ON download_links (order_id, created_at);

-- Every webhook event taken in, by Stripe's id: a replay finds its id and changes nothing.
-- Refunds and disputes that arrive before their order are found here by payment_intent.
CREATE TABLE payment_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  session_id text,
  payment_intent text,
  -- A refund of the whole payment or a dispute: the order's links close.
  revokes boolean NOT NULL DEFAULT false,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX payment_events_payment_intent_idx ON payment_events (payment_intent)
  WHERE revokes;
