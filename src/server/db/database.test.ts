import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { TableName } from '../../shared/tables';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { openDatabase } from './database';
import { loadMigrations, migrate } from './migrate';

const formColumns = [
  'id',
  'name',
  'email',
  'message',
  'purchase_intent',
  'email_sent',
  'email_sent_at',
  'notes',
  'created_at',
  'updated_at',
];
const messageColumns = formColumns.filter((column) => column !== 'purchase_intent');
const guideColumns = messageColumns.filter((column) => column !== 'message');

const expectedColumns: Record<
  | TableName
  | 'mail_deliveries'
  | 'admin_audit_log'
  | 'orders'
  | 'download_links'
  | 'payment_events'
  | 'insight_salts'
  | 'insight_events'
  | 'insight_daily'
  | 'insight_source_daily'
  | 'insight_campaign_daily'
  | 'insight_campaign_keys'
  | 'insight_campaign_running'
  | 'insight_campaign_day_totals'
  | 'order_source_keys'
  | 'order_source_daily'
  | 'order_source_running'
  | 'order_day_totals'
  | 'insight_entry_daily'
  | 'insight_client_daily'
  | 'store_versions'
  | 'store_draft'
  | 'store_schedule'
  | 'store_files'
  | 'store_file_chunks'
  | 'store_image_variants'
  | 'list_subscribers'
  | 'list_consent_events'
  | 'list_tokens'
  | 'list_suppressions'
  | 'broadcasts'
  | 'broadcast_recipients'
  | 'mail_rate_windows'
  | 'list_sequence'
  | 'discount_codes',
  string[]
