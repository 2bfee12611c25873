import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';
import { ADMIN_SUBSCRIBERS_PATH, type ImportReport } from '../../shared/list/list-api';
import Papa from 'papaparse';
import { HttpError } from '../http/errors';
import { TOKEN_PATTERN, tokenHash } from '../http/tokens';
import { confirmationEmail } from './list-emails';
import {
  csvRows,
  IMPORT_BATCH,
  importSubscribers,
  PARSE_BLOCK,
  type ImportOptions,
} from './list-import';

const ADMIN = 'owner@example.com';

/** A body that arrives `size` bytes at a time, as a slow upload does. */
function inPieces(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  return Readable.from(
    (function* pieces() {
      for (let start = 0; start < bytes.length; start += size) {
        yield bytes.subarray(start, start + size);
      }
    })(),
  );
}

async function allRows(body: Readable, maxBytes = 1 << 24) {
  const blocks: string[][][] = [];
  for await (const block of csvRows(body, maxBytes)) blocks.push(block);
  return blocks;
}

describe('The import CSV, read a block at a time', () => {
  // A field with the delimiter, quotes and line ends in it, a letter of two UTF-16 halves, an
  // empty line, and a quoted field longer than a block.
  const long = 'x'.repeat(PARSE_BLOCK + 100);
  const files = {
    comma: ['email,name', 'a@x.test,"Ann, ""the"" first\nline two"', '', 'b@x.test,Zoë 😀'],
    semicolon: ['email;name', 'a@x.test;Ann; Lee', 'b@x.test;"B;\r\nC"', 'c@x.test;"' + long + '"'],
    tab: ['email\tname', 'a@x.test\tAnn', ' \t ', 'b@x.test\t😀😀'],
  };
  const texts = Object.entries(files).flatMap(([kind, lines]) =>
    ['\n', '\r\n'].map((end) => ({
      kind: `${kind} ${JSON.stringify(end)}`,
      text: [
        ...lines,
        ...Array.from(
          { length: 3000 },
          (_, i) => `m${i}@x.test${kind === 'tab' ? '\t' : kind === 'comma' ? ',' : ';'}N ${i}`,
        ),
      ].join(end),
    })),
  );

  it.each(texts)('gives the rows papaparse gives for the whole file ($kind)', async ({ text }) => {
    const whole = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' }).data;
    for (const size of [3, 1000, 65_536, text.length]) {
      const rows = (await allRows(inPieces(text, size))).flat();
      expect(rows, `pieces of ${size}`).toEqual(whole);
    }
  });

  it('holds no more than a block of text at once, also when the file arrives whole', async () => {
    const lines = [
      'email,name',
      ...Array.from({ length: 20_000 }, (_, i) => `r${i}@x.test,R ${i}`),
    ];
    const blocks = await allRows(Readable.from([Buffer.from(lines.join('\n'))]));
    expect(blocks.flat()).toHaveLength(lines.length);
    // A row here is at least 12 characters and its line end.
    expect(Math.max(...blocks.map((block) => block.length))).toBeLessThanOrEqual(PARSE_BLOCK / 13);
  });
});

