import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn } from '../../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../../tests/support/test-app';
import { testConfig } from '../../../../tests/support/test-config';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { tableToCsv } from '../../../shared/admin/csv-cells';
import {
  tableExportPath,
  tableQueryString,
  tableRowPath,
  tableRowsPath,
} from '../../../shared/admin/table-api';
import type { TableConfig, TableRow } from '../../../shared/admin/table-config';
import { tableConfigurationsDir } from '../../app';
import { EXPORT_BATCH, exportCsv } from './export-rows';
import { readListQuery } from './list-query';
import { listRows } from './list-rows';
import { richTextToPlain } from './rich-text-to-plain';
import { toTableRow } from './row-output';
import { loadTableConfigurations } from './table-configurations';

const ADMIN = 'owner@example.com';
const VISITOR = 'visitor@example.com';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';

/** A table only these tests have: it has the number fields none of the six tables has. */
const ITEMS = 'admin_test_items';
const items: TableConfig = {
  db_table_name: ITEMS,
  ui_table_name: 'Test Items',
  field_list: [
    { db_name: 'id', ui_name: 'ID', type: 'id', required: false },
    { db_name: 'title', ui_name: 'Title', type: 'text', required: true },
    { db_name: 'amount', ui_name: 'Amount', type: 'number', required: false },
    { db_name: 'quantity', ui_name: 'Quantity', type: 'number', required: true },
    { db_name: 'happened_at', ui_name: 'Happened At', type: 'timestamp', required: false },
    { db_name: 'done', ui_name: 'Done', type: 'checkbox', required: true },
    { db_name: 'body', ui_name: 'Body', type: 'rich_text', required: true },
    { db_name: 'created_at', ui_name: 'Created At', type: 'timestamp', required: false },
    { db_name: 'updated_at', ui_name: 'Updated At', type: 'timestamp', required: false },
  ],
};
const validItem = { title: 'A', quantity: 1, body: '<p>Body</p>' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('the admin table API', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let tables: TableConfig[];
  let adminCookie: string;
  let visitorCookie: string;

  beforeAll(async () => {
    await sql`create table admin_test_items (
      id bigint generated always as identity primary key,
      title text not null default '',
      amount numeric,
      quantity integer not null default 0,
      happened_at timestamptz,
      done boolean not null default false,
      body text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(use().db);
    tables = [...(await loadTableConfigurations(tableConfigurationsDir)), items];
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
      tables,
    });
    adminCookie = await signIn(app, sink, ADMIN);
    visitorCookie = await signIn(app, sink, VISITOR);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  /** A request from the signed-in admin on the site's own page. */
  function admin(method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) {
    return app.inject({
      method,
      url,
      headers: { cookie: adminCookie, origin: app.config.publicUrl },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function createItem(values: Record<string, unknown> = {}): Promise<TableRow> {
    const response = await admin('POST', tableRowsPath(ITEMS), { ...validItem, ...values });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().row;
  }

  async function storedItem(id: number) {
    return sql<Record<string, unknown>>`select * from admin_test_items where id = ${id}`
      .execute(use().db)
      .then((result) => result.rows[0]);
  }

  const configOf = (name: string) => tables.find((table) => table.db_table_name === name)!;

  it('lists 10 rows by id descending with the exact count, page by page', async () => {
    const db = use().db;
    const inserted = [];
    for (let i = 1; i <= 12; i++) {
      const row = await db
        .insertInto('refund_inquiries')
        .values({
          name: `Person ${i}`,
          email: `person${i}@example.com`,
          message: `Message ${i}`,
          email_sent: i % 2 === 0,
          email_sent_at: i % 2 === 0 ? '2025-05-15T09:30:00Z' : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      inserted.push(row.id);
    }
    const newestFirst = [...inserted].reverse();

    const first = await admin('GET', tableRowsPath('refund_inquiries'));
    expect(first.statusCode).toBe(200);
    const page0 = first.json();
    expect(page0).toMatchObject({ count: 12, page: 0, pageSize: 10 });
    expect(page0.rows.map((row: TableRow) => row.id)).toEqual(newestFirst.slice(0, 10));

    const page1 = (await admin('GET', `${tableRowsPath('refund_inquiries')}?page=1`)).json();
    expect(page1).toMatchObject({ count: 12, page: 1, pageSize: 10 });
    expect(page1.rows.map((row: TableRow) => row.id)).toEqual(newestFirst.slice(10));

    const beyond = await admin('GET', `${tableRowsPath('refund_inquiries')}?page=5`);
    expect(beyond.statusCode).toBe(200);
    expect(beyond.json()).toEqual({ rows: [], count: 12, page: 5, pageSize: 10 });
  });

  it('answers rows with the configured columns only, in JSON types', async () => {
    const config = configOf('refund_inquiries');
    const { rows } = (await admin('GET', tableRowsPath('refund_inquiries'))).json();
    const [newest, previous] = rows as TableRow[];
    expect(Object.keys(newest!)).toEqual(config.field_list.map((field) => field.db_name));
    expect(newest).toMatchObject({
      name: 'Person 12',
      email: 'person12@example.com',
      message: 'Message 12',
      email_sent: true,
      email_sent_at: '2025-05-15T09:30:00.000Z',
      notes: '',
    });
    expect(typeof newest!.id).toBe('number');
    expect(newest!.created_at).toMatch(ISO_UTC);
    expect(newest!.updated_at).toMatch(ISO_UTC);
    expect(previous).toMatchObject({ email_sent: false, email_sent_at: null });

    const item = await createItem({ amount: 12.5, quantity: 3 });
    const listed = (await admin('GET', tableRowsPath(ITEMS))).json().rows[0];
    expect(listed).toMatchObject({ id: item.id, amount: 12.5, quantity: 3 });
  });

  it('refuses a page that is not a whole number from 0 to 10,000,000', async () => {
    for (const page of ['-1', '1.5', 'x', '', '1e3', '10000001', '99999999999999999999']) {
      const response = await admin('GET', `${tableRowsPath('refund_inquiries')}?page=${page}`);
      expect(response.statusCode, `page=${page}`).toBe(400);
      expect(response.json()).toEqual({
        error: 'Bad Request',
        message: 'The page must be a whole number from 0 to 10000000.',
      });
    }
    const twice = await admin('GET', `${tableRowsPath('refund_inquiries')}?page=1&page=2`);
    expect(twice.statusCode).toBe(400);
    const last = await admin('GET', `${tableRowsPath('refund_inquiries')}?page=10000000`);
    expect(last.statusCode).toBe(200);
    expect(last.json().rows).toEqual([]);
  });

  it('searches, sorts and filters over the API, counting the matches', async () => {
    const query = tableQueryString({
      q: 'PERSON1',
      sort: 'name',
      order: 'desc',
      filter: { email_sent: false },
    });
    const response = await admin('GET', `${tableRowsPath('refund_inquiries')}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    // Persons 1, 10, 11 and 12 of the first test are person1…@; 1 and 11 were not emailed.
    expect(answer.rows.map((row: TableRow) => row.name)).toEqual(['Person 11', 'Person 1']);
    expect(answer).toMatchObject({ count: 2, page: 0, pageSize: 10 });
  });

  it('refuses an unconfigured column, a malformed filter and an oversized query with a clear 400', async () => {
    const refusals: [string, string][] = [
      ['sort=password', 'Refund Inquiries has no column "password" to sort by.'],
      ['sort=notes&sort=name', 'Sort by one column (sort), not several.'],
      ['order=up', 'The order must be "asc" or "desc".'],
      [`q=${'a'.repeat(201)}`, 'The search is too long (at most 200 characters).'],
      ['q=%00', 'The search cannot contain a NUL character.'],
      [
        `filter=${encodeURIComponent('{"password":"x"}')}`,
        'Refund Inquiries has no column "password" to filter by.',
      ],
      [
        `filter=${encodeURIComponent('{"__proto__":{"x":1}}')}`,
        'Refund Inquiries has no column "__proto__" to filter by.',
      ],
      ['filter=%7B', 'The filter must be a JSON object of column names and values.'],
      ['filter=%5B%5D', 'The filter must be a JSON object of column names and values.'],
      [`filter=${'x'.repeat(2001)}`, 'The filter is too long (at most 2000 characters).'],
      [
        `filter=${encodeURIComponent('{"email_sent":"no"}')}`,
        'Filter "Email Sent" must be true or false.',
      ],
      [`filter=${encodeURIComponent('{"id":"7"}')}`, 'Filter "ID" must be a number.'],
      [
        `filter=${encodeURIComponent('{"created_at":{"from":"2025-02-30"}}')}`,
        'Filter "Created At" must be a range like {"from":"2025-05-01","to":"2025-05-31"} (days in UTC, or ISO 8601 times with a zone).',
      ],
      [
        `filter=${encodeURIComponent('{"notes":"x"}')}`,
        'Filter "Notes": rich text cannot be filtered; search instead.',
      ],
    ];
    for (const [query, message] of refusals) {
      const response = await admin('GET', `${tableRowsPath('refund_inquiries')}?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toEqual({ error: 'Bad Request', message });
    }
  });

  it('exports every matching row as CSV, streamed in batches, with the page export cell rules', async () => {
    const db = use().db;
    await sql`insert into terms_of_service_feedback (name, email, message, notes, email_sent)
      select 'Reader ' || g, 'reader' || g || '@example.com', case when g % 7 = 0 then '=1+1' else 'Fine' end,
        '<p>Note&nbsp;' || g || '</p><p>two</p>', g % 2 = 0
      from generate_series(1, ${EXPORT_BATCH * 2 + 37}) as g`.execute(db);
    const config = configOf('terms_of_service_feedback');
    const query = {
      q: 'reader',
      sort: 'name',
      order: 'asc' as const,
      filter: { email_sent: false },
    };
    const response = await admin('GET', tableExportPath('terms_of_service_feedback', query));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Terms_of_Service_Feedback.csv"; filename*=UTF-8''Terms_of_Service_Feedback.csv`,
    );
    const read = readListQuery(config, {
      q: query.q,
      sort: query.sort,
      order: query.order,
      filter: JSON.stringify(query.filter),
    });
    if (!read.ok) throw new Error(read.message);
    const expected: TableRow[] = [];
    for (let page = 0; ; page++) {
      const { rows } = await listRows(db, config, page, read.query);
      if (rows.length === 0) break;
      expected.push(...rows.map((row) => toTableRow(config, row)));
    }
    expect(expected).toHaveLength(EXPORT_BATCH + 19);
    expect(response.body).toBe(tableToCsv(config, expected, richTextToPlain));
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      'Name,Email,Message,Email Sent,Email Sent At,Notes,Created At,Updated At',
    );
    expect(lines[1]).toMatch(/^Reader 1,reader1@example.com,Fine,No,,"Note 1\ntwo",/);
    expect(response.body).toContain(`Reader 7,reader7@example.com,"'=1+1",No`);

    const none = await admin('GET', tableExportPath('terms_of_service_feedback', { q: 'nobody' }));
    expect(none.body).toBe(
      'Name,Email,Message,Email Sent,Email Sent At,Notes,Created At,Updated At',
    );
    const refused = await admin(
      'GET',
      `${tableExportPath('terms_of_service_feedback')}?sort=password`,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'Terms of Service Feedback has no column "password" to sort by.',
    );
    expect((await admin('GET', tableExportPath('auth_user'))).statusCode).toBe(404);
  });

  it('lets go of each fetched batch of rows before waiting for the client to take its CSV', async () => {
    // A batch still holding its rows while the export waits is what grew the server by 150 MB
    // exporting 1,000,000 rows on PostgreSQL (export-rows.ts); the bench measures the memory.
    const fetched: { rows: unknown[]; size: number }[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        if (result.rows.length > 0) fetched.push({ rows: result.rows, size: result.rows.length });
        return result;
      },
    };
    const db = use().db;
    await sql`insert into admin_test_items (title, quantity, body)
      select 'Batch item ' || g, g, '<p>Item</p>' from generate_series(1, ${EXPORT_BATCH * 2 + 3}) as g`.execute(
      db,
    );
    const counted = await sql<{
      count: number;
    }>`select count(*)::int as count from admin_test_items`.execute(db);
    const count = counted.rows[0]!.count;
    const read = readListQuery(items, {});
    if (!read.ok) throw new Error(read.message);
    let lines = 0;
    for await (const chunk of exportCsv(db.withPlugin(recorder), items, read.query)) {
      // By the time the client reads a batch's CSV, no batch holds its rows any more.
      expect(fetched.filter((batch) => batch.rows.length > 0)).toEqual([]);
      lines += String(chunk).split('\r\n').length - 1;
    }
    expect(lines).toBe(count);
    expect(fetched.map((batch) => batch.size)).toEqual([
      ...Array<number>(Math.floor(count / EXPORT_BATCH)).fill(EXPORT_BATCH),
      ...(count % EXPORT_BATCH ? [count % EXPORT_BATCH] : []),
    ]);
  });

  it('creates a row, sets updated_at itself, and lets the database fill what is left out', async () => {
    const before = Date.now();
    const response = await admin('POST', tableRowsPath('form_submissions'), {
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(response.statusCode).toBe(201);
    const { row } = response.json();
    expect(row).toEqual({
      id: expect.any(Number),
      name: 'Ada',
      email: 'ada@example.com',
      message: '',
      purchase_intent: false,
      email_sent: false,
      email_sent_at: null,
      notes: '',
      created_at: expect.stringMatching(ISO_UTC),
      updated_at: expect.stringMatching(ISO_UTC),
    });
    expect(Date.parse(row.updated_at)).toBeGreaterThanOrEqual(before - 5_000);
    const stored = await use()
      .db.selectFrom('form_submissions')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'Ada', email: 'ada@example.com', purchase_intent: false });
  });

  it('stores every editable field it is given, in its type', async () => {
    const response = await admin('POST', tableRowsPath('form_submissions'), {
      name: 'Grace',
      email: 'grace@example.com',
      message: 'Line 1\nLine 2',
      purchase_intent: true,
      email_sent: true,
      email_sent_at: '2025-05-15T11:30:00+02:00',
      notes: '<p>Called back</p>',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().row).toMatchObject({
      message: 'Line 1\nLine 2',
      purchase_intent: true,
      email_sent: true,
      email_sent_at: '2025-05-15T09:30:00.000Z',
      notes: '<p>Called back</p>',
    });
  });

  it('ignores id, created_at and updated_at in a body: the server owns them', async () => {
    const response = await admin('POST', tableRowsPath('form_submissions'), {
      id: 999_999,
      name: 'Linus',
      email: 'linus@example.com',
      created_at: '2000-01-01T00:00:00Z',
      updated_at: '2000-01-01T00:00:00Z',
    });
    expect(response.statusCode).toBe(201);
    const { row } = response.json();
    expect(row.id).not.toBe(999_999);
    expect(row.created_at.startsWith('2000')).toBe(false);
    expect(row.updated_at.startsWith('2000')).toBe(false);

    const update = await admin('PUT', tableRowPath('form_submissions', row.id), {
      id: 1,
      name: 'Linus T.',
      email: 'linus@example.com',
      created_at: '2000-01-01T00:00:00Z',
    });
    expect(update.statusCode).toBe(200);
    expect(update.json().row).toMatchObject({
      id: row.id,
      name: 'Linus T.',
      created_at: row.created_at,
    });
  });

  it('updates a row: the fields sent change, the rest stay, updated_at moves forward', async () => {
    const created = await createItem({ amount: 5, happened_at: '2025-01-01T00:00:00Z' });
    await sleep(20);
    const response = await admin('PUT', tableRowPath(ITEMS, created.id), {
      title: 'Renamed',
      quantity: 7,
      done: true,
      body: '<p>New</p>',
    });
    expect(response.statusCode).toBe(200);
    const { row } = response.json();
    expect(row).toMatchObject({
      id: created.id,
      title: 'Renamed',
      quantity: 7,
      done: true,
      body: '<p>New</p>',
      amount: 5,
      happened_at: '2025-01-01T00:00:00.000Z',
      created_at: created.created_at,
    });
    expect(Date.parse(row.updated_at)).toBeGreaterThan(Date.parse(created.updated_at as string));
    expect((await storedItem(created.id))!.title).toBe('Renamed');
  });

  it('answers 404 to an update or delete of a row that is not there', async () => {
    const update = await admin('PUT', tableRowPath(ITEMS, 987_654), validItem);
    expect(update.statusCode).toBe(404);
    expect(update.json()).toEqual({
      error: 'Not Found',
      message: 'Test Items has no row with id 987654.',
    });
    const remove = await admin('DELETE', tableRowPath(ITEMS, 987_654));
    expect(remove.statusCode).toBe(404);
    expect(remove.json().message).toBe('Test Items has no row with id 987654.');
  });

  it('deletes a row with 204, and a second delete is a 404', async () => {
    const created = await createItem();
    const response = await admin('DELETE', tableRowPath(ITEMS, created.id));
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await storedItem(created.id)).toBeUndefined();
    expect((await admin('DELETE', tableRowPath(ITEMS, created.id))).statusCode).toBe(404);
    const { rows } = (await admin('GET', tableRowsPath(ITEMS))).json();
    expect(rows.map((row: TableRow) => row.id)).not.toContain(created.id);
  });

  it('refuses an id that is not a positive whole number', async () => {
    const created = await createItem();
    for (const id of ['0', '-1', '1.5', 'abc', '1e3', '9007199254740993', `0${created.id}`]) {
      const url = `${tableRowsPath(ITEMS)}/${id}`;
      for (const [method, payload] of [
        ['PUT', validItem],
        ['DELETE', undefined],
      ] as const) {
        const response = await admin(method, url, payload);
        expect(response.statusCode, `${method} ${id}`).toBe(400);
        expect(response.json()).toEqual({
          error: 'Bad Request',
          message: 'The id must be a positive whole number.',
        });
      }
    }
    expect(await storedItem(created.id)).toBeDefined();
  });

  it('answers 404 for a table that is not configured, even one the database has', async () => {
    for (const name of ['nope', 'auth_user', 'auth_session', 'schema_migrations']) {
      for (const [method, url, payload] of [
        ['GET', tableRowsPath(name), undefined],
        ['POST', tableRowsPath(name), { name: 'x' }],
        ['PUT', tableRowPath(name, 1), { name: 'x' }],
        ['DELETE', tableRowPath(name, 1), undefined],
      ] as const) {
        const response = await admin(method, url, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({
          error: 'Not Found',
          message: `There is no table "${name}" in the admin.`,
        });
      }
    }
  });

  it('refuses a column that is not configured, naming it', async () => {
    for (const [method, url] of [
      ['POST', tableRowsPath(ITEMS)],
      ['PUT', tableRowPath(ITEMS, (await createItem()).id)],
    ] as const) {
      const response = await admin(method, url, { ...validItem, secret_column: 1 });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'Bad Request',
        message: 'Test Items has no field "secret_column".',
      });
    }
    const injected = await admin('POST', tableRowsPath(ITEMS), {
      ...validItem,
      'title" = 1; drop table admin_test_items; --': 'x',
    });
    expect(injected.statusCode).toBe(400);
    expect((await admin('GET', tableRowsPath(ITEMS))).statusCode).toBe(200);
  });

  it('refuses a body that is not an object of field values', async () => {
    for (const payload of [[], 'text', 5, null]) {
      const response = await app.inject({
        method: 'POST',
        url: tableRowsPath(ITEMS),
        headers: {
          cookie: adminCookie,
          origin: app.config.publicUrl,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe('The row must be a JSON object of field values.');
    }
    const broken = await app.inject({
      method: 'POST',
      url: tableRowsPath(ITEMS),
      headers: {
        cookie: adminCookie,
        origin: app.config.publicUrl,
        'content-type': 'application/json',
      },
      payload: '{"title": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'Bad Request' });
  });

  it('stops at the first required field left empty, in configuration order', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'Title'],
      [{ title: '   ', quantity: null, body: '' }, 'Title'],
      [{ title: 'A' }, 'Quantity'],
      [{ title: 'A', quantity: null, body: '<p>b</p>' }, 'Quantity'],
      [{ title: 'A', quantity: 1 }, 'Body'],
      [{ title: 'A', quantity: 1, body: null }, 'Body'],
      [{ title: 'A', quantity: 1, body: '<p><br></p>' }, 'Body'],
      [{ title: 'A', quantity: 1, body: '<p>&nbsp;</p>' }, 'Body'],
      [{ title: 'A', quantity: 1, body: '<script>alert("only this")</script>' }, 'Body'],
      [{ title: 'A', quantity: 1, body: '<p><img src="javascript:alert(1)"></p>' }, 'Body'],
    ];
    const existing = await createItem();
    for (const [body, field] of cases) {
      for (const [method, url] of [
        ['POST', tableRowsPath(ITEMS)],
        ['PUT', tableRowPath(ITEMS, existing.id)],
      ] as const) {
        const response = await admin(method, url, body);
        expect(response.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(response.json()).toEqual({
          error: 'Bad Request',
          message: `Field "${field}" is required.`,
        });
      }
    }
    const form = await admin('POST', tableRowsPath('form_submissions'), { email: '' });
    expect(form.json().message).toBe('Field "Name" is required.');
    expect((await storedItem(existing.id))!.title).toBe('A');
  });

  it('counts an image as content, and never requires a checkbox', async () => {
    const row = await createItem({ body: `<p><img src="${PNG}"></p>` });
    expect(row.body).toBe(`<p><img src="${PNG}" /></p>`);
    expect(row.done).toBe(false);
  });

  it('refuses a value of the wrong type, naming the field', async () => {
    const timestampMessage =
      'Field "Happened At" must be a date and time with a time zone, like 2025-05-15T09:30:00Z.';
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: '12' }, 'Field "Amount" must be a number.'],
      [{ amount: true }, 'Field "Amount" must be a number.'],
      [{ quantity: '1' }, 'Field "Quantity" must be a number.'],
      [{ happened_at: '2025-05-15T09:30:00' }, timestampMessage],
      [{ happened_at: '2025-02-30T09:30:00Z' }, timestampMessage],
      [{ happened_at: '15/05/2025 09:30' }, timestampMessage],
      [{ happened_at: 1_747_301_400_000 }, timestampMessage],
      [{ done: 'true' }, 'Field "Done" must be true or false.'],
      [{ done: null }, 'Field "Done" must be true or false.'],
      [{ done: 1 }, 'Field "Done" must be true or false.'],
      [{ title: 5 }, 'Field "Title" must be text.'],
      [{ body: { html: '<p>x</p>' } }, 'Field "Body" must be text.'],
    ];
    for (const [values, message] of cases) {
      const response = await admin('POST', tableRowsPath(ITEMS), { ...validItem, ...values });
      expect(response.statusCode, JSON.stringify(values)).toBe(400);
      expect(response.json()).toEqual({ error: 'Bad Request', message });
    }
    const infinite = await app.inject({
      method: 'POST',
      url: tableRowsPath(ITEMS),
      headers: {
        cookie: adminCookie,
        origin: app.config.publicUrl,
        'content-type': 'application/json',
      },
      payload: '{"title":"A","quantity":1,"body":"<p>b</p>","amount":1e400}',
    });
    expect(infinite.statusCode).toBe(400);
    expect(infinite.json().message).toBe('Field "Amount" must be a number.');
  });

  it('stores numbers, timestamps in any zone, and nulls for optional fields', async () => {
    const row = await createItem({
      amount: -0.25,
      happened_at: '2025-05-15T09:30+05:30',
    });
    expect(row).toMatchObject({ amount: -0.25, happened_at: '2025-05-15T04:00:00.000Z' });
    const cleared = await admin('PUT', tableRowPath(ITEMS, row.id), {
      ...validItem,
      amount: null,
      happened_at: null,
    });
    expect(cleared.json().row).toMatchObject({ amount: null, happened_at: null });
  });

  it('answers 400, not 500, when the column itself refuses a value', async () => {
    for (const quantity of [1.5, 3_000_000_000]) {
      const response = await admin('POST', tableRowsPath(ITEMS), { ...validItem, quantity });
      expect(response.statusCode, String(quantity)).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'Bad Request',
        message: expect.stringMatching(/^The database refused these values: .*integer/),
      });
    }
  });

  it('stores text without NUL characters, and an emptied optional text as ""', async () => {
    const response = await admin('POST', tableRowsPath('form_submissions'), {
      name: 'Nul\u0000l',
      email: 'nul@example.com',
      message: null,
      notes: '<p>a\u0000b</p>',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().row).toMatchObject({ name: 'Null', message: '' });
    expect(response.json().row.notes).toBe('<p>ab</p>');
  });

  it('sanitises rich text before storing it', async () => {
    const dirty =
      '<p onclick="steal()" style="color:red">Hi <a href="jav&#x09;ascript:alert(1)">link</a></p>' +
      '<img src=x onerror=alert(1)><script>alert(1)</script>' +
      '<svg onload=alert(1)></svg><iframe src="javascript:alert(1)" class="ql-video"></iframe>';
    const clean = '<p>Hi <a target="_blank" rel="noopener noreferrer">link</a></p><img src="" />';
    const response = await admin('POST', tableRowsPath(ITEMS), { ...validItem, body: dirty });
    expect(response.statusCode).toBe(201);
    const { row } = response.json();
    expect(row.body).toBe(clean);
    expect((await storedItem(row.id))!.body).toBe(clean);

    const updated = await admin('PUT', tableRowPath(ITEMS, row.id), {
      ...validItem,
      body: '<p>Safe</p><img src="https://example.com/a.png" onerror="alert(1)">',
    });
    expect((await storedItem(row.id))!.body).toBe(
      '<p>Safe</p><img src="https://example.com/a.png" />',
    );
    expect(updated.json().row.body).toBe('<p>Safe</p><img src="https://example.com/a.png" />');
  });

  it('takes rich text with pasted images up to 2 MiB, and refuses more with a clear 413', async () => {
    const image = `data:image/png;base64,${'A'.repeat(1_500_000)}`;
    const large = await admin('POST', tableRowsPath(ITEMS), {
      ...validItem,
      body: `<p><img src="${image}"></p>`,
    });
    expect(large.statusCode).toBe(201);
    expect((await storedItem(large.json().row.id))!.body).toBe(`<p><img src="${image}" /></p>`);

    for (const [method, url] of [
      ['POST', tableRowsPath(ITEMS)],
      ['PUT', tableRowPath(ITEMS, large.json().row.id)],
    ] as const) {
      const response = await admin(method, url, {
        ...validItem,
        body: `<p>${'x'.repeat(2 * 1024 * 1024)}</p>`,
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        error: 'Payload Too Large',
        message: 'The row is too large to save (at most 2 MiB). Use fewer or smaller images.',
      });
    }
  });

  it('refuses every route and method without a session, with a forged or expired one, to a non-admin and across sites, and shows no row', async () => {
    const existing = await createItem({ title: 'Secret row marker' });
    // A real admin session that has run out.
    const expiredCookie = await signIn(app, sink, ADMIN);
    const token = decodeURIComponent(expiredCookie.split('=')[1]!).split('.')[0]!;
    const expired = await sql`update auth_session set "expiresAt" = now() - interval '1 minute'
      where token = ${token}`.execute(use().db);
    expect(Number(expired.numAffectedRows)).toBe(1);
    const routes = [
      ['GET', tableRowsPath(ITEMS), undefined],
      ['GET', `${tableRowsPath(ITEMS)}?page=0`, undefined],
      ['GET', tableRowsPath('no_such_table'), undefined],
      ['POST', tableRowsPath(ITEMS), validItem],
      ['PUT', tableRowPath(ITEMS, existing.id), { ...validItem, title: 'Hijacked' }],
      ['DELETE', tableRowPath(ITEMS, existing.id), undefined],
      ['GET', '/api/admin/session', undefined],
    ] as const;
    const countBefore = (await admin('GET', tableRowsPath(ITEMS))).json().count;
    for (const [method, url, payload] of routes) {
      const send = (headers: Record<string, string>) =>
        app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
      const origin = app.config.publicUrl;
      const answers = [];

      const anonymous = await send({ origin });
      expect(anonymous.statusCode, `${method} ${url} anonymous`).toBe(401);
      expect(anonymous.json()).toEqual({ error: 'Unauthorized', message: 'Sign in to continue.' });
      answers.push(anonymous);

      const forged = await send({ origin, cookie: 'soul-reset.session_token=forged.value' });
      expect(forged.statusCode, `${method} ${url} forged`).toBe(401);
      answers.push(forged);

      const lapsed = await send({ origin, cookie: expiredCookie });
      expect(lapsed.statusCode, `${method} ${url} expired`).toBe(401);
      answers.push(lapsed);

      const visitor = await send({ origin, cookie: visitorCookie });
      expect(visitor.statusCode, `${method} ${url} visitor`).toBe(403);
      expect(visitor.json()).toEqual({
        error: 'Forbidden',
        message: 'This account has no access to the admin area.',
      });
      answers.push(visitor);

      if (method !== 'GET') {
        for (const foreign of [undefined, 'https://evil.example', 'null']) {
          const headers: Record<string, string> = { cookie: adminCookie };
          if (foreign) headers.origin = foreign;
          const crossSite = await send(headers);
          expect(crossSite.statusCode, `${method} ${url} from ${foreign}`).toBe(403);
          expect(crossSite.json().message).toBe('This request must come from the site itself.');
          answers.push(crossSite);
        }
      }
      for (const answer of answers) {
        expect(answer.body, `${method} ${url}`).not.toContain('Secret row marker');
        expect(answer.body).not.toContain(ADMIN);
      }
    }
    // A method the admin API does not have is a plain 404 for everyone, admin included.
    for (const cookie of [undefined, visitorCookie, adminCookie]) {
      const patch = await app.inject({
        method: 'PATCH',
        url: tableRowPath(ITEMS, existing.id),
        headers: { origin: app.config.publicUrl, ...(cookie ? { cookie } : {}) },
        payload: { title: 'Hijacked' },
      });
      expect(patch.statusCode).toBe(404);
      expect(patch.body).not.toContain('Secret row marker');
    }
    expect((await admin('GET', tableRowsPath(ITEMS))).json().count).toBe(countBefore);
    expect((await storedItem(existing.id))!.title).toBe('Secret row marker');
  });
});
