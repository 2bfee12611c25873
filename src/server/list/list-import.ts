import { sql, type Kysely } from 'kysely';
import { pipeline, Transform, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import { emailSchema } from '../../shared/forms/form-schemas';
import type { ImportReport } from '../../shared/list/list-api';
import type { StoreContent } from '../../shared/store/store-content';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import { HttpError } from '../http/errors';
import { newToken, tokenHash } from '../http/tokens';
import { deliveryColumns } from '../mail/delivery-store';
import { confirmationEmail } from './list-emails';
import { suppressionHash } from './list-erase';
import { LIST_SOURCE_TABLE } from './list-service';

/**
 * Addresses written per statement of an import, one short transaction each: the file is read
 * this many rows ahead at most, so the memory an import takes does not grow with the file.
 */
export const IMPORT_BATCH = 200;

type ImportRow = { email: string; name: string };

/** Where the address and the name are in the file's lines, from its first line. */
type Columns = { email: number; name: number };

function columnsOf(first: string[]): { columns: Columns; header: boolean } {
  const header = first.map((cell) => cell.trim().toLowerCase());
  const email = header.findIndex((cell) => cell === 'email' || cell === 'email address');
  if (email < 0) return { columns: { email: 0, name: 1 }, header: false };
  return { columns: { email, name: header.indexOf('name') }, header: true };
}

/**
 * The upload as text, whole characters only (a letter split between two chunks stays one
 * letter), refused once it is larger than `maxBytes`.
 */
function utf8Within(maxBytes: number): Transform {
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(new HttpError(413, 'The list is too large to import.'));
      else done(null, decoder.write(chunk) || undefined);
    },
    flush(done) {
      done(null, decoder.end() || undefined);
    },
  });
}

/**
 * The import's data rows as the CSV arrives (papaparse reading the stream, paused while a batch
 * is written): each row's address and name, in file order, the header line left out.
 */
async function* importRows(body: Readable, maxBytes: number): AsyncGenerator<ImportRow> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { skipEmptyLines: 'greedy' });
  // A failure anywhere (the upload cut, the file too large) ends the rows with its error.
  pipeline(body, utf8Within(maxBytes), parser, () => {});
  let columns: Columns | undefined;
  for await (const line of parser as AsyncIterable<string[]>) {
    if (!columns) {
      line[0] = (line[0] ?? '').replace(/^\uFEFF/, '');
      const first = columnsOf(line);
      columns = first.columns;
      if (first.header) continue;
    }
    yield {
      email: (line[columns.email] ?? '').trim(),
      name: columns.name >= 0 ? (line[columns.name] ?? '').trim().slice(0, 120) : '',
    };
  }
}

/**
 * The file's rows sorted as they arrive: invalid addresses counted, an address twice in one
 * batch counted a duplicate, the rest handed on IMPORT_BATCH at a time. `write` answers how
 * many of a batch are new (the others are on the list, earlier in the file, or erased).
 */