describeEachDatabase('The subscribers import, read as it arrives', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;
  let database: TestDatabase;

  beforeAll(async () => {
    database = use();
    sink = await startSmtpSink();
    app = await buildTestApp(database, {
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

  const importOver = (body: Readable | string, dryRun: boolean) =>
    app.inject({
      method: 'POST',
      url: `${ADMIN_SUBSCRIBERS_PATH}/import${dryRun ? '?dryRun=1' : ''}`,
      payload: body,
      headers: { cookie, origin: app.config.publicUrl, 'content-type': 'text/csv' },
    });
  const options = (dryRun: boolean, maxBytes = 1 << 20): ImportOptions => ({
    dryRun,
    maxBytes,
    mail: { config: app.config, content: app.store.published().content },
    event: { source: 'admin import by test', version: null },
    queued: () => app.deliveryWorker.wake(),
  });
  const countLike = async (table: 'list_subscribers' | 'mail_deliveries', pattern: string) => {
    const column = table === 'list_subscribers' ? 'email' : 'recipient';
    const row = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(column, 'like', pattern)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('counts a file of several batches the same in the dry run and the import', async () => {
    const total = IMPORT_BATCH * 2 + 37;
    const lines = ['\uFEFFName,E-mail,Email'];
    for (let i = 1; i <= total; i += 1) lines.push(`Zoë ${i},x,many${i}@batches.test`);
    // The same address far apart, in another case; an invalid one; an empty line.
    lines.push(
      'Again,x,MANY3@batches.test',
      'Broken,x,not-an-address',
      '',
      'Last,x,last@batches.test',
    );
    const csv = lines.join('\r\n');

    const dry = await importOver(inPieces(csv, 7), true);
    expect(dry.statusCode, dry.body).toBe(200);
    const expected = { rows: total + 3, valid: total + 1, invalid: 1, duplicates: 1 };
    expect(dry.json<ImportReport>()).toEqual({ ...expected, dryRun: true });
    expect(await countLike('list_subscribers', '%@batches.test')).toBe(0);

    const real = await importOver(inPieces(csv, 7), false);
    expect(real.statusCode, real.body).toBe(200);
    expect(real.json<ImportReport>()).toEqual({ ...expected, dryRun: false });
    expect(await countLike('list_subscribers', '%@batches.test')).toBe(total + 1);
    // Each added one has its event, its link and its confirmation email; none confirmed.
    const added = await database.db
      .selectFrom('list_subscribers as s')
      .select([
        's.status',
        's.name',
        (eb) =>
          eb
            .selectFrom('list_consent_events as e')
            .whereRef('e.subscriber_id', '=', 's.id')
            .select((inner) => inner.fn.countAll<string>().as('n'))
            .as('events'),
        (eb) =>
          eb
            .selectFrom('list_tokens as t')
            .whereRef('t.subscriber_id', '=', 's.id')
            .where('t.purpose', '=', 'confirm')
            .select((inner) => inner.fn.countAll<string>().as('n'))
            .as('links'),
      ])
      .where('s.email', 'like', '%@batches.test')
      .execute();
    expect(added.every((row) => row.status === 'pending')).toBe(true);
    expect(added.every((row) => Number(row.events) === 1 && Number(row.links) === 1)).toBe(true);
    // A letter split between two pieces of the upload is still one letter.
    expect(added.filter((row) => row.name.startsWith('Zoë ')).length).toBe(total);
    expect(await countLike('mail_deliveries', '%@batches.test')).toBe(total + 1);
    const first = await database.db
      .selectFrom('list_subscribers')
      .select('name')
      .where('email', '=', 'many3@batches.test')
      .executeTakeFirstOrThrow();
    expect(first.name).toBe('Zoë 3');

    expect((await importOver(csv, true)).json<ImportReport>()).toMatchObject({
      valid: 0,
      duplicates: total + 2,
    });
  });

  it('queues the confirmation email each address would get alone, whose link confirms it', async () => {
    // A name cut at 120 characters between the halves of a letter keeps U+FFFD in its place.
    const cut = `${'c'.repeat(119)}😀`;
    const names = ['', '  Ann  ', `<b>"Tom" & 'Jerry'</b>`, 'Zoë', cut];
    const csv = [
      'email,name',
      ...names.map((name, i) => `sent${i}@emails.test,"${name.replace(/"/g, '""')}"`),
    ];
    const answer = await importOver(csv.join('\n'), false);
    expect(answer.json<ImportReport>()).toMatchObject({ valid: names.length });

    const rows = await database.db
      .selectFrom('list_subscribers as s')
      .innerJoin('mail_deliveries as m', (join) =>
        join.onRef('m.source_id', '=', 's.id').on('m.source_table', '=', 'list_subscribers'),
      )
      .innerJoin('list_tokens as t', 't.subscriber_id', 's.id')
      .select([
        's.id',
        's.email',
        's.name',
        's.status',
        's.confirmed_at',
        'm.recipient',
        'm.subject',
        'm.html',
        'm.text',
        't.token_hash',
        't.purpose',
      ])
      .where('s.email', 'like', '%@emails.test')
      .orderBy('s.id')
      .execute();
    expect(rows.map((row) => row.name)).toEqual([
      '',
      'Ann',
      names[2],
      'Zoë',
      `${'c'.repeat(119)}\uFFFD`,
    ]);
    const content = app.store.published().content;
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'pending', confirmed_at: null, purpose: 'confirm' });
      const token = /\/list\/confirm\/([^\s"<]+)/.exec(row.text)![1]!;
      expect(token).toMatch(TOKEN_PATTERN);
      expect(row.token_hash).toBe(tokenHash(token));
      const alone = confirmationEmail(app.config, content, row, token);
      expect({ to: [row.recipient], subject: row.subject, html: row.html, text: row.text }).toEqual(
        alone,
      );
    }
    const tokens = new Set(rows.map((row) => row.token_hash));
    expect(tokens.size).toBe(rows.length);

    // Only the click on the emailed link confirms.
    const first = rows[1]!;
    const path = /\/list\/confirm\/[A-Za-z0-9_-]+/.exec(first.text)![0];
    expect((await app.inject({ method: 'POST', url: path })).statusCode).toBe(200);
    const confirmed = await database.db
      .selectFrom('list_subscribers')
      .select(['status'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(confirmed.status).toBe('confirmed');
  });

  it('writes each batch before the rest of the file has arrived', async () => {
    // The upload waits, after two batches, until the first of them is on the list: an import
    // that read the whole file first would never get there.
    let waited = false;
    const body = Readable.from(
      (async function* upload() {
        yield 'email,name\n';
        for (let i = 1; i <= IMPORT_BATCH * 3; i += 1) {
          if (i === IMPORT_BATCH * 2 + 1) {
            await eventually(async () =>
              (await countLike('list_subscribers', '%@arriving.test')) >= IMPORT_BATCH
                ? true
                : undefined,
            );
            waited = true;
          }
          yield `arriving${i}@arriving.test,Arriving ${i}\n`;
        }
      })(),
    );
    const report = await importSubscribers(database.db, body, options(false));
    expect(waited).toBe(true);
    expect(report).toEqual({
      rows: IMPORT_BATCH * 3,
      valid: IMPORT_BATCH * 3,
      invalid: 0,
      duplicates: 0,
      dryRun: false,
    });
  });

  it('refuses a file larger than the limit, the dry run leaving nothing behind', async () => {
    const csv = ['email', ...Array.from({ length: 50 }, (_, i) => `big${i}@large.test`)].join('\n');
    const refused = importSubscribers(database.db, inPieces(csv, 64), options(true, 400));
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ statusCode: 413 });
    expect(await countLike('list_subscribers', '%@large.test')).toBe(0);
    // Within the limit, the same file is read to its end.
    const report = await importSubscribers(database.db, inPieces(csv, 64), options(true));
    expect(report).toMatchObject({ rows: 50, valid: 50 });
  });
});
