import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostileValue } from '../../../tests/support/fuzz/hostile-values';
import { placesHolding } from '../../../tests/support/places-holding';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { auditPath, type AuditEntry } from '../../shared/admin/audit-api';
import { peopleErasePath } from '../../shared/admin/people-api';
import {
  STORE_PATH,
  STORE_PUBLISH_PATH,
  storeRestorePath,
  STORE_VERSIONS_PATH,
  type StoreState,
  type StoreVersionPage,
} from '../../shared/store/store-api';
import { storeContentSchema, type StoreContent } from '../../shared/store/store-content';
import type { PublishedStore } from './store-plugin';
import { seedFromConfig } from './store-plugin';

const ADMIN = 'owner@example.com';

describeEachDatabase('the store content admin API', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;
  let seed: StoreContent;
  const heard: PublishedStore[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        PRODUCT_PRICE_CENTS: '2700',
      }),
    });
    app.store.onPublish((published) => heard.push(published));
    seed = seedFromConfig(app.config);
    cookie = await signIn(app, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  function admin(method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) {
    return app.inject({
      method,
      url,
      headers: { cookie, origin: app.config.publicUrl },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  const state = async () => {
    const response = await admin('GET', STORE_PATH);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<StoreState>();
  };
  const latestAudit = async () =>
    (await admin('GET', auditPath())).json<{ rows: AuditEntry[] }>().rows[0]!;

  const priced = (content: StoreContent, priceCents: number): StoreContent => ({
    ...content,
    product: { ...content.product, priceCents },
  });

  it('starts with the settings as version 1 and as the draft', async () => {
    const { draft, published } = await state();
    expect(published).toMatchObject({ version: 1, content: seed });
    expect(Date.parse(published.publishedAt)).not.toBeNaN();
    expect(draft).toEqual(seed);
    expect(app.store.published()).toMatchObject({ version: 1, content: seed });
  });

  it('refuses a bad draft with 400, naming each bad field by its path, and keeps the draft', async () => {
    const bad = {
      ...seed,
      product: { ...seed.product, priceCents: 10, currency: 'dollars', name: '  ' },
      hero: { ...seed.hero, title: 'x'.repeat(121) },
    };
    const response = await admin('PUT', STORE_PATH, { content: bad });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe('Bad Request');
    expect(body.fields).toEqual({
      'product.name': 'The product name cannot be empty.',
      'product.priceCents': 'The price must be at least 50 cents.',
      'product.currency': 'The currency must be a three-letter code such as usd.',
      'hero.title': 'The headline must be at most 120 characters.',
    });
    expect(body.message).toBe('Some fields need your attention.');

    const missing = await admin('PUT', STORE_PATH, { content: { product: seed.product } });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields)).toEqual(
      Object.keys(seed).filter((key) => key !== 'product'),
    );

    for (const payload of [{}, { draft: seed }, [seed]]) {
      const wrong = await admin('PUT', STORE_PATH, payload);
      expect(wrong.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    const huge = await admin('PUT', STORE_PATH, {
      content: { ...seed, hero: { ...seed.hero, text: 'x'.repeat(300 * 1024) } },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('The content is too large to save (at most 256 KiB).');
    expect((await state()).draft).toEqual(seed);
  });

  it('saves the draft without touching the live version, and records the change', async () => {
    const draft = { ...priced(seed, 3500), hero: { ...seed.hero, title: '  New headline  ' } };
    const response = await admin('PUT', STORE_PATH, { content: draft });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json();
    // Stored as the schema reads it (trimmed).
    expect(saved.draft.hero.title).toBe('New headline');
    expect(saved.published.version).toBe(1);
    const now = await state();
    expect(now.draft).toEqual(saved.draft);
    expect(now.published.version).toBe(1);
    expect(app.store.published().content.product.priceCents).toBe(2700);

    const entry = await latestAudit();
    expect(entry).toMatchObject({ adminEmail: ADMIN, action: 'update', tableName: 'store_draft' });
    expect(entry.before![0]).toMatchObject({ content: seed, updated_by: null });
    expect(entry.after![0]).toMatchObject({ content: saved.draft, updated_by: ADMIN });
  });

  it('publishes the draft as version 2, served at once, listed and recorded', async () => {
    const response = await admin('POST', STORE_PUBLISH_PATH, {});
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ version: 2 });
    expect(app.store.published().version).toBe(2);
    expect(app.store.published().content.product.priceCents).toBe(3500);
    expect(heard.map((published) => published.version)).toContain(2);

    const { draft, published } = await state();
    expect(published).toMatchObject({ version: 2, content: draft });

    const versions = (await admin('GET', STORE_VERSIONS_PATH)).json<StoreVersionPage>();
    expect(versions).toMatchObject({ count: 2, page: 0, pageSize: 20 });
    expect(versions.rows.map(({ version, by }) => ({ version, by }))).toEqual([
      { version: 2, by: ADMIN },
      { version: 1, by: null },
    ]);
    expect(Date.parse(versions.rows[0]!.publishedAt)).toBeGreaterThanOrEqual(
      Date.parse(versions.rows[1]!.publishedAt),
    );
    expect(await latestAudit()).toMatchObject({
      action: 'publish',
      tableName: 'store_versions',
      before: null,
      rowIds: [2],
      after: [expect.objectContaining({ version: 2, published_by: ADMIN })],
    });
  });

  it('restores version 1 as version 3: the old price is live again and is the draft', async () => {
    const response = await admin('POST', storeRestorePath(1), {});
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ version: 3 });
    expect(app.store.published()).toMatchObject({ version: 3, content: seed });
    const { draft, published } = await state();
    expect(published.content.product.priceCents).toBe(2700);
    expect(draft).toEqual(seed);
    expect(await latestAudit()).toMatchObject({
      action: 'publish',
      tableName: 'store_versions',
      rowIds: [3],
      before: [{ version: 1 }],
    });
    const stored = await sql<{ version: number }>`
      select version from store_versions order by version`.execute(use().db);
    expect(stored.rows.map((row) => Number(row.version))).toEqual([1, 2, 3]);
    expect(heard.map((published) => published.version)).toEqual([2, 3]);

    const unknown = await admin('POST', storeRestorePath(99), {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('There is no version 99.');
    for (const bad of ['0', 'abc', '1.5', '-1']) {
      const refused = await admin('POST', `/api/admin/store/versions/${bad}/restore`, {});
      expect(refused.statusCode, bad).toBe(400);
    }
    expect((await admin('GET', `${STORE_VERSIONS_PATH}?page=x`)).statusCode).toBe(400);
    expect((await admin('GET', `${STORE_VERSIONS_PATH}?page=1`)).json().rows).toEqual([]);
  });

  it('two publishes at once get two numbers', async () => {
    const answers = await Promise.all([
      admin('POST', STORE_PUBLISH_PATH, {}),
      admin('POST', STORE_PUBLISH_PATH, {}),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    expect(answers.map((answer) => answer.json().version).sort()).toEqual([4, 5]);
    expect(app.store.published().version).toBe(5);
  });

  it('answers 401 without a session and 403 to a write from elsewhere, changing nothing', async () => {
    const routes: [InjectOptions['method'], string, object?][] = [
      ['GET', STORE_PATH],
      ['PUT', STORE_PATH, { content: priced(seed, 9900) }],
      ['POST', STORE_PUBLISH_PATH, {}],
      ['GET', STORE_VERSIONS_PATH],
      ['POST', storeRestorePath(2), {}],
    ];
    for (const [method, url, payload] of routes) {
      const anonymous = await app.inject({
        method,
        url,
        headers: { origin: app.config.publicUrl },
        ...(payload && { payload }),
      });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      if (method === 'GET') continue;
      for (const origin of [undefined, 'https://evil.example']) {
        const crossSite = await app.inject({
          method,
          url,
          headers: { cookie, ...(origin && { origin }) },
          ...(payload && { payload }),
        });
        expect(crossSite.statusCode, `${method} ${url} from ${origin}`).toBe(403);
      }
    }
    const versions = (await admin('GET', STORE_VERSIONS_PATH)).json<StoreVersionPage>();
    expect(versions.count).toBe(5);
    expect((await state()).draft).toEqual(seed);
  });

  it('reads a document saved before a key existed with the seed’s value there', async () => {
    const { db } = use();
    // As if hero had been added to the schema after the draft and version 6 were saved.
    await sql`update store_draft set content = content - 'hero'`.execute(db);
    await sql`insert into store_versions (version, content, published_by)
      select 6, content - 'hero', ${ADMIN} from store_versions where version = 5`.execute(db);
    await app.store.refresh();
    expect(app.store.published()).toMatchObject({ version: 6, content: { hero: seed.hero } });
    const { draft, published } = await state();
    expect(draft.hero).toEqual(seed.hero);
    expect(published.content.hero).toEqual(seed.hero);
    const response = await admin('POST', STORE_PUBLISH_PATH, {});
    expect(response.json()).toEqual({ version: 7 });
    const stored = await sql<{ content: StoreContent }>`
      select content from store_versions where version = 7`.execute(db);
    expect(stored.rows[0]!.content.hero).toEqual(seed.hero);
  });

  it('takes any hostile value in any field without a 5xx, storing only content the schema accepts', async () => {
    // jsonb refuses a NUL and a lone surrogate: dropped and replaced, as a text column does.
    const odd = { ...seed, hero: { ...seed.hero, title: 'Calm\u0000 \ud83d again \udca9' } };
    const saved = await admin('PUT', STORE_PATH, { content: odd });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await state()).draft.hero.title).toBe('Calm \ufffd again \ufffd');
    const onlyNul = { ...seed, hero: { ...seed.hero, title: '\u0000' } };
    expect((await admin('PUT', STORE_PATH, { content: onlyNul })).json().fields).toEqual({
      'hero.title': 'The headline cannot be empty.',
    });

    const paths: string[][] = [
      ['product', 'name'],
      ['product', 'priceCents'],
      ['product', 'compareAtCents'],
      ['product', 'currency'],
      ['product', 'checkoutUrl'],
      ['product', 'file'],
      ['guide', 'file'],
      ['guide'],
      ['hero', 'title'],
      ['hero', 'text'],
      ['hero'],
      ['product'],
      ['__proto__'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), hostileValue(2000), async (path, value) => {
        const content = structuredClone(seed) as Record<string, unknown>;
        let node = content;
        for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
        Object.defineProperty(node, path.at(-1)!, { value, enumerable: true });
        const response = await admin('PUT', STORE_PATH, { content });
        expect([200, 400], response.body).toContain(response.statusCode);
        if (response.statusCode === 400) {
          const fields: Record<string, string> = response.json().fields ?? {};
          for (const key of Object.keys(fields)) expect(key).toMatch(/^[\w.]+$|^\(document\)$/);
        }
        const stored = await sql<{ content: unknown }>`
          select content from store_draft`.execute(use().db);
        expect(storeContentSchema.safeParse(stored.rows[0]!.content).success).toBe(true);
      }),
      { numRuns: 100 },
    );
    expect((await admin('PUT', STORE_PATH, { content: seed })).statusCode).toBe(200);
  });

  it('an erased admin address leaves the versions and the draft as "[erased]" (last: it ends the session)', async () => {
    const erased = await admin('POST', peopleErasePath(), { email: ADMIN });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().erased).toEqual(
      expect.arrayContaining([
        { table: 'store_versions', deleted: 0, scrubbed: 6 },
        { table: 'store_draft', deleted: 0, scrubbed: 1 },
      ]),
    );
    const { rows } = await sql<{ by: string | null }>`
      select published_by as by from store_versions order by version`.execute(use().db);
    expect(rows.map((row) => row.by)).toEqual([null, ...Array(6).fill('[erased]')]);
    // Only the erase's own entry names who erased.
    expect(await placesHolding(use().db, ADMIN)).toEqual(['public.admin_audit_log.admin_email']);
  });
});
