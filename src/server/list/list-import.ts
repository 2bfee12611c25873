import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import Papa from 'papaparse';
import { emailSchema } from '../../shared/forms/form-schemas';
import type { ImportReport } from '../../shared/list/list-api';
import type { StoreContent } from '../../shared/store/store-content';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import { HttpError } from '../http/errors';
import { newToken } from '../http/tokens';
import {
  confirmationTemplate,
  slotValues,
  type EmailTemplate,
  type TemplatePart,
  type TemplateSlot,
} from './list-emails';
import { suppressionHash } from './list-erase';
import { LIST_SOURCE_TABLE } from './list-service';

/**
 * Addresses written per statement of an import, one short transaction each: the file is read
 * this many rows ahead at most, so the memory an import takes does not grow with the file.
 */
export const IMPORT_BATCH = 200;

type ImportRow = { email: string; name: string };

/** Half a surrogate pair on its own (a name cut at 120 characters): U+FFFD, as UTF-8 has it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Where the address and the name are in the file's lines, from its first line. */
type Columns = { email: number; name: number };

function columnsOf(first: string[]): { columns: Columns; header: boolean } {
  const header = first.map((cell) => cell.trim().toLowerCase());
  const email = header.findIndex((cell) => cell === 'email' || cell === 'email address');
  if (email < 0) return { columns: { email: 0, name: 1 }, header: false };
  return { columns: { email, name: header.indexOf('name') }, header: true };
}

/**
 * The most characters of the upload parsed at once: their rows are all that is held of the
 * file (besides the batch being written), however it arrives (in the network's 64 KB chunks,
 * or in one piece).
 */
export const PARSE_BLOCK = 16_384;
/**
 * The start of the file papaparse guesses its delimiter and line ends from: its first lines
 * (papaparse tries each delimiter on 10), or this many characters of a file of long lines.
 */
const GUESS_LINES = 11;
const GUESS_CHARS = 65_536;

/** Whether `text` holds GUESS_LINES line ends (\n, \r\n or \r). */
function guessable(text: string): boolean {
  if (text.length >= GUESS_CHARS) return true;
  let lines = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 10 || (code === 13 && text.charCodeAt(at + 1) !== 10)) lines += 1;
    if (lines >= GUESS_LINES) return true;
  }
  return false;
}

/** `text` in pieces of at most PARSE_BLOCK characters, never between the halves of a pair. */
function* blocksOf(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > PARSE_BLOCK) {
    let end = start + PARSE_BLOCK;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
  if (start < text.length) yield text.slice(start);
}

/**
 * The upload's CSV rows as it arrives, a block of text at a time, read with papaparse's own
 * parser as its stream reads chunks: the delimiter and line ends guessed from the start of the
 * file, each block's last row, if cut, kept for the next, empty lines left out. Not through
 * papaparse's stream: paused every 16 rows while a batch is written, it splits the rest of its
 * chunk again on each resume, and a 100,000-row file cost it gigabytes of short-lived strings,
 * whose collections moved each batch's rows to the old generation, which the RSS then carries.
 * The whole characters of the upload only (a letter split between two chunks stays one letter);
 * refused once it is larger than `maxBytes`.
 */
export async function* csvRows(body: Readable, maxBytes: number): AsyncGenerator<string[][]> {
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let start = '';
  let config: Papa.ParseConfig | undefined;
  let cut = '';
  function* parse(text: string, last: boolean): Generator<string[][]> {
    if (!config) {
      const { meta } = Papa.parse(text, { preview: 1, skipEmptyLines: 'greedy' });
      config = {
        delimiter: meta.delimiter,
        newline: meta.linebreak as Papa.ParseConfig['newline'],
      };
    }
    for (const block of blocksOf(text)) {
      const input = cut + block;
      const { data, meta } = new Papa.Parser(config).parse(input, 0, true) as Papa.ParseResult<
        string[]
      >;
      cut = input.slice(meta.cursor);
      yield data.filter((row) => row.some((cell) => cell.trim() !== ''));
    }
    if (last && cut) {
      const { data } = new Papa.Parser(config).parse(cut, 0, false) as Papa.ParseResult<string[]>;
      yield data.filter((row) => row.some((cell) => cell.trim() !== ''));
    }
  }
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += data.length;
    if (bytes > maxBytes) throw new HttpError(413, 'The list is too large to import.');
    const text = decoder.write(data);
    if (config) {
      yield* parse(text, false);
    } else if (guessable((start += text))) {
      yield* parse(start, false);
      start = '';
    }
  }
  yield* parse(start + decoder.end(), true);
}

/**
 * The import's data rows as the CSV arrives, a block at a time: each row's address and name,
 * in file order, the header line left out.
 */
