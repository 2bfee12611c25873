// The embedded PostgreSQL as `npm start` runs it: the app in a process of its own on a
// DATA_DIR, started, stopped with signals and killed, as an owner's machine would see it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chown, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { BenchServer } from '../../../bench/lib/processes';
import { eventually } from '../../../tests/support/eventually';
import { useServerProcesses } from '../../../tests/support/server-processes';
import { makeTempDir } from '../../../tests/support/temp-dir';
import { APP_LOCK } from './data-dir-lock';
import { CLUSTER_DIR, embeddedDatabaseUrl } from './embedded-postgres';
import { isRunning } from './is-running';

const processes = useServerProcesses();
const fixture = fileURLToPath(
  new URL('../../../tests/fixtures/pglite-data-dir/data-dir.tar.xz', import.meta.url),
);

async function newDataDir(): Promise<string> {
  const dir = await makeTempDir('soul-reset-embedded-');
  processes.cleanup(() =>
    import('node:fs/promises').then((fs) => fs.rm(dir, { recursive: true, force: true })),
  );
  return dir;
}

/** Rows of the app's database while its server runs, read through the server's socket. */
async function query<T>(dataDir: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  const text = await readFile(path.join(dataDir, CLUSTER_DIR, 'postmaster.pid'), 'utf8');
  return Number(text.split('\n')[0]);
}

/** Every PostgreSQL process (postmaster and children) whose command line names `dataDir`. */
function postgresProcessesOf(dataDir: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(`postgres -D ${path.join(dataDir, CLUSTER_DIR)}`));
}

