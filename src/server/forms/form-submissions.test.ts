import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailApiServer, type MailApiServer } from '../../../tests/support/mail-api-server';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { eventually } from '../../../tests/support/eventually';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';
import type { FormKind } from '../../shared/forms/form-fields';
import { insertVersion } from '../store/store-versions';

const OWNER = 'owner@soulreset.test';
const GUIDE_URL = 'https://files.example.com/guide.pdf';
let counter = 0;
/** A fresh address per test: the suite shares one database. */
const freshEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

const tables = {
  order: 'form_submissions',
  contact: 'form_submissions',
  refund: 'refund_inquiries',
  'terms-feedback': 'terms_of_service_feedback',
  'free-guide': 'free_product_gift_submissions',
} as const satisfies Record<FormKind, string>;

function post(app: FastifyInstance, form: string, body: unknown, remoteAddress = '203.0.113.7') {
  return app.inject({
    method: 'POST',
    url: `/api/forms/${form}`,
    payload: body as object,
    remoteAddress,
  });
}

/** The record once its owner email was delivered (the worker sends it after the answer). */
async function deliveredRow(database: TestDatabase, form: FormKind, email: string) {
  return eventually(async () => {
    const [row] = await rowsFor(database, form, email);
    return row?.email_sent ? row : undefined;
  });
}

async function rowsFor(database: TestDatabase, form: FormKind, email: string) {
  return database.db
    .selectFrom(tables[form])
    .selectAll()
    .where('email', '=', email)
    .orderBy('id')
    .execute();
}

