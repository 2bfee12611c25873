import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { BackupRecord } from './backup-format';

export type BackupSummary = { tables: number; rows: number };

/** The file's lines, as text, for the records in order (see backup-format.ts). */
async function* backupLines(
  records: AsyncIterable<BackupRecord>,
  summary: BackupSummary,
): AsyncGenerator<string> {
  for await (const record of records) {
    if (record.kind === 'header') yield `${JSON.stringify(record.header)}\n`;
    else if (record.kind === 'table') {
      summary.tables += 1;
      yield `${JSON.stringify({ schema: record.schema, table: record.table })}\n`;
    } else if (record.kind === 'rows') {
      summary.rows += record.rows.length;
      yield `${record.rows.join('\n')}\n`;
    } else yield `${JSON.stringify({ end: true, ...summary })}\n`;
  }
}

/**
 * Writes the records as one gzip-compressed backup file, streaming: a batch of rows at a time
 * is in memory. The file appears under its name only once complete; a failure leaves none.
 */
export async function writeBackupFile(
  records: AsyncIterable<BackupRecord>,
  file: string,
): Promise<BackupSummary> {
  const partial = `${file}.partial`;
  const summary: BackupSummary = { tables: 0, rows: 0 };
  try {
    await pipeline(
      Readable.from(backupLines(records, summary)),
      createGzip(),
      createWriteStream(partial),
    );
    await rename(partial, file);
    return summary;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
