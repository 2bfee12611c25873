-- DESIGN.md "The offer, edited by the owner": the store content as published versions and
-- the owner's one draft. A version is never changed or deleted: going back publishes an old
-- version's content as a new one, so the webhook can check a payment against any price that
-- was on sale. The first version (and the draft) are seeded by the app at start, from its
-- settings (PRODUCT_PRICE_CENTS and the others), exactly once.

-- published_by: the admin's address; null for the first version, seeded from the settings.
CREATE TABLE store_versions (
  version integer PRIMARY KEY CHECK (version > 0),
  content jsonb NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  published_by text
);

-- One row (id 1): what the owner is editing, published as the next version on request.
CREATE TABLE store_draft (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  content jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);
