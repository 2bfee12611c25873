-- DESIGN.md "The offer, edited by the owner": the files the owner uploads live in the
-- database, so every instance and every backup has them. A file is never changed once
-- stored: replacing one puts a new id in the store content, and a download in flight keeps
-- reading the rows it started with.

CREATE TABLE store_files (
  -- Random, so an unpublished guide cannot be guessed; the content's product.file / guide.file.
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]{1,64}$'),
  kind text NOT NULL CHECK (kind IN ('image', 'product', 'guide')),
  -- The uploaded name, cleaned of paths and control characters: the download's name.
  name text NOT NULL,
  content_type text NOT NULL,
  -- Of the upload as received (an image's original, before re-encoding).
  size bigint NOT NULL CHECK (size > 0),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- An image's size after auto-orientation; null for other files.
  width integer,
  height integer,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A product or guide file's bytes in order, a few hundred KB a row, so it is written while
-- the upload streams in and read a few rows at a time while a download streams out. The
-- chunks are written before their file row, in the same transaction: hence deferred.
CREATE TABLE store_file_chunks (
  file_id text NOT NULL REFERENCES store_files (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  seq integer NOT NULL CHECK (seq >= 0),
  data bytea NOT NULL,
  PRIMARY KEY (file_id, seq)
);

-- An image re-encoded to the widths the page uses; served at /media/<hash>-<width>.<ext>,
-- where hash is the start of the variant's own SHA-256 (so the address changes with the bytes).
CREATE TABLE store_image_variants (
  file_id text NOT NULL REFERENCES store_files (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  format text NOT NULL CHECK (format IN ('avif', 'webp', 'jpeg')),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{16}$'),
  data bytea NOT NULL,
  PRIMARY KEY (file_id, width, format)
);

CREATE INDEX store_image_variants_hash_idx ON store_image_variants (hash);
