import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { SavedRow, TablePage } from '../../../shared/admin/table-api';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { attachment } from '../../http/content-disposition';
import { errorBody, HttpError } from '../../http/errors';
import { idParam, pageQuery, parsedOr400 } from '../../http/input';
import { csvFileName } from '../../../shared/admin/csv-cells';
import type { StoredRow } from './dynamic-tables';
import { exportCsv } from './export-rows';
import { readListQuery, type ListQuery } from './list-query';
import { listRows } from './list-rows';
import { quoteName } from './quote-name';
import { readRowValues, type WritableValues } from './row-input';
import { toTableRow } from './row-output';
import * as z from 'zod/mini';
import { MAX_BULK_DELETE, type BulkDeleted } from '../../../shared/admin/table-api';
import { audited, type AuditedChange } from '../audit/audit-log';
import type { Database } from '../../db/schema';
import { deleteRowsAudited, insertRow, updateRow } from './row-writes';

/** Room for rich text with a few pasted images (Quill stores them as base64). */
export const ROW_BODY_LIMIT = 2 * 1024 * 1024;

type TableParams = { table: string };

type RowParams = { table: string; id: string };

const NOT_IDS = 'The ids must be positive whole numbers.';

const bulkDeleteBody = z.strictObject(
  {
    ids: z
      .array(
        z
          .number({ error: NOT_IDS })
          .check(
            z.int({ error: NOT_IDS }),
            z.positive({ error: NOT_IDS }),
            z.maximum(Number.MAX_SAFE_INTEGER, { error: NOT_IDS }),
          ),
        { error: NOT_IDS },
      )
      .check(
        z.minLength(1, 'Choose at least one row to delete.'),
        z.maxLength(MAX_BULK_DELETE, `Delete at most ${MAX_BULK_DELETE} rows at a time.`),
      ),
  },
  { error: 'The body must be { "ids": [ … ] } and nothing else.' },
);

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
export const tableRoutes: FastifyPluginAsync<{ tables: readonly TableConfig[] }> = async (
  scope,
  { tables },
) => {
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

  function listQuery(table: TableConfig, query: unknown): ListQuery {
    const read = readListQuery(table, query);
    if (!read.ok) throw new HttpError(400, read.message);
    return read.query;
  }

  const noRow = (table: TableConfig, id: number) =>
    new HttpError(404, `${table.ui_table_name} has no row with id ${id}.`);

  const db = scope.database.db;

  /** A write of one row and its audit entry in one transaction (undefined: no such row). */
  const auditedWrite = <T>(
    request: FastifyRequest,
    table: TableConfig,
    change: Pick<AuditedChange<T>, 'rowIds' | 'keepBefore'> & {
      action: 'create' | 'update';
    },
    write: (trx: Kysely<Database>) => Promise<T>,
  ) =>
    writing(() =>
      db
        .transaction()
        .execute((trx) =>
          audited(
            trx,
            { adminEmail: request.admin!.email, tableName: table.db_table_name, ...change },
            () => write(trx),
          ),
        ),
    );

  scope.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .code(413)
        .send(
          errorBody(
            413,
            'The row is too large to save (at most 2 MiB). Use fewer or smaller images.',
          ),
        );
    }
    // Everything else takes the app's one error shape.
    throw error;
  });

  scope.get<{ Params: TableParams }>('/tables/:table/rows', async (request) => {
    const table = configured(request.params.table);
    const { page } = parsedOr400(pageQuery, request.query);
    const query = listQuery(table, request.query);
    const { rows, count } = await listRows(db, table, page, query);
    const answer: TablePage = {
      rows: rows.map((row) => toTableRow(table, row)),
      count,
      page,
      pageSize: PAGE_SIZE,
    };
    return answer;
  });

  scope.get<{ Params: TableParams }>('/tables/:table/export', async (request, reply) => {
    const table = configured(request.params.table);
    const query = listQuery(table, request.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(csvFileName(table)))
      .header('cache-control', 'no-store')
      .send(exportCsv(db, table, query));
  });

  scope.post<{ Params: TableParams }>(
    '/tables/:table/rows',
    { bodyLimit: ROW_BODY_LIMIT },
    async (request, reply) => {
      const table = configured(request.params.table);
      const input = values(table, request.body);
      const row = await auditedWrite(
        request,
        table,
        { action: 'create', rowIds: (inserted: StoredRow) => [Number(inserted.id)] },
        (trx) => insertRow(trx, table, input),
      );
      const answer: SavedRow = { row: toTableRow(table, row) };
      return reply.code(201).send(answer);
    },
  );

  scope.put<{ Params: RowParams }>(
    '/tables/:table/rows/:id',
    { bodyLimit: ROW_BODY_LIMIT },
    async (request) => {
      const table = configured(request.params.table);
      const { id } = parsedOr400(idParam, request.params);
      const input = values(table, request.body);
      const row = await auditedWrite(
        request,
        table,
        { action: 'update', rowIds: [id], keepBefore: true },
        (trx) => updateRow(trx, table, id, input),
      );
      if (!row) throw noRow(table, id);
      const answer: SavedRow = { row: toTableRow(table, row) };
      return answer;
    },
  );

  scope.delete<{ Params: RowParams }>('/tables/:table/rows/:id', async (request, reply) => {
    const table = configured(request.params.table);
    const { id } = parsedOr400(idParam, request.params);
    const audit = { adminEmail: request.admin!.email, action: 'delete' as const };
    if ((await deleteRowsAudited(db, table, [id], audit)) === 0) throw noRow(table, id);
    return reply.code(204).send();
  });

  scope.post<{ Params: TableParams }>('/tables/:table/bulk-delete', async (request) => {
    const table = configured(request.params.table);
    const ids = [...new Set(parsedOr400(bulkDeleteBody, request.body).ids)];
    const audit = { adminEmail: request.admin!.email, action: 'bulk_delete' as const };
    const answer: BulkDeleted = { deleted: await deleteRowsAudited(db, table, ids, audit) };
    return answer;
  });
};
