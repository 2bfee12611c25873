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
import { ROW_BODY_LIMIT } from '../../../src/server/admin/tables/table-routes';
import { MAX_PAGE } from '../../../src/server/http/input';
import {
  MAX_BULK_DELETE,
  MAX_FILTER_LENGTH,
  MAX_SEARCH_LENGTH,
} from '../../../src/shared/admin/table-api';
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
  /** Search, sort, order and filter parameters, each sent as given (a list repeats it). */
  search?: Partial<Record<SearchParam, string | string[]>>;
  body?: FuzzBody;
};

type SearchParam = 'q' | 'sort' | 'order' | 'filter';

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

const repeated = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 8, arbitrary: value },
    { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) },
  );

/** A column name: configured, unknown or hostile. */
function columnName(tables: readonly TableConfig[]): fc.Arbitrary<string> {
  const configured = [...new Set(tables.flatMap((t) => t.field_list.map((f) => f.db_name)))];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...configured) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('password', 'ID', 'id desc', 'name; drop table x', '', ...prototypeKeys),
        hostileString(80),
      ),
    },
  );
}

const filterValue = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.constantFrom('person@example.com', 'Ana', '\u0000', '', 'x'.repeat(3000)),
  fc.record(
    {
      from: fc.constantFrom(
        '2025-05-01',
        '2025-02-30',
        '0000-01-01',
        '9999-12-31',
        'now',
        '2025-05-15T09:30:00Z',
        5,
      ),
      to: fc.constantFrom('2025-05-31', '9999-12-31', '2025-05-15T09:30:00', '', null),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  hostileValue(200),
);

function filterText(tables: readonly TableConfig[]): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .dictionary(columnName(tables), filterValue, { maxKeys: 3 })
        .map((o) => JSON.stringify(o)),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom(
          '',
          '[]',
          'null',
          '1',
          '"x"',
          '{',
          '{"email_sent":',
          '{"__proto__":{"x":1}}',
        ),
        hostileString(3000),
      ),
    },
  );
}

function searchParams(tables: readonly TableConfig[]) {
  return fc.record(
    {
      q: repeated(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.constantFrom('%', '_', '\\', "'; drop table x;--", 'a'.repeat(201), '\u0000'),
          hostileString(400),
        ),
      ),
      sort: repeated(columnName(tables)),
      order: repeated(fc.constantFrom('asc', 'desc', 'ASC', 'up', '')),
      filter: repeated(filterText(tables)),
    },
    { requiredKeys: [] },
  );
}

const idList = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 5 }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constant([]),
      fc.array(hostileValue(50), { maxLength: 3 }),
      fc.constant(Array.from({ length: MAX_BULK_DELETE + 1 }, (_, i) => i + 1)),
      fc.constantFrom([0], [-1], [1.5], ['1'], [Number.MAX_SAFE_INTEGER + 2], [1e308]),
    ),
  },
);

const bulkDeleteBody: fc.Arbitrary<FuzzBody> = hostileBody(
  entriesOf({ ids: idList }, fc.oneof(fc.constant<Entries>([]), extraEntries)),
);

export function adminRequests(tables: readonly TableConfig[]) {
  const byName = new Map(tables.map((table) => [table.db_table_name, table]));
  const withBody = (name: string) => rowBodies(byName.get(name) ?? tables[0]!);
  const table = tableName(tables);
  return {
    list: fc.record(
      { table, page, search: searchParams(tables) },
      { requiredKeys: ['table'] },
    ) as fc.Arbitrary<AdminRequest>,
    create: table.chain((name) =>
      withBody(name).map((body): AdminRequest => ({ table: name, body })),
    ),
    update: fc
      .tuple(table, rowId)
      .chain(([name, id]) =>
        withBody(name).map((body): AdminRequest => ({ table: name, id, body })),
      ),
    delete: fc.record({ table, id: rowId }) as fc.Arbitrary<AdminRequest>,
    export: fc.record(
      { table, search: searchParams(tables) },
      { requiredKeys: ['table'] },
    ) as fc.Arbitrary<AdminRequest>,
    bulkDelete: fc.record({ table, body: bulkDeleteBody }) as fc.Arbitrary<AdminRequest>,
  };
}

export type AdminKind = keyof ReturnType<typeof adminRequests>;

