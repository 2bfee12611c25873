import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  backupHeaderSchema,
  tableMarkerSchema,
  trailerSchema,
  type BackupHeader,
  type BackupRecord,
} from './backup-format';
import { errorMessage } from '../../shared/error-message';

const BATCH_ROWS = 1_000;
const BATCH_CHARS = 1_000_000;

async function* linesOf(file: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  // Errors of either stream (a missing file, damaged data) end the iteration below with them.
  pipeline(createReadStream(file), gunzip, () => {});
  gunzip.setEncoding('utf8');
  let rest = '';
  for await (const chunk of gunzip as AsyncIterable<string>) {
    rest += chunk;
    let start = 0;
    for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n', start)) {
      yield rest.slice(start, end);
      start = end + 1;
    }
    rest = rest.slice(start);
  }
  if (rest !== '') yield rest;
}

function describeReadError(file: string, error: unknown): Error {
  if (error instanceof BackupFileError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = errorMessage(error);
  if (code === 'ENOENT') return new BackupFileError(`The file ${file} does not exist.`);
  if (code === 'EISDIR') return new BackupFileError(`${file} is a folder, not a backup file.`);
  if (code === 'Z_DATA_ERROR' && /header/i.test(message)) {
    return new BackupFileError(`${file} is not a backup file (it is not gzip-compressed).`);
  }
  if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(message)) {
    return new BackupFileError(
      `The backup file ${file} is incomplete (it ends too early); it may have been cut off while copying.`,
    );
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new BackupFileError(`The backup file ${file} is damaged (${message}).`);
  }
  return error instanceof Error ? error : new Error(message);
}

function parseJson(line: string, what: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new BackupFileError(`The backup file is damaged: ${what} is not valid JSON.`);
  }
}

/** Checks the header says a format this version reads before anything else is read. */
export function checkHeader(value: unknown): BackupHeader {
  const fields = (value ?? {}) as { format?: unknown; version?: unknown };
  if (typeof value !== 'object' || fields.format !== BACKUP_FORMAT) {
    throw new BackupFileError(
      'This is not a backup file of this site (its first line is not a backup header).',
    );
  }
  if (typeof fields.version === 'number' && fields.version > BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(
      `This backup was written by a newer version of the site (format ${fields.version}; this version reads format ${BACKUP_FORMAT_VERSION}): update the site first.`,
    );
  }
  const parsed = backupHeaderSchema.safeParse(value);
  if (!parsed.success)
    throw new BackupFileError('The backup file is damaged: its header is not valid.');
  return parsed.data;
}

/**
 * Reads a backup file as records, checking as it goes what a damaged or cut-off file would
 * break: the header, each table's marker in the header's order, each row's shape, each
 * table's row count, and the closing line. Rows come in batches; memory stays flat.
 */
export async function* readBackupFile(file: string): AsyncGenerator<BackupRecord> {
  const lines = linesOf(file);
  try {
    const first = await lines.next();
    if (first.done) throw new BackupFileError(`The backup file ${file} is empty.`);
    const header = checkHeader(parseJson(first.value, 'its first line'));
    yield { kind: 'header', header };

    let line = await lines.next();
    for (const table of header.tables) {
      const marker = line.done
        ? null
        : tableMarkerSchema.safeParse(parseJson(line.value, 'a table marker'));
      if (
        !marker?.success ||
        marker.data.schema !== table.schema ||
        marker.data.table !== table.name
      ) {
        if (line.done)
          throw new BackupFileError(`The backup file ${file} is incomplete (it ends too early).`);
        throw new BackupFileError(
          `The backup file is damaged: the rows of ${table.name} are not where the header says.`,
        );
      }
      yield { kind: 'table', schema: table.schema, table: table.name };
      let count = 0;
      let batch: string[] = [];
      let chars = 0;
      for (
        line = await lines.next();
        !line.done && !line.value.startsWith('{');
        line = await lines.next()
      ) {
        const row = parseJson(line.value, `a row of ${table.name}`);
        if (
          !Array.isArray(row) ||
          row.length !== table.columns.length ||
          !row.every((value) => value === null || typeof value === 'string')
        ) {
          throw new BackupFileError(
            `The backup file is damaged: a row of ${table.name} does not match its columns.`,
          );
        }
        count += 1;
        batch.push(line.value);
        chars += line.value.length;
        if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
          yield { kind: 'rows', rows: batch };
          batch = [];
          chars = 0;
        }
      }
      if (batch.length > 0) yield { kind: 'rows', rows: batch };
      if (line.done)
        throw new BackupFileError(`The backup file ${file} is incomplete (it ends too early).`);
      if (count !== table.rows) {
        throw new BackupFileError(
          `The backup file is damaged: ${table.name} has ${count} rows where its header says ${table.rows}.`,
        );
      }
    }
    if (line.done)
      throw new BackupFileError(`The backup file ${file} is incomplete (it ends too early).`);
    const trailer = trailerSchema.safeParse(parseJson(line.value, 'its last line'));
    const total = header.tables.reduce((sum, table) => sum + table.rows, 0);
    if (
      !trailer.success ||
      trailer.data.tables !== header.tables.length ||
      trailer.data.rows !== total
    ) {
      throw new BackupFileError(
        'The backup file is damaged: its last line does not match its header.',
      );
    }
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      if (next.value !== '')
        throw new BackupFileError('The backup file is damaged: it goes on after its last line.');
    }
    yield { kind: 'end' };
  } catch (error) {
    throw describeReadError(file, error);
  } finally {
    await lines.return(undefined);
  }
}