async function submit(server: BenchServer, form: string, body: Record<string, string>) {
  const response = await fetch(`${server.url}/api/forms/${form}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { status: string } };
}

describe('the embedded PostgreSQL of `npm start` (real processes)', () => {
  it('starts on a fresh data directory durable and private, keeps every row across a restart, and leaves no PostgreSQL behind after SIGTERM', async () => {
    const dataDir = await newDataDir();
    const first = await processes.start({ DATA_DIR: dataDir });
    expect(await (await fetch(`${first.url}/readyz`)).json()).toMatchObject({
      status: 'ready',
      database: 'embedded-postgres',
    });
    for (let i = 1; i <= 3; i++) {
      const answer = await submit(first, 'contact', {
        name: `Visitor ${i}`,
        email: `visitor${i}@example.com`,
        message: `Message ${i}`,
      });
      expect(answer.body.status).toBe('success');
    }
    const settings = await query<{ fsync: string; listen: string; sockets: string }>(
      dataDir,
      `select current_setting('fsync') as fsync, current_setting('listen_addresses') as listen,
        current_setting('unix_socket_directories') as sockets`,
    );
    expect(settings).toEqual([
      { fsync: 'on', listen: '', sockets: path.join(dataDir, CLUSTER_DIR) },
    ]);
    const pid = await postmasterPid(dataDir);
    if (process.getuid?.() === 0) {
      // PostgreSQL refuses root: under root the server runs as the user postgres.
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      expect(uid).not.toBe(0);
      expect(uid).toBe(Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout));
    }

    await first.stop();
    expect(first.child.exitCode).toBe(0);
    expect(isRunning(pid)).toBe(false);
    expect(postgresProcessesOf(dataDir)).toEqual([]);
    await expect(stat(path.join(dataDir, CLUSTER_DIR, 'postmaster.pid'))).rejects.toThrow(/ENOENT/);
    await expect(stat(path.join(dataDir, APP_LOCK))).rejects.toThrow(/ENOENT/);

    const second = await processes.start({ DATA_DIR: dataDir });
    expect(second.output()).not.toMatch(/Stopped the embedded PostgreSQL/);
    const rows = await query<{ id: number; name: string }>(
      dataDir,
      'select id::int, name from form_submissions order by id',
    );
    expect(rows).toEqual([
      { id: 1, name: 'Visitor 1' },
      { id: 2, name: 'Visitor 2' },
      { id: 3, name: 'Visitor 3' },
    ]);
    await second.stop();
    expect(postgresProcessesOf(dataDir)).toEqual([]);
  }, 120_000);

  it('after a kill -9 under writes, starts again by itself with every acknowledged submission', async () => {
    const dataDir = await newDataDir();
    const server = await processes.start({ DATA_DIR: dataDir, FORM_RATE_LIMIT: '100000' });
    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const email = `load${sent++}@example.com`;
        const answer = await submit(server, 'contact', {
          name: 'Load',
          email,
          message: 'Under load',
        }).catch(() => undefined);
        if (answer?.body.status === 'success') acknowledged.push(email);
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    await eventually(async () => (acknowledged.length >= 100 ? true : undefined), 30_000);
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(loops);
    await server.stop();

    const again = await processes.start({ DATA_DIR: dataDir });
    const stored = new Set(
      (await query<{ email: string }>(dataDir, 'select email from form_submissions')).map(
        (row) => row.email,
      ),
    );
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
    const answer = await submit(again, 'contact', {
      name: 'After',
      email: 'after@example.com',
      message: 'After the kill',
    });
    expect(answer.body.status).toBe('success');
    await again.stop();
    expect(postgresProcessesOf(dataDir)).toEqual([]);
  }, 120_000);

  it('stops a PostgreSQL left running by a killed app and its watcher, then starts its own', async () => {
    const dataDir = await newDataDir();
    const first = await processes.start({ DATA_DIR: dataDir });
    await submit(first, 'refund', { name: 'Rita', email: 'rita@example.com', message: 'Hi' });
    const orphan = await postmasterPid(dataDir);
    const watcher = Number(
      (await readFile(`/proc/${orphan}/stat`, 'utf8')).split(') ')[1]!.split(' ')[1],
    );
    first.child.kill('SIGKILL');
    process.kill(watcher, 'SIGKILL');
    await first.stop();
    expect(isRunning(orphan)).toBe(true);

    const second = await processes.start({ DATA_DIR: dataDir });
    expect(second.output()).toContain(
      `Stopped the embedded PostgreSQL (pid ${orphan}) that a killed start left running.`,
    );
    expect(isRunning(orphan)).toBe(false);
    expect(await query(dataDir, 'select name from refund_inquiries')).toEqual([{ name: 'Rita' }]);
    await second.stop();
    expect(postgresProcessesOf(dataDir)).toEqual([]);
  }, 120_000);

  it('starts over a postmaster.pid whose pid now belongs to another program (after a reboot), and leaves that program alone', async () => {
    const dataDir = await newDataDir();
    const first = await processes.start({ DATA_DIR: dataDir });
    await submit(first, 'refund', { name: 'Rita', email: 'rita@example.com', message: 'Hi' });
    const pidFile = path.join(dataDir, CLUSTER_DIR, 'postmaster.pid');
    const recorded = await readFile(pidFile, 'utf8');
    await first.stop();
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
    processes.cleanup(async () => void stranger.kill('SIGKILL'));
    await writeFile(pidFile, recorded.replace(/^\d+/, String(stranger.pid)));

    const second = await processes.start({ DATA_DIR: dataDir });
    expect(isRunning(stranger.pid!)).toBe(true);
    expect(await query(dataDir, 'select name from refund_inquiries')).toEqual([{ name: 'Rita' }]);
    await second.stop();
  }, 120_000);

  it.runIf(process.getuid?.() === 0)(
    'runs as a normal user too (the server then runs as that user)',
    async () => {
      const dataDir = await newDataDir();
      const nobody = {
        uid: Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout),
        gid: Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout),
      };
      await chown(dataDir, nobody.uid, nobody.gid);
      const server = await processes.start({ DATA_DIR: dataDir }, nobody);
      const answer = await submit(server, 'contact', {
        name: 'Nobody',
        email: 'nobody@example.com',
        message: 'As a normal user',
      });
      expect(answer.body.status).toBe('success');
      const status = await readFile(`/proc/${await postmasterPid(dataDir)}/status`, 'utf8');
      expect(Number(/^Uid:\s+(\d+)/m.exec(status)?.[1])).toBe(nobody.uid);
      await server.stop();
      expect(postgresProcessesOf(dataDir)).toEqual([]);
    },
    120_000,
  );

  it('carries over a data directory written by the PGlite release: every row, ids continuing, the old folder untouched', async () => {
    const dataDir = await newDataDir();
    await new Promise<void>((resolve, reject) =>
      spawn('tar', ['-xJf', fixture, '-C', dataDir], { stdio: 'inherit' }).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`)),
      ),
    );
    const oldFolder = path.join(dataDir, 'pglite');
    const before = await folderDigest(oldFolder);

    const first = await processes.start({ DATA_DIR: dataDir });
    expect(first.output()).toMatch(
      /Carried over \d+ rows in \d+ tables from the earlier embedded database \(.*pglite\) into the embedded PostgreSQL\./,
    );
    const forms = await query<{ id: number; name: string; email_sent: boolean }>(
      dataDir,
      'select id::int, name, email_sent from form_submissions order by id',
    );
    // Carl 3 (id 4) was deleted in the admin before the archive was taken.
    expect(forms).toEqual([
      { id: 1, name: 'Olga Order', email_sent: true },
      { id: 2, name: 'Carl 1', email_sent: true },
      { id: 3, name: 'Carl 2', email_sent: true },
    ]);
    for (const [table, name] of [
      ['refund_inquiries', 'Rita Refund'],
      ['terms_of_service_feedback', 'Tom Terms'],
      ['free_product_gift_submissions', 'Gina Guide'],
    ]) {
      expect(await query(dataDir, `select name from ${table}`)).toEqual([{ name }]);
    }
    expect(await query(dataDir, 'select session_id, status, amount_total from orders')).toEqual([
      { session_id: 'cs_test_fixture_0001', status: 'paid', amount_total: '2700' },
    ]);
    expect(await query(dataDir, 'select count(*)::int as n from download_links')).toEqual([
      { n: 1 },
    ]);
    expect(await query(dataDir, 'select event_id from payment_events order by event_id')).toEqual([
      { event_id: 'evt_test_fixture_0001' },
    ]);
    expect(await query(dataDir, `select action, table_name from admin_audit_log`)).toEqual([
      { action: 'delete', table_name: 'form_submissions' },
    ]);
    expect(await query(dataDir, 'select email from auth_user')).toEqual([
      { email: 'owner@example.com' },
    ]);
    expect(
      await query(dataDir, `select count(*)::int as n from mail_deliveries where status = 'sent'`),
    ).toEqual([{ n: 9 }]);
    expect(await query(dataDir, 'select name from insight_events')).toEqual([
      { name: 'page_view' },
    ]);

    // The identity sequence continues after the deleted row's id, not after the highest row.
    const answer = await submit(first, 'contact', {
      name: 'New Visitor',
      email: 'new@example.com',
      message: 'After the move',
    });
    expect(answer.body.status).toBe('success');
    expect(
      await query(dataDir, `select id::int from form_submissions where email = 'new@example.com'`),
    ).toEqual([{ id: 5 }]);
    await first.stop();

    expect(await folderDigest(oldFolder)).toBe(before);
    const second = await processes.start({ DATA_DIR: dataDir });
    expect(second.output()).not.toMatch(/Carried over/);
    expect(await query(dataDir, 'select count(*)::int as n from form_submissions')).toEqual([
      { n: 4 },
    ]);
    await second.stop();
  }, 180_000);
});

/** A digest of every file's path and bytes under `dir`. */
async function folderDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (folder: string) => {
    for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else hash.update(path.relative(dir, full)).update(await readFile(full));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}
