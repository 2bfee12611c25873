import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { auditPath, type AuditEntry } from '../../shared/admin/audit-api';
import { STORE_SCHEDULE_PATH, type StoreSchedule } from '../../shared/store/schedule-api';
import { STORE_PATH, STORE_REFRESH_MS, type StoreState } from '../../shared/store/store-api';
import { openDatabase, type AppDatabase } from '../db/database';
import { seedFromConfig } from './store-plugin';
import { publishDue } from './store-schedule';

const ADMIN = 'owner@example.com';

/** Two app instances on one database, as behind a balancer; the owner schedules on the first. */
describeEachDatabase('scheduled publishing of the draft', (use) => {
  let sink: SmtpSink;
  let second: AppDatabase;
  let first: FastifyInstance;
  let other: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    second = await openDatabase({ databaseUrl: use().url });
    const config = await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN });
    [first, other] = await Promise.all([
      buildTestApp(use(), { config }),
      buildTestApp(second, { config }),
    ]);
    cookie = await signIn(first, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([first?.close(), other?.close()]);
    await second?.close();
    await sink?.close();
  });

  function admin(method: InjectOptions['method'], payload?: InjectOptions['payload']) {
    return first.inject({
      method,
      url: STORE_SCHEDULE_PATH,
      headers: { cookie, origin: first.config.publicUrl },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function draftPriced(priceCents: number) {
    const { draft } = (await first.inject({ url: STORE_PATH, headers: { cookie } })).json<
      Pick<StoreState, 'draft'>
    >();
    const saved = await first.inject({
      method: 'PUT',
      url: STORE_PATH,
      headers: { cookie, origin: first.config.publicUrl },
      payload: { content: { ...draft, product: { ...draft.product, priceCents } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  const versionCount = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from store_versions`.execute(use().db))
        .rows[0]!.n,
    );
  const latestAudit = async () =>
    (await first.inject({ url: auditPath(), headers: { cookie } })).json<{ rows: AuditEntry[] }>()
      .rows[0]!;

  it('publishes the draft as it was scheduled, once, on both instances within 5 s of its time', async () => {
    const before = await versionCount();
    const live = first.store.published().version;
    await draftPriced(4100);
    const publishAt = new Date(Date.now() + 2_000);
    const scheduled = await admin('PUT', { publishAt: publishAt.toISOString() });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json<StoreSchedule>()).toMatchObject({
      publishAt: publishAt.toISOString(),
      by: ADMIN,
    });
    expect((await admin('GET')).json()).toEqual({ schedule: scheduled.json() });
    expect(await latestAudit()).toMatchObject({
      action: 'create',
      adminEmail: ADMIN,
      tableName: 'store_schedule',
    });
    // An edit after scheduling is not what goes live.
    await draftPriced(3900);
    expect(first.store.published().version).toBe(live);

    for (const app of [first, other]) {
      await eventually(
        async () => (app.store.published().version > live ? true : undefined),
        publishAt.getTime() + STORE_REFRESH_MS - Date.now(),
      );
      expect(Date.now()).toBeLessThan(publishAt.getTime() + STORE_REFRESH_MS);
      expect(app.store.published().content.product.priceCents).toBe(4100);
      expect(app.store.published().publishedAt.getTime()).toBeGreaterThanOrEqual(
        publishAt.getTime() - 50,
      );
    }
    // Both polled meanwhile: still one new version, and nothing left scheduled.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await versionCount()).toBe(before + 1);
    expect((await admin('GET')).json()).toEqual({ schedule: null });
    expect(await latestAudit()).toMatchObject({
      action: 'publish',
      adminEmail: ADMIN,
      tableName: 'store_versions',
      rowIds: [live + 1],
    });
    // The draft stays as the owner left it.
    const { draft } = (await first.inject({ url: STORE_PATH, headers: { cookie } })).json<
      Pick<StoreState, 'draft'>
    >();
    expect(draft.product.priceCents).toBe(3900);
  }, 20_000);

  it('two instances claiming one due schedule at once publish it once', async () => {
    const before = await versionCount();
    const seed = seedFromConfig(first.config);
    const content = first.store.published().content;
    for (let round = 0; round < 5; round++) {
      await sql`insert into store_schedule (content, publish_at, created_by)
        values (${JSON.stringify(content)}::jsonb, now() - interval '1 second', ${ADMIN})`.execute(
        use().db,
      );
      const outcomes = await Promise.all([
        publishDue(use().db, seed),
        publishDue(second.db, seed),
        publishDue(use().db, seed),
      ]);
      // The instances' own watches may claim a round first: then none of these publishes.
      expect(
        outcomes.filter((outcome) => outcome && 'published' in outcome).length,
      ).toBeLessThanOrEqual(1);
      await eventually(async () =>
        (await versionCount()) === before + round + 1 ? true : undefined,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await versionCount()).toBe(before + 5);
    for (const app of [first, other]) {
      await eventually(
        async () => (app.store.published().version === before + 5 ? true : undefined),
        STORE_REFRESH_MS,
      );
    }
  });

  it('a cancelled schedule never publishes', async () => {
    const live = first.store.published().version;
    const before = await versionCount();
    await draftPriced(5100);
    const publishAt = new Date(Date.now() + 1_500).toISOString();
    expect((await admin('PUT', { publishAt })).statusCode).toBe(200);
    const cancelled = await admin('DELETE');
    expect(cancelled.statusCode, cancelled.body).toBe(204);
    expect(await latestAudit()).toMatchObject({
      action: 'revoke',
      adminEmail: ADMIN,
      tableName: 'store_schedule',
    });
    expect((await admin('GET')).json()).toEqual({ schedule: null });
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(await versionCount()).toBe(before);
    expect(first.store.published().version).toBe(live);
    expect(other.store.published().version).toBe(live);
    const again = await admin('DELETE');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'Nothing is scheduled.' });
  }, 15_000);

  it('a later schedule replaces the earlier one', async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect((await admin('PUT', { publishAt: soon })).statusCode).toBe(200);
    expect((await admin('PUT', { publishAt: later })).statusCode).toBe(200);
    expect((await admin('GET')).json().schedule.publishAt).toBe(later);
    expect((await admin('DELETE')).statusCode).toBe(204);
  });

  it('refuses a time that is not a zoned date, not in the future or too far ahead', async () => {
    const cases: [unknown, string][] = [
      [{}, 'The time to publish must be a date and time with its time zone.'],
      [{ publishAt: 12 }, 'The time to publish must be a date and time with its time zone.'],
      [
        { publishAt: '2031-12-01T09:00' },
        'The time to publish must be a date and time with its time zone.',
      ],
      [
        { publishAt: '2031-02-31T09:00:00Z' },
        'The time to publish must be a date and time with its time zone.',
      ],
      [
        { publishAt: '2026-12-31T25:00:00Z' },
        'The time to publish must be a date and time with its time zone.',
      ],
      [
        { publishAt: new Date(Date.now() - 1_000).toISOString() },
        'The time to publish must be in the future.',
      ],
      [
        { publishAt: new Date(Date.now() + 400 * 86_400_000).toISOString() },
        'The time to publish must be within 366 days.',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await admin('PUT', payload as InjectOptions['payload']);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message, JSON.stringify(payload)).toBe(message);
    }
    expect((await admin('GET')).json()).toEqual({ schedule: null });
  });

  it('needs an admin, and the site origin for writes', async () => {
    const publishAt = new Date(Date.now() + 3_600_000).toISOString();
    const anonymous = await first.inject({
      method: 'PUT',
      url: STORE_SCHEDULE_PATH,
      headers: { origin: first.config.publicUrl },
      payload: { publishAt },
    });
    expect(anonymous.statusCode).toBe(401);
    for (const method of ['PUT', 'DELETE'] as const) {
      const foreign = await first.inject({
        method,
        url: STORE_SCHEDULE_PATH,
        headers: { cookie, origin: 'https://evil.example' },
        ...(method === 'PUT' ? { payload: { publishAt } } : {}),
      });
      expect(foreign.statusCode, method).toBe(403);
    }
    expect((await admin('GET')).json()).toEqual({ schedule: null });
  });
});
