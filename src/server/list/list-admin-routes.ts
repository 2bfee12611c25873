import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { PassThrough, type Readable } from 'node:stream';
import Papa from 'papaparse';
import * as z from 'zod/mini';
import { FORMULA_LEAD } from '../../shared/admin/csv-cells';
import { emailSchema } from '../../shared/forms/form-schemas';
import {
  ADMIN_SUBSCRIBERS_PATH,
  IMPORT_MAX_BYTES,
  listSources,
  listStatuses,
  SUBSCRIBERS_PAGE_SIZE,
  type AdminSubscriber,
  type ImportReport,
  type SubscriberPage,
} from '../../shared/list/list-api';
import { audited, recordAudit } from '../admin/audit/audit-log';
import { emailMatching, escapeLike, textMatching } from '../admin/tables/row-conditions';
import type { Database } from '../db/schema';
import { HttpError } from '../http/errors';
import { idParam, pageField, parsedOr400 } from '../http/input';
import { newToken, tokenHash } from '../http/tokens';
import { deliveryRows } from '../mail/delivery-store';
import { confirmationEmail } from './list-emails';
import { suppressionHash } from './list-erase';
import { endSequence } from '../sequence/sequence-end';
import { LIST_SOURCE_TABLE } from './list-service';

const PREFIX = ADMIN_SUBSCRIBERS_PATH.replace('/api/admin', '');
/** Addresses written per statement of an import: one short transaction each. */
const IMPORT_BATCH = 1000;
const EXPORT_BATCH = 500;

const listQuery = z.object({
  page: pageField,
  status: z._default(z.enum(['all', ...listStatuses]), 'all'),
  q: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
});

const importQuery = z.object({ dryRun: z.optional(z.enum(['0', '1', 'true', 'false'])) });

type Row = {
  id: number;
  email: string;
  name: string;
  status: AdminSubscriber['status'];
  source: AdminSubscriber['source'];
  created_at: Date;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
};

/** What the admin shows of a subscriber: the list page and a row after a manual unsubscribe. */
const SUBSCRIBER_COLUMNS = [
  'id',
  'email',
  'name',
  'status',
  'source',
  'created_at',
  'confirmed_at',
  'unsubscribed_at',
] as const;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * The search: a case-insensitive substring of the address or the name, answered as the
 * admin table search answers it (migrations 0008 and 0014): a term with an "@" through the
 * address key and the partial index of names that hold an "@", a plain term through the
 * trigram indexes.
 */
function matching(q: string) {
  const pattern = `%${escapeLike(q)}%`;
  return sql<boolean>`(${emailMatching(q, pattern)} or ${textMatching('name', q, pattern)})`;
}

async function eventsOf(db: Kysely<Database>, ids: number[]) {
  if (ids.length === 0) return new Map<number, AdminSubscriber['events']>();
  const rows = await db
    .selectFrom('list_consent_events')
    .select(['subscriber_id', 'kind', 'wording_version', 'source', 'created_at'])
    .where('subscriber_id', 'in', ids)
    .orderBy('id')
    .execute();
  const events = new Map<number, AdminSubscriber['events']>();
  for (const row of rows) {
    const list = events.get(Number(row.subscriber_id)) ?? [];
    list.push({
      kind: row.kind,
      wordingVersion: row.wording_version,
      source: row.source,
      createdAt: row.created_at.toISOString(),
    });
    events.set(Number(row.subscriber_id), list);
  }
  return events;
}

function toAdmin(row: Row, events: AdminSubscriber['events']): AdminSubscriber {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    status: row.status,
    source: row.source,
    createdAt: row.created_at.toISOString(),
    confirmedAt: iso(row.confirmed_at),
    unsubscribedAt: iso(row.unsubscribed_at),
    events,
  };
}