const methods: Record<AdminKind, InjectOptions['method']> = {
  list: 'GET',
  create: 'POST',
  update: 'PUT',
  delete: 'DELETE',
  export: 'GET',
  bulkDelete: 'POST',
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

function urlOf(kind: AdminKind, request: AdminRequest): string {
  const base = `/api/admin/tables/${encoded(request.table)}`;
  if (kind === 'bulkDelete') return `${base}/bulk-delete`;
  const rows = kind === 'export' ? `${base}/export` : `${base}/rows`;
  if (request.id !== undefined) return `${rows}/${encoded(request.id)}`;
  const params: [string, string][] = [];
  const add = (name: string, value: string | string[] | undefined) => {
    for (const one of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      params.push([name, one]);
    }
  };
  add('page', request.page);
  for (const [name, value] of Object.entries(request.search ?? {})) add(name, value);
  if (params.length === 0) return rows;
  return `${rows}?${params.map(([name, value]) => `${name}=${encoded(value)}`).join('&')}`;
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
    url: urlOf(kind, request),
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
 * What the API documents a list accepts, checked apart from the server's reader: one value
 * each, a search and a filter of bounded length, a configured sort column, asc or desc, and a
 * filter that is a JSON object of configured columns. Returns what was wrong, or null.
 */
function searchAllowed(
  table: TableConfig,
  search: NonNullable<AdminRequest['search']>,
): string | null {
  for (const [name, value] of Object.entries(search)) {
    if (Array.isArray(value)) return `several ${name} parameters`;
  }
  const { q, sort, order, filter } = search as Partial<Record<SearchParam, string>>;
  const columns = new Set(table.field_list.map((field) => field.db_name));
  if (q !== undefined && (q.length > MAX_SEARCH_LENGTH || q.includes('\u0000'))) {
    return `search ${JSON.stringify(q.slice(0, 50))}`;
  }
  if (sort !== undefined && !columns.has(sort)) return `sort ${JSON.stringify(sort)}`;
  if (order !== undefined && order !== 'asc' && order !== 'desc') return `order ${order}`;
  if (filter === undefined || filter === '') return null;
  if (filter.length > MAX_FILTER_LENGTH) return 'an oversized filter';
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    return `filter ${JSON.stringify(filter.slice(0, 50))}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `filter ${filter.slice(0, 50)}`;
  }
  const unknown = Object.keys(parsed).find((key) => !columns.has(key));
  return unknown === undefined ? null : `filter column ${JSON.stringify(unknown)}`;
}

/** `{ ids }` alone: 1 to MAX_BULK_DELETE positive safe integers. */
function bulkDeleteAllowed(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const ids = (value as { ids?: unknown }).ids;
  return (
    keys.length === 1 &&
    Array.isArray(ids) &&
    ids.length >= 1 &&
    ids.length <= MAX_BULK_DELETE &&
    ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)
  );
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
      if (kind === 'export') {
        const searchProblem = searchAllowed(table, request.search ?? {});
        if (searchProblem) return `answered ${status} to ${searchProblem}`;
        if (!String(response.headers['content-type']).startsWith('text/csv')) {
          return `exported ${String(response.headers['content-type'])}`;
        }
        return null;
      }
      if (kind === 'bulkDelete') {
        const parsed = request.body && parsedJson(request.body);
        if (!parsed || !bulkDeleteAllowed(parsed.value)) {
          return `bulk deleted (${status}) with a body the API does not allow`;
        }
        return typeof response.json<{ deleted?: unknown }>().deleted === 'number'
          ? null
          : `answered ${response.body.slice(0, 100)}`;
      }
      if (kind === 'list') {
        const pages = request.page;
        if (Array.isArray(pages)) return `answered ${status} to two page numbers`;
        if (pages !== undefined && !(/^\d+$/.test(pages) && Number(pages) <= MAX_PAGE)) {
          return `answered ${status} to page ${JSON.stringify(pages)}`;
        }
        const searchProblem = searchAllowed(table, request.search ?? {});
        if (searchProblem) return `answered ${status} to ${searchProblem}`;
        const answer = response.json() as { rows?: unknown; count?: unknown };
        if (
          !Array.isArray(answer.rows) ||
          answer.rows.length > PAGE_SIZE ||
          typeof answer.count !== 'number'
        ) {
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
    if (!table || !request.body || !['create', 'update'].includes(kind)) return null;
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
