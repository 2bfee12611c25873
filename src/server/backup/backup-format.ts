import * as z from 'zod/mini';

/**
 * The backup file: gzip-compressed lines of JSON (README "Backups and moving to PostgreSQL").
 *
 *   line 1      the header (BackupHeader)
 *   per table   {"schema": ..., "table": ...}, then one JSON array per row: each column's
 *               value as PostgreSQL writes it as text (ISO dates in UTC), or null
 *   last line   {"end": true, "tables": N, "rows": N}
 *
 * Bump BACKUP_FORMAT_VERSION when a reader of this version could misread a new file.
 */
export const BACKUP_FORMAT = 'soul-reset-backup';
export const BACKUP_FORMAT_VERSION = 1;

const nonEmpty = () => z.string().check(z.minLength(1));
const count = () => z.int().check(z.nonnegative());

const tableSchema = z.object({
  schema: nonEmpty(),
  name: nonEmpty(),
  columns: z.array(z.object({ name: nonEmpty(), type: nonEmpty() })).check(z.minLength(1)),
  rows: count(),
  /** The last value each column's sequence handed out, null when it has handed out none. */
  sequences: z.array(z.object({ column: nonEmpty(), last_value: z.nullable(z.string()) })),
});

export const backupHeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.int().check(z.positive()),
  created_at: z.string(),
  /** The database it was taken from: "embedded-postgres", "postgres", or "pglite" (earlier versions). */
  source: z.string(),
  /** The migration level: the versions in schema_migrations, oldest first. */
  migrations: z.array(z.string()),
  tables: z.array(tableSchema),
});

export type BackupHeader = z.infer<typeof backupHeaderSchema>;
export type BackupTable = BackupHeader['tables'][number];

export const tableMarkerSchema = z.object({ schema: z.string(), table: z.string() });
export const trailerSchema = z.object({
  end: z.literal(true),
  tables: count(),
  rows: count(),
});

/** What a backup is made of, in file order; `rows` are the JSON arrays' text, one per row. */
export type BackupRecord =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'table'; schema: string; table: string }
  | { kind: 'rows'; rows: string[] }
  | { kind: 'end' };

/** A file that is not a backup, is damaged or incomplete, or is too new to read. */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** A restore that would overwrite data or cannot be done into this database. */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/** The session settings both ends use, so values print and parse the same way. */
export const TEXT_SETTINGS = [
  `set local datestyle = 'ISO, YMD'`,
  `set local intervalstyle = 'postgres'`,
  `set local timezone = 'UTC'`,
  `set local extra_float_digits = 3`,
  `set local bytea_output = 'hex'`,
];

/** A name for downloads and the CLI's default: the time it was taken, in UTC. */
export function backupFileName(date: Date): string {
  const stamp = date.toISOString().slice(0, 19).replaceAll(':', '-');
  return `soul-reset-backup-${stamp}Z.jsonl.gz`;
}