/** The parsed import: each data row's address and name, in file order. */
function parseImport(body: string): { email: string; name: string }[] {
  const parsed = Papa.parse<string[]>(body.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const lines = parsed.data;
  if (lines.length === 0) return [];
  const header = lines[0]!.map((cell) => cell.trim().toLowerCase());
  const emailColumn = header.findIndex((cell) => cell === 'email' || cell === 'email address');
  const hasHeader = emailColumn >= 0;
  const email = hasHeader ? emailColumn : 0;
  const name = hasHeader ? header.indexOf('name') : 1;
  return (hasHeader ? lines.slice(1) : lines).map((cells) => ({
    email: (cells[email] ?? '').trim(),
    name: name >= 0 ? (cells[name] ?? '').trim().slice(0, 120) : '',
  }));
}

/** Sorts the file's rows: new well-formed addresses, invalid ones, and duplicates. */
async function sortImport(db: Kysely<Database>, rows: { email: string; name: string }[]) {
  let invalid = 0;
  let duplicates = 0;
  const seen = new Set<string>();
  const candidates: { email: string; name: string }[] = [];
  for (const row of rows) {
    const checked = emailSchema.safeParse(row.email);
    if (!checked.success) {
      invalid += 1;
      continue;
    }
    const key = checked.data.toLowerCase();
    if (seen.has(key)) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    candidates.push({ email: checked.data, name: row.name });
  }
  const fresh: typeof candidates = [];
  for (let start = 0; start < candidates.length; start += IMPORT_BATCH) {
    const batch = candidates.slice(start, start + IMPORT_BATCH);
    const lower = batch.map((row) => row.email.toLowerCase());
    const known = await db
      .selectFrom('list_subscribers')
      .select(sql<string>`lower(email)`.as('email'))
      .where(sql<string>`lower(email)`, 'in', lower)
      .execute();
    const suppressed = await db
      .selectFrom('list_suppressions')
      .select('email_hash')
      .where(
        'email_hash',
        'in',
        lower.map((email) => suppressionHash(email)),
      )
      .execute();
    const taken = new Set(known.map((row) => row.email));
    const erased = new Set(suppressed.map((row) => row.email_hash));
    for (const row of batch) {
      const key = row.email.toLowerCase();
      if (taken.has(key) || erased.has(suppressionHash(key))) duplicates += 1;
      else fresh.push(row);
    }
  }
  return { fresh, invalid, duplicates };
}

function csvLine(cells: (string | number | null)[]): string {
  return Papa.unparse([cells.map((cell) => cell ?? '')], { escapeFormulae: FORMULA_LEAD });
}

const EXPORT_HEADER = [
  'email',
  'name',
  'status',
  'source',
  'created_at',
  'confirmed_at',
  'unsubscribed_at',
  'unsubscribed_scope',
  'consent_asked_at',
  'consent_wording_version',
  'consent_confirmed_at',
  'consent_confirmed_via',
];

/**
 * Every subscriber with the proof of consent (when asked, under which wording, when and how
 * confirmed), streamed through a cursor in one read-only snapshot, EXPORT_BATCH rows a time.
 */
function exportSubscribers(db: Kysely<Database>): Readable {
  const out = new PassThrough();
  const room = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
    });
  db.transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      await sql`declare list_export no scroll cursor for
        select s.email, s.name, s.status, s.source, s.created_at, s.confirmed_at,
          s.unsubscribed_at, s.unsubscribed_scope, asked.created_at as asked_at, asked.wording_version,
          confirmed.created_at as consent_confirmed_at, confirmed.source as confirmed_via
        from list_subscribers s
        left join lateral (select created_at, wording_version from list_consent_events e
          where e.subscriber_id = s.id and e.kind in ('asked', 'imported')
          order by e.id desc limit 1) asked on true
        left join lateral (select created_at, source, wording_version from list_consent_events e
          where e.subscriber_id = s.id and e.kind in ('confirmed', 're-subscribed')
          order by e.id desc limit 1) confirmed on true
        order by s.id`.execute(trx);
      out.write(csvLine(EXPORT_HEADER));
      for (;;) {
        const { rows } = await sql<{
          email: string;
          name: string;
          status: string;
          source: string;
          created_at: Date;
          confirmed_at: Date | null;
          unsubscribed_at: Date | null;
          unsubscribed_scope: string | null;
          asked_at: Date | null;
          wording_version: number | null;
          consent_confirmed_at: Date | null;
          confirmed_via: string | null;
        }>`fetch forward ${sql.lit(EXPORT_BATCH)} from list_export`.execute(trx);
        if (out.destroyed) return;
        for (const row of rows) {
          const more = out.write(
            `\r\n${csvLine([
              row.email,
              row.name,
              row.status,
              row.source,
              iso(row.created_at),
              iso(row.confirmed_at),
              iso(row.unsubscribed_at),
              row.unsubscribed_scope,
              iso(row.asked_at),
              row.wording_version,
              iso(row.consent_confirmed_at),
              row.confirmed_via,
            ])}`,
          );
          if (!more) await room();
        }
        if (rows.length < EXPORT_BATCH) break;
      }
    })
    .then(
      () => out.end(),
      (error: unknown) => out.destroy(error as Error),
    );
  return out;
}

