import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { eventually } from '../../../tests/support/eventually';
import { runExclusively } from '../periodic/periodic-work';
import { EMAIL_PREVIEW_CSP } from '../broadcasts/preview-document';
import { sequenceSteps } from './sequence-enqueue';
import {
  ADMIN_SEQUENCE_PATH,
  ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH,
  SENDER_MISSING_MESSAGE,
  type AdminSequence,
  type EmailPreview,
  type SequenceDraft,
} from '../../shared/broadcasts/broadcasts-api';
import { STORE_PATH, STORE_PUBLISH_PATH, type StoreState } from '../../shared/store/store-api';

const ADMIN = 'owner@example.com';
const DAY = 86_400_000;

describeEachDatabase('Admin → the follow-up sequence', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
    });
    cookie = await signIn(app, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });
  beforeEach(async () => {
    await use().db.deleteFrom('broadcasts').execute();
    await use().db.deleteFrom('list_subscribers').execute();
  });

  function admin(method: InjectOptions['method'], url: string, options: InjectOptions = {}) {
    return app.inject({
      method,
      url,
      ...options,
      headers: { cookie, origin: app.config.publicUrl, ...options.headers },
    });
  }
  const save = (draft: SequenceDraft) => admin('PUT', ADMIN_SEQUENCE_PATH, { payload: draft });
  const saved = async (draft: SequenceDraft) => {
    const response = await save(draft);
    expect(response.statusCode).toBe(200);
    return response.json() as AdminSequence;
  };
  async function setSender(sender: { name: string; postalAddress: string }) {
    const state = (await admin('GET', STORE_PATH)).json() as StoreState;
    const put = await admin('PUT', STORE_PATH, {
      payload: { content: { ...state.draft, sender } },
    });
    expect(put.statusCode).toBe(200);
    expect((await admin('POST', STORE_PUBLISH_PATH)).statusCode).toBe(201);
  }

  const step = (delayDays: number, subject: string, html = `<p>${subject}</p>`) => ({
    delayDays,
    subject,
    html,
  });

  it('keeps strangers, other sites and signed-out visitors out', async () => {
    expect((await app.inject({ method: 'GET', url: ADMIN_SEQUENCE_PATH })).statusCode).toBe(401);
    const foreign = await app.inject({
      method: 'PUT',
      url: ADMIN_SEQUENCE_PATH,
      payload: { active: true, steps: [] },
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    for (const path of ['/test', '/preview', '/preview.html']) {
      const response = await app.inject({
        method: 'POST',
        url: `${ADMIN_SEQUENCE_PATH}${path}`,
        payload: step(0, 'Hi'),
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('saves the steps in order as sanitised sequence broadcasts, in the activity log', async () => {
    const empty = (await admin('GET', ADMIN_SEQUENCE_PATH)).json() as AdminSequence;
    expect(empty).toEqual({ active: false, steps: [] });
    const sequence = await saved({
      active: true,
      steps: [
        step(
          0,
          'The guide again',
          '<p>Here <a href="https://example.com/g">it is</a></p><script>x()</script>',
        ),
        { ...step(2, 'Day two'), preheader: 'A short one' },
        step(5, 'The offer'),
      ],
    });
    expect(sequence.active).toBe(true);
    expect(sequence.steps.map((s) => [s.position, s.delayDays, s.subject, s.preheader])).toEqual([
      [0, 0, 'The guide again', ''],
      [1, 2, 'Day two', 'A short one'],
      [2, 5, 'The offer', ''],
    ]);
    expect(sequence.steps[0]!.html).toBe(
      '<p>Here <a href="https://example.com/g" target="_blank" rel="noopener noreferrer">it is</a></p>',
    );
    expect(sequence.steps[0]).toMatchObject({ recipients: 0, sent: 0, purchases: 0, revenue: 0 });
    const rows = await use()
      .db.selectFrom('broadcasts')
      .select(['id', 'kind', 'status', 'slug'])
      .orderBy('position')
      .execute();
    expect(rows.map((row) => [row.kind, row.status, row.slug])).toEqual(
      rows.map((row) => ['sequence', 'sending', `sequence-${row.id}`]),
    );
    expect((await admin('GET', ADMIN_SEQUENCE_PATH)).json()).toEqual(sequence);
    const audit = await use()
      .db.selectFrom('admin_audit_log' as never)
      .select(['admin_email', 'action', 'table_name', 'row_ids'] as never[])
      .orderBy('id' as never, 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ admin_email: ADMIN, action: 'update', table_name: 'broadcasts' });
  });

  it('edits, reorders and removes steps: a removed one is kept cancelled and its queued mail skipped', async () => {
    const first = await saved({
      active: true,
      steps: [step(0, 'A'), step(2, 'B'), step(5, 'C')],
    });
    const [a, b, c] = first.steps.map((s) => s.id);
    const sub = await use()
      .db.insertInto('list_subscribers')
      .values({
        email: 'r@example.com',
        source: 'free-guide',
        status: 'confirmed',
        confirmed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await use()
      .db.insertInto('broadcast_recipients')
      .values([
        { broadcast_id: a!, subscriber_id: sub.id, status: 'sent', sent_at: new Date() },
        { broadcast_id: b!, subscriber_id: sub.id },
      ])
      .execute();
    const second = await saved({
      active: true,
      steps: [{ ...step(6, 'C, later'), id: c }, { ...step(0, 'A'), id: a }, step(9, 'D')],
    });
    expect(
      second.steps.map((s) => [s.id === c, s.id === a, s.position, s.delayDays, s.subject]),
    ).toEqual([
      [true, false, 0, 6, 'C, later'],
      [false, true, 1, 0, 'A'],
      [false, false, 2, 9, 'D'],
    ]);
    expect(second.steps[1]).toMatchObject({ recipients: 1, sent: 1 });
    const removed = await use()
      .db.selectFrom('broadcasts')
      .select('status')
      .where('id', '=', b!)
      .executeTakeFirstOrThrow();
    expect(removed.status).toBe('cancelled');
    const queued = await use()
      .db.selectFrom('broadcast_recipients')
      .select('status')
      .where('broadcast_id', '=', b!)
      .executeTakeFirstOrThrow();
    expect(queued.status).toBe('skipped');
    // A removed step cannot come back by its id, nor a broadcast be taken in.
    const back = await save({ active: true, steps: [{ ...step(1, 'B'), id: b }] });
    expect(back.statusCode).toBe(400);
    expect(back.json().message).toBe(`There is no step ${b} in the sequence.`);
  });

  it('refuses a draft the shared schema refuses, changing nothing', async () => {
    await saved({ active: true, steps: [step(0, 'Kept')] });
    for (const draft of [
      { active: true, steps: [step(-1, 'Negative')] },
      { active: true, steps: [step(366, 'Too late')] },
      { active: true, steps: [step(0, ' ')] },
      { active: true, steps: Array.from({ length: 21 }, (_, i) => step(i, `S${i}`)) },
      { steps: [] },
    ]) {
      expect((await save(draft as SequenceDraft)).statusCode).toBe(400);
    }
    const now = (await admin('GET', ADMIN_SEQUENCE_PATH)).json() as AdminSequence;
    expect(now.steps.map((s) => s.subject)).toEqual(['Kept']);
  });

  it('records when it is switched on, and keeps that time while it stays on', async () => {
    const since = async () =>
      await use()
        .db.selectFrom('list_sequence')
        .select(['active', 'active_since'])
        .executeTakeFirstOrThrow();
    await saved({ active: false, steps: [] });
    expect((await since()).active).toBe(false);
    await saved({ active: true, steps: [] });
    const on = await since();
    expect(on.active).toBe(true);
    expect(Date.now() - on.active_since!.getTime()).toBeLessThan(60_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await saved({ active: true, steps: [step(1, 'Still on')] });
    expect((await since()).active_since).toEqual(on.active_since);
    await saved({ active: false, steps: [] });
    await saved({ active: true, steps: [] });
    expect((await since()).active_since!.getTime()).toBeGreaterThan(on.active_since!.getTime());
  });

  it('shows per step who got it, who left after it, and verified purchases within 7 days after it', async () => {
    const { steps } = await saved({ active: true, steps: [step(0, 'One'), step(3, 'Two')] });
    const [one, two] = steps.map((s) => s.id);
    const { db } = use();
    const people = await db
      .insertInto('list_subscribers')
      .values(
        ['buyer', 'late', 'leaver', 'reader', 'queued'].map((name) => ({
          email: `${name}@example.com`,
          name,
          source: 'free-guide' as const,
          status: name === 'leaver' ? ('unsubscribed' as const) : ('confirmed' as const),
          confirmed_at: new Date(Date.now() - 10 * DAY),
          unsubscribed_at: name === 'leaver' ? new Date(Date.now() - DAY) : null,
        })),
      )
      .returning(['id', 'name'])
      .execute();
    const id = (name: string) => people.find((p) => p.name === name)!.id;
    const sentAt = new Date(Date.now() - 9 * DAY);
    await db
      .insertInto('broadcast_recipients')
      .values([
        ...['buyer', 'late', 'leaver', 'reader'].map((name) => ({
          broadcast_id: one!,
          subscriber_id: id(name),
          status: 'sent' as const,
          sent_at: sentAt,
        })),
        { broadcast_id: two!, subscriber_id: id('reader'), status: 'failed' as const },
        { broadcast_id: two!, subscriber_id: id('queued') },
      ])
      .execute();
    const order = (
      email: string,
      daysAfter: number,
      status: 'paid' | 'refunded',
      cents: number,
    ) => ({
      session_id: `cs_${email}_${daysAfter}_${status}`,
      email,
      status,
      amount_total: cents,
      currency: 'usd',
      paid_at: new Date(sentAt.getTime() + daysAfter * DAY),
    });
    await db
      .insertInto('orders')
      .values([
        order('BUYER@example.com', 2, 'paid', 2700),
        order('late@example.com', 8, 'paid', 2700),
        order('reader@example.com', 1, 'refunded', 2700),
      ])
      .execute();
    const sequence = (await admin('GET', ADMIN_SEQUENCE_PATH)).json() as AdminSequence;
    expect(
      sequence.steps.map(
        ({
          id: _,
          html: __,
          subject: ___,
          preheader: ____,
          position: _____,
          delayDays: ______,
          ...r
        }) => r,
      ),
    ).toEqual([
      {
        recipients: 4,
        sent: 4,
        failed: 0,
        bounced: 0,
        remaining: 0,
        unsubscribed: 1,
        purchases: 1,
        revenue: 2700,
      },
      {
        recipients: 2,
        sent: 0,
        failed: 1,
        bounced: 0,
        remaining: 1,
        unsubscribed: 0,
        purchases: 0,
        revenue: 0,
      },
    ]);
    await db.deleteFrom('orders').execute();
  });

  it('previews a step as a subscriber named Alex gets it, with its campaign links', async () => {
    const response = await admin('POST', `${ADMIN_SEQUENCE_PATH}/preview`, {
      payload: {
        ...step(
          2,
          'Day <two>',
          '<p>Read <a href="https://example.com/a?x=1">this</a></p><img src=x onerror=alert(1)>',
        ),
        id: 41,
        preheader: 'Soon',
      },
    });
    expect(response.statusCode).toBe(200);
    const preview = response.json() as EmailPreview;
    expect(preview.subject).toBe('Day <two>');
    expect(preview.html).toContain('Hi Alex,');
    expect(preview.html).toContain(
      'https://example.com/a?x=1&amp;utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=sequence-41',
    );
    expect(preview.html).not.toContain('onerror');
    expect(preview.text).toContain('Hi Alex,');
    expect(preview.text).toContain('utm_campaign=sequence-41');
    const invalid = await admin('POST', `${ADMIN_SEQUENCE_PATH}/preview`, {
      payload: { delayDays: 0, subject: '', html: '<p>x</p>' },
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('serves a step preview as a document of its own, with its own policy, from the site only', async () => {
    const payload = new URLSearchParams({
      draft: JSON.stringify({
        ...step(
          1,
          'Day one',
          '<p><a href="https://example.com/a">Read</a> <img src=x onerror=alert(1)></p>',
        ),
        id: 7,
      }),
    }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const response = await admin('POST', ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH, {
      payload,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(EMAIL_PREVIEW_CSP);
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.body).toContain('Hi Alex,');
    expect(response.body).toContain('utm_campaign=sequence-7');
    expect(response.body).not.toContain('onerror');
    const foreign = await admin('POST', ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH, {
      payload,
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    const invalid = await admin('POST', ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH, {
      payload: new URLSearchParams({ draft: JSON.stringify(step(0, '')) }).toString(),
      headers,
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('sends a test to the signed-in admin once the sender is set, and refuses before', async () => {
    await setSender({ name: '', postalAddress: '' });
    const refused = await admin('POST', `${ADMIN_SEQUENCE_PATH}/test`, {
      payload: step(0, 'Hello'),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SENDER_MISSING_MESSAGE);
    await setSender({ name: 'Jo Owner', postalAddress: '1 Main St\nSpringfield' });
    const count = sink.messages.length;
    const response = await admin('POST', `${ADMIN_SEQUENCE_PATH}/test`, {
      payload: step(0, 'Hello'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sentTo: ADMIN });
    const mail = await sink.waitFor((m) => m.subject === '[Test] Hello', count);
    expect(mail.envelopeTo).toEqual([ADMIN]);
    expect(mail.text).toContain('Jo Owner');
    expect(mail.text).toContain('Springfield');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('sends a due step through the list sender to the subscriber once, however often the task runs', async () => {
    await setSender({ name: 'Jo Owner', postalAddress: '1 Main St' });
    const { steps } = await saved({
      active: true,
      steps: [
        step(0, 'Your guide again', '<p>Here: <a href="https://example.com/guide">guide</a></p>'),
        step(3, 'Day three'),
      ],
    });
    const { db } = use();
    const reader = await db
      .insertInto('list_subscribers')
      .values({
        email: 'reader@example.com',
        name: 'Robin',
        source: 'free-guide',
        status: 'confirmed',
        confirmed_at: new Date(Date.now() - 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const count = sink.messages.length;
    const enqueue = async () => {
      expect(await runExclusively(db, 3, sequenceSteps.run)).toBe(true);
      app.listSender.wake();
    };
    await enqueue();
    // The sender reads the footer it checks every 2 s: woken until it sends.
    const mail = await eventually(async () => {
      app.listSender.wake();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return sink.messages.find(
        (m) => m.subject === 'Your guide again' && m.envelopeTo.includes('reader@example.com'),
      );
    });
    expect(mail.html).toContain('Hi Robin,');
    expect(mail.html).toContain(`utm_campaign=sequence-${steps[0]!.id}`);
    expect(mail.text).toContain('1 Main St');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await eventually(async () => {
      const row = await db
        .selectFrom('broadcast_recipients')
        .select('status')
        .where('subscriber_id', '=', reader.id)
        .executeTakeFirst();
      return row?.status === 'sent' ? true : undefined;
    });
    await enqueue();
    await enqueue();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      sink.messages.slice(count).filter((m) => m.envelopeTo.includes('reader@example.com')),
    ).toHaveLength(1);
    const sequence = (await admin('GET', ADMIN_SEQUENCE_PATH)).json() as AdminSequence;
    expect(sequence.steps.map((s) => [s.recipients, s.sent, s.remaining])).toEqual([
      [1, 1, 0],
      [0, 0, 0],
    ]);
  }, 30_000);

  it('ends the sequence when the owner unsubscribes someone, or releases their order held for review', async () => {
    const { steps } = await saved({ active: true, steps: [step(0, 'Queued')] });
    const { db } = use();
    const people = await db
      .insertInto('list_subscribers')
      .values(
        ['manual', 'held'].map((name) => ({
          email: `${name}@example.com`,
          source: 'free-guide' as const,
          status: 'confirmed' as const,
          confirmed_at: new Date(),
        })),
      )
      .returning(['id', 'email'])
      .execute();
    await db
      .insertInto('broadcast_recipients')
      .values(people.map((p) => ({ broadcast_id: steps[0]!.id, subscriber_id: p.id })))
      .execute();
    const [manual, held] = people;
    expect(
      (await admin('POST', `/api/admin/subscribers/${manual!.id}/unsubscribe`)).statusCode,
    ).toBe(200);
    const order = await db
      .insertInto('orders')
      .values({ session_id: 'cs_held_for_review', email: held!.email, status: 'review' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await admin('POST', `/api/admin/orders/${order.id}/resend-link`)).statusCode).toBe(201);
    const rows = await db
      .selectFrom('list_subscribers')
      .innerJoin(
        'broadcast_recipients',
        'broadcast_recipients.subscriber_id',
        'list_subscribers.id',
      )
      .select(['email', 'sequence_end_reason', 'broadcast_recipients.status'])
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: 'held@example.com', sequence_end_reason: 'purchase', status: 'skipped' },
      { email: 'manual@example.com', sequence_end_reason: 'unsubscribed', status: 'skipped' },
    ]);
    await db.deleteFrom('orders').execute();
  });
});