describeEachDatabase('visitor form submissions', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        OWNER_EMAIL: OWNER,
        GUIDE_URL,
        FORM_RATE_LIMIT: '10000',
        MAIL_TIMEOUT_MS: '2000',
      }),
    });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  const cases: {
    form: FormKind;
    subject: string;
    body: (email: string) => Record<string, string>;
    columns: Record<string, unknown>;
    htmlIncludes: string[];
  }[] = [
    {
      form: 'order',
      subject: '[Soul Reset Bundle] NEW ORDER REQUEST',
      body: (email) => ({ name: 'Ada Lovelace', email, message: 'Can I pay by card?' }),
      columns: { message: 'Can I pay by card?', purchase_intent: true },
      htmlIncludes: [
        'Nuova richiesta d&#39;ordine',
        'Nome',
        'Messaggio',
        'Intenzione d&#39;acquisto',
        'Sì',
        'Data',
      ],
    },
    {
      form: 'contact',
      subject: '[Soul Reset Bundle] NEW CONTACT MESSAGE',
      body: (email) => ({ name: 'Ada Lovelace', email, message: 'Is it a PDF?' }),
      columns: { message: 'Is it a PDF?', purchase_intent: false },
      htmlIncludes: ['New contact message', 'Is it a PDF?'],
    },
    {
      form: 'refund',
      subject: '[Soul Reset Bundle] NEW REFUND REQUEST',
      body: (email) => ({ name: 'Ada Lovelace', email, message: 'The file will not open.' }),
      columns: { message: 'The file will not open.' },
      htmlIncludes: ['New refund request', '<table', 'The file will not open.', 'Sent on '],
    },
    {
      form: 'terms-feedback',
      subject: '[Soul Reset Bundle] NEW TERMS OF SERVICE FEEDBACK',
      body: (email) => ({ name: 'Ada Lovelace', email, message: 'May I print it?' }),
      columns: { message: 'May I print it?' },
      htmlIncludes: ['Soul Reset Bundle</div>', '<table', 'May I print it?', 'Submitted on '],
    },
    {
      form: 'free-guide',
      subject: '[Soul Reset Bundle] NEW FREE GUIDE REQUEST',
      body: (email) => ({ name: 'Ada Lovelace', email }),
      columns: {},
      htmlIncludes: ['New free Mindfulness Guide request', 'Requested at'],
    },
  ];

  describe.each(cases)('$form', ({ form, subject, body, columns, htmlIncludes }) => {
    const extra = form === 'free-guide' ? { guideUrl: GUIDE_URL } : {};
    // Only the free-guide popup waits for the email; the others answer before it is sent.
    const answeredSent = form === 'free-guide';

    it('stores the submission, emails the owner and answers success', async () => {
      const email = freshEmail(form);
      const started = new Date();
      const response = await post(app, form, body(email));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'success', emailSent: answeredSent, ...extra });

      await deliveredRow(use(), form, email);
      const [row, ...more] = (await rowsFor(use(), form, email)) as unknown as {
        email_sent_at: Date;
        created_at: Date;
        updated_at: Date;
      }[];
      expect(more).toEqual([]);
      expect(row).toMatchObject({ name: 'Ada Lovelace', email, email_sent: true, ...columns });
      expect(row!.email_sent_at.getTime()).toBeGreaterThanOrEqual(started.getTime() - 1000);
      expect(row!.updated_at.getTime()).toBeGreaterThanOrEqual(row!.created_at.getTime());

      const mail = await sink.waitFor((m) => m.headers['reply-to'] === email);
      expect(mail.envelopeTo).toEqual([OWNER]);
      expect(mail.subject).toBe(subject);
      expect(mail.html).toContain('Ada Lovelace');
      expect(mail.html).toContain(email);
      for (const text of htmlIncludes) expect(mail.html).toContain(text);
      expect(mail.text).toContain('Ada Lovelace');
    });

    it('answers duplicate for an address already emailed (trimmed, any case) and stores nothing', async () => {
      const email = freshEmail(form);
      expect((await post(app, form, body(email))).json().status).toBe('success');
      await deliveredRow(use(), form, email);
      const again = await post(app, form, body(`  ${email.toUpperCase()}  `));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ status: 'duplicate', ...extra });
      expect(await rowsFor(use(), form, email)).toHaveLength(1);
      expect(await rowsFor(use(), form, email.toUpperCase())).toHaveLength(0);
    });

    it('escapes every visitor value in the owner email', async () => {
      const email = freshEmail(form);
      const hostile = '<script>alert("x")</script> & <b>Co</b>';
      const response = await post(app, form, { ...body(email), name: hostile, message: hostile });
      expect(response.json().status).toBe('success');
      const mail = await sink.waitFor((m) => m.headers['reply-to'] === email);
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('<b>Co</b>');
      expect(mail.html).toContain(
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;Co&lt;/b&gt;',
      );
      const [row] = await rowsFor(use(), form, email);
      expect(row!.name).toBe(hostile);
    });
  });

  it('counts only rows whose email was sent: a failed notification is success, then not a duplicate', async () => {
    const email = freshEmail('failing');
    sink.rejectAll(true);
    try {
      const first = await post(app, 'refund', { name: 'Ada', email, message: 'Help' });
      expect(first.json()).toEqual({ status: 'success', emailSent: false });
      // The worker's attempt is refused: the record stays email_sent false, its email queued.
      const refused = await eventually(async () => {
        const delivery = await use()
          .db.selectFrom('mail_deliveries')
          .select(['status', 'last_error'])
          .where('source_table', '=', 'refund_inquiries')
          .where('reply_to', '=', email)
          .executeTakeFirst();
        return delivery?.last_error ? delivery : undefined;
      });
      expect(refused).toMatchObject({
        status: 'pending',
        last_error: expect.stringMatching(/550/),
      });
      const [row] = await rowsFor(use(), 'refund', email);
      expect(row).toMatchObject({ email_sent: false, email_sent_at: null });

      const guide = await post(app, 'free-guide', { name: 'Ada', email });
      expect(guide.json()).toEqual({ status: 'success', emailSent: false, guideUrl: GUIDE_URL });
    } finally {
      sink.rejectAll(false);
    }
    const second = await post(app, 'refund', { name: 'Ada', email, message: 'Help again' });
    expect(second.json()).toEqual({ status: 'success', emailSent: false });
    await eventually(async () => {
      const rows = await rowsFor(use(), 'refund', email);
      return rows[1]?.email_sent ? rows : undefined;
    });
    const third = await post(app, 'refund', { name: 'Ada', email, message: 'Third time' });
    expect(third.json()).toEqual({ status: 'duplicate' });
    expect((await rowsFor(use(), 'refund', email)).map((row) => row.email_sent)).toEqual([
      false,
      true,
    ]);
  });

  it('shares the duplicate rule between the order and contact forms (one table), not across tables', async () => {
    const email = freshEmail('shared');
    expect((await post(app, 'order', { name: 'Ada', email })).json().status).toBe('success');
    await deliveredRow(use(), 'order', email);
    const contact = await post(app, 'contact', { name: 'Ada', email, message: 'Hi' });
    expect(contact.json()).toEqual({ status: 'duplicate' });
    const refund = await post(app, 'refund', { name: 'Ada', email, message: 'Hi' });
    expect(refund.json().status).toBe('success');
  });

  it('stores an order without a message as empty text, and the email says so in Italian', async () => {
    const email = freshEmail('no-message');
    expect((await post(app, 'order', { name: 'Ada', email })).json().status).toBe('success');
    const [row] = await rowsFor(use(), 'order', email);
    expect(row).toMatchObject({ message: '', purchase_intent: true });
    const mail = await sink.waitFor((m) => m.headers['reply-to'] === email);
    expect(mail.html).toContain('Nessun messaggio');
  });

  it('stores SQL-looking text verbatim and strips NUL and other control characters', async () => {
    const email = freshEmail('sql');
    const name = "Robert'); DROP TABLE form_submissions;--";
    const response = await post(app, 'contact', {
      name: `${name}\u0000`,
      email,
      message: 'line one\nline\u0000 two\u0007',
    });
    expect(response.json().status).toBe('success');
    const [row] = await rowsFor(use(), 'contact', email);
    expect(row).toMatchObject({ name, message: 'line one\nline two' });
  });

  it('answers a filled honeypot like a success, and stores and sends nothing', async () => {
    const email = freshEmail('bot');
    const response = await post(app, 'free-guide', { name: 'Bot', email, website: 'http://spam' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', emailSent: true, guideUrl: GUIDE_URL });
    expect(await rowsFor(use(), 'free-guide', email)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((mail) => mail.headers['reply-to'] === email)).toEqual([]);
    expect(
      await use()
        .db.selectFrom('mail_deliveries')
        .select('id')
        .where('reply_to', '=', email)
        .execute(),
    ).toEqual([]);
  });

  const long = (length: number) => 'x'.repeat(length);
  it.each([
    ['a missing name', 'order', { email: 'a@example.com' }, 'Please enter your name.'],
    ['a blank name', 'order', { name: '   ', email: 'a@example.com' }, 'Please enter your name.'],
    [
      'a name that is not text',
      'order',
      { name: 42, email: 'a@example.com' },
      'Please enter your name.',
    ],
    [
      'a name of 121 characters',
      'contact',
      { name: long(121), email: 'a@example.com', message: 'm' },
      'Your name must be at most 120 characters.',
    ],
    ['a missing email', 'free-guide', { name: 'Ada' }, 'Please enter your email address.'],
    [
      'an invalid email',
      'free-guide',
      { name: 'Ada', email: 'ada@nowhere' },
      'Please enter a valid email address',
    ],
    [
      'an email with a header break',
      'refund',
      { name: 'Ada', email: 'a@example.com\r\nBcc: x@example.com', message: 'm' },
      'Please enter a valid email address',
    ],
    [
      'an email of 255 characters',
      'refund',
      { name: 'Ada', email: `${long(243)}@example.com`, message: 'm' },
      'Your email address must be at most 254 characters.',
    ],
    [
      'a message of 5,001 characters',
      'order',
      { name: 'Ada', email: 'a@example.com', message: long(5001) },
      'Your message must be at most 5000 characters.',
    ],
    [
      'a missing message where it is required',
      'terms-feedback',
      { name: 'Ada', email: 'a@example.com' },
      'Please enter a message.',
    ],
    [
      'a blank message where it is required',
      'contact',
      { name: 'Ada', email: 'a@example.com', message: ' \n ' },
      'Please enter a message.',
    ],
    ['an array instead of an object', 'order', [1, 2], 'The form could not be read.'],
  ])('refuses %s with a 400 and a message, storing nothing', async (_case, form, body, message) => {
    const response = await post(app, form, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message });
    const rows = await use()
      .db.selectFrom(tables[form as FormKind])
      .select('id')
      .where('email', '=', 'a@example.com')
      .execute();
    expect(rows).toEqual([]);
  });

  it('accepts fields at their limits', async () => {
    const email = `${counter++}${long(242)}`.slice(0, 242) + '@example.com';
    expect(email).toHaveLength(254);
    const response = await post(app, 'contact', { name: long(120), email, message: long(5000) });
    expect(response.json()).toMatchObject({ status: 'success' });
  });

  it.each([
    [
      'malformed JSON',
      { 'content-type': 'application/json' },
      '{"name": "Ada",',
      400,
      'The form could not be read. Please reload the page and try again.',
    ],
    [
      'a JSON string',
      { 'content-type': 'application/json' },
      '"hello"',
      400,
      'The form could not be read.',
    ],
    [
      'plain text',
      { 'content-type': 'text/plain' },
      'name=Ada',
      400,
      'The form could not be read.',
    ],
    [
      'a body that is not JSON',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'name=Ada',
      415,
      'The form could not be read. Please reload the page and try again.',
    ],
    [
      'a body over the size limit',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'Ada', email: 'a@example.com', message: long(40_000) }),
      413,
      'The form is too large to send. Please shorten your message.',
    ],
  ])(
    'refuses %s with a 4xx the form can show',
    async (_case, headers, payload, status, message) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/forms/order',
        headers,
        payload,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ status: 'error', message });
    },
  );

  it('answers 404 for a form that does not exist', async () => {
    const response = await post(app, 'newsletter', { name: 'Ada', email: 'a@example.com' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'error', message: 'There is no such form.' });
  });

  it("names the product in the owner's email as the live store version does", async () => {
    const live = app.store.published().content;
    await insertVersion(
      use().db,
      { ...live, product: { ...live.product, name: 'Calm Month Kit' } },
      OWNER,
    );
    await app.store.refresh();
    try {
      const email = freshEmail('terms-feedback');
      await post(app, 'terms-feedback', {
        name: 'Ada Lovelace',
        email,
        message: 'May I print it?',
      });
      const mail = await sink.waitFor((m) => m.headers['reply-to'] === email);
      expect(mail.subject).toBe('[Calm Month Kit] NEW TERMS OF SERVICE FEEDBACK');
      expect(mail.html).toContain('Calm Month Kit</div>');
      expect(mail.text).not.toContain('Soul Reset');
    } finally {
      await insertVersion(use().db, live, OWNER);
      await app.store.refresh();
    }
  });
});

