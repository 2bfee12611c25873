import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { tableConfigurationsDir } from '../src/server/app';
import { readListQuery } from '../src/server/admin/tables/list-query';
import { countMatching, pageMatching } from '../src/server/admin/tables/list-rows';
import { loadTableConfigurations } from '../src/server/admin/tables/table-configurations';

/**
 * POST /__bench/explain { table, q }: the plans, with their run times and buffers, of the
 * two statements a search's first page runs (its count, then its page), as the list runs them.
 */
export async function explainSearchRoute(app: FastifyInstance) {
  const tables = await loadTableConfigurations(tableConfigurationsDir);
  app.post<{ Body: { table: string; q: string } }>('/__bench/explain', async (request) => {
    const { db } = app.database;
    const table = tables.find((t) => t.db_table_name === request.body.table);
    const read = table && readListQuery(table, { q: request.body.q });
    if (!table || !read?.ok) throw new Error(`Cannot search ${request.body.table}.`);
    const explain = async (statement: RawBuilder<unknown>) => {
      const { rows } = await sql<Record<string, string>>`
        explain (analyze, buffers) ${statement}`.execute(db);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    };
    const counted = await countMatching(table, read.query).execute(db);
    const count = Number(counted.rows[0]!.count);
    return {
      count: await explain(countMatching(table, read.query)),
      page: await explain(pageMatching(table, read.query, 0, count)),
    };
  });
}
