import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { fieldTypeProblem } from '../../../src/shared/admin/row-validation';
import {
  isEditableField,
  PAGE_SIZE,
  type FieldConfig,
  type TableConfig,
} from '../../../src/shared/admin/table-config';
import { readRowValues } from '../../../src/server/admin/tables/row-input';
import { MAX_PAGE, ROW_BODY_LIMIT } from '../../../src/server/admin/tables/table-routes';
import {
  byteLength,
  entriesOf,
  extraEntries,
  hasPrototypeKey,
  hostileBody,
  jsonBody,
  objectText,
  parsedJson,
  type Entries,
  type FuzzBody,
} from './fuzz-body';
import { answerProblem } from './fuzz-route';
import { htmlPayloads, hostileString, hostileValue, prototypeKeys } from './hostile-values';

export type AdminRequest = {
  table: string;
  id?: string;
  page?: string | string[];
  body?: FuzzBody;
};

const timestamp = fc.oneof(
  fc
    .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  fc.constantFrom(
    '2025-05-15T09:30:00Z',
    '2025-05-15T09:30Z',
    '2025-05-15T09:30:00.123456+05:30',
    '2025-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-14:00',
    '2025-05-15T09:30:00',
    '2025-05-15',
    'infinity',
    'now',
    null,
  ),
);

const richText = fc.oneof(
  fc.string({ maxLength: 200 }).map((text) => `<p>${text}</p>`),
  fc.constantFrom(...htmlPayloads, '<p><br></p>', '<p>&nbsp;</p>', '<p>ok</p>'),
  fc
    .array(fc.constantFrom(...htmlPayloads, '<p>', '</p>', 'text', '\u0000', '<'), {
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
);

function validValue(field: FieldConfig): fc.Arbitrary<unknown> {
  switch (field.type) {
    case 'number':
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'timestamp':
      return timestamp;
    case 'checkbox':
      return fc.boolean();
    case 'rich_text':
      return richText;
    default:
      return fc.oneof(
        fc.string({ minLength: 1, maxLength: 100 }),
        fc.constantFrom('Ana', 'ana@example.com', 'https://example.com/a.pdf'),
      );
  }
}

/**
 * Every field of the table, each left out, valid for its type, or hostile; one body in three
 * has valid values only, so that saves succeed often enough to be tested too.
 */
function rowEntries(table: TableConfig) {
  const fieldsOf = (hostileWeight: number) =>
    Object.fromEntries(
      table.field_list.map((field) => [
        field.db_name,
        hostileWeight === 0
          ? validValue(field)
          : fc.oneof(
              { weight: 3, arbitrary: validValue(field) },
              { weight: hostileWeight, arbitrary: hostileValue(5000) },
            ),
      ]),
    );
  const unknownColumns = fc.oneof(
    { weight: 4, arbitrary: extraEntries },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('password', 'role', 'id"; drop table x;--', 'Name', ...prototypeKeys)
        .map((key): [string, unknown][] => [[key, 'x']]),
    },
  );
  const extra = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Entries>([]) },
    { weight: 1, arbitrary: unknownColumns },
  );
  return fc.oneof(
    { weight: 1, arbitrary: entriesOf(fieldsOf(0), fc.constant<Entries>([])) },
    { weight: 2, arbitrary: entriesOf(fieldsOf(2), extra) },
  );
}

/** Larger than the 2 MiB a row may be. */
const oversizedRow = fc.constant(
  jsonBody(objectText([['notes', `<p>${'x'.repeat(ROW_BODY_LIMIT)}</p>`]])),
);

function rowBodies(table: TableConfig): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    { weight: 200, arbitrary: hostileBody(rowEntries(table)) },
    { weight: 1, arbitrary: oversizedRow },
  );
}

function tableName(tables: readonly TableConfig[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...tables.map((table) => table.db_table_name)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom(
          'auth_user',
          'auth_session',
          'pg_catalog.pg_authid',
          'form_submissions; drop table form_submissions',
          'FORM_SUBMISSIONS',
          '..',
          ...prototypeKeys,
        ),
        hostileString(100),
      ),
    },
  );
}

const rowId = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 80 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '01',
      'abc',
      '0x10',
      ' 1',
      '1;drop table x',
      '99999999999999999999',
      '9007199254740993',
      '\u0000',
    ),
  },
);

const page = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 5, arbitrary: fc.nat(20).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '-1',
      '1.5',
      'abc',
      '',
      '1e2',
      String(MAX_PAGE),
      String(MAX_PAGE + 1),
      '99999999999999999999',
      '0x1',
      ' 1',
      '\u0000',
      '0'.repeat(5000),
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.nat(5).map(String), { minLength: 2, maxLength: 3 }) },
);

