import { vi } from 'vitest';
import type { RowValues, TablePage } from '../../shared/admin/table-api';
import { PAGE_SIZE, type TableRow } from '../../shared/admin/table-config';

type Failure = { status: number; message: string } | { status: number; text: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const ROUTE = /^\/api\/admin\/tables\/([^/?]+)\/rows(?:\/(\d+))?(?:\?(.*))?$/;
const BULK_DELETE = /^\/api\/admin\/tables\/([^/?]+)\/bulk-delete$/;

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
 * Answers the admin table API (shared/admin/table-api.ts) in jsdom from rows kept in memory,
 * newest id first, ten to a page. Other URLs go to the fetch installed before it (the fake
 * auth server). The real server's answers are tested in src/server and end to end.
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
  const fallback = globalThis.fetch;

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

  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const bulk = BULK_DELETE.exec(url);
      if (bulk) {
        const table = decodeURIComponent(bulk[1]!);
        const body = JSON.parse(String(init?.body)) as { ids: number[] };
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
      const route = ROUTE.exec(url);
      if (!route) return fallback(input, init);
      const method = (init?.method ?? 'GET') as Method;
      const table = decodeURIComponent(route[1]!);
      const id = route[2] === undefined ? undefined : Number(route[2]);
      const params = new URLSearchParams(route[3]);
      const page = method === 'GET' ? Number(params.get('page')) : undefined;
      const body = init?.body ? (JSON.parse(String(init.body)) as RowValues) : undefined;
      const rest = new URLSearchParams(params);
      rest.delete('page');
      const search = method === 'GET' && rest.size > 0 ? rest.toString() : undefined;
      calls.push({ method, table, id, page, body, ...(search && { search }) });
      if (held) await held;
      return answer(method, table, id, page, body, params);
    }),
  );

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
