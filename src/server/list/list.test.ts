import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { startSmtpSink, type SmtpSink, type SinkMail } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';
import { createListService } from './list-service';

const OWNER = 'owner@soulreset.test';
const PUBLIC_URL = 'https://shop.example.com';
let counter = 0;
const freshEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

function requestGuide(app: FastifyInstance, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/forms/free-guide', payload: body });
}

/** The path of the first link in a body that starts with PUBLIC_URL + prefix. */
function linkIn(text: string, prefix: string): string {
  const match = new RegExp(`${PUBLIC_URL}(${prefix}[A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${prefix} link in: ${text}`);
  return match[1]!;
}

describeEachDatabase('the mailing list', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let database: TestDatabase;

  beforeAll(async () => {
    database = use();
    sink = await startSmtpSink();
    app = await buildTestApp(database, {
      config: await testConfig({
        SMTP_URL: sink.url,
        OWNER_EMAIL: OWNER,
        PUBLIC_URL,
        MAIL_FROM: 'Soul Reset <hello@soulreset.test>',
        FORM_RATE_LIMIT: '10000',
        MAIL_TIMEOUT_MS: '2000',
        MAIL_RETRY_DELAYS: '0.2,0.2',
      }),
    });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  const subscriber = (email: string) =>
    database.db
      .selectFrom('list_subscribers')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
  const events = async (email: string) => {
    const rows = await database.db
      .selectFrom('list_consent_events')
      .innerJoin('list_subscribers', 'list_subscribers.id', 'list_consent_events.subscriber_id')
      .select([
        'list_consent_events.kind',
        'list_consent_events.source',
        'list_consent_events.wording_version',
      ])
      .where('list_subscribers.email', '=', email)
      .orderBy('list_consent_events.id')
      .execute();
    return rows;
  };
  const mailTo = (email: string, subject: string) =>
    sink.waitFor((mail) => mail.envelopeTo.includes(email) && mail.subject === subject);
  const listMailsTo = (email: string) =>
    sink.messages.filter(
      (mail: SinkMail) =>
        mail.envelopeTo.includes(email) && mail.subject !== 'Please confirm your subscription',
    );

  async function confirmedSubscriber(email: string) {
    const answer = await requestGuide(app, { name: 'Ada', email, listConsent: true });
    expect(answer.statusCode).toBe(200);
    const confirmation = await mailTo(email, 'Please confirm your subscription');
    const confirmPath = linkIn(confirmation.text, '/list/confirm/');
    expect((await app.inject({ method: 'POST', url: confirmPath })).statusCode).toBe(200);
    const welcome = await mailTo(email, 'Welcome! Here is your free guide again');
    return { confirmPath, welcome, unsubscribePath: linkIn(welcome.text, '/list/unsubscribe/') };
  }

  it('gives the guide either way and asks only a ticked box, with a confirmation email', async () => {
    const unticked = freshEmail('unticked');
    const ticked = freshEmail('ticked');
    const plain = await requestGuide(app, { name: 'Ann', email: unticked });
    const asked = await requestGuide(app, { name: 'Bea', email: ticked, listConsent: true });
    expect(plain.statusCode).toBe(200);
    expect(asked.statusCode).toBe(200);
    const plainAnswer = plain.json<{ status: string; guideUrl: string }>();
    const askedAnswer = asked.json<{ status: string; guideUrl: string }>();
    expect(askedAnswer.status).toBe('success');
    expect(askedAnswer.guideUrl).toBe(plainAnswer.guideUrl);
    // The owner is told of both, as before.
    await sink.waitFor((mail) => mail.envelopeTo.includes(OWNER) && mail.text.includes(ticked));
    await sink.waitFor((mail) => mail.envelopeTo.includes(OWNER) && mail.text.includes(unticked));

    expect(await subscriber(unticked)).toBeUndefined();
    expect(await subscriber(ticked)).toMatchObject({ status: 'pending', source: 'free-guide' });
    const confirmation = await mailTo(ticked, 'Please confirm your subscription');
    expect(confirmation.text).toContain(`${PUBLIC_URL}/list/confirm/`);
    const version = (
      await database.db
        .selectFrom('store_versions')
        .select((eb) => eb.fn.max('version').as('v'))
        .executeTakeFirstOrThrow()
    ).v;
    expect(await events(ticked)).toEqual([
      { kind: 'asked', source: 'free-guide form', wording_version: version },
    ]);
    // A string "true" is not a tick.
    const stringy = freshEmail('stringy');
    await requestGuide(app, { name: 'Cy', email: stringy, listConsent: 'true' });
    expect(await subscriber(stringy)).toBeUndefined();
    // Only a hash of the token is stored.
    const token = linkIn(confirmation.text, '/list/confirm/').split('/').pop()!;
    const stored = await database.db.selectFrom('list_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
  });

  it('confirms on the POST only, then sends the welcome email with one-click unsubscribe', async () => {
    const email = freshEmail('confirm');
    await requestGuide(app, { name: 'Dee', email, listConsent: true });
    const confirmation = await mailTo(email, 'Please confirm your subscription');
    const confirmPath = linkIn(confirmation.text, '/list/confirm/');

    const page = await app.inject({ method: 'GET', url: confirmPath });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect((await subscriber(email))?.status).toBe('pending');

    const confirmed = await app.inject({ method: 'POST', url: confirmPath });
    expect(confirmed.statusCode).toBe(200);
    const row = await subscriber(email);
    expect(row).toMatchObject({ status: 'confirmed' });
    expect(row?.confirmed_at).toBeInstanceOf(Date);

    const welcome = await mailTo(email, 'Welcome! Here is your free guide again');
    const unsubscribe = linkIn(welcome.text, '/list/unsubscribe/');
    expect(welcome.headers['list-unsubscribe']).toBe(
      `<${PUBLIC_URL}${unsubscribe}>, <mailto:hello@soulreset.test?subject=unsubscribe>`,
    );
    expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(welcome.html).toContain(`${PUBLIC_URL}${unsubscribe}`);
    expect((await events(email)).map((event) => event.kind)).toEqual(['asked', 'confirmed']);
  });

  it('answers a forged, altered or unknown token exactly as a real one, changing nothing', async () => {
    const email = freshEmail('forged');
    await requestGuide(app, { name: 'Eve', email, listConsent: true });
    const confirmation = await mailTo(email, 'Please confirm your subscription');
    const real = linkIn(confirmation.text, '/list/confirm/');
    const altered = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
    const unknown = '/list/confirm/' + 'x'.repeat(43);
    const junk = '/list/confirm/%3Cscript%3E';
    const answers = await Promise.all(
      [altered, unknown, junk].map((url) => app.inject({ method: 'POST', url })),
    );
    const realAnswer = await app.inject({ method: 'GET', url: real });
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect((await subscriber(email))?.status).toBe('pending');
    for (const url of [altered, unknown]) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body.replace(/confirm\/[^"]+/, '')).toBe(
        realAnswer.body.replace(/confirm\/[^"]+/, ''),
      );
    }
    const bogusUnsubscribe = await app.inject({
      method: 'POST',
      url: '/list/unsubscribe/' + 'y'.repeat(43),
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bogusUnsubscribe.statusCode).toBe(200);
    expect(bogusUnsubscribe.body).toContain('You are unsubscribed');
  });

  const welcomeRows = (email: string) =>
    database.db
      .selectFrom('mail_deliveries')
      .select(['html', 'headers'])
      .where('recipient', '=', email)
      .where('subject', '=', 'Welcome! Here is your free guide again')
      .execute();

  it('confirms once when the button is pressed many times at once, under the asked wording', async () => {
    const email = freshEmail('presses');
    await requestGuide(app, { name: 'Ada', email, listConsent: true });
    const confirmPath = linkIn(
      (await mailTo(email, 'Please confirm your subscription')).text,
      '/list/confirm/',
    );
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => app.inject({ method: 'POST', url: confirmPath })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect((await subscriber(email))?.status).toBe('confirmed');
    const recorded = await events(email);
    expect(recorded.map((event) => [event.kind, event.source])).toEqual([
      ['asked', 'free-guide form'],
      ['confirmed', 'confirmation link'],
    ]);
    expect(recorded[1]!.wording_version).toBe(recorded[0]!.wording_version);
    expect(recorded[1]!.wording_version).not.toBeNull();
    // One welcome, queued with the confirmation, and one unsubscribe link for it.
    expect(await welcomeRows(email)).toHaveLength(1);
    const links = await database.db
      .selectFrom('list_tokens')
      .innerJoin('list_subscribers', 'list_subscribers.id', 'list_tokens.subscriber_id')
      .select('list_tokens.purpose')
      .where('list_subscribers.email', '=', email)
      .execute();
    expect(links).toEqual([{ purpose: 'unsubscribe' }]);
    await mailTo(email, 'Welcome! Here is your free guide again');
  });

  it('confirms under the row lock when the subscriber changed after it was read', async () => {
    const email = freshEmail('changed');
    await requestGuide(app, { name: 'Ada', email, listConsent: true });
    const token = linkIn(
      (await mailTo(email, 'Please confirm your subscription')).text,
      '/list/confirm/',
    )
      .split('/')
      .pop()!;
    // The first read of the link's subscriber is followed at once by a change of its name, as
    // if an edit landed between the read and the write.
    let renamed = false;
    const db = database.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (!renamed && args.result.rows.some((row) => row.email === email)) {
          renamed = true;
          await database.db
            .updateTable('list_subscribers')
            .set({ name: 'Grace' })
            .where('email', '=', email)
            .execute();
        }
        return args.result;
      },
    });
    let woken = 0;
    const service = createListService({
      db,
      config: app.config,
      store: app.store,
      wakeWorker: () => (woken += 1),
    });
    expect(await service.confirm(token)).toBe(true);
    expect(renamed).toBe(true);
    expect(woken).toBe(1);
    expect((await subscriber(email))?.status).toBe('confirmed');
    expect((await events(email)).map((event) => event.kind)).toEqual(['asked', 'confirmed']);
    // Written once, from the row as it is now.
    const welcome = await welcomeRows(email);
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.html).toContain('Hi Grace,');
    expect(welcome[0]!.headers).toMatchObject({
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    // The spent link changes nothing.
    expect(await service.confirm(token)).toBe(false);
    expect(await welcomeRows(email)).toHaveLength(1);
  });

  it('answers a confirm in two statements and a one-click unsubscribe in one', async () => {
    const email = freshEmail('roundtrips');
    await requestGuide(app, { name: 'Ada', email, listConsent: true });
    const confirmPath = linkIn(
      (await mailTo(email, 'Please confirm your subscription')).text,
      '/list/confirm/',
    );
    // Every statement the app's connections send while one request is answered (the mail
    // worker's own statements, woken by the confirmation, left aside; the list sender, which
    // polls on its own, is stopped meanwhile).
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    const statementsOf = async (request: () => Promise<{ statusCode: number }>) => {
      await app.listSender.stop();
      sent.length = 0;
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const [first] = args as [string | { text: string }];
        const text = typeof first === 'string' ? first : first.text;
        if (!/mail_deliveries set (attempts|status)|locked_until/.test(text)) sent.push(text);
        return (query as (...rest: unknown[]) => unknown).apply(this, args);
      } as typeof query;
      try {
        expect((await request()).statusCode).toBe(200);
      } finally {
        pg.Client.prototype.query = query;
        app.listSender.start();
      }
      return [...sent];
    };
    const confirming = await statementsOf(() => app.inject({ method: 'POST', url: confirmPath }));
    expect(confirming).toHaveLength(2);
    expect(confirming[0]).toMatch(/^\s*select [\s\S]* from list_tokens/);
    expect(confirming[1]).toMatch(/^\s*with confirmed as \(/);
    const welcome = await mailTo(email, 'Welcome! Here is your free guide again');
    const unsubscribing = await statementsOf(() =>
      app.inject({
        method: 'POST',
        url: linkIn(welcome.text, '/list/unsubscribe/'),
        payload: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(unsubscribing).toHaveLength(1);
    expect((await subscriber(email))?.status).toBe('unsubscribed');
  });

  it('unsubscribes once when one-click POSTs arrive together', async () => {
    const email = freshEmail('together');
    const { unsubscribePath } = await confirmedSubscriber(email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        app.inject({
          method: 'POST',
          url: unsubscribePath,
          payload: index % 2 ? 'List-Unsubscribe=One-Click' : 'choice=everything',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect((await subscriber(email))?.status).toBe('unsubscribed');
    // Whichever came first unsubscribed; "everything" widened it at most once after that.
    const recorded = (await events(email)).slice(2);
    expect(recorded.every((event) => event.kind === 'unsubscribed')).toBe(true);
    expect(recorded.length).toBeGreaterThanOrEqual(1);
    expect(recorded.length).toBeLessThanOrEqual(2);
    expect(recorded.filter((event) => event.source === 'one-click').length).toBeLessThanOrEqual(1);
    expect((await subscriber(email))?.unsubscribed_scope).toBe('everything');
  });

  it('takes the one-click POST as Gmail sends it, and sends no list email after it', async () => {
    const email = freshEmail('oneclick');
    const { unsubscribePath } = await confirmedSubscriber(email);
    const page = await app.inject({ method: 'GET', url: unsubscribePath });
    expect(page.statusCode).toBe(200);
    expect((await subscriber(email))?.status).toBe('confirmed');

    // A welcome queued but not yet sent (say, from a second confirmation) must not go out.
    const { id } = (await subscriber(email))!;
    await database.db
      .insertInto('mail_deliveries')
      .values({
        source_table: 'list_subscribers',
        source_id: id,
        recipient: email,
        subject: 'A later list email',
        html: '<p>later</p>',
        text: 'later',
        next_attempt_at: new Date(Date.now() + 60_000),
      })
      .execute();

    const answer = await app.inject({
      method: 'POST',
      url: unsubscribePath,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.location).toBeUndefined();
    const row = await subscriber(email);
    expect(row).toMatchObject({ status: 'unsubscribed', unsubscribed_scope: 'list' });
    expect(row?.unsubscribed_at).toBeInstanceOf(Date);
    const pending = await database.db
      .selectFrom('mail_deliveries')
      .select('id')
      .where('source_table', '=', 'list_subscribers')
      .where('source_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    expect(pending).toEqual([]);
    expect((await events(email)).map((event) => [event.kind, event.source])).toEqual([
      ['asked', 'free-guide form'],
      ['confirmed', 'confirmation link'],
      ['unsubscribed', 'one-click'],
    ]);
    // Links keep working: a second click answers the same and changes nothing.
    const again = await app.inject({ method: 'POST', url: unsubscribePath, payload: '' });
    expect(again.statusCode).toBe(200);
    expect(listMailsTo(email).map((mail) => mail.subject)).toEqual([
      'Welcome! Here is your free guide again',
    ]);
  });

  it('needs a fresh confirmation to come back, recorded as re-subscribed', async () => {
    const email = freshEmail('again');
    const { unsubscribePath, confirmPath } = await confirmedSubscriber(email);
    await app.inject({ method: 'POST', url: unsubscribePath, payload: '' });
    // The old confirmation link is spent.
    await app.inject({ method: 'POST', url: confirmPath });
    expect((await subscriber(email))?.status).toBe('unsubscribed');

    await requestGuide(app, { name: 'Ada', email, listConsent: true });
    expect((await subscriber(email))?.status).toBe('unsubscribed');
    const second = await eventually(async () => {
      const found = sink.messages.filter(
        (mail) =>
          mail.envelopeTo.includes(email) && mail.subject === 'Please confirm your subscription',
      );
      return found.length === 2 ? found[1] : undefined;
    });
    await app.inject({ method: 'POST', url: linkIn(second.text, '/list/confirm/') });
    expect((await subscriber(email))?.status).toBe('confirmed');
    expect((await events(email)).map((event) => event.kind)).toEqual([
      'asked',
      'confirmed',
      'unsubscribed',
      'asked',
      're-subscribed',
    ]);
  });

  it('offers the choice on the unsubscribe page; "everything" also stops requests to join', async () => {
    const email = freshEmail('everything');
    const { unsubscribePath } = await confirmedSubscriber(email);
    const page = await app.inject({ method: 'GET', url: unsubscribePath });
    expect(page.body).toContain('name="choice" value="list" checked');
    expect(page.body).toContain('name="choice" value="everything"');
    // An unknown token gets the same page.
    const unknown = await app.inject({ method: 'GET', url: '/list/unsubscribe/' + 'z'.repeat(43) });
    expect(unknown.body.replace(/unsubscribe\/[^"]+/, '')).toBe(
      page.body.replace(/unsubscribe\/[^"]+/, ''),
    );
    expect((await subscriber(email))?.status).toBe('confirmed');

    const answer = await app.inject({
      method: 'POST',
      url: unsubscribePath,
      payload: 'choice=everything',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('We will not ask this address to join again');
    expect(await subscriber(email)).toMatchObject({
      status: 'unsubscribed',
      unsubscribed_scope: 'everything',
    });
    expect((await events(email)).map((event) => [event.kind, event.source])).toEqual([
      ['asked', 'free-guide form'],
      ['confirmed', 'confirmation link'],
      ['unsubscribed', 'unsubscribe page: everything'],
    ]);
    // The guide is still given, but no confirmation email asks this address to join.
    const before = sink.messages.length;
    const guide = await requestGuide(app, { name: 'Ada', email, listConsent: true });
    expect(guide.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      sink.messages
        .slice(before)
        .filter(
          (mail) =>
            mail.envelopeTo.includes(email) && mail.subject === 'Please confirm your subscription',
        ),
    ).toEqual([]);
    expect((await subscriber(email))?.status).toBe('unsubscribed');
  });

  it('stops list email only for the "only order emails" choice, and widens it later', async () => {
    const email = freshEmail('onlyorders');
    const { unsubscribePath } = await confirmedSubscriber(email);
    const form = (payload: string) =>
      app.inject({
        method: 'POST',
        url: unsubscribePath,
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const answer = await form('choice=list');
    expect(answer.body).toContain('ask for the free guide again');
    expect(await subscriber(email)).toMatchObject({
      status: 'unsubscribed',
      unsubscribed_scope: 'list',
    });
    await form('choice=list');
    await form('choice=everything');
    await form('choice=everything');
    expect((await subscriber(email))?.unsubscribed_scope).toBe('everything');
    expect((await events(email)).map((event) => [event.kind, event.source])).toEqual([
      ['asked', 'free-guide form'],
      ['confirmed', 'confirmation link'],
      ['unsubscribed', 'unsubscribe page'],
      ['unsubscribed', 'unsubscribe page: everything'],
    ]);
  });

  it('marks a subscriber bounced when the mail server refuses a list email for good', async () => {
    const email = freshEmail('bounce');
    await requestGuide(app, { name: 'Flo', email, listConsent: true });
    const confirmation = await mailTo(email, 'Please confirm your subscription');
    sink.rejectAll(true);
    try {
      await app.inject({ method: 'POST', url: linkIn(confirmation.text, '/list/confirm/') });
      const row = await eventually(async () => {
        const found = await subscriber(email);
        return found?.status === 'bounced' ? found : undefined;
      });
      expect(row.status).toBe('bounced');
      // Failed at its first attempt: a permanent refusal is not retried.
      const welcome = await eventually(async () => {
        const found = await database.db
          .selectFrom('mail_deliveries')
          .select(['status', 'attempts'])
          .where('recipient', '=', email)
          .where('subject', '=', 'Welcome! Here is your free guide again')
          .executeTakeFirst();
        return found?.status === 'failed' ? found : undefined;
      });
      expect(welcome).toEqual({ status: 'failed', attempts: 1 });
      expect((await events(email)).map((event) => event.kind)).toEqual([
        'asked',
        'confirmed',
        'bounced',
      ]);
    } finally {
      sink.rejectAll(false);
    }
  });
});
