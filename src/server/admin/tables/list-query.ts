import * as z from 'zod/mini';
import {
  MAX_FILTER_LENGTH,
  MAX_SEARCH_LENGTH,
  type SortOrder,
} from '../../../shared/admin/table-api';
import type { FieldConfig, TableConfig } from '../../../shared/admin/table-config';
import { quoteName } from './quote-name';

/** A search, sort and filter read from a request and checked against the configuration. */
export type ListQuery = {
  /** The search, trimmed; null for none. */
  q: string | null;
  sort: string;
  order: SortOrder;
  conditions: Condition[];
};

export type Condition =
  | { column: string; kind: 'equals'; value: string | number | boolean }
  | { column: string; kind: 'empty' }
  | { column: string; kind: 'range'; from?: Instant; to?: Instant };

/** A bound of a date range: a whole UTC day (from its start, or through its end) or an instant. */
export type Instant = { day: string } | { at: string };

export const defaultListQuery: ListQuery = { q: null, sort: 'id', order: 'desc', conditions: [] };

/** The columns a search looks in, when the table has them. */
export const SEARCHED_COLUMNS = ['name', 'email', 'message'] as const;

export type ListQueryResult = { ok: true; query: ListQuery } | { ok: false; message: string };

const text = (message: string) => z.optional(z.string({ error: message }));

const querySchema = z.object({
  q: z.optional(
    z
      .string({ error: 'Search for one text (q), not several.' })
      .check(
        z.maxLength(
          MAX_SEARCH_LENGTH,
          `The search is too long (at most ${MAX_SEARCH_LENGTH} characters).`,
        ),
      ),
  ),
  sort: text('Sort by one column (sort), not several.'),
  order: z.optional(z.enum(['asc', 'desc'], { error: 'The order must be "asc" or "desc".' })),
  filter: z.optional(
    z
      .string({ error: 'Send one filter (filter), not several.' })
      .check(
        z.maxLength(
          MAX_FILTER_LENGTH,
          `The filter is too long (at most ${MAX_FILTER_LENGTH} characters).`,
        ),
      ),
  ),
});

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const zonedDateTime = z.union([
  z.iso.datetime({ offset: true }),
  z.iso.datetime({ offset: true, precision: -1 }),
]);

/** A real calendar day from year 1 to 9999 (PostgreSQL has no year 0). */
function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

function readInstant(value: unknown): Instant | null {
  if (typeof value !== 'string') return null;
  if (isDay(value)) return { day: value };
  if (!zonedDateTime.safeParse(value).success || value.startsWith('0000')) return null;
  return Number.isNaN(new Date(value).getTime()) ? null : { at: value };
}

const hasNul = (value: string) => value.includes('\u0000');

function readCondition(field: FieldConfig, value: unknown): Condition | string {
  const column = field.db_name;
  const name = `Filter "${field.ui_name}"`;
  if (value === null) return { column, kind: 'empty' };
  switch (field.type) {
    case 'checkbox':
      return typeof value === 'boolean'
        ? { column, kind: 'equals', value }
        : `${name} must be true or false.`;
    case 'id':
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? { column, kind: 'equals', value }
        : `${name} must be a number.`;
    case 'timestamp': {
      const problem = `${name} must be a range like {"from":"2025-05-01","to":"2025-05-31"} (days in UTC, or ISO 8601 times with a zone).`;
      if (typeof value !== 'object' || Array.isArray(value)) return problem;
      const range = value as Record<string, unknown>;
      const keys = Object.keys(range);
      if (keys.length === 0 || keys.some((key) => key !== 'from' && key !== 'to')) return problem;
      const from = range.from === undefined ? undefined : readInstant(range.from);
      const to = range.to === undefined ? undefined : readInstant(range.to);
      if (from === null || to === null) return problem;
      return { column, kind: 'range', ...(from && { from }), ...(to && { to }) };
    }
    case 'rich_text':
      return `${name}: rich text cannot be filtered; search instead.`;
    default:
      if (typeof value !== 'string') return `${name} must be text.`;
      if (hasNul(value)) return `${name} cannot contain a NUL character.`;
      return { column, kind: 'equals', value };
  }
}

function readFilter(table: TableConfig, raw: string): Condition[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'The filter must be a JSON object of column names and values.';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'The filter must be a JSON object of column names and values.';
  }
  const fields = new Map(table.field_list.map((field) => [field.db_name, field]));
  const conditions: Condition[] = [];
  for (const [column, value] of Object.entries(parsed)) {
    const field = fields.get(column);
    if (!field) return `${table.ui_table_name} has no column ${quoteName(column)} to filter by.`;
    const condition = readCondition(field, value);
    if (typeof condition === 'string') return condition;
    conditions.push(condition);
  }
  return conditions;
}

/**
 * The search, sort and filter of a list or export request, or the message of a 400: only
 * configured columns, a search and a filter of bounded length, well-formed values.
 */
export function readListQuery(table: TableConfig, query: unknown): ListQueryResult {
  const parsed = querySchema.safeParse(query ?? {});
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  const { q, sort, order, filter } = parsed.data;
  if (q !== undefined && hasNul(q)) {
    return { ok: false, message: 'The search cannot contain a NUL character.' };
  }
  if (sort !== undefined && !table.field_list.some((field) => field.db_name === sort)) {
    return {
      ok: false,
      message: `${table.ui_table_name} has no column ${quoteName(sort)} to sort by.`,
    };
  }
  const conditions = filter === undefined || filter === '' ? [] : readFilter(table, filter);
  if (typeof conditions === 'string') return { ok: false, message: conditions };
  const search = q?.trim() ?? '';
  return {
    ok: true,
    query: {
      q: search === '' ? null : search,
      sort: sort ?? 'id',
      order: order ?? (sort === undefined ? 'desc' : 'asc'),
      conditions,
    },
  };
}

/** True for the plain listing that the row counters of migration 0003 answer. */
export function isPlainListing(query: ListQuery): boolean {
  return (
    query.q === null &&
    query.conditions.length === 0 &&
    query.sort === 'id' &&
    query.order === 'desc'
  );
}
