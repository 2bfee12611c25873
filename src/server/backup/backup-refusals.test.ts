import { sql, type Kysely } from 'kysely';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createEmptyTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../../tests/support/test-database';
import type { Database } from '../db/schema';
import { appTables } from './app-tables';
import { loadBackup } from './load-backup';
import { readBackupFile } from './read-backup-file';
import { readSnapshot } from './read-snapshot';
import { writeBackupFile } from './write-backup-file';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-backup-refusals-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

/** No table at all, not even schema_migrations: what a refused restore must leave. */
async function isBare(db: Kysely<Database>) {
  const found = await sql<{ found: boolean }>`
    select to_regclass('schema_migrations') is not null as found`.execute(db);
  return !found.rows[0]!.found && (await appTables(db)).length === 0;
}

describeEachDatabase('restore refusals', (use, kind) => {
  let good: string;
  let lines: string[];
  let target: TestDatabase;

  beforeAll(async () => {
    const db = use().db;
    for (let i = 0; i < 2_500; i += 500) {
      await db
        .insertInto('form_submissions')
        .values(
          Array.from({ length: 500 }, (_, j) => ({
            name: `Person ${i + j}`,
            email: `p${i + j}@example.com`,
            message: 'x'.repeat(200),
          })),
        )
        .execute();
    }
    good = path.join(tempDir, `${kind}-good.jsonl.gz`);
    await writeBackupFile(readSnapshot(db, kind), good);
    lines = gunzipSync(await readFile(good))
      .toString('utf8')
      .split('\n');
    target = await createEmptyTestDatabase(kind);
  }, 60_000);
  afterAll(async () => {
    await target?.dispose();
  });

  async function refused(file: string, message: RegExp) {
    await expect(loadBackup(target.db, readBackupFile(file))).rejects.toThrow(message);
    expect(await isBare(target.db)).toBe(true);
  }

  async function variant(name: string, content: Buffer | string) {
    const file = path.join(tempDir, `${kind}-${name}`);
    await writeFile(file, content);
    return file;
  }

  it('refuses a truncated file, even cut in the middle of the rows, and leaves the target empty', async () => {
    const bytes = await readFile(good);
    await refused(
      await variant('cut-half', bytes.subarray(0, Math.floor(bytes.length / 2))),
      /incomplete/,
    );
    await refused(
      await variant('cut-end', bytes.subarray(0, bytes.length - 4)),
      /incomplete|damaged/,
    );
    // Whole lines missing at the end, compressed properly: the closing line is what is missing.
    await refused(
      await variant('cut-lines', gzipSync(lines.slice(0, 1_000).join('\n'))),
      /incomplete/,
    );
  }, 60_000);

  it('refuses a corrupted file and leaves the target empty', async () => {
    const bytes = Buffer.from(await readFile(good));
    for (let i = Math.floor(bytes.length / 2); i < Math.floor(bytes.length / 2) + 16; i++)
      bytes[i]! ^= 0x55;
    await refused(await variant('flipped', bytes), /damaged|incomplete/);
    await refused(await variant('not-gzip', 'hello, not a backup'), /not a backup file/);
    const row = lines.findIndex((line) => line.includes('"Person 3"'));
    const edited = [...lines];
    edited[row] = edited[row]!.replace(/^\[/, '{');
    await refused(await variant('bad-row', gzipSync(edited.join('\n'))), /damaged/);
    const wrongShape = [...lines];
    wrongShape[row] = JSON.stringify([...JSON.parse(lines[row]!), 'one too many']);
    await refused(
      await variant('wrong-shape', gzipSync(wrongShape.join('\n'))),
      /does not match its columns/,
    );
    const dropped = lines.filter((_, index) => index !== row);
    await refused(await variant('row-missing', gzipSync(dropped.join('\n'))), /damaged/);
  }, 60_000);

  it('refuses a file from a newer format or a newer migration level', async () => {
    const header = JSON.parse(lines[0]!);
    const newerFormat = [JSON.stringify({ ...header, version: 2 }), ...lines.slice(1)];
    await refused(
      await variant('format-2', gzipSync(newerFormat.join('\n'))),
      /newer version of the site \(format 2/,
    );
    const newerLevel = [
      JSON.stringify({ ...header, migrations: [...header.migrations, '9999_from_the_future'] }),
      ...lines.slice(1),
    ];
    await refused(
      await variant('level', gzipSync(newerLevel.join('\n'))),
      /newer version of the site \(migration 9999_from_the_future/,
    );
  }, 60_000);

  it('then restores the good file into the same target, and refuses a second restore over it', async () => {
    const summary = await loadBackup(target.db, readBackupFile(good));
    expect(summary.rows).toBeGreaterThanOrEqual(2_500);
    const count = await target.db
      .selectFrom('form_submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2_500);
    await expect(loadBackup(target.db, readBackupFile(good))).rejects.toThrow(
      /not empty \(form_submissions has rows\)/,
    );
    // Refusals come before any change: the rows are still there, once.
    const after = await target.db
      .selectFrom('form_submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(2_500);
  }, 60_000);

  it('refuses to restore into a database already set up with no rows but a newer level than the file', async () => {
    // use() is migrated to the current level; a file from an older level cannot go there.
    const header = JSON.parse(lines[0]!);
    const older = [
      JSON.stringify({ ...header, migrations: header.migrations.slice(0, 2) }),
      ...lines.slice(1),
    ];
    const empty = await createEmptyTestDatabase(kind);
    try {
      const { migrate, loadMigrations } = await import('../db/migrate');
      await migrate(empty.db, await loadMigrations());
      await expect(
        loadBackup(empty.db, readBackupFile(await variant('older', gzipSync(older.join('\n'))))),
      ).rejects.toThrow(/already set up by a newer version/);
    } finally {
      await empty.dispose();
    }
  }, 60_000);
});
