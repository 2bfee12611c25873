import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { peopleErasePath } from '../../shared/admin/people-api';
import {
  ADMIN_SUBSCRIBERS_PATH,
  adminSubscriberPath,
  type ImportReport,
  type SubscriberPage,
} from '../../shared/list/list-api';

const ADMIN = 'owner@example.com';

describeEachDatabase('Admin → Subscribers', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        FORM_RATE_LIMIT: '10000',
      }),
    });
    cookie = await signIn(app, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  function admin(method: InjectOptions['method'], url: string, options: InjectOptions = {}) {
    return app.inject({
      method,
      url,
      ...options,
      headers: { cookie, origin: app.config.publicUrl, ...options.headers },
    });
  }
  const importCsv = (csv: string, dryRun: boolean) =>
    admin('POST', `${ADMIN_SUBSCRIBERS_PATH}/import${dryRun ? '?dryRun=1' : ''}`, {
      payload: csv,
      headers: { 'content-type': 'text/csv' },
    });
  const subscriber = (email: string) =>
    use()
      .db.selectFrom('list_subscribers')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();

  it('keeps strangers, other sites and signed-out visitors out', async () => {
    expect((await app.inject({ method: 'GET', url: ADMIN_SUBSCRIBERS_PATH })).statusCode).toBe(401);
    const foreign = await app.inject({
      method: 'POST',
      url: `${ADMIN_SUBSCRIBERS_PATH}/import`,
      payload: 'email\na@example.com',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'text/csv' },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('imports after a dry run: pending with a confirmation each, never confirmed', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/forms/free-guide',
      payload: { name: 'Known', email: 'known@example.com', listConsent: true },
    });
    const csv = [
      'Email,Name',
      'new.one@example.com,New One',
      'NEW.ONE@example.com,Twice',
      'known@example.com,Known',
      'not-an-address,Broken',
      '"new.two@example.com","Two, with comma"',
    ].join('\r\n');
    const dry = await importCsv(csv, true);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json<ImportReport>()).toEqual({
      rows: 5,
      valid: 2,
      invalid: 1,
      duplicates: 2,
      dryRun: true,
    });
    expect(await subscriber('new.one@example.com')).toBeUndefined();

    const real = await importCsv(csv, false);
    expect(real.json<ImportReport>()).toMatchObject({ rows: 5, valid: 2, dryRun: false });
    expect(await subscriber('new.two@example.com')).toMatchObject({
      status: 'pending',
      source: 'import',
      name: 'Two, with comma',
    });
    await sink.waitFor(
      (mail) =>
        mail.envelopeTo.includes('new.one@example.com') &&
        mail.subject === 'Please confirm your subscription',
    );
    // Again: all duplicates now.
    expect((await importCsv(csv, true)).json<ImportReport>()).toMatchObject({ valid: 0 });

    const page = await admin('GET', `${ADMIN_SUBSCRIBERS_PATH}?q=new.two@example&status=pending`);
    const body = page.json<SubscriberPage>();
    expect(body.count).toBe(1);
    expect(body.rows[0]).toMatchObject({ email: 'new.two@example.com', status: 'pending' });
    expect(body.rows[0]!.events.map((event) => event.kind)).toEqual(['imported']);
    expect(body.counts.source.import).toBeGreaterThanOrEqual(2);
    const byName = await admin('GET', `${ADMIN_SUBSCRIBERS_PATH}?q=with%20comma`);
    expect(byName.json<SubscriberPage>().rows.map((row) => row.email)).toEqual([
      'new.two@example.com',
    ]);
  });

  it('finds an "@" term in an address or in a name that holds an "@"', async () => {
    await importCsv(
      'email,name\nat.one@example.com,Someone\nat.two@example.com,"ask at.one@example, please"',
      false,
    );
    const found = await admin('GET', `${ADMIN_SUBSCRIBERS_PATH}?q=AT.ONE@example`);
    expect(found.statusCode, found.body).toBe(200);
    expect(
      found
        .json<SubscriberPage>()
        .rows.map((row) => row.email)
        .sort(),
    ).toEqual(['at.one@example.com', 'at.two@example.com']);
    expect(found.json<SubscriberPage>().count).toBe(2);
  });

  it('exports every subscriber with the consent columns', async () => {
    await importCsv('email,name\nformula@example.com,"=HYPERLINK(""x"")"', false);
    const csv = await admin('GET', `${ADMIN_SUBSCRIBERS_PATH}/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      'email,name,status,source,created_at,confirmed_at,unsubscribed_at,unsubscribed_scope,consent_asked_at,consent_wording_version,consent_confirmed_at,consent_confirmed_via',
    );
    const count = await use()
      .db.selectFrom('list_subscribers')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(lines).toHaveLength(Number(count.n) + 1);
    // Formula-looking cells are defused.
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('unsubscribes by hand, in the activity log', async () => {
    await importCsv('email\nmanual@example.com', false);
    const { id } = (await subscriber('manual@example.com'))!;
    const answer = await admin('POST', `${adminSubscriberPath(id)}/unsubscribe`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await subscriber('manual@example.com')).toMatchObject({
      status: 'unsubscribed',
      unsubscribed_scope: 'list',
    });
    const logged = await sql<{ row_ids: string[] }>`
      select row_ids from admin_audit_log where action = 'unsubscribe'`.execute(use().db);
    expect(logged.rows.map((row) => row.row_ids.map(Number))).toContainEqual([id]);
  });

  it('erases a subscriber with the People tool, leaving a marker; an import does not bring it back', async () => {
    await importCsv('email\nforget.me@example.com', false);
    const { id } = (await subscriber('forget.me@example.com'))!;
    const erased = await admin('POST', peopleErasePath(), {
      payload: { email: 'Forget.Me@example.com' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await subscriber('forget.me@example.com')).toBeUndefined();
    const left = await use()
      .db.selectFrom('list_consent_events')
      .select(['kind', 'subscriber_id'])
      .where('kind', '=', 'erased-marker')
      .execute();
    expect(left).toContainEqual({ kind: 'erased-marker', subscriber_id: null });
    const tokens = await use()
      .db.selectFrom('list_tokens')
      .select('token_hash')
      .where('subscriber_id', '=', id)
      .execute();
    expect(tokens).toEqual([]);
    const again = await importCsv('email\nforget.me@example.com', true);
    expect(again.json<ImportReport>()).toMatchObject({ valid: 0, duplicates: 1 });
  });
});