describeEachDatabase('form submissions when the mail transport fails or hangs', (use) => {
  let api: MailApiServer;
  let app: FastifyInstance;
  beforeAll(async () => {
    api = await startMailApiServer();
    app = await buildTestApp(use(), {
      config: await testConfig({
        MAIL_API_URL: api.url,
        MAIL_API_KEY: 'key',
        MAIL_MODEL: 'send-email',
        MAIL_PROJECT_ID: 'project',
        MAIL_TIMEOUT_MS: '300',
        FORM_RATE_LIMIT: '1000',
        GUIDE_URL,
      }),
    });
  });
  afterAll(async () => {
    await app?.close();
    await api?.close();
  });

  it.each([
    ['an error reply', { status: 200, json: { send_email_status: 'error', error: 'Quota' } }],
    ['an HTTP error', { status: 500, json: { error: 'boom' } }],
    ['a hang past MAIL_TIMEOUT_MS', 'hang'],
  ] as const)('records %s as email_sent false and still answers success', async (_case, reply) => {
    api.reply(reply);
    const email = freshEmail('api');
    const started = performance.now();
    // The free-guide request makes the attempt itself, so its answer waits for the outcome.
    const response = await post(app, 'free-guide', { name: 'Ada', email });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', emailSent: false, guideUrl: GUIDE_URL });
    const [row] = await rowsFor(use(), 'free-guide', email);
    expect(row).toMatchObject({ email_sent: false, email_sent_at: null });
    const request = api.requests.at(-1)!;
    expect(request.body).toMatchObject({
      model: 'send-email',
      inputs: {
        receivers: 'owner@example.com',
        title: '[Soul Reset Bundle] NEW FREE GUIDE REQUEST',
        project_id: 'project',
      },
    });
  });

  it('sends through the run API and records success', async () => {
    api.reply({ status: 200, json: { send_email_status: 'success' } });
    const email = freshEmail('api-ok');
    const response = await post(app, 'terms-feedback', {
      name: 'Ada <Admin>',
      email,
      message: 'Q',
    });
    expect(response.json()).toEqual({ status: 'success', emailSent: false });
    await deliveredRow(use(), 'terms-feedback', email);
    const body = api.requests.at(-1)!.body as { inputs: { title: string; body_html: string } };
    expect(body.inputs.title).toBe('[Soul Reset Bundle] NEW TERMS OF SERVICE FEEDBACK');
    expect(body.inputs.body_html).toContain('Ada &lt;Admin&gt;');
  });
});
