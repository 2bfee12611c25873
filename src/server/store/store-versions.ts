import { sql, type Kysely } from 'kysely';
import type { PricedVersion } from '../../shared/store/price-history';
import type { StoreVersionPage } from '../../shared/store/store-api';
import { STORE_VERSIONS_PAGE_SIZE } from '../../shared/store/store-api';
import type { StoreContent } from '../../shared/store/store-content';
import type { Database } from '../db/schema';

/** The live version of the store content. */
export type PublishedStore = { version: number; publishedAt: Date; content: StoreContent };

/** The channel a publish notifies (with the new version) when its transaction commits. */
export const PUBLISHED_CHANNEL = 'store_published';

/** The one draft row's id. */
export const DRAFT_ID = 1;

/**
 * The content as jsonb takes it: PostgreSQL refuses a NUL character and a lone surrogate
 * (half of an emoji cut off, say) in JSON text, so NULs are dropped and a lone surrogate
 * becomes U+FFFD, as pg's UTF-8 encoding does for a text column.
 */
export function storable(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(contentJson(value));
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function contentJson(content: unknown): string {
  return JSON.stringify(content, (_key, value: unknown) =>
    typeof value === 'string'
      ? value.replaceAll('\u0000', '').replace(loneSurrogate, '\uFFFD')
      : value,
  );
}

type VersionRow = { version: number; content: unknown; published_at: Date };

function toPublished(row: VersionRow): PublishedStore {
  return {
    version: Number(row.version),
    publishedAt: new Date(row.published_at),
    content: row.content as StoreContent,
  };
}

/**
 * The first version and the draft, from the server's settings, unless a version exists: one
 * statement, so instances starting together on one database seed it once (the second waits
 * on the first's key and then inserts nothing).
 */
export async function seedFirstVersion(db: Kysely<Database>, content: StoreContent) {
  const json = contentJson(content);
  await sql`
    with seeded as (
      insert into store_versions (version, content, published_by)
      values (1, ${json}::jsonb, null)
      on conflict (version) do nothing
      returning content
    )
    insert into store_draft (id, content, updated_by)
    select ${DRAFT_ID}, content, null from seeded
    on conflict (id) do nothing`.execute(db);
}

/** The live version when it is newer than `after`; undefined when there is none newer. */
export async function newerVersion(
  db: Kysely<Database>,
  after = 0,
): Promise<PublishedStore | undefined> {
  const row = await db
    .selectFrom('store_versions')
    .select(['version', 'content', 'published_at'])
    .where('version', '>', after)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toPublished(row);
}

export async function versionContent(
  db: Kysely<Database>,
  version: number,
): Promise<StoreContent | undefined> {
  const row = await db
    .selectFrom('store_versions')
    .select('content')
    .where('version', '=', version)
    .executeTakeFirst();
  return row && (row.content as StoreContent);
}

/** The draft, locked until the transaction ends when `lock` (publishes take turns on it). */
export async function readDraft(
  db: Kysely<Database>,
  lock = false,
): Promise<{ content: StoreContent; updatedAt: Date }> {
  let query = db
    .selectFrom('store_draft')
    .select(['content', 'updated_at'])
    .where('id', '=', DRAFT_ID);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  return { content: row.content as StoreContent, updatedAt: row.updated_at };
}

export async function saveDraft(
  db: Kysely<Database>,
  content: StoreContent,
  adminEmail: string,
): Promise<Date> {
  const row = await db
    .updateTable('store_draft')
    .set({ content: contentJson(content), updated_at: sql`now()`, updated_by: adminEmail })
    .where('id', '=', DRAFT_ID)
    .returning('updated_at')
    .executeTakeFirstOrThrow();
  return row.updated_at;
}

/**
 * `content` as the next version, with the notification every instance listens for (sent when
 * the caller's transaction commits). The caller holds the draft's lock, so two publishes take
 * turns and never pick one number.
 */
export async function insertVersion(
  db: Kysely<Database>,
  content: StoreContent,
  adminEmail: string,
): Promise<{ version: number; row: Record<string, unknown> }> {
  const { rows } = await sql<{ version: number; row: Record<string, unknown> }>`
    with inserted as (
      insert into store_versions (version, content, published_by)
      select coalesce(max(version), 0) + 1, ${contentJson(content)}::jsonb, ${adminEmail}
      from store_versions
      returning *
    )
    select version, to_jsonb(inserted) as row,
      pg_notify(${PUBLISHED_CHANNEL}, version::text) as notified
    from inserted`.execute(db);
  const { version, row } = rows[0]!;
  return { version: Number(version), row };
}

/** One page of the versions, newest first, with how many there are. */
export async function listVersions(db: Kysely<Database>, page: number): Promise<StoreVersionPage> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('store_versions')
      .select(['version', 'published_at', 'published_by'])
      .orderBy('version', 'desc')
      .limit(STORE_VERSIONS_PAGE_SIZE)
      .offset(page * STORE_VERSIONS_PAGE_SIZE)
      .execute(),
    db
      .selectFrom('store_versions')
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      version: Number(row.version),
      publishedAt: new Date(row.published_at).toISOString(),
      by: row.published_by,
    })),
    count: Number(count.count),
    page,
    pageSize: STORE_VERSIONS_PAGE_SIZE,
  };
}

/** Every published version's price, oldest first: the price history (price-history.ts). */
export async function priceVersions(db: Kysely<Database>): Promise<PricedVersion[]> {
  const { rows } = await sql<{
    version: number;
    published_at: Date;
    price_cents: string | null;
    currency: string | null;
    compare_at_cents: string | null;
    sale: PricedVersion['sale'] | null;
  }>`
    select version, published_at,
      content->'product'->>'priceCents' as price_cents,
      lower(content->'product'->>'currency') as currency,
      content->'product'->>'compareAtCents' as compare_at_cents,
      content->'product'->'sale' as sale
    from store_versions order by version`.execute(db);
  return rows.flatMap((row) =>
    row.price_cents === null || row.currency === null
      ? []
      : [
          {
            version: Number(row.version),
            from: new Date(row.published_at),
            priceCents: Number(row.price_cents),
            currency: row.currency,
            compareAtCents: row.compare_at_cents === null ? null : Number(row.compare_at_cents),
            sale: row.sale ?? undefined,
          },
        ],
  );
}