export function adminRequests(tables: readonly TableConfig[]) {
  const byName = new Map(tables.map((table) => [table.db_table_name, table]));
  const withBody = (name: string) => rowBodies(byName.get(name) ?? tables[0]!);
  const table = tableName(tables);
  return {
    list: fc.record({ table, page }) as fc.Arbitrary<AdminRequest>,
    create: table.chain((name) =>
      withBody(name).map((body): AdminRequest => ({ table: name, body })),
    ),
    update: fc
      .tuple(table, rowId)
      .chain(([name, id]) =>
        withBody(name).map((body): AdminRequest => ({ table: name, id, body })),
      ),
    delete: fc.record({ table, id: rowId }) as fc.Arbitrary<AdminRequest>,
  };
}

export type AdminKind = keyof ReturnType<typeof adminRequests>;

const methods: Record<AdminKind, InjectOptions['method']> = {
  list: 'GET',
  create: 'POST',
  update: 'PUT',
  delete: 'DELETE',
};

/** Percent-encoded UTF-8, as a browser sends it (a lone surrogate becomes U+FFFD). */
function encoded(text: string): string {
  return [...Buffer.from(text)]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

function urlOf(request: AdminRequest): string {
  const rows = `/api/admin/tables/${encoded(request.table)}/rows`;
  if (request.id !== undefined) return `${rows}/${encoded(request.id)}`;
  if (request.page === undefined) return rows;
  const pages = Array.isArray(request.page) ? request.page : [request.page];
  return `${rows}?${pages.map((p) => `page=${encoded(p)}`).join('&')}`;
}

/** A request of the signed-in admin from the site's own page. */
export function sendAdmin(
  app: FastifyInstance,
  cookie: string,
  kind: AdminKind,
  request: AdminRequest,
) {
  const { body } = request;
  return app.inject({
    method: methods[kind],
    url: urlOf(request),
    headers: {
      cookie,
      origin: app.config.publicUrl,
      ...(body?.contentType === undefined ? {} : { 'content-type': body.contentType }),
    },
    ...(body === undefined ? {} : { payload: body.payload }),
  });
}

const validId = (id: string | undefined) =>
  id !== undefined && /^[1-9]\d*$/.test(id) && Number.isSafeInteger(Number(id));

/**
 * What the API documents a save may carry, checked apart from the server's reader: a JSON
 * object of configured fields, each of its field's type, no required field sent empty.
 */
function saveAllowed(table: TableConfig, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const sent = value as Record<string, unknown>;
  const fields = new Map(table.field_list.map((field) => [field.db_name, field]));
  for (const key of Object.keys(sent)) {
    const field = fields.get(key);
    if (!field) return false;
    if (!isEditableField(field)) continue;
    if (fieldTypeProblem(field, sent[key]) !== null) return false;
    if (field.required && field.type !== 'checkbox' && sent[key] === null) return false;
  }
  return true;
}

/**
 * Never a 5xx, every refusal a clear 4xx; a success only for a configured table, a valid id
 * or page and a body the API allows; and a body the server's own reader accepts is refused
 * only by the database's type limits (e.g. a date out of range), or as a missing row.
 */
export function adminChecker(tables: readonly TableConfig[], kind: AdminKind) {
  const byName = new Map(tables.map((table) => [table.db_table_name, table]));
  return (request: AdminRequest, response: LightMyRequestResponse): string | null => {
    const problem = answerProblem(response, 'api');
    if (problem) return problem;
    const table = byName.get(request.table);
    const status = response.statusCode;
    if (status < 300) {
      if (!table) return `answered ${status} for a table that is not configured`;
      if (kind === 'list') {
        const pages = request.page;
        if (Array.isArray(pages)) return `answered ${status} to two page numbers`;
        if (pages !== undefined && !(/^\d+$/.test(pages) && Number(pages) <= MAX_PAGE)) {
          return `answered ${status} to page ${JSON.stringify(pages)}`;
        }
        const answer = response.json() as { rows?: unknown };
        if (!Array.isArray(answer.rows) || answer.rows.length > PAGE_SIZE) {
          return `listed ${JSON.stringify(answer).slice(0, 200)}`;
        }
        return null;
      }
      if (kind !== 'create' && !validId(request.id)) {
        return `answered ${status} to id ${JSON.stringify(request.id)}`;
      }
      if (kind === 'delete') return null;
      const parsed = request.body && parsedJson(request.body);
      if (!parsed || !saveAllowed(table, parsed.value)) {
        return `saved (${status}) a body the API does not allow`;
      }
      return null;
    }
    if (!table || kind === 'list' || kind === 'delete' || !request.body) return null;
    if (kind === 'update' && (!validId(request.id) || status === 404)) return null;
    const parsed = parsedJson(request.body);
    const readable =
      parsed !== undefined &&
      !hasPrototypeKey(request.body) &&
      byteLength(request.body) <= ROW_BODY_LIMIT &&
      readRowValues(table, parsed.value).ok;
    const refusedByTypes =
      status === 400 &&
      String(response.json<{ message?: string }>().message).startsWith('The database refused');
    if (readable && !refusedByTypes) return `refused (${status}) a row the reader accepts`;
    return null;
  };
}
