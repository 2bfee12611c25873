import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { startTcpProxy, type TcpProxy } from '../../../tests/support/tcp-proxy';
import {
  createTestDatabase,
  describeEachDatabase,
  testDatabaseKinds,
  type TestDatabase,
} from '../../../tests/support/test-database';
import { STORE_PATH, STORE_PUBLISH_PATH, STORE_REFRESH_MS } from '../../shared/store/store-api';
import { openDatabase, type AppDatabase } from '../db/database';
import type { StoreState } from '../../shared/store/store-api';
import { seedFromConfig, type PublishedStore } from './store-plugin';
import { PUBLISHED_CHANNEL } from './store-versions';

const ADMIN = 'owner@example.com';

/** Two app instances, each with a pool of its own, on one database, as behind a balancer. */
describeEachDatabase('the store content on several instances', (use, kind) => {
  let sink: SmtpSink;
  let second: AppDatabase;
  let first: FastifyInstance;
  let other: FastifyInstance;
  let cookie: string;
  const heard: PublishedStore[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    second = await openDatabase({ databaseUrl: use().url });
    const config = await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN });
    [first, other] = await Promise.all([
      buildTestApp(use(), { config }),
      buildTestApp(second, { config }),
    ]);
    other.store.onPublish((published) => heard.push(published));
    cookie = await signIn(first, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([first?.close(), other?.close()]);
    await second?.close();
    await sink?.close();
  });
  afterEach(() => {
    heard.length = 0;
  });

  /** How long until the other instance serves `version`, in ms; fails past STORE_REFRESH_MS. */
  async function servedBy(app: FastifyInstance, version: number, since: number) {
    await eventually(
      async () => (app.store.published().version >= version ? true : undefined),
      STORE_REFRESH_MS,
    );
    return Date.now() - since;
  }

  async function publishPrice(priceCents: number): Promise<number> {
    const { draft } = (await first.inject({ url: STORE_PATH, headers: { cookie } })).json<{
      draft: StoreState['draft'];
    }>();
    const headers = { cookie, origin: first.config.publicUrl };
    const saved = await first.inject({
      method: 'PUT',
      url: STORE_PATH,
      headers,
      payload: { content: { ...draft, product: { ...draft.product, priceCents } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const published = await first.inject({
      method: 'POST',
      url: STORE_PUBLISH_PATH,
      headers,
      payload: {},
    });
    expect(published.statusCode, published.body).toBe(201);
    return published.json().version;
  }

  it('both serve the one first version', () => {
    expect(first.store.published()).toEqual(other.store.published());
    expect(other.store.published().version).toBe(1);
  });

  it('the other instance serves a publish within 5 s, and tells its listeners', async () => {
    const started = Date.now();
    const version = await publishPrice(3100);
    const took = await servedBy(other, version, started);
    expect(took).toBeLessThan(STORE_REFRESH_MS);
    expect(other.store.published().content.product.priceCents).toBe(3100);
    expect(heard.map((published) => published.version)).toEqual([version]);
  });

  it('a version that comes without a notification is picked up by the poll', async () => {
    const latest = other.store.published();
    const version = latest.version + 1;
    const started = Date.now();
    await sql`insert into store_versions (version, content, published_by)
      values (${version}, ${JSON.stringify(latest.content)}::jsonb, ${ADMIN})`.execute(use().db);
    expect(await servedBy(other, version, started)).toBeLessThan(STORE_REFRESH_MS);
  });

  it('a dropped listening connection is opened again and hears the next publish', async () => {
    const terminated = await sql<{ done: boolean }>`
      select pg_terminate_backend(pid) as done from pg_stat_activity
      where datname = current_database() and query = ${`listen ${PUBLISHED_CHANNEL}`}`.execute(
      use().db,
    );
    // Both instances' listeners.
    expect(terminated.rows.filter((row) => row.done)).toHaveLength(2);
    const listening = () =>
      eventually(async () => {
        const { rows } = await sql`select 1 from pg_stat_activity
          where datname = current_database() and query = ${`listen ${PUBLISHED_CHANNEL}`}`.execute(
          use().db,
        );
        return rows.length === 2 ? true : undefined;
      });
    await listening();
    const started = Date.now();
    const version = await publishPrice(3300);
    expect(await servedBy(other, version, started)).toBeLessThan(STORE_REFRESH_MS);
    expect(other.store.published().content.product.priceCents).toBe(3300);
  });

  it(`seeds the first version once when instances start together on a new database [${kind}]`, async () => {
    const database = await createTestDatabase(kind);
    const pools = await Promise.all(
      [0, 1, 2].map(() => openDatabase({ databaseUrl: database.url })),
    );
    const apps = await Promise.all(
      pools.map(async (pool, i) =>
        buildTestApp(pool, {
          // Each with a price of its own: whichever came first, all serve the same.
          config: await testConfig({ PRODUCT_PRICE_CENTS: String(2000 + i * 100) }),
        }),
      ),
    );
    try {
      const versions = await sql<{ version: number; count: number }>`
        select version, (select count(*) from store_draft) as count from store_versions`.execute(
        database.db,
      );
      expect(versions.rows).toEqual([{ version: 1, count: 1 }]);
      const served = apps.map((app) => app.store.published());
      expect(new Set(served.map((published) => published.content.product.priceCents)).size).toBe(1);
      expect(served[1]).toEqual(served[0]);
      // A restart seeds nothing more.
      const again = await buildTestApp(pools[0]!, { config: await testConfig() });
      await again.close();
      const count = await sql<{ n: number }>`select count(*) as n from store_versions`.execute(
        database.db,
      );
      expect(Number(count.rows[0]!.n)).toBe(1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(pools.map((pool) => pool.close()));
      await database.dispose();
    }
  }, 60_000);
});

describe.runIf(testDatabaseKinds.includes('postgres'))(
  'the store content when PostgreSQL is away at start',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let proxied: AppDatabase;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const url = new URL(database.url);
      proxy = await startTcpProxy(Number(url.port || 5432));
      url.host = `127.0.0.1:${proxy.port}`;
      proxied = await openDatabase({ databaseUrl: url.toString() });
      await proxy.stop();
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await proxied?.close();
      await proxy?.close();
      await database?.dispose();
    });

    it('starts with the settings’ offer as no version, and serves the stored one once it is back', async () => {
      const config = await testConfig({ PRODUCT_PRICE_CENTS: '4400' });
      app = await buildTestApp(proxied, { config });
      expect(app.store.published()).toMatchObject({
        version: 0,
        content: seedFromConfig(config),
      });
      const heardLate: number[] = [];
      app.store.onPublish((published) => heardLate.push(published.version));
      await proxy.start();
      await eventually(
        async () => (app.store.published().version === 1 ? true : undefined),
        STORE_REFRESH_MS,
      );
      expect(app.store.published().content.product.priceCents).toBe(4400);
      // The page cache, say, renders the stored version then.
      expect(heardLate).toEqual([1]);
    }, 30_000);
  },
);