/**
 * The admin's Subscribers (DESIGN.md "The mailing list"), in the /api/admin scope: its guard
 * checks the session, and the PUBLIC_URL origin of every write; writes are in the activity log.
 */
export const listAdminRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;

  scope.addContentTypeParser(
    ['text/csv', 'text/plain'],
    { parseAs: 'string', bodyLimit: IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  scope.get(PREFIX, async (request): Promise<SubscriberPage> => {
    const { page, status, q } = parsedOr400(listQuery, request.query, 'Invalid filter');
    let query = db.selectFrom('list_subscribers').select(SUBSCRIBER_COLUMNS);
    let count = db.selectFrom('list_subscribers').select(sql<number>`count(*)`.as('count'));
    if (status !== 'all') {
      query = query.where('status', '=', status);
      count = count.where('status', '=', status);
    }
    if (q) {
      query = query.where(matching(q));
      count = count.where(matching(q));
    }
    const [rows, total, byStatus, bySource] = await Promise.all([
      query
        .orderBy('id', 'desc')
        .limit(SUBSCRIBERS_PAGE_SIZE)
        .offset(page * SUBSCRIBERS_PAGE_SIZE)
        .execute(),
      count.executeTakeFirstOrThrow(),
      db
        .selectFrom('list_subscribers')
        .select(['status', sql<number>`count(*)`.as('n')])
        .groupBy('status')
        .execute(),
      db
        .selectFrom('list_subscribers')
        .select(['source', sql<number>`count(*)`.as('n')])
        .groupBy('source')
        .execute(),
    ]);
    const events = await eventsOf(
      db,
      rows.map((row) => Number(row.id)),
    );
    const counts: SubscriberPage['counts'] = {
      status: Object.fromEntries(
        listStatuses.map((key) => [key, 0]),
      ) as SubscriberPage['counts']['status'],
      source: Object.fromEntries(
        listSources.map((key) => [key, 0]),
      ) as SubscriberPage['counts']['source'],
    };
    for (const row of byStatus) counts.status[row.status] = Number(row.n);
    for (const row of bySource) counts.source[row.source] = Number(row.n);
    return {
      rows: rows.map((row) => toAdmin(row as Row, events.get(Number(row.id)) ?? [])),
      count: Number(total.count),
      counts,
    };
  });

  scope.get(`${PREFIX}/export`, async (_request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="subscribers.csv"')
      .header('cache-control', 'no-store')
      .send(exportSubscribers(db)),
  );

  scope.post(
    `${PREFIX}/import`,
    { bodyLimit: IMPORT_MAX_BYTES },
    async (request): Promise<ImportReport> => {
      const { dryRun } = parsedOr400(importQuery, request.query, 'Invalid import');
      if (typeof request.body !== 'string') {
        throw new HttpError(415, 'Send the list as CSV (text/csv): an email column, and a name.');
      }
      const rows = parseImport(request.body);
      const { fresh, invalid, duplicates } = await sortImport(db, rows);
      const report = { rows: rows.length, valid: fresh.length, invalid, duplicates };
      if (dryRun === '1' || dryRun === 'true') return { ...report, dryRun: true };

      const { version, content } = scope.store.published();
      let added = 0;
      for (let start = 0; start < fresh.length; start += IMPORT_BATCH) {
        const batch = fresh.slice(start, start + IMPORT_BATCH);
        // One short transaction per batch: the site's other requests run between them.
        added += await db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('list_subscribers')
            .values(
              batch.map((row) => ({ email: row.email, name: row.name, source: 'import' as const })),
            )
            .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
            .returning(['id', 'email', 'name'])
            .execute();
          if (inserted.length === 0) return 0;
          await trx
            .insertInto('list_consent_events')
            .values(
              inserted.map((row) => ({
                subscriber_id: Number(row.id),
                kind: 'imported' as const,
                source: `admin import by ${request.admin!.email}`,
                wording_version: version,
              })),
            )
            .execute();
          const tokens = inserted.map(() => newToken());
          await trx
            .insertInto('list_tokens')
            .values(
              inserted.map((row, index) => ({
                token_hash: tokenHash(tokens[index]!),
                subscriber_id: Number(row.id),
                purpose: 'confirm' as const,
              })),
            )
            .execute();
          await trx
            .insertInto('mail_deliveries')
            .values(
              inserted.flatMap((row, index) =>
                deliveryRows({ table: LIST_SOURCE_TABLE, id: Number(row.id) }, [
                  confirmationEmail(scope.config, content, row, tokens[index]!),
                ]),
              ),
            )
            .execute();
          return inserted.length;
        });
        scope.deliveryWorker.wake();
      }
      await recordAudit(db, {
        adminEmail: request.admin!.email,
        action: 'import',
        tableName: 'list_subscribers',
        rowIds: [],
        after: [{ ...report, added }],
      });
      return {
        ...report,
        valid: added,
        duplicates: duplicates + (fresh.length - added),
        dryRun: false,
      };
    },
  );

  scope.post<{ Params: { id: string } }>(`${PREFIX}/:id/unsubscribe`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    const changed = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action: 'unsubscribe',
          tableName: 'list_subscribers',
          rowIds: [id],
          keepBefore: true,
        },
        async () => {
          const row = await trx
            .updateTable('list_subscribers')
            .set({
              status: 'unsubscribed',
              unsubscribed_at: new Date(),
              unsubscribed_scope: 'list',
              updated_at: new Date(),
            })
            .where('id', '=', id)
            .where('status', 'in', ['pending', 'confirmed'])
            .returning('id')
            .executeTakeFirst();
          if (row) {
            await trx
              .insertInto('list_consent_events')
              .values({
                subscriber_id: id,
                kind: 'unsubscribed',
                source: 'admin',
                wording_version: null,
              })
              .execute();
            await endSequence(trx, { subscriberId: id }, 'unsubscribed');
            await trx
              .deleteFrom('mail_deliveries')
              .where('source_table', '=', LIST_SOURCE_TABLE)
              .where('source_id', '=', id)
              .where('status', '=', 'pending')
              .execute();
          }
          return true;
        },
      ),
    );
    if (!changed) throw new HttpError(404, `There is no subscriber ${id}.`);
    const row = await db
      .selectFrom('list_subscribers')
      .select(SUBSCRIBER_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const events = await eventsOf(db, [id]);
    return { subscriber: toAdmin(row as Row, events.get(id) ?? []) };
  });
};
