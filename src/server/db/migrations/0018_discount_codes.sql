-- DESIGN.md "Prices and promotions": the owner's discount codes, each a coupon with a promotion
-- code in Stripe when STRIPE_SECRET_KEY is set.
CREATE TABLE discount_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Upper case, as the buyer may type it in any case (Stripe compares codes ignoring case).
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9-]{2,40}$'),
  percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
  amount_off_cents integer CHECK (amount_off_cents > 0),
  -- The currency of an amount off: the product's when the code was saved.
  currency text,
  max_uses integer CHECK (max_uses > 0),
  starts_at timestamptz,
  ends_at timestamptz,
  active boolean NOT NULL DEFAULT true,
  -- Stripe's coupon and promotion code, and the terms they were created with (a change of the
  -- discount, limit or end makes new ones: Stripe keeps those fixed).
  stripe_coupon_id text,
  stripe_promotion_code_id text,
  stripe_terms text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((percent_off IS NULL) <> (amount_off_cents IS NULL)),
  CHECK (amount_off_cents IS NULL OR currency IS NOT NULL),
  CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at)
);

-- The code a verified payment's discount was explained by, and that discount: each code's uses
-- and revenue are counted from the paid orders.
ALTER TABLE orders ADD COLUMN discount_code text, ADD COLUMN amount_discount bigint;
CREATE INDEX orders_discount_code_idx ON orders (discount_code) WHERE discount_code IS NOT NULL;