async function sortInBatches(
  rows: AsyncIterable<ImportRow>,
  write: (batch: ImportRow[]) => Promise<number>,
): Promise<Omit<ImportReport, 'dryRun'>> {
  const report = { rows: 0, valid: 0, invalid: 0, duplicates: 0 };
  let batch: ImportRow[] = [];
  let keys = new Set<string>();
  const flush = async () => {
    if (batch.length === 0) return;
    const fresh = await write(batch);
    report.valid += fresh;
    report.duplicates += batch.length - fresh;
    batch = [];
    keys = new Set();
  };
  for await (const row of rows) {
    report.rows += 1;
    const checked = emailSchema.safeParse(row.email);
    if (!checked.success) {
      report.invalid += 1;
      continue;
    }
    const key = checked.data.toLowerCase();
    if (keys.has(key)) {
      report.duplicates += 1;
      continue;
    }
    keys.add(key);
    batch.push({ email: checked.data, name: row.name });
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  await flush();
  return report;
}

/** The batch's addresses, lower-cased, and their suppression hashes: the statements' arrays. */
function keysOf(batch: ImportRow[]) {
  const lower = batch.map((row) => row.email.toLowerCase());
  return { lower, hashes: lower.map((email) => suppressionHash(email)) };
}

/**
 * The dry run: what an import would do, nothing written. The addresses seen so far are kept
 * in a temporary table of the run's own transaction, not in memory, so an address twice in
 * the file counts once however far apart, and a file of any length takes the same memory.
 */
async function dryRun(db: Kysely<Database>, rows: AsyncIterable<ImportRow>) {
  return db.transaction().execute(async (trx) => {
    await sql`create temporary table import_seen (email text primary key) on commit drop`.execute(
      trx,
    );
    return sortInBatches(rows, async (batch) => {
      const { lower, hashes } = keysOf(batch);
      const { rows: counted } = await sql<{ fresh: number }>`
        with fresh as (
          insert into import_seen (email)
          select k.email from unnest(${lower}::text[], ${hashes}::text[]) as k(email, hash)
          where not exists (select 1 from list_subscribers s where lower(s.email) = k.email)
            and not exists (select 1 from list_suppressions x where x.email_hash = k.hash)
          on conflict do nothing
          returning 1)
        select count(*)::integer as fresh from fresh`.execute(trx);
      return counted[0]!.fresh;
    });
  });
}

/**
 * One batch added `pending`, in one short transaction: the subscribers not on the list and
 * not erased, then, in one statement, their `imported` events, their confirmation links and
 * their confirmation emails. Answers how many were added.
 */
async function addBatch(
  db: Kysely<Database>,
  batch: ImportRow[],
  mail: { config: Pick<Config, 'publicUrl'>; content: StoreContent },
  event: { source: string; version: number | null },
): Promise<number> {
  const { hashes } = keysOf(batch);
  return db.transaction().execute(async (trx) => {
    const { rows: added } = await sql<{ id: number | string; email: string; name: string }>`
      insert into list_subscribers (email, name, source)
      select k.email, k.name, 'import'
      from unnest(${batch.map((row) => row.email)}::text[], ${batch.map((row) => row.name)}::text[],
        ${hashes}::text[]) as k(email, name, hash)
      where not exists (select 1 from list_suppressions x where x.email_hash = k.hash)
      on conflict ((lower(email))) do nothing
      returning id, email, name`.execute(trx);
    if (added.length === 0) return 0;
    const ids = added.map((row) => String(row.id));
    const tokens = added.map(() => newToken());
    const emails = added.map((row, index) =>
      deliveryColumns(
        { table: LIST_SOURCE_TABLE },
        confirmationEmail(mail.config, mail.content, row, tokens[index]!),
      ),
    );
    await sql`
      with events as (
        insert into list_consent_events (subscriber_id, kind, source, wording_version)
        select id, 'imported', ${event.source}, ${event.version}::integer
        from unnest(${ids}::bigint[]) as id),
      links as (
        insert into list_tokens (token_hash, subscriber_id, purpose)
        select hash, id, 'confirm'
        from unnest(${tokens.map(tokenHash)}::text[], ${ids}::bigint[]) as t(hash, id))
      insert into mail_deliveries (source_table, source_id, recipient, subject, html, text)
      select ${LIST_SOURCE_TABLE}, id, recipient, subject, html, text
      from unnest(${ids}::bigint[], ${emails.map((row) => row.recipient)}::text[],
        ${emails.map((row) => row.subject)}::text[], ${emails.map((row) => row.html)}::text[],
        ${emails.map((row) => row.text)}::text[]) as m(id, recipient, subject, html, text)`.execute(
      trx,
    );
    return added.length;
  });
}

export type ImportOptions = {
  dryRun: boolean;
  maxBytes: number;
  mail: { config: Pick<Config, 'publicUrl'>; content: StoreContent };
  event: { source: string; version: number | null };
  /** Called after each batch is committed: its confirmation emails are queued. */
  queued(): void;
};

/**
 * A CSV import of an existing list (DESIGN.md "The mailing list"), read as it arrives: rows
 * parsed, invalid and duplicate addresses counted; unless a dry run, the new ones added
 * `pending`, each with an `imported` event and a confirmation email, a batch at a time (never
 * `confirmed`: each address confirms by its own click).
 */
export async function importSubscribers(
  db: Kysely<Database>,
  body: Readable,
  options: ImportOptions,
): Promise<ImportReport> {
  const rows = importRows(body, options.maxBytes);
  if (options.dryRun) return { ...(await dryRun(db, rows)), dryRun: true };
  const report = await sortInBatches(rows, async (batch) => {
    const added = await addBatch(db, batch, options.mail, options.event);
    if (added > 0) options.queued();
    return added;
  });
  return { ...report, dryRun: false };
}
