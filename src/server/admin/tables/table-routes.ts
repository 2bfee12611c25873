import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { SavedRow, TablePage } from '../../../shared/admin/table-api';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { HttpError } from '../../http/errors';
import { listRows } from './list-rows';
import { quoteName } from './quote-name';
import { readRowValues, type WritableValues } from './row-input';
import { toTableRow } from './row-output';
import { deleteRow, insertRow, updateRow } from './row-writes';

/** Room for rich text with a few pasted images (Quill stores them as base64). */
export const ROW_BODY_LIMIT = 2 * 1024 * 1024;
/** 100 million rows deep; anything further is not a page anyone asked for. */
export const MAX_PAGE = 10_000_000;

type TableParams = { table: string };
type RowParams = { table: string; id: string };

function readPage(query: unknown): number {
  const raw = (query as Record<string, unknown> | undefined)?.page;
  if (raw === undefined) return 0;
  const page = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(page <= MAX_PAGE)) {
    throw new HttpError(400, `The page must be a whole number from 0 to ${MAX_PAGE}.`);
  }
  return page;
}

function readId(raw: string): number {
  const id = /^[1-9]\d*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new HttpError(400, 'The id must be a positive whole number.');
  }
  return id;
}

// Values the checks let through that the column still refuses (an integer column given 1.5,
// a value out of its range, a constraint): the admin's mistake, not a fault of the server.
function refusedByDatabase(error: unknown): HttpError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^2[23]/.test(code)) return null;
  return new HttpError(400, `The database refused these values: ${(error as Error).message}.`);
}

async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw refusedByDatabase(error) ?? error;
  }
}

/**
 * The admin table API of shared/admin/table-api.ts, inside the /api/admin scope. Tables and
 * columns come from the configurations alone: any other table is a 404, any other column a 400.
 */
export function tableRoutes(tables: readonly TableConfig[]): FastifyPluginAsync {
  const byName = new Map(tables.map((table) => [table.db_table_name, table]));

  function configured(name: string): TableConfig {
    const table = byName.get(name);
    if (!table) throw new HttpError(404, `There is no table ${quoteName(name)} in the admin.`);
    return table;
  }

  function values(table: TableConfig, body: unknown): WritableValues {
    const input = readRowValues(table, body);
    if (!input.ok) throw new HttpError(400, input.message);
    return input.values;
  }

  const noRow = (table: TableConfig, id: number) =>
    new HttpError(404, `${table.ui_table_name} has no row with id ${id}.`);

  return async (scope) => {
    const db = scope.database.db;

    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply.code(413).send({
          error: 'Payload Too Large',
          message: 'The row is too large to save (at most 2 MiB). Use fewer or smaller images.',
        });
      }
      // Everything else takes the app's one error shape.
      throw error;
    });

    scope.get<{ Params: TableParams }>('/tables/:table/rows', async (request) => {
      const table = configured(request.params.table);
      const page = readPage(request.query);
      const { rows, count } = await listRows(db, table, page);
      const answer: TablePage = {
        rows: rows.map((row) => toTableRow(table, row)),
        count,
        page,
        pageSize: PAGE_SIZE,
      };
      return answer;
    });

    scope.post<{ Params: TableParams }>(
      '/tables/:table/rows',
      { bodyLimit: ROW_BODY_LIMIT },
      async (request, reply) => {
        const table = configured(request.params.table);
        const input = values(table, request.body);
        const row = await writing(() => insertRow(db, table, input));
        const answer: SavedRow = { row: toTableRow(table, row) };
        return reply.code(201).send(answer);
      },
    );

    scope.put<{ Params: RowParams }>(
      '/tables/:table/rows/:id',
      { bodyLimit: ROW_BODY_LIMIT },
      async (request) => {
        const table = configured(request.params.table);
        const id = readId(request.params.id);
        const input = values(table, request.body);
        const row = await writing(() => updateRow(db, table, id, input));
        if (!row) throw noRow(table, id);
        const answer: SavedRow = { row: toTableRow(table, row) };
        return answer;
      },
    );

    scope.delete<{ Params: RowParams }>('/tables/:table/rows/:id', async (request, reply) => {
      const table = configured(request.params.table);
      const id = readId(request.params.id);
      if (!(await deleteRow(db, table, id))) throw noRow(table, id);
      return reply.code(204).send();
    });
  };
}