async function* importRows(body: Readable, maxBytes: number): AsyncGenerator<ImportRow[]> {
  let columns: Columns | undefined;
  for await (const lines of csvRows(body, maxBytes)) {
    const rows: ImportRow[] = [];
    for (const line of lines) {
      if (!columns) {
        line[0] = (line[0] ?? '').replace(/^\uFEFF/, '');
        const first = columnsOf(line);
        columns = first.columns;
        if (first.header) continue;
      }
      rows.push({
        email: (line[columns.email] ?? '').trim(),
        name:
          columns.name >= 0
            ? (line[columns.name] ?? '').trim().slice(0, 120).replace(LONE_SURROGATE, '\uFFFD')
            : '',
      });
    }
    yield rows;
  }
}

/**
 * The file's rows sorted as they arrive: invalid addresses counted, an address twice in one
 * batch counted a duplicate, the rest handed on IMPORT_BATCH at a time. `write` answers how
 * many of a batch are new (the others are on the list, earlier in the file, or erased).
 */
async function sortInBatches(
  blocks: AsyncIterable<ImportRow[]>,
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
  for await (const rows of blocks) {
    for (const row of rows) {
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
async function dryRun(db: Kysely<Database>, rows: AsyncIterable<ImportRow[]>) {
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

/** A body of the template as an SQL expression, its slots read from the batch's columns. */
function filledInSql(parts: TemplatePart[], slots: Record<TemplateSlot, RawBuilder<string>>) {
  return sql.join(
    parts.map((part) => (typeof part === 'string' ? sql`${part}::text` : slots[part.slot])),
    sql` || `,
  );
}

/**
 * One batch added `pending`, in one statement: the subscribers not on the list and not erased,
 * with their `imported` events, their confirmation links and their confirmation emails. The
 * emails are the confirmation template filled in by the database, so only each row's address,
 * name, greeting and token are sent, not a rendered message each. Answers how many were added.
 */
async function addBatch(
  db: Kysely<Database>,
  batch: ImportRow[],
  template: EmailTemplate,
  event: { source: string; version: number | null },
): Promise<number> {
  const { hashes } = keysOf(batch);
  const tokens = batch.map(() => newToken());
  const values = batch.map((row, index) => slotValues(row, tokens[index]!));
  const html = filledInSql(template.html, {
    greeting: sql.ref('f.greeting_html'),
    token: sql.ref('f.token'),
  });
  const text = filledInSql(template.text, {
    greeting: sql.ref('f.greeting_text'),
    token: sql.ref('f.token'),
  });
  // The batch's columns as one JSON text: a text[] parameter per column costs pg's array
  // literal writer, in JavaScript, several times the memory of the rows themselves.
  const columns = JSON.stringify([
    batch.map((row) => row.email),
    batch.map((row) => row.name),
    hashes,
    tokens,
    values.map((value) => value.html.greeting),
    values.map((value) => value.text.greeting),
  ]);
  // An address is once in a batch (sortInBatches), so a new row is found again by its address.
  const { rows } = await sql<{ added: number }>`
    with j as (select ${columns}::json as c),
    k as (
      select k.* from j, rows from (json_array_elements_text(j.c -> 0),
        json_array_elements_text(j.c -> 1), json_array_elements_text(j.c -> 2),
        json_array_elements_text(j.c -> 3), json_array_elements_text(j.c -> 4),
        json_array_elements_text(j.c -> 5))
        with ordinality as k(email, name, hash, token, greeting_html, greeting_text, n)),
    added as (
      insert into list_subscribers (email, name, source)
      select k.email, k.name, 'import' from k
      where not exists (select 1 from list_suppressions x where x.email_hash = k.hash)
      order by k.n
      on conflict ((lower(email))) do nothing
      returning id, email),
    f as (select a.id, k.* from added a join k on k.email = a.email),
    events as (
      insert into list_consent_events (subscriber_id, kind, source, wording_version)
      select f.id, 'imported', ${event.source}, ${event.version}::integer from f order by f.n),
    links as (
      insert into list_tokens (token_hash, subscriber_id, purpose)
      select encode(sha256(convert_to(f.token, 'UTF8')), 'hex'), f.id, 'confirm' from f),
    emails as (
      insert into mail_deliveries (source_table, source_id, recipient, subject, html, text)
      select ${LIST_SOURCE_TABLE}, f.id, f.email, ${template.subject}, ${html}, ${text}
      from f order by f.n)
    select count(*)::integer as added from f`.execute(db);
  return rows[0]!.added;
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
  const template = confirmationTemplate(options.mail.config, options.mail.content);
  const report = await sortInBatches(rows, async (batch) => {
    const added = await addBatch(db, batch, template, options.event);
    if (added > 0) options.queued();
    return added;
  });
  return { ...report, dryRun: false };
}
