import { sql, type RawBuilder } from 'kysely';
import type { TableConfig } from '../../../shared/admin/table-config';
import { SEARCHED_COLUMNS, type Condition, type Instant, type ListQuery } from './list-query';

/** `%`, `_` and `\` match themselves in a search, not any text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * The rows whose email holds `search` (LIKE `pattern`, any case). When the search has an "@"
 * after some text, that text must end the address's text before an "@": the search index of
 * migration 0008 (address_search_key) names those few rows, where the trigram index would
 * read nearly all of its entries for one address among many alike.
 */
export function emailMatching(search: string, pattern: string): RawBuilder<boolean> {
  const email = sql<boolean>`${sql.ref('email')} ilike ${pattern}`;
  const at = search.indexOf('@');
  if (at < 1) return email;
  // Lowered by the database, as ILIKE and the key lower their text.
  const reversed = `${escapeLike([...search.slice(0, at)].reverse().join(''))}%`;
  const key = sql`address_search_key(${sql.ref('email')})`;
  return sql<boolean>`((${key} like lower(${reversed}) or ${key} = '') and ${email})`;
}

/**
 * The rows whose `column` (a name or message) holds `search`. A search with an "@" can only
 * be held by a text with an "@": the literal `like '%@%'` (a constant, not a parameter, so the
 * planner proves it) lets the partial trigram index of migration 0014 answer it from the few
 * such rows instead of the full index's shared trigrams.
 */
export function textMatching(column: string, search: string, pattern: string): RawBuilder<boolean> {
  const matched = sql<boolean>`${sql.ref(column)} ilike ${pattern}`;
  return search.includes('@')
    ? sql<boolean>`(${sql.ref(column)} like '%@%' and ${matched})`
    : matched;
}

function startOf(bound: Instant): RawBuilder<unknown> {
  return 'day' in bound
    ? sql`(${bound.day}::date::timestamp at time zone 'UTC')`
    : sql`${bound.at}::timestamptz`;
}

/** The first instant after the range: the next day's start for a day, else the instant itself. */
function endOf(bound: Instant, column: RawBuilder<unknown>): RawBuilder<boolean> {
  return 'day' in bound
    ? sql<boolean>`${column} < ((${bound.day}::date + 1)::timestamp at time zone 'UTC')`
    : sql<boolean>`${column} <= ${bound.at}::timestamptz`;
}

function conditionSql(condition: Condition): RawBuilder<boolean> {
  const column = sql.ref(condition.column);
  switch (condition.kind) {
    case 'empty':
      return sql<boolean>`${column} is null`;
    case 'equals':
      // Numbers compare as numeric, so 1.5 against a bigint column is false, not an error.
      return typeof condition.value === 'number'
        ? sql<boolean>`${column} = ${String(condition.value)}::numeric`
        : sql<boolean>`${column} = ${condition.value}`;
    case 'range': {
      const parts: RawBuilder<boolean>[] = [];
      if (condition.from) parts.push(sql<boolean>`${column} >= ${startOf(condition.from)}`);
      if (condition.to) parts.push(endOf(condition.to, sql`${column}`));
      return sql<boolean>`(${sql.join(parts, sql` and `)})`;
    }
  }
}

/** The rows a query matches, as one SQL condition (true for all rows). */
export function whereMatching(table: TableConfig, query: ListQuery): RawBuilder<boolean> {
  const parts = query.conditions.map(conditionSql);
  const search = query.q;
  if (search !== null) {
    const pattern = `%${escapeLike(search)}%`;
    const searched = SEARCHED_COLUMNS.filter((name) =>
      table.field_list.some((field) => field.db_name === name),
    );
    parts.push(
      searched.length === 0
        ? sql<boolean>`false`
        : sql<boolean>`(${sql.join(
            searched.map((name) =>
              name === 'email'
                ? emailMatching(search, pattern)
                : textMatching(name, search, pattern),
            ),
            sql` or `,
          )})`,
    );
  }
  return parts.length === 0 ? sql<boolean>`true` : sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/**
 * Sort column then id, both in the query's order: every row has one place. `avoidIndex`
 * orders by an expression no index has, so the planner takes the rows from the search and
 * filter indexes and sorts them instead of walking an index in order.
 */
export function orderMatching(query: ListQuery, { avoidIndex = false } = {}): RawBuilder<unknown> {
  const direction = sql.raw(query.order === 'asc' ? 'asc nulls last' : 'desc nulls first');
  const id = avoidIndex ? sql`(id + 0)` : sql`id`;
  return query.sort === 'id'
    ? sql`${id} ${direction}`
    : sql`${sql.ref(query.sort)} ${direction}, ${id} ${direction}`;
}