> = {
  contact_us_submissions: formColumns,
  form_submissions: formColumns,
  free_product_gift_submissions: guideColumns,
  refund_inquiries: messageColumns,
  soul_reset_submissions: formColumns,
  terms_of_service_feedback: messageColumns,
  // DESIGN.md "Mail delivery": the queue and the owner's delivery log.
  mail_deliveries: [
    'id',
    'source_table',
    'source_id',
    'recipient',
    'reply_to',
    'subject',
    'html',
    'text',
    'status',
    'attempts',
    'next_attempt_at',
    'locked_until',
    'last_error',
    'sent_at',
    'failed_at',
    'created_at',
    // A list email's List-Unsubscribe headers.
    'headers',
  ],
  // DESIGN.md "Admin tools": who changed what, with the rows to restore.
  admin_audit_log: [
    'id',
    'admin_email',
    'action',
    'table_name',
    'row_ids',
    'before',
    'after',
    'created_at',
    'restored_at',
    'restored_by',
  ],
  // DESIGN.md "Selling for real": orders (plus the owner's notes and their revocation of the
  // links), download links holding only token hashes, and the webhook events taken in.
  orders: [
    'id',
    'provider',
    'session_id',
    'payment_intent',
    'email',
    'name',
    'amount_total',
    'currency',
    'status',
    'paid_at',
    'links_revoked_at',
    'notes',
    'created_at',
    'updated_at',
    // DESIGN.md "Sources and campaigns": where the buyer came from.
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'channel',
    // DESIGN.md "Prices and promotions": the code that explained the discount.
    'discount_code',
    'amount_discount',
    'utm_content',
    'utm_term',
  ],
  download_links: [
    'id',
    'order_id',
    'token_hash',
    'expires_at',
    'downloads',
    'max_downloads',
    'revoked_at',
    'created_at',
  ],
  payment_events: ['event_id', 'type', 'session_id', 'payment_intent', 'revokes', 'received_at'],
  // DESIGN.md "Insights": a visitor is a hash; no address or user agent has a column.
  insight_salts: ['day', 'salt'],
  // DESIGN.md "Sources and campaigns": the visit's source and the class of its browser and
  // device (never the user agent).
  insight_events: [
    'id',
    'day',
    'name',
    'path',
    'visitor',
    'created_at',
    'source',
    'medium',
    'campaign',
    'channel',
    'browser',
    'device',
    'content',
    'term',
  ],
  insight_daily: ['day', 'name', 'visitors', 'events'],
  insight_source_daily: [
    'day',
    'source',
    'medium',
    'campaign',
    'channel',
    'name',
    'visitors',
    'events',
  ],
  insight_campaign_daily: [
    'day',
    'source',
    'medium',
    'campaign',
    'channel',
    'visitors',
    'pageviews',
    'guide_requests',
    'checkout_clicks',
  ],
  insight_campaign_keys: [
    'id',
    'source',
    'medium',
    'campaign',
    'channel',
    'first_day',
    'last_day',
    'days',
    'visitors',
    'guide_requests',
    'checkout_clicks',
  ],
  insight_campaign_running: [
    'key_id',
    'day',
    'days',
    'visitors',
    'guide_requests',
    'checkout_clicks',
  ],
  insight_campaign_day_totals: ['day', 'visitors', 'pageviews'],
  order_source_keys: [
    'id',
    'source',
    'medium',
    'campaign',
    'channel',
    'first_day',
    'last_day',
    'purchases',
    'revenue',
  ],
  order_source_daily: ['key_id', 'day', 'purchases', 'revenue'],
  order_source_running: ['key_id', 'day', 'purchases', 'revenue'],
  order_day_totals: ['day', 'purchases', 'revenue'],
  insight_entry_daily: ['day', 'path', 'visitors'],
  insight_client_daily: ['day', 'browser', 'device', 'visitors'],
  // DESIGN.md "The offer, edited by the owner": published versions, kept whole, and one draft.
  store_versions: ['version', 'content', 'published_at', 'published_by'],
  store_draft: ['id', 'content', 'updated_at', 'updated_by'],
  store_schedule: ['id', 'content', 'publish_at', 'created_at', 'created_by'],
  // DESIGN.md "The offer, edited by the owner": uploads, their bytes in chunks, image variants.
  store_files: [
    'id',
    'kind',
    'name',
    'content_type',
    'size',
    'sha256',
    'width',
    'height',
    'created_by',
    'created_at',
  ],
  store_file_chunks: ['file_id', 'seq', 'data'],
  store_image_variants: ['file_id', 'width', 'height', 'format', 'hash', 'data'],
  // DESIGN.md "The mailing list": no IP address or user agent has a column; tokens are hashes.
  list_subscribers: [
    'id',
    'email',
    'name',
    'status',
    'source',
    'created_at',
    'confirmed_at',
    'unsubscribed_at',
    'updated_at',
    'unsubscribed_scope',
    'sequence_ended_at',
    'sequence_end_reason',
  ],
  list_consent_events: ['id', 'subscriber_id', 'kind', 'wording_version', 'source', 'created_at'],
  list_tokens: ['token_hash', 'subscriber_id', 'purpose', 'created_at'],
  list_suppressions: ['email_hash', 'created_at'],
  // Broadcasts and sequence steps, one row per message to a subscriber, the shared list rate.
  broadcasts: [
    'id',
    'kind',
    'slug',
    'subject',
    'preheader',
    'html',
    'exclude_buyers',
    'status',
    'scheduled_at',
    'started_at',
    'audience_after',
    'audience_done_at',
    'finished_at',
    'created_by',
    'created_at',
    'updated_at',
    'position',
    'delay_days',
  ],
  broadcast_recipients: [
    'id',
    'broadcast_id',
    'subscriber_id',
    'status',
    'attempts',
    'next_attempt_at',
    'locked_until',
    'last_error',
    'sent_at',
    'created_at',
  ],
  mail_rate_windows: ['scope', 'window_start', 'used'],
  // The follow-up sequence's switch (its steps are broadcasts of kind 'sequence').
  list_sequence: ['id', 'active', 'active_since', 'updated_at'],
  discount_codes: [
    'id',
    'code',
    'percent_off',
    'amount_off_cents',
    'currency',
    'max_uses',
    'starts_at',
    'ends_at',
    'active',
    'stripe_coupon_id',
    'stripe_promotion_code_id',
    'stripe_terms',
    'created_at',
    'updated_at',
  ],
};

