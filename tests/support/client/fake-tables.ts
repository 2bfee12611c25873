import {
  tableBulkDeletePath,
  tableRowsPath,
  type RowValues,
  type TablePage,
} from '../../../src/shared/admin/table-api';
import { PAGE_SIZE, type TableRow } from '../../../src/shared/admin/table-config';
import { fakeApi, type FakeRequest } from './fake-api';

type Failure = { status: number; message: string } | { status: number; text: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The rows a list query matches, as the server would pick and order them. */
function matching(rows: TableRow[], params: URLSearchParams): TableRow[] {
  const q = params.get('q')?.toLowerCase();
  const filter = JSON.parse(params.get('filter') ?? '{}') as Record<string, unknown>;
  const sort = params.get('sort') ?? 'id';
  const order = params.get('order') ?? (params.get('sort') ? 'asc' : 'desc');
  const found = rows.filter(
    (row) =>
      (!q ||
        ['name', 'email', 'message'].some((column) =>
          String(row[column] ?? '')
            .toLowerCase()
            .includes(q),
        )) &&
      Object.entries(filter).every(([column, value]) =>
        typeof value === 'object' && value !== null ? true : row[column] === value,
      ),
  );
  const sign = order === 'asc' ? 1 : -1;
  const compare = (x: unknown, y: unknown) =>
    typeof x === 'number' && typeof y === 'number'
      ? x - y
      : String(x ?? '') < String(y ?? '')
        ? -1
        : String(x ?? '') > String(y ?? '')
          ? 1
          : 0;
  return found.sort((a, b) => sign * (compare(a[sort], b[sort]) || a.id - b.id));
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function errorAnswer(failure: Failure): Response {
  return 'text' in failure
    ? new Response(failure.text, {
        status: failure.status,
        headers: { 'content-type': 'text/html' },
      })
    : json(failure.status, { error: 'Error', message: failure.message });
}

/**
 * The admin table API's routes (shared/admin/table-api.ts) on the fake API, answered from rows
 * kept in memory, newest id first, ten to a page. Other paths keep the routes given before
 * (the signed-in session).
 */
export function fakeTableServer(tables: Record<string, TableRow[]>) {
  const data = new Map(Object.entries(tables).map(([name, rows]) => [name, [...rows]]));
  const calls: {
    method: Method;
    table: string;
    id?: number;
    page?: number;
    body?: RowValues;
    /** The list's query string without the page, when it has more than the page. */
    search?: string;
  }[] = [];
  const failures: { method: Method; failure: Failure }[] = [];
  let held: Promise<void> | undefined;

  async function answer(
    method: Method,
    table: string,
    id: number | undefined,
    page: number | undefined,
    body: RowValues | undefined,
    params: URLSearchParams = new URLSearchParams(),
  ) {
    const failureAt = failures.findIndex((entry) => entry.method === method);
    if (failureAt !== -1) return errorAnswer(failures.splice(failureAt, 1)[0]!.failure);
    const rows = data.get(table);
    if (!rows) return json(404, { error: 'Not Found', message: `No table ${table}.` });
    const at = rows.findIndex((row) => row.id === id);
    const now = new Date().toISOString();
    switch (method) {
      case 'GET': {
        const from = (page ?? 0) * PAGE_SIZE;
        const sorted = matching(rows, params);
        const answer: TablePage = {
          rows: sorted.slice(from, from + PAGE_SIZE),
          count: sorted.length,
          page: page ?? 0,
          pageSize: PAGE_SIZE,
        };
        return json(200, answer);
      }
      case 'POST': {
        const row = {
          ...body,
          id: Math.max(0, ...rows.map((existing) => existing.id)) + 1,
          created_at: now,
          updated_at: now,
        } as TableRow;
        rows.push(row);
        return json(201, { row });
      }
      case 'PUT': {
        if (at === -1) return json(404, { error: 'Not Found', message: 'No such row.' });
        rows[at] = { ...rows[at]!, ...body, updated_at: now } as TableRow;
        return json(200, { row: rows[at] });
      }
      case 'DELETE': {
        if (at === -1) return json(404, { error: 'Not Found', message: 'No such row.' });
        rows.splice(at, 1);
        return new Response(null, { status: 204 });
      }
    }
  }

  async function rowsRoute(table: string, request: FakeRequest) {
    const method = request.method as Method;
    const idText = request.path.slice(tableRowsPath(table).length + 1);
    const id = idText === '' ? undefined : Number(idText);
    const params = request.params;
    const page = method === 'GET' ? Number(params.get('page')) : undefined;
    const body = request.body as RowValues | undefined;
    const rest = new URLSearchParams(params);
    rest.delete('page');
    const search = method === 'GET' && rest.size > 0 ? rest.toString() : undefined;
    calls.push({ method, table, id, page, body, ...(search && { search }) });
    if (held) await held;
    return answer(method, table, id, page, body, params);
  }

  async function bulkDeleteRoute(table: string, request: FakeRequest) {
    const body = request.body as { ids: number[] };
    calls.push({ method: 'POST', table, body: body as unknown as RowValues });
    if (held) await held;
    const failureAt = failures.findIndex((entry) => entry.method === 'POST');
    if (failureAt !== -1) return errorAnswer(failures.splice(failureAt, 1)[0]!.failure);
    const rows = data.get(table) ?? [];
    const before = rows.length;
    data.set(
      table,
      rows.filter((row) => !body.ids.includes(row.id)),
    );
    return json(200, { deleted: before - data.get(table)!.length });
  }

  for (const table of data.keys()) {
    fakeApi({
      [tableRowsPath(table)]: (request) => rowsRoute(table, request),
      [`${tableRowsPath(table)}/*`]: (request) => rowsRoute(table, request),
      [tableBulkDeletePath(table)]: (request) => bulkDeleteRoute(table, request),
    });
  }

  return {
    /** Every table call, in order. */
    calls,
    /** The rows of a table now. */
    rows: (table: string) => data.get(table) ?? [],
    /** The next call with `method` is refused with `failure` instead. */
    failNext(method: Method, failure: Failure) {
      failures.push({ method, failure });
    },
    /** Holds every answer back until the returned function is called. */
    hold(): () => void {
      let release = () => {};
      held = new Promise((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
      return release;
    },
  };
}

/** `count` rows of a submission table with ids 1..count, created a minute apart. */
export function sampleRows(count: number): TableRow[] {
  return Array.from({ length: count }, (_, index) => {
    const id = index + 1;
    const created = new Date(Date.UTC(2025, 4, 1, 9, id)).toISOString();
    return {
      id,
      name: `Visitor ${id}`,
      email: `visitor${id}@example.com`,
      message: `Message ${id}`,
      purchase_intent: id % 2 === 0,
      email_sent: true,
      email_sent_at: created,
      notes: null,
      created_at: created,
      updated_at: created,
    };
  });
}