describeEachDatabase('database', (use) => {
  it('has the six tables of the contract with the columns of SPEC.md §3 plus notes, the mail queue, the audit log, the orders, the insights and the store', async () => {
    const { db } = use();
    const rows = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and table_name <> 'schema_migrations'
        and table_name not like 'auth\_%' -- sign-in's own tables (auth-schema.test.ts)
        and table_name <> 'table_row_counts' -- the admin's counters (table-row-counts.test.ts)
      order by table_name, ordinal_position`.execute(db);
    const actual: Record<string, string[]> = {};
    for (const row of rows.rows) (actual[row.table_name] ??= []).push(row.column_name);
    expect(actual).toEqual(expectedColumns);
  });

  it('fills defaults: empty message and notes, email_sent false, timestamps set', async () => {
    const { db } = use();
    const row = await db
      .insertInto('form_submissions')
      .values({ name: 'Ada', email: 'ada@example.com' })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      message: '',
      notes: '',
      purchase_intent: false,
      email_sent: false,
      email_sent_at: null,
    });
    expect(row.created_at).toBeInstanceOf(Date);
    expect(row.updated_at).toBeInstanceOf(Date);
  });

  it('returns bigint ids and counts as plain numbers', async () => {
    const { db } = use();
    const inserted = await db
      .insertInto('refund_inquiries')
      .values([
        { name: 'A', email: 'a@example.com' },
        { name: 'B', email: 'b@example.com' },
      ])
      .returning('id')
      .execute();
    expect(typeof inserted[0]?.id).toBe('number');
    const { count } = await db
      .selectFrom('refund_inquiries')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    expect(count).toBe(2);
    const big = await sql<{ big: number }>`select 9007199254740991::bigint as big`.execute(db);
    expect(big.rows[0]?.big).toBe(Number.MAX_SAFE_INTEGER);
    await expect(sql`select 9007199254740993::bigint as big`.execute(db)).rejects.toThrow(
      /safe integers/,
    );
  });

  it('reports affected rows of updates and deletes', async () => {
    const { db } = use();
    await db
      .insertInto('terms_of_service_feedback')
      .values([
        { name: 'A', email: 'same@example.com' },
        { name: 'B', email: 'same@example.com' },
      ])
      .execute();
    const updated = await db
      .updateTable('terms_of_service_feedback')
      .set({ email_sent: true })
      .where('email', '=', 'same@example.com')
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await db
      .deleteFrom('terms_of_service_feedback')
      .where('email', '=', 'same@example.com')
      .executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(2n);
  });

  it('a failing transaction rolls back only its own writes, not writes interleaved with it', async () => {
    const { db } = use();
    let insideTransaction!: () => void;
    const transactionStarted = new Promise<void>((resolve) => (insideTransaction = resolve));
    const failing = db.transaction().execute(async (trx) => {
      await trx
        .insertInto('free_product_gift_submissions')
        .values({ name: 'doomed', email: 'doomed@example.com' })
        .execute();
      insideTransaction();
      // Give the other writes every chance to run while this transaction is open.
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('boom');
    });
    await transactionStarted;
    const others = Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        db
          .insertInto('free_product_gift_submissions')
          .values({ name: `kept ${index}`, email: `kept${index}@example.com` })
          .execute(),
      ),
    );
    await expect(failing).rejects.toThrow('boom');
    await others;
    const names = await db
      .selectFrom('free_product_gift_submissions')
      .select('name')
      .orderBy('name')
      .execute();
    expect(names.map((row) => row.name)).toEqual([
      'kept 0',
      'kept 1',
      'kept 2',
      'kept 3',
      'kept 4',
    ]);
  });

  it('keeps working after a statement fails', async () => {
    const { db } = use();
    await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow();
    await expect(
      db
        .insertInto('form_submissions')
        .values({ name: null as never, email: 'x@example.com' })
        .execute(),
    ).rejects.toThrow(/null value/);
    await expect(use().ping()).resolves.toBeUndefined();
  });

  it('stores text with lone surrogates as U+FFFD instead of failing the statement', async () => {
    const { db } = use();
    const { id } = await db
      .insertInto('form_submissions')
      .values({ name: '\u{4b1a2}\ub701\udfff\udbff\u{5b6da}', email: 'surrogates@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await db
      .selectFrom('form_submissions')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('\u{4b1a2}\ub701\ufffd\ufffd\u{5b6da}');
  });

  it('runs a prepared query once prepared per connection, with new values each time', async () => {
    // One connection, so that every statement below meets the same prepared ones.
    const single = await openDatabase({ databaseUrl: use().url, poolSize: 1 });
    try {
      const { db, prepared } = single;
      const sum = (n: number) =>
        sql<{ n: number; label: string }>`select ${n}::int8 + 1 as n, ${`#${n}`} as label`.compile(
          db,
        );
      expect(await prepared(sum(1))).toEqual([{ n: 2, label: '#1' }]);
      expect(await prepared(sum(10))).toEqual([{ n: 11, label: '#10' }]);
      const other = sql<{ n: number }>`select ${5}::int as n`.compile(db);
      expect(await prepared(other)).toEqual([{ n: 5 }]);
      const statements = await sql<{ statement: string; runs: number }>`
        select statement, generic_plans + custom_plans as runs from pg_prepared_statements
        order by statement`.execute(db);
      expect(statements.rows).toEqual(
        [
          { statement: sum(1).sql, runs: 2 },
          { statement: other.sql, runs: 1 },
        ].sort((a, b) => (a.statement < b.statement ? -1 : 1)),
      );
      await expect(prepared(sql`select * from no_such_table`.compile(db))).rejects.toThrow();
      expect(await prepared(sum(2))).toEqual([{ n: 3, label: '#2' }]);
    } finally {
      await single.close();
    }
  });

  it('migrating again applies nothing, and concurrent migrations apply each file once', async () => {
    const { db } = use();
    expect(await migrate(db)).toEqual([]);
    const extra = [
      ...(await loadMigrations()),
      { version: '9999_concurrency_probe', sql: 'create table concurrency_probe (id int);' },
    ];
    const results = await Promise.all([migrate(db, extra), migrate(db, extra), migrate(db, extra)]);
    expect(results.flat()).toEqual(['9999_concurrency_probe']);
    const versions = await sql<{ version: string }>`
      select version from schema_migrations order by version`.execute(db);
    expect(versions.rows.map((row) => row.version)).toEqual([
      ...(await loadMigrations()).map((migration) => migration.version),
      '9999_concurrency_probe',
    ]);
  });

  it('rolls back a migration that fails, leaving no trace of it', async () => {
    const { db } = use();
    const broken = [
      { version: '9998_broken', sql: 'create table half_done (id int); select 1/0;' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow(/division by zero/);
    const tables =
      await sql`select 1 from information_schema.tables where table_name = 'half_done'`.execute(db);
    expect(tables.rows).toHaveLength(0);
    const recorded =
      await sql`select 1 from schema_migrations where version = '9998_broken'`.execute(db);
    expect(recorded.rows).toHaveLength(0);
  });
});

describeEachDatabase('embedded database settings', (use, kind) => {
  it.runIf(kind === 'embedded-postgres')(
    'is durable (fsync on, full page writes) and listens on a private unix socket only',
    async () => {
      const { rows } = await sql<{ name: string; setting: string }>`
        select name, setting from pg_settings
        where name in ('fsync', 'full_page_writes', 'synchronous_commit', 'listen_addresses',
          'unix_socket_permissions', 'server_version_num')
        order by name`.execute(use().db);
      const settings = Object.fromEntries(rows.map((row) => [row.name, row.setting]));
      expect(settings).toMatchObject({
        fsync: 'on',
        full_page_writes: 'on',
        synchronous_commit: 'on',
        listen_addresses: '',
        unix_socket_permissions: '0700',
      });
      expect(Number(settings.server_version_num)).toBeGreaterThanOrEqual(170000);
    },
  );
});
